/**
 * POST /internal/v1/admin/users/{userId}/enable: the person may sign in again. Tokens from before the
 * disable stay refused (`tokensValidAfter` is not moved back).
 */
import { originOf } from '../../common/audit';
import { commitAdminChange, followStatus, targetAccount } from '../../common/account-admin';
import { httpHandler, ok } from '../../common/http';

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  const target = await targetAccount(pathParameters.userId);
  if (target.status !== 'active') {
    await commitAdminChange({
      actorId: caller.sub,
      target,
      set: { status: 'active' },
      audit: { type: 'user.enabled', actorId: caller.sub, subjectId: target.userId },
      origin: originOf(event),
    });
  }
  // Also when nothing changed (a retry finishes the work); then Cognito follows what the account holds
  // in the end, should a disable have committed meanwhile.
  await followStatus(target, 'active');
  return ok({ userId: target.userId, status: 'active' });
});
