/**
 * CreateAuthChallenge: the challenge is "present a passkey proof". The proof itself was issued by
 * /v1/auth/verify-webauthn (or register-passkey), so nothing secret is created here.
 */
import type { CreateAuthChallengeTriggerEvent } from 'aws-lambda';

export const PASSKEY_CHALLENGE = 'PASSKEY_PROOF';

export const handler = async (
  event: CreateAuthChallengeTriggerEvent,
): Promise<CreateAuthChallengeTriggerEvent> => {
  event.response.publicChallengeParameters = { type: PASSKEY_CHALLENGE };
  event.response.privateChallengeParameters = { type: PASSKEY_CHALLENGE };
  event.response.challengeMetadata = PASSKEY_CHALLENGE;
  return event;
};
