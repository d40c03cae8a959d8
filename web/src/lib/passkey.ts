/**
 * The only module that talks to WebAuthn (through @simplewebauthn/browser). Browser failures
 * become a small set of codes; the UI shows the SPEC text for each (see passkeyErrorMessage).
 */
import {
  browserSupportsWebAuthn,
  platformAuthenticatorIsAvailable,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { MESSAGES } from '../../../shared/messages';

export type { AuthenticationResponseJSON, RegistrationResponseJSON };

export type PasskeyErrorCode =
  /** No WebAuthn in this browser. */
  | 'unsupported'
  /** The person dismissed the prompt, it timed out, or it was aborted. */
  | 'cancelled'
  /** The page's domain or the relying-party id does not fit WebAuthn's rules. */
  | 'invalid-domain'
  /** This authenticator already holds a passkey for this account. */
  | 'already-registered'
  /** The ceremony finished without a credential. */
  | 'no-credential'
  /** Anything else the authenticator reported. */
  | 'authenticator-error';

export class PasskeyError extends Error {
  override readonly name = 'PasskeyError';
  constructor(
    readonly code: PasskeyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const isWebAuthnSupported = (): boolean => browserSupportsWebAuthn();

export const isPlatformAuthenticatorAvailable = async (): Promise<boolean> => {
  try {
    return await platformAuthenticatorIsAvailable();
  } catch {
    return false;
  }
};

type Ceremony = 'registration' | 'authentication';

const cancelledMessage = (ceremony: Ceremony) =>
  ceremony === 'registration' ? MESSAGES.noCredentialCreated : MESSAGES.authNotCompleted;

const nameAndMessage = (error: unknown): { name: string; message: string } => {
  if (typeof error !== 'object' || error === null) return { name: '', message: '' };
  const { name, message } = error as { name?: unknown; message?: unknown };
  return { name: typeof name === 'string' ? name : '', message: typeof message === 'string' ? message : '' };
};

/** Maps what @simplewebauthn/browser or the browser threw onto a PasskeyError. */
export const toPasskeyError = (error: unknown, ceremony: Ceremony): PasskeyError => {
  if (error instanceof PasskeyError) return error;
  if (error instanceof WebAuthnError) {
    switch (error.code) {
      case 'ERROR_CEREMONY_ABORTED':
      case 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY': // NotAllowedError: dismissed or timed out
        return new PasskeyError('cancelled', cancelledMessage(ceremony));
      case 'ERROR_INVALID_DOMAIN':
      case 'ERROR_INVALID_RP_ID':
        return new PasskeyError('invalid-domain', error.message);
      case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
        return new PasskeyError('already-registered', error.message);
      default:
        return new PasskeyError('authenticator-error', error.message);
    }
  }
  // DOMExceptions are not always Errors (jsdom, older engines): read name and message directly.
  const { name, message } = nameAndMessage(error);
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return new PasskeyError('cancelled', cancelledMessage(ceremony));
  }
  if (message.startsWith('WebAuthn is not supported')) {
    return new PasskeyError('unsupported', MESSAGES.webAuthnUnsupported);
  }
  if (message === MESSAGES.authNotCompleted)
    return new PasskeyError('no-credential', MESSAGES.authNotCompleted);
  if (message === 'Registration was not completed') {
    return new PasskeyError('no-credential', MESSAGES.noCredentialCreated);
  }
  return new PasskeyError('authenticator-error', message || cancelledMessage(ceremony));
};

/**
 * Creates a passkey. Callers check isWebAuthnSupported and isPlatformAuthenticatorAvailable first
 * when their flow requires them (activation does).
 */
export const createPasskey = async (
  optionsJSON: PublicKeyCredentialCreationOptionsJSON,
): Promise<RegistrationResponseJSON> => {
  if (!isWebAuthnSupported()) throw new PasskeyError('unsupported', MESSAGES.webAuthnUnsupported);
  let response: RegistrationResponseJSON | undefined;
  try {
    response = await startRegistration({ optionsJSON });
  } catch (error) {
    throw toPasskeyError(error, 'registration');
  }
  // Some embedded browsers resolve without a credential instead of rejecting.
  if (!response?.id) throw new PasskeyError('no-credential', MESSAGES.noCredentialCreated);
  return response;
};

/** Asks the device for an assertion with a discoverable credential (no username typed). */
export const getPasskeyAssertion = async (
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
): Promise<AuthenticationResponseJSON> => {
  if (!isWebAuthnSupported()) throw new PasskeyError('unsupported', MESSAGES.webAuthnUnsupported);
  let response: AuthenticationResponseJSON | undefined;
  try {
    response = await startAuthentication({ optionsJSON });
  } catch (error) {
    throw toPasskeyError(error, 'authentication');
  }
  if (!response?.id) throw new PasskeyError('no-credential', MESSAGES.authNotCompleted);
  return response;
};
