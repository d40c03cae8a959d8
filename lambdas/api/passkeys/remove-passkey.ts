/**
 * DELETE /v1/users/me/passkeys/{credentialId}: removes one of the caller's passkeys, never the last:
 * the account's list loses it only while it holds another, in the same transaction as the delete, so
 * two removals at once cannot leave the person without a passkey. It commits only while the caller's
 * session still passes the session check: a sign-out or disable committed meanwhile cancels it.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { ACCOUNT_MESSAGES } from '../../../shared/account';
import { auditTransactItem, originOf } from '../../common/audit';
import { Conflict, NotFound, Unauthorized } from '../../common/errors';
import { httpHandler, noContent } from '../../common/http';
import { requireRecentSignIn, writingSessionOf } from '../../common/session';
import { getAccount, removeCredentialItem } from '../../common/repositories/accounts';
import { deletePasskeyItem } from '../../common/repositories/passkeys';
import { transactWrite } from '../../common/transactions';

export const handler = httpHandler({ auth: 'user' }, async ({ caller, pathParameters, event }) => {
  requireRecentSignIn(caller);
  const credentialId = pathParameters.credentialId ?? '';
  const account = await getAccount(caller.sub);
  if (!account?.credentialIds?.has(credentialId)) throw new NotFound(ACCOUNT_MESSAGES.passkeyNotFound);
  if (account.credentialIds.size <= 1) throw new Conflict(ACCOUNT_MESSAGES.onlyPasskey);
  try {
    await transactWrite({
      TransactItems: [
        deletePasskeyItem(caller.sub, credentialId),
        removeCredentialItem(caller.sub, credentialId, writingSessionOf(caller)),
        auditTransactItem(originOf(event), {
          type: 'passkey.removed',
          actorId: caller.sub,
          subjectId: caller.sub,
          details: { credentialId },
        }),
      ],
    });
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    // Removed meanwhile, or the other passkey was, or the session ended after its check: read again
    // to say which (an ended session answers as the session check does).
    const now = await getAccount(caller.sub);
    if (!now?.credentialIds?.has(credentialId)) throw new NotFound(ACCOUNT_MESSAGES.passkeyNotFound);
    if (now.credentialIds.size <= 1) throw new Conflict(ACCOUNT_MESSAGES.onlyPasskey);
    throw new Unauthorized();
  }
  return noContent();
});
