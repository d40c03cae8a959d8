/**
 * The provider name of a passkey, from its authenticator's AAGUID, through the AAGUID-to-name list that
 * `@passwordless-id/webauthn` maintains (the FIDO Metadata Service and the community list
 * passkeydeveloper/passkey-authenticator-aaguids, combined). An AAGUID not in the list, or the all-zero
 * one most synced authenticators send with `none` attestation, has no name: never a guess.
 */
import { authenticatorMetadata } from '@passwordless-id/webauthn/dist/esm/authenticatorMetadata.js';

const NO_AAGUID = '00000000-0000-0000-0000-000000000000';
const names: Readonly<Record<string, string>> = authenticatorMetadata;

export const providerNameOf = (aaguid: string | undefined): string | undefined => {
  const key = aaguid?.toLowerCase();
  if (!key || key === NO_AAGUID) return undefined;
  return Object.hasOwn(names, key) ? names[key] : undefined;
};
