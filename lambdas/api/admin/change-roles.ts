/**
 * PUT /internal/v1/admin/users/{userId}/roles: sets a person's roles. The account changes first
 * (guarded, with `tokensValidAfter` moved to now, so the person's current tokens are refused at their
 * next request), then the Cognito groups follow, so the person's next sign-in carries the new groups.
 */
import { ACCOUNT_MESSAGES, changeRolesRequestSchema } from '../../../shared/account';
import { originOf } from '../../common/audit';
import { commitAdminChange, targetAccount } from '../../common/account-admin';
import { setUserGroups } from '../../common/cognito-users';
import { Conflict } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { revocationSecond } from '../../common/repositories/accounts';
import { canonicalRoles } from '../../../shared/roles';

export const handler = httpHandler(
  { auth: 'admin', body: changeRolesRequestSchema },
  async ({ body, caller, pathParameters, event }) => {
    const target = await targetAccount(pathParameters.userId);
    const roles = canonicalRoles(body.roles);
    if (target.userId === caller.sub && !roles.includes('admins'))
      throw new Conflict(ACCOUNT_MESSAGES.ownAdminRole);
    const before = canonicalRoles(target.roles);
    if (before.join() !== roles.join()) {
      await commitAdminChange({
        actorId: caller.sub,
        target,
        set: { roles, tokensValidAfter: revocationSecond() },
        audit: {
          type: 'roles.changed',
          actorId: caller.sub,
          subjectId: target.userId,
          details: { from: before, to: roles },
        },
        origin: originOf(event),
      });
    }
    // Also when nothing changed in the account: a retry after a failure here brings Cognito in line.
    await setUserGroups(target.cognitoUsername, roles);
    return ok({ userId: target.userId, roles });
  },
);
