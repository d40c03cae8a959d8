import type { Role } from '../../../../shared/constants';
import type { IconName } from '../../components/icon';
import { paths } from '../../config/paths';

export interface NavItem {
  label: string;
  to: string;
  icon: IconName;
  /** Shown to anyone holding one of these roles. */
  roles: readonly Role[];
  description: string;
}

const ANY: readonly Role[] = ['user', 'coach', 'admin'];

/** Sidebar items in SPEC order, with the roles that see them (SPEC sections 2 and 6; SPEC-2 section 4). */
export const NAV_ITEMS: readonly NavItem[] = [
  {
    label: 'User Management',
    to: paths.users,
    icon: 'users',
    roles: ['admin'],
    description: 'Invite people and manage accounts.',
  },
  {
    label: 'System Settings',
    to: paths.settings,
    icon: 'settings',
    roles: ['admin'],
    description: 'Platform configuration.',
  },
  {
    label: 'Audit Log',
    to: paths.audit,
    icon: 'key',
    roles: ['admin'],
    description: 'Sign-ins and security events.',
  },
  {
    label: 'My Clients',
    to: paths.clients,
    icon: 'clients',
    roles: ['coach'],
    description: 'Your clients, sessions and reviews.',
  },
  {
    label: 'Assessments',
    to: paths.assessments,
    icon: 'clipboard',
    roles: ['coach', 'admin'],
    description: 'Metabolic health assessments.',
  },
  {
    label: 'My Health',
    to: paths.health,
    icon: 'heart',
    roles: ANY,
    description: 'Glucose, weight, waist and blood pressure.',
  },
  {
    label: 'My Metrics',
    to: paths.metrics,
    icon: 'chart',
    roles: ANY,
    description: 'Targets, entries and progress.',
  },
  {
    label: 'Profile',
    to: paths.profile,
    icon: 'user',
    roles: ANY,
    description: 'Your personal details and preferences.',
  },
  {
    label: 'My Coach',
    to: paths.coach,
    icon: 'coach',
    roles: ['user'],
    description: 'Messages and sessions with your coach.',
  },
];

export const navItemsFor = (roles: readonly Role[]): NavItem[] =>
  NAV_ITEMS.filter((item) => item.roles.some((role) => roles.includes(role)));

/** Header title: admin takes priority over coach, coach over user. */
export const dashboardTitle = (roles: readonly Role[]): string => {
  if (roles.includes('admin')) return 'Admin Dashboard';
  if (roles.includes('coach')) return 'Coach Dashboard';
  return 'User Dashboard';
};
