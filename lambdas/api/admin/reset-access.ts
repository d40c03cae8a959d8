/**
 * POST /internal/v1/admin/users/{userId}/recovery: issues a recovery code for an activated person
 * (SPEC-2 section 3.2), valid 24 hours, replacing any earlier one. Nothing else changes until the
 * person registers a new passkey with it: their passkeys keep working until then. Not for a disabled
 * account (409): its recovery would put a passkey on an account whose passkeys a disable froze.
 */
import { ACCOUNT_MESSAGES, RECOVERY_CODE_TTL_SECONDS } from '../../../shared/account';
import { originOf, recordAudit } from '../../common/audit';
import { targetAccount } from '../../common/account-admin';
import { Conflict } from '../../common/errors';
import { created, httpHandler } from '../../common/http';
import { newActivationCode } from '../../common/invite';
import { requireRecentSignIn } from '../../common/session';
import { expiresIn, putRecovery } from '../../common/repositories/auth-challenges';

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  // Whoever holds the code can take the account over: an admin session left open is not enough.
  requireRecentSignIn(caller, ACCOUNT_MESSAGES.reauthToReset);
  const target = await targetAccount(pathParameters.userId);
  // A disable freezes the account's passkeys; a new one would replace them (decision 044).
  if (target.status !== 'active') throw new Conflict(ACCOUNT_MESSAGES.resetDisabled);
  const activationCode = newActivationCode();
  const expiresAt = expiresIn(RECOVERY_CODE_TTL_SECONDS);
  // Recorded first: a code nobody can account for is never handed out.
  await recordAudit(originOf(event), {
    type: 'recovery.issued',
    actorId: caller.sub,
    subjectId: target.userId,
  });
  await putRecovery({
    email: target.email,
    activationCode,
    userId: target.userId,
    issuedBy: caller.sub,
    issuedAt: Date.now(),
    expiresAt,
  });
  return created({ activationCode, expiresAt: new Date(expiresAt * 1000).toISOString() });
});
