/**
 * POST /internal/v1/admin/users/{userId}/enable: the person may sign in again. Tokens from before the
 * disable stay refused (`tokensValidAfter` is not moved back). An account whose erase began is not
 * enabled (409): the erase is finished, never undone.
 */
import { ACCOUNT_MESSAGES } from '../../../shared/account';
import { originOf } from '../../common/audit';
import { commitAdminChange, followStatus, targetAccount } from '../../common/account-admin';
import { Conflict } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  const target = await targetAccount(pathParameters.userId);
  // A delete that began is finished (FinishErases), never undone: part of the account may be gone.
  if (target.erasing) throw new Conflict(ACCOUNT_MESSAGES.beingDeleted);
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
