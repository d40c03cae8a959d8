import { ApiError } from '../../../lib/api-error';
import type { PasskeyProof, SessionUser } from '../../../lib/auth/session-user';
import { getPasskeyAssertion } from '../../../lib/passkey';
import { signalUnknownPasskey } from '../../../lib/passkey-signal';
import { initiateSignIn } from './initiate-signin';
import { verifyWebauthn } from './verify-webauthn';

/**
 * The passkey sign-in sequence of SPEC section 4: challenge, device prompt, server verification,
 * then Cognito custom auth with the proof (completePasskeySignIn). This module, the schemas and
 * WebAuthn load only when someone asks to sign in (see sign-in-with-passkey.ts).
 */
export const runPasskeySignIn = async (
  completePasskeySignIn: (proof: PasskeyProof) => Promise<SessionUser>,
): Promise<SessionUser> => {
  const { sessionId, authenticationOptions } = await initiateSignIn();
  const authenticationResponse = await getPasskeyAssertion(authenticationOptions);
  const proof = await verifyWebauthn({ sessionId, authenticationResponse }).catch(async (error: unknown) => {
    // A passkey the server does not know (removed, or replaced by a recovery): the browser stops offering it.
    if (error instanceof ApiError && error.fields.unknownCredential === true)
      await signalUnknownPasskey({
        rpId: authenticationOptions.rpId,
        credentialId: authenticationResponse.id,
      });
    throw error;
  });
  return completePasskeySignIn(proof);
};
