/**
 * The session check every authenticated route makes after API Gateway verified the id token: the
 * token must belong to an account that still exists, is active, carries exactly the account's roles,
 * and descends from a sign-in (`auth_time`, which a refreshed token keeps) no earlier than the account's
 * `tokensValidAfter` (docs/decisions/044-account-lifecycle.md).
 * One consistent GetItem per request, never cached: a disable, delete, reset or role change is seen
 * by the very next request, in every Lambda at once.
 */
import type { RoleGroup } from '../../shared/constants';
import { canonicalRoles } from '../../shared/roles';
import { getAccountGate } from './repositories/accounts';

export interface SessionClaims {
  readonly sub: string;
  readonly groups: readonly RoleGroup[];
  /** Epoch seconds of the sign-in the token descends from. */
  readonly authTime: number;
}

const sameRoles = (a: Iterable<string>, b: Iterable<string>): boolean =>
  canonicalRoles(a).join(',') === canonicalRoles(b).join(',');

/** Whether the token may still be served. */
export const sessionIsValid = async (claims: SessionClaims): Promise<boolean> => {
  const account = await getAccountGate(claims.sub);
  return (
    account !== undefined &&
    account.status === 'active' &&
    claims.authTime >= account.tokensValidAfter &&
    sameRoles(account.roles, claims.groups)
  );
};
