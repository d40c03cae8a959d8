import { ROLE_GROUPS, type Role, type RoleGroup } from './constants';

const GROUP_TO_ROLE: Record<RoleGroup, Role> = { admins: 'admin', coaches: 'coach', users: 'user' };

/**
 * Group names from a `cognito:groups` claim in any of the shapes it arrives in: a JSON list
 * (the token itself), a comma-separated string, or API Gateway's flattened `[admins users]`.
 */
export const parseGroupClaim = (claim: unknown): string[] => {
  if (Array.isArray(claim)) {
    return claim
      .filter((item): item is string => typeof item === 'string')
      .map((g) => g.trim())
      .filter(Boolean);
  }
  if (typeof claim !== 'string') return [];
  const trimmed = claim.trim();
  const inner = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  return inner
    .split(/[\s,]+/)
    .map((g) => g.replace(/^"|"$/g, ''))
    .filter(Boolean);
};

/** Role groups in one order (admins, coaches, users), so two lists with the same roles compare equal. */
export const canonicalRoles = (roles: Iterable<string>): RoleGroup[] => {
  const present = new Set(roles);
  return ROLE_GROUPS.filter((role) => present.has(role));
};

/** Whether two lists hold the same role groups, whatever their order or repeats; unknown groups are ignored. */
export const sameRoles = (a: Iterable<string>, b: Iterable<string>): boolean =>
  canonicalRoles(a).join(',') === canonicalRoles(b).join(',');

/** Known role groups of a claim, in the order admins, coaches, users, without duplicates. */
export const roleGroupsFromClaim = (claim: unknown): RoleGroup[] => canonicalRoles(parseGroupClaim(claim));

/** Roles (admin, coach, user) of a group claim; unknown groups are ignored. */
export const rolesFromClaim = (claim: unknown): Role[] =>
  roleGroupsFromClaim(claim).map((g) => GROUP_TO_ROLE[g]);

export const roleOfGroup = (group: RoleGroup): Role => GROUP_TO_ROLE[group];
