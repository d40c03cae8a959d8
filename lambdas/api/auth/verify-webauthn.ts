/**
 * POST /v1/auth/verify-webauthn: checks a passkey assertion against the session's challenge and
 * answers a passkey proof for Cognito's custom challenge. The session is spent first, whatever the
 * outcome; the signature counter only moves forward from the value this check read, and one that does
 * not (a cloned authenticator) is logged as such. Every outcome is in the audit log: a failure with
 * its reason code, a success before the proof is issued.
 */
import { API_MESSAGES } from '../../../shared/messages';
import { verifyWebauthnRequestSchema } from '../../../shared/schemas';
import { issuePasskeyProof } from '../../cognito/passkey-proof';
import { originOf, recordAudit, type RequestOrigin } from '../../common/audit';
import { webauthnConfig } from '../../common/env';
import { Unauthorized, UnknownCredential } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { limitSigninStart } from '../../common/limits';
import { consumeSigninSession } from '../../common/repositories/auth-challenges';
import { getAccountGate, untilTokensValid } from '../../common/repositories/accounts';
import {
  advanceCounter,
  backupEligibleOf,
  getPasskey,
  type PasskeyRecord,
} from '../../common/repositories/passkeys';
import { secretsEqual } from '../../common/secrets';
import { couldBeCredentialId, simpleWebAuthn } from '../../common/webauthn';

/** Why a sign-in failed, as the audit log names it. */
type FailureReason =
  | 'session-expired'
  | 'unknown-credential'
  | 'user-handle-mismatch'
  | 'assertion-invalid'
  | 'counter-not-advanced'
  | 'backup-eligibility-changed'
  | 'account-disabled';

/** Records the failure, then answers the error the caller gets (the reason stays in the log). */
const failed = async (
  origin: RequestOrigin,
  reason: FailureReason,
  subjectId?: string,
): Promise<Unauthorized | UnknownCredential> => {
  await recordAudit(origin, {
    type: 'signin.failed',
    outcome: 'failure',
    ...(subjectId !== undefined && { actorId: subjectId, subjectId }),
    details: { reason },
  });
  if (reason === 'unknown-credential') return new UnknownCredential(API_MESSAGES.signInFailed);
  return new Unauthorized(
    reason === 'session-expired' ? API_MESSAGES.sessionExpired : API_MESSAGES.signInFailed,
  );
};

export const handler = httpHandler(
  { auth: 'public', body: verifyWebauthnRequestSchema },
  async ({ body, event }) => {
    const origin = originOf(event);
    const session = await consumeSigninSession(body.sessionId);
    if (!session) {
      // No live session: the attempt spends one of the address's sign-in starts before its failure is
      // recorded, so made-up session ids cannot write events faster than sign-ins may start (ADR 049).
      await limitSigninStart(origin);
      throw await failed(origin, 'session-expired');
    }

    const assertion = body.authenticationResponse;
    const passkey: PasskeyRecord | undefined = couldBeCredentialId(assertion.id)
      ? await getPasskey(assertion.id)
      : undefined;
    // A discoverable credential must say whose it is, and say it right.
    const userHandle = assertion.response.userHandle;
    if (!passkey) throw await failed(origin, 'unknown-credential');
    if (!userHandle || !secretsEqual(userHandle, passkey.userHandle))
      throw await failed(origin, 'user-handle-mismatch', passkey.userId);

    const { rpId, origins } = webauthnConfig();
    const { verifyAuthenticationResponse } = await simpleWebAuthn();
    let verified: { newCounter: number; backedUp: boolean; backupEligible: boolean } | undefined;
    try {
      const result = await verifyAuthenticationResponse({
        response: assertion,
        expectedChallenge: session.challenge,
        expectedOrigin: origins,
        expectedRPID: rpId,
        requireUserVerification: true,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(passkey.publicKey),
          // With 0 the library checks all but the counter: `advanceCounter` below refuses one that
          // does not move forward, so a clone is logged as `counter-not-advanced`, not as a bad signature.
          counter: 0,
          transports: passkey.transports,
        },
      });
      if (result.verified && result.authenticationInfo.userVerified)
        verified = {
          newCounter: result.authenticationInfo.newCounter,
          backedUp: result.authenticationInfo.credentialBackedUp,
          backupEligible: result.authenticationInfo.credentialDeviceType === 'multiDevice',
        };
    } catch {
      // A malformed or mismatched assertion is a failed sign-in, not a server error.
    }
    if (!verified) throw await failed(origin, 'assertion-invalid', passkey.userId);
    // The BE flag never changes for a credential (WebAuthn Level 3, section 7.2 step 20).
    if (verified.backupEligible !== backupEligibleOf(passkey))
      throw await failed(origin, 'backup-eligibility-changed', passkey.userId);
    // A disabled person (or one being deleted) gets no proof (SPEC-2 section 3.3). The proof carries
    // the `tokensValidAfter` read here: a recovery committing from now on voids it, whenever it is issued.
    const account = await getAccountGate(passkey.userId);
    if (account?.status !== 'active') throw await failed(origin, 'account-disabled', passkey.userId);

    const usedAt = new Date().toISOString();
    if (
      !(await advanceCounter(
        passkey.credentialId,
        passkey.counter,
        verified.newCounter,
        usedAt,
        verified.backedUp,
      ))
    ) {
      throw await failed(origin, 'counter-not-advanced', passkey.userId);
    }
    await recordAudit(origin, {
      type: 'signin.succeeded',
      actorId: passkey.userId,
      subjectId: passkey.userId,
      details: { credentialId: passkey.credentialId },
    });
    // Right after a change to the account, the tokens this sign-in brings must count as after it.
    await untilTokensValid(account.tokensValidAfter);
    const passkeyProof = await issuePasskeyProof({
      userId: passkey.userId,
      cognitoUsername: passkey.cognitoUsername,
      tokensValidAfter: account.tokensValidAfter,
    });
    return ok({ userId: passkey.userId, cognitoUsername: passkey.cognitoUsername, passkeyProof });
  },
);
