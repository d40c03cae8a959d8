/**
 * POST /internal/v1/admin/users/{userId}/recovery: issues a recovery code for an activated person
 * (SPEC-2 section 3.2), valid 24 hours, replacing any earlier one. Nothing else changes until the
 * person registers a new passkey with it: their passkeys keep working until then. Not for a disabled
 * account (409): its recovery would put a passkey on an account whose passkeys a disable froze.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { ACCOUNT_MESSAGES, RECOVERY_CODE_TTL_SECONDS } from '../../../shared/account';
import { API_MESSAGES } from '../../../shared/messages';
import { auditTransactItem, originOf } from '../../common/audit';
import { targetAccount } from '../../common/account-admin';
import { Conflict, Forbidden, NotFound } from '../../common/errors';
import { created, httpHandler } from '../../common/http';
import { newActivationCode } from '../../common/invite';
import { requireRecentSignIn } from '../../common/session';
import { conditionFailedAt, transactWrite } from '../../common/transactions';
import {
  activeAccountCheckItem,
  activeAdminCheckItem,
  getAccountGate,
} from '../../common/repositories/accounts';
import { expiresIn, putRecoveryItem } from '../../common/repositories/auth-challenges';

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  // Whoever holds the code can take the account over: an admin session left open is not enough.
  requireRecentSignIn(caller, ACCOUNT_MESSAGES.reauthToReset);
  const target = await targetAccount(pathParameters.userId);
  // A disable freezes the account's passkeys; a new one would replace them (decision 044).
  if (target.status !== 'active') throw new Conflict(ACCOUNT_MESSAGES.resetDisabled);
  const activationCode = newActivationCode();
  const expiresAt = expiresIn(RECOVERY_CODE_TTL_SECONDS);
  const own = target.userId === caller.sub;
  // The code is stored with its event (a code nobody can account for is never handed out), only while
  // the issuer is an active admin and the account still active: a disable or an erase that commits
  // after the read above leaves no code, rather than one issued after it that an enable would revive.
  // On their own account the issuer is the account checked.
  const checks = own
    ? [activeAdminCheckItem(target.userId)]
    : [activeAdminCheckItem(caller.sub), activeAccountCheckItem(target.userId)];
  try {
    await transactWrite({
      TransactItems: [
        ...checks,
        auditTransactItem(originOf(event), {
          type: 'recovery.issued',
          actorId: caller.sub,
          subjectId: target.userId,
        }),
        putRecoveryItem(
          {
            email: target.email,
            userId: target.userId,
            issuedBy: caller.sub,
            issuedAt: Date.now(),
            expiresAt,
          },
          activationCode,
        ),
      ],
    });
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    // The issuer is no longer an active admin (on their own account, the only check).
    if (conditionFailedAt(error, 0)) throw new Forbidden(API_MESSAGES.forbidden);
    // Else the account, read again, says what overtook the reset: an erase, a disable, or only writes
    // that kept colliding with it.
    const now = await getAccountGate(target.userId);
    if (!now) throw new NotFound(ACCOUNT_MESSAGES.userNotFound);
    throw new Conflict(
      now.status === 'active' ? ACCOUNT_MESSAGES.changedMeanwhile : ACCOUNT_MESSAGES.resetDisabled,
    );
  }
  return created({ activationCode, expiresAt: new Date(expiresAt * 1000).toISOString() });
});
