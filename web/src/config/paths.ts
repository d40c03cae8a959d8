/** Every route path of the SPA (SPEC section 2), in one place. */
export const paths = {
  root: '/',
  signin: '/signin',
  activate: '/activate',
  unauthorized: '/unauthorized',
  dashboard: '/dashboard',
  users: '/dashboard/users',
  settings: '/dashboard/settings',
  audit: '/dashboard/audit',
  clients: '/dashboard/clients',
  clientDetail: '/dashboard/clients/:userId',
  assessments: '/dashboard/assessments',
  health: '/dashboard/health',
  metrics: '/dashboard/metrics',
  coach: '/dashboard/coach',
  profile: '/dashboard/profile',
} as const;

/** The link an invitee opens: {origin}/activate?code={code}. */
export const activationLink = (origin: string, code: string): string =>
  `${origin}${paths.activate}?code=${encodeURIComponent(code)}`;
