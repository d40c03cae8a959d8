/**
 * The WebAuthn Signal API (SPEC-2 section 3.1), apart from lib/passkey.ts because only the
 * signed-in Profile page signals: /signin, which loads lib/passkey.ts, does not carry it.
 */

interface AllAcceptedCredentialsOptions {
  rpId: string;
  /** The WebAuthn user handle, base64url. */
  userId: string;
  /** Every credential id (base64url) the account still accepts. */
  allAcceptedCredentialIds: string[];
}

type SignallingCredential = typeof PublicKeyCredential & {
  signalAllAcceptedCredentials?: (options: AllAcceptedCredentialsOptions) => Promise<void>;
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
