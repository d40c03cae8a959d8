import type { Role } from '../../../shared/constants';

/**
 * How a role reads on screen, for every feature that shows one (profile badges, the user table,
 * the invite form). Group names map to roles through shared/roles.ts.
 */
export const ROLE_LABELS: Readonly<Record<Role, string>> = { admin: 'Admin', coach: 'Coach', user: 'User' };
