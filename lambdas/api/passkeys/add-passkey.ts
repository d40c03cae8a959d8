/**
 * POST /v1/users/me/passkeys: stores another passkey of the caller, verified against the challenge
 * the options call stored for them. One transaction spends the challenge, stores the credential, adds
 * it to the account's list (only while the caller's session is still valid: a recovery, disable or
 * sign-out that commits after the request was checked cancels it) and records the event.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { ACCOUNT_MESSAGES, addPasskeyRequestSchema } from '../../../shared/account';
import { MAX_PASSKEYS } from '../../../shared/constants';
import { API_MESSAGES } from '../../../shared/messages';
import { auditTransactItem, originOf } from '../../common/audit';
import { BadRequest, Conflict, Unauthorized } from '../../common/errors';
import { created, httpHandler } from '../../common/http';
import { toPasskey } from '../../common/passkey-view';
import { requireRecentSignIn, writingSessionOf } from '../../common/session';
import { addCredentialItem, getAccount } from '../../common/repositories/accounts';
import { consumePasskeyChallengeItem, findPasskeyChallenge } from '../../common/repositories/auth-challenges';
import {
  getPasskey,
  newPasskeyRecord,
  putPasskeyItem,
  type PasskeyRecord,
} from '../../common/repositories/passkeys';
import { transactWrite } from '../../common/transactions';
import { verifyNewPasskey } from '../../common/webauthn';

export const handler = httpHandler(
  { auth: 'user', body: addPasskeyRequestSchema },
  async ({ body, caller, event }) => {
    requireRecentSignIn(caller);
    const account = await getAccount(caller.sub);
    if (!account) throw new Unauthorized();
    const tooMany = () => new Conflict(ACCOUNT_MESSAGES.tooManyPasskeys);
    if ((account.credentialIds?.size ?? 0) >= MAX_PASSKEYS) throw tooMany();
    const challenge = await findPasskeyChallenge(caller.sub);
    if (!challenge) throw new BadRequest(API_MESSAGES.registrationFailed);
    const registration = await verifyNewPasskey(body.registrationResponse, challenge);

    const passkey: PasskeyRecord = {
      ...newPasskeyRecord(account, registration, new Date().toISOString()),
      ...(body.name !== undefined && { name: body.name }),
    };
    const storeCredential = putPasskeyItem(passkey);
    const listCredential = addCredentialItem(caller.sub, passkey.credentialId, writingSessionOf(caller));
    const items = [
      consumePasskeyChallengeItem(caller.sub, challenge),
      storeCredential,
      listCredential,
      auditTransactItem(originOf(event), {
        type: 'passkey.added',
        actorId: caller.sub,
        subjectId: caller.sub,
        details: { credentialId: passkey.credentialId },
      }),
    ];
    try {
      await transactWrite({ TransactItems: items });
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      // Another passkey was added meanwhile, up to the limit; else the session ended (or the account
      // changed state) after the session check: as that check answers.
      if (reasons[items.indexOf(listCredential)]?.Code === 'ConditionalCheckFailed') {
        if (((await getAccount(caller.sub))?.credentialIds?.size ?? 0) >= MAX_PASSKEYS) throw tooMany();
        throw new Unauthorized();
      }
      if (reasons[items.indexOf(storeCredential)]?.Code === 'ConditionalCheckFailed')
        throw new Conflict(ACCOUNT_MESSAGES.passkeyExists);
      // The challenge was used by a concurrent request, or it expired.
      throw new BadRequest(API_MESSAGES.registrationFailed);
    }
    const stored = await getPasskey(passkey.credentialId);
    return created(toPasskey(stored ?? passkey));
  },
);
