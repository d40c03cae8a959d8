/**
 * PUT /internal/v1/admin/users/{userId}/roles: sets a person's roles. The account changes first
 * (guarded, with `tokensValidAfter` moved to now, so the person's current tokens are refused at their
 * next request), with the end of their own coaching if they leave `users`; then the coaching of their
 * clients ends if they leave `coaches`; then the Cognito groups follow, so the person's next sign-in
 * carries the new groups.
 *
 * Coaching rests on the roles (an assignment needs a client in `users` and a coach in `coaches`):
 * unless the person is a client both before and after the change, they keep no coach, and unless
 * they are a coach both before and after, they keep no client. Each unassignment is a
 * `coach.unassigned` event with the reason code `roles-changed` (docs/decisions/042-coaching-and-audit.md).
 * An account whose erase began is not changed (409), as it is not enabled: the erase is finished,
 * never undone.
 */
import { ACCOUNT_MESSAGES, changeRolesRequestSchema } from '../../../shared/account';
import type { RoleGroup } from '../../../shared/constants';
import { originOf } from '../../common/audit';
import { commitAdminChange, followRoles, targetAccount } from '../../common/account-admin';
import { endCoachingItems, unassignClientsOf, unassignCoachOf } from '../../common/coaching';
import { Conflict } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { revocationSecond } from '../../common/repositories/accounts';
import { canonicalRoles } from '../../../shared/roles';

export const handler = httpHandler(
  { auth: 'admin', body: changeRolesRequestSchema },
  async ({ body, caller, pathParameters, event }) => {
    const target = await targetAccount(pathParameters.userId);
    // As enable-user: part of the account may be gone (its Cognito user, which the groups would follow).
    // An erase that begins after this read moves `updatedAt`, so a change's guarded commit below refuses
    // it; the same roles sent again commit nothing and may still meet such an erase (left: a 500).
    if (target.erasing) throw new Conflict(ACCOUNT_MESSAGES.beingDeletedRoles);
    const roles = canonicalRoles(body.roles);
    if (target.userId === caller.sub && !roles.includes('admins'))
      throw new Conflict(ACCOUNT_MESSAGES.ownAdminRole);
    const before = canonicalRoles(target.roles);
    const origin = originOf(event);
    const kept = (role: RoleGroup) => before.includes(role) && roles.includes(role);
    if (before.join() !== roles.join()) {
      await commitAdminChange({
        // No longer a client: their coaching ends in the same commit (their coach's list, read
        // consistently, never shows them after it).
        with: kept('users') ? [] : await endCoachingItems(target.userId, origin, caller.sub, 'roles-changed'),
        actorId: caller.sub,
        target,
        set: { roles, tokensValidAfter: revocationSecond() },
        audit: {
          type: 'roles.changed',
          actorId: caller.sub,
          subjectId: target.userId,
          details: { from: before, to: roles },
        },
        origin,
      });
    }
    // After the account changed: from that moment the person's old tokens are refused and no coach
    // reads them unless they are in `users` (`requireCoachOf`); their own coaching ended in the same
    // commit, so the first line below finds a coach only in a state written before that was so. Before
    // the groups change: a person given a role back starts with nothing left over from before, and
    // nobody can have been assigned to them under the new groups yet. Also when nothing changed in the
    // account, so that a retry after a failure here finishes the work.
    if (!kept('users')) await unassignCoachOf(target.userId, origin, caller.sub, 'roles-changed');
    if (!kept('coaches')) await unassignClientsOf(target.userId, origin, caller.sub, 'roles-changed');
    // Also when nothing changed in the account: a retry after a failure here brings Cognito in line.
    // Then the account is read again: another admin's role change committed after this one's may
    // have set its groups before this request got here, and the groups follow what is stored.
    await followRoles(target, roles);
    return ok({ userId: target.userId, roles });
  },
);
