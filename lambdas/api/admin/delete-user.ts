/**
 * DELETE /internal/v1/admin/users/{userId}: erases the person and everything their account holds.
 * The account is disabled first, in a guarded transaction (so their tokens and sign-ins end at once),
 * then erased; the audit event is written with the account item's delete, the erase's last step, and
 * stays. An erase cut short is finished by FinishErases (lambdas/scheduled/finish-erases.ts).
 */
import { ACCOUNT_MESSAGES } from '../../../shared/account';
import { originOf } from '../../common/audit';
import { commitAdminChange, targetAccount } from '../../common/account-admin';
import { endCoachingItems } from '../../common/coaching';
import { eraseAccount } from '../../common/erase-account';
import { Conflict } from '../../common/errors';
import { httpHandler, noContent } from '../../common/http';
import { isUnfinishedErase, revocationSecond } from '../../common/repositories/accounts';

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  const target = await targetAccount(pathParameters.userId);
  if (target.userId === caller.sub) throw new Conflict(ACCOUNT_MESSAGES.selfDelete);
  const origin = originOf(event);
  // A delete that began already (cut short, or still running in its own request; User Management
  // shows it as 'Being deleted'): finished now as FinishErases would, recorded as the one who began it
  // asked (a person's own delete stays theirs), never disabled or marked again. Two erases at once
  // record the deletion once (ADR 044).
  if (isUnfinishedErase(target)) {
    await eraseAccount(target, origin);
    return noContent();
  }
  const now = Date.now();
  const erasing = { at: now, by: caller.sub };
  await commitAdminChange({
    actorId: caller.sub,
    target,
    // `erasing`: should the erase below be cut short, the scheduled FinishErases finishes it.
    set: {
      status: 'disabled',
      tokensValidAfter: revocationSecond(),
      disabledAt: now,
      erasing,
    },
    audit: {
      type: 'user.disabled',
      actorId: caller.sub,
      subjectId: target.userId,
      details: { reason: 'deleting' },
    },
    origin,
    // The person's coach reads nothing of theirs from this commit on, however long the erase takes.
    with: await endCoachingItems(target.userId, origin, caller.sub, 'account-deleted'),
  });
  await eraseAccount({ ...target, erasing }, origin);
  return noContent();
});
