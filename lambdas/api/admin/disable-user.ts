/**
 * POST /internal/v1/admin/users/{userId}/disable: the person's tokens are refused from their next
 * request (the account is disabled and `tokensValidAfter` moves to now), sign-in fails, and Cognito
 * disables the user and revokes their refresh tokens. A disabled person is nobody's client: their
 * coaching ends in the same commit (`coach.unassigned`, reason `account-disabled`), so their coach
 * reads nothing of theirs from that moment; an enable does not bring the coach back
 * (docs/decisions/042-coaching-and-audit.md).
 */
import { ACCOUNT_MESSAGES } from '../../../shared/account';
import { originOf } from '../../common/audit';
import { commitAdminChange, followStatus, targetAccount } from '../../common/account-admin';
import { endCoachingItems, unassignCoachOf } from '../../common/coaching';
import { Conflict } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { revocationSecond } from '../../common/repositories/accounts';

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  const target = await targetAccount(pathParameters.userId);
  if (target.userId === caller.sub) throw new Conflict(ACCOUNT_MESSAGES.selfDisable);
  const origin = originOf(event);
  if (target.status === 'disabled') {
    // Disabled already, perhaps before a disable ended coaching (0.6.0): a coach left is unassigned now.
    await unassignCoachOf(target.userId, origin, caller.sub, 'account-disabled');
  } else {
    await commitAdminChange({
      actorId: caller.sub,
      target,
      // `disabledAt`: every recovery code issued before now stays void after an enable.
      set: { status: 'disabled', tokensValidAfter: revocationSecond(), disabledAt: Date.now() },
      audit: { type: 'user.disabled', actorId: caller.sub, subjectId: target.userId },
      origin,
      // The coach read now unassigned with its event, or a check that none was assigned meanwhile.
      with: await endCoachingItems(target.userId, origin, caller.sub, 'account-disabled'),
    });
  }
  // Also when nothing changed (a retry finishes the work); then Cognito follows what the account holds
  // in the end, should an enable have committed meanwhile.
  await followStatus(target, 'disabled');
  return ok({ userId: target.userId, status: 'disabled' });
});
