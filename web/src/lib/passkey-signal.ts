/**
 * The WebAuthn Signal API (SPEC-2 section 3.1), apart from lib/passkey.ts so that /signin's first load,
 * which carries lib/passkey.ts, does not carry it: the Profile page signals after a change, and a
 * sign-in (loaded on the click) signals a passkey the server does not know.
 */
import { ACCOUNT_MESSAGES } from '../../../shared/account-messages';
import { ApiError } from './api-error';

interface AllAcceptedCredentialsOptions {
  rpId: string;
  /** The WebAuthn user handle, base64url. */
  userId: string;
  /** Every credential id (base64url) the account still accepts. */
  allAcceptedCredentialIds: string[];
}

type SignallingCredential = typeof PublicKeyCredential & {
  signalAllAcceptedCredentials?: (options: AllAcceptedCredentialsOptions) => Promise<void>;
  signalUnknownCredential?: (options: { rpId: string; credentialId: string }) => Promise<void>;
};

/** Whether this browser has `PublicKeyCredential.signalAllAcceptedCredentials` (most do not yet). */
const signalAllAccepted = () => {
  const credential = (globalThis as { PublicKeyCredential?: SignallingCredential }).PublicKeyCredential;
  return typeof credential?.signalAllAcceptedCredentials === 'function'
    ? credential.signalAllAcceptedCredentials.bind(credential)
    : undefined;
};

/**
 * Tells the browser (and through it the passkey provider) which passkeys of this account still
 * work, so a removed one stops being offered. Best effort: absent in most browsers, and a refusal
 * changes nothing for the account.
 */
export const signalAcceptedPasskeys = async ({
  rpId = window.location.hostname,
  userHandle,
  credentialIds,
}: {
  rpId?: string | undefined;
  userHandle: string;
  credentialIds: readonly string[];
}): Promise<void> => {
  const signal = signalAllAccepted();
  if (!signal) return;
  try {
    await signal({ rpId, userId: userHandle, allAcceptedCredentialIds: [...credentialIds] });
  } catch {
    // The signal is advice to the browser; nothing to tell the person.
  }
};

/**
 * Tells the browser that the server does not know this passkey (it was removed, or the account
 * replaced it), so the provider stops offering it. Best effort, feature-detected.
 */
export const signalUnknownPasskey = async ({
  rpId = window.location.hostname,
  credentialId,
}: {
  rpId?: string | undefined;
  credentialId: string;
}): Promise<void> => {
  const credential = (globalThis as { PublicKeyCredential?: SignallingCredential }).PublicKeyCredential;
  if (typeof credential?.signalUnknownCredential !== 'function') return;
  try {
    await credential.signalUnknownCredential({ rpId, credentialId });
  } catch {
    // Advice to the browser only.
  }
};

/**
 * After the server refused a passkey the device has just made (a 4xx: nothing was stored), tells the
 * browser the server does not know it, so the provider does not keep offering a passkey that cannot
 * sign in. Not signalled: a failure without the server's answer (the network, a 5xx), which may have
 * stored it, and 'already registered', which says the server does know it.
 */
export const signalRefusedPasskey = async (
  error: unknown,
  passkey: { rpId?: string | undefined; credentialId: string },
): Promise<void> => {
  const refused =
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.message !== ACCOUNT_MESSAGES.passkeyExists;
  if (refused) await signalUnknownPasskey(passkey);
};
