/**
 * POST /v1/auth/verify-webauthn: checks a passkey assertion against the session's challenge and
 * answers a passkey proof for Cognito's custom challenge. The session is spent first, whatever the
 * outcome; the signature counter only moves forward from the value this check read.
 */
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { API_MESSAGES } from '../../../shared/messages';
import { verifyWebauthnRequestSchema } from '../../../shared/schemas';
import { issuePasskeyProof } from '../../cognito/passkey-proof';
import { webauthnConfig } from '../../common/env';
import { Unauthorized } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { consumeSigninSession } from '../../common/repositories/auth-challenges';
import { advanceCounter, getPasskey, type PasskeyRecord } from '../../common/repositories/passkeys';
import { secretsEqual } from '../../common/secrets';

const rejected = () => new Unauthorized(API_MESSAGES.signInFailed);

export const handler = httpHandler(
  { auth: 'public', body: verifyWebauthnRequestSchema },
  async ({ body }) => {
    const session = await consumeSigninSession(body.sessionId);
    if (!session) throw new Unauthorized(API_MESSAGES.sessionExpired);

    const assertion = body.authenticationResponse;
    const passkey: PasskeyRecord | undefined = await getPasskey(assertion.id);
    // A discoverable credential must say whose it is, and say it right.
    const userHandle = assertion.response.userHandle;
    if (!passkey || !userHandle || !secretsEqual(userHandle, passkey.userHandle)) throw rejected();

    const { rpId, origins } = webauthnConfig();
    let newCounter: number;
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
          counter: passkey.counter,
          transports: passkey.transports,
        },
      });
      if (!result.verified || !result.authenticationInfo.userVerified) throw rejected();
      newCounter = result.authenticationInfo.newCounter;
    } catch {
      throw rejected();
    }

    if (
      !(await advanceCounter(passkey.credentialId, passkey.counter, newCounter, new Date().toISOString()))
    ) {
      throw rejected();
    }
    const passkeyProof = await issuePasskeyProof({
      userId: passkey.userId,
      cognitoUsername: passkey.cognitoUsername,
    });
    return ok({ userId: passkey.userId, cognitoUsername: passkey.cognitoUsername, passkeyProof });
  },
);
