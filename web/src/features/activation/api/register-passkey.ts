import {
  registerPasskeyRequestSchema,
  registerPasskeyResponseSchema,
  type ActivationVerifyResponse,
  type PasskeyVerifyResponse,
} from '../../../../../shared/schemas';
import { apiRequest, validateRequest } from '../../../lib/api-client';
import { LOCALE_MAX_LENGTH, TIMEZONE_MAX_LENGTH } from '../../../../../shared/constants';
import { MESSAGES } from '../../../../../shared/messages';
import type { PasskeyProof, SessionUser } from '../../../lib/auth/session-user';
import {
  createPasskey,
  isPlatformAuthenticatorAvailable,
  isWebAuthnSupported,
  type RegistrationResponseJSON,
} from '../../../lib/passkey';
import { signalAcceptedPasskeys, signalRefusedPasskey } from '../../../lib/passkey-signal';
import type { ActivationInput } from './verify-activation';

export type Verification = Extract<ActivationVerifyResponse, { valid: true }>;

interface RegisterPasskeyInput extends ActivationInput {
  cognitoUsername: string;
  registrationResponse: RegistrationResponseJSON;
  expectedChallenge: string;
  timezone?: string;
  locale?: string;
}

/**
 * The browser's time zone and language, for the profile an invitation's activation creates (a recovery
 * keeps the profile as it is). Hints: the server writes UTC and en-US for one it does not know, and one
 * the request could not carry is left out, so an odd browser setting never stops an activation.
 */
export const browserTimezoneAndLocale = (): { timezone?: string; locale?: string } => {
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone as string | undefined;
  const locale = typeof navigator === 'undefined' ? undefined : navigator.language;
  return {
    ...(timezone?.trim() && timezone.length <= TIMEZONE_MAX_LENGTH && { timezone }),
    ...(locale?.trim() && locale.length <= LOCALE_MAX_LENGTH && { locale }),
  };
};

/** Stores the new passkey; the answer carries a proof so sign-in needs no second prompt. */
export const registerPasskey = (input: RegisterPasskeyInput): Promise<PasskeyVerifyResponse> =>
  apiRequest('/v1/auth/register-passkey', {
    method: 'POST',
    body: validateRequest(registerPasskeyRequestSchema, input),
    auth: false,
    schema: registerPasskeyResponseSchema,
  });

export const AUTO_SIGN_IN_FAILED =
  'Your passkey was created, but signing you in did not work. Please sign in with your passkey.';

/**
 * Step 2 of the activation (SPEC section 4): creates the passkey on this device's platform
 * authenticator (SPEC section 5 requires both WebAuthn and a biometric authenticator), registers it,
 * tells the browser it is the account's one passkey (Signal API, where there is one), then signs in
 * with the returned proof (completePasskeySignIn, the host's). This module and WebAuthn
 * load once the person reaches step 2 (activation-page.tsx). Never retried: each attempt would prompt
 * the person again.
 */
export const runActivation = async (
  { activation, verification }: { activation: ActivationInput; verification: Verification },
  completePasskeySignIn: (proof: PasskeyProof) => Promise<SessionUser>,
): Promise<SessionUser> => {
  if (!isWebAuthnSupported()) throw new Error(MESSAGES.webAuthnUnsupported);
  if (!(await isPlatformAuthenticatorAvailable())) throw new Error(MESSAGES.noPlatformAuthenticator);
  const registrationResponse = await createPasskey(verification.registrationOptions);
  const proof = await registerPasskey({
    ...activation,
    cognitoUsername: verification.cognitoUsername,
    registrationResponse,
    expectedChallenge: verification.registrationOptions.challenge,
    ...browserTimezoneAndLocale(),
  }).catch(async (error: unknown) => {
    await signalRefusedPasskey(error, {
      rpId: verification.registrationOptions.rp.id,
      credentialId: registrationResponse.id,
    });
    throw error;
  });
  // The new passkey is now the account's only one (a recovery removed the others): a passkey provider
  // that still holds an earlier one of this account, synced from the lost device, stops offering it.
  void signalAcceptedPasskeys({
    rpId: verification.registrationOptions.rp.id,
    userHandle: verification.registrationOptions.user.id,
    credentialIds: [registrationResponse.id],
  });
  try {
    return await completePasskeySignIn(proof);
  } catch {
    throw new Error(AUTO_SIGN_IN_FAILED);
  }
};
