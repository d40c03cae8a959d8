/** The people of the browser journeys and what SPEC section 2 says each role sees. */

export const BOOTSTRAP_ADMIN_EMAIL = 'admin@example.com';

/** Sidebar items per role, in SPEC order (SPEC section 2, "Sidebar, header, footer"). */
export const SIDEBAR_ITEMS = {
  admin: [
    'User Management',
    'System Settings',
    'Audit Log',
    'Assessments',
    'My Health',
    'My Metrics',
    'Profile',
  ],
  coach: ['My Clients', 'Assessments', 'My Health', 'My Metrics', 'Profile'],
  user: ['My Health', 'My Metrics', 'Profile', 'My Coach'],
} as const;

export const HEADER_TITLES = {
  admin: 'Admin Dashboard',
  coach: 'Coach Dashboard',
  user: 'User Dashboard',
} as const;

export type Role = keyof typeof SIDEBAR_ITEMS;

/** The role choices of the invite modal (docs/decisions/025) and their table labels. */
export const ROLE_LABELS: Record<Role, 'Admin' | 'Coach' | 'User'> = {
  admin: 'Admin',
  coach: 'Coach',
  user: 'User',
};

export interface OnboardingDetails {
  preferredName: string;
  familyName: string;
  /** yyyy-mm-dd, as a date input takes it. */
  dateOfBirth: string;
  height: { cm: number } | { feet: number; inches: number };
}
