/** WebAuthn policy shared by registration and sign-in. */
import { randomBytes } from 'node:crypto';
import type { RegistrationResponseJSON, VerifiedRegistrationResponse } from '@simplewebauthn/server';
import { API_MESSAGES } from '../../shared/messages';
import { BadRequest } from './errors';
import { WEBAUTHN_TIMEOUT_MS } from '../../shared/constants';
import { webauthnConfig } from './env';

/**
 * SimpleWebAuthn, loaded when a ceremony needs it rather than when the function starts: with its
 * ASN.1/X.509 dependencies it takes about 35 ms to load (docs/decisions/055-cold-starts.md).
 */
export const simpleWebAuthn = () => import('@simplewebauthn/server');

/** W3C WebAuthn Level 3, section 7.1 step 24 (SPEC-2 section 5): longer credential ids are refused. */
export const MAX_CREDENTIAL_ID_BYTES = 1023;

/**
 * Whether a credential id sent to us could name a stored passkey: base64url of 1 to 1023 bytes, as
 * registration stores them. Anything else is not looked up (DynamoDB refuses keys over 2048 bytes,
 * which would answer a server error), it is simply unknown.
 */
export const couldBeCredentialId = (id: string): boolean =>
  /^[A-Za-z0-9_-]+$/.test(id) && Buffer.from(id, 'base64url').length <= MAX_CREDENTIAL_ID_BYTES;

/**
 * The attestation formats a registration may carry (docs/decisions/046-registration-checks.md): the
 * product asks for no attestation, so browsers send `none`; a security key may still send its own
 * `packed` statement, which is verified. Every other format is refused.
 */
export const ACCEPTED_ATTESTATION_FORMATS: readonly string[] = ['none', 'packed'];

/** Ed25519 (what Chromium's platform authenticator uses), ES256, RS256. */
export const SUPPORTED_ALGORITHM_IDS = [-8, -7, -257];

/**
 * Options for a new passkey of the person with this WebAuthn user handle: a discoverable,
 * user-verified credential, never one the person already has (`exclude`). Activation and recovery
 * ask for the device's own (platform) authenticator, as SPEC's Face ID, Touch ID and Windows Hello;
 * a further passkey may also be a security key or a phone (`anyAuthenticator`).
 */
export const registrationOptionsFor = async (person: {
  readonly userHandle: string;
  readonly email: string;
  readonly exclude?: readonly string[];
  readonly anyAuthenticator?: boolean;
}) => {
  const { rpId, rpName } = webauthnConfig();
  const { generateRegistrationOptions } = await simpleWebAuthn();
  return generateRegistrationOptions({
    rpName,
    rpID: rpId,
    userID: Buffer.from(person.userHandle, 'base64url'),
    userName: person.email,
    userDisplayName: person.email,
    timeout: WEBAUTHN_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: (person.exclude ?? []).map((id) => ({ id })),
    authenticatorSelection: {
      ...(!person.anyAuthenticator && { authenticatorAttachment: 'platform' as const }),
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'required',
    },
    supportedAlgorithmIDs: SUPPORTED_ALGORITHM_IDS,
  });
};

/** A new random WebAuthn user handle (base64url): never the email or the user id. */
export const newUserHandle = (): string => randomBytes(32).toString('base64url');

/**
 * Verifies a new passkey against the challenge the server stored (never one the client sends):
 * user present and verified, an accepted algorithm. Anything else is 400 'registration failed'.
 */
export const verifyNewPasskey = async (
  response: RegistrationResponseJSON,
  expectedChallenge: string,
): Promise<NonNullable<VerifiedRegistrationResponse['registrationInfo']>> => {
  const { rpId, origins } = webauthnConfig();
  const { verifyRegistrationResponse } = await simpleWebAuthn();
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origins,
      expectedRPID: rpId,
      requireUserPresence: true,
      requireUserVerification: true,
      supportedAlgorithmIDs: SUPPORTED_ALGORITHM_IDS,
    });
    const info = result.verified ? result.registrationInfo : undefined;
    if (
      info?.userVerified &&
      // The credential id is the one the client names twice, and no longer than WebAuthn allows.
      response.rawId === response.id &&
      info.credential.id === response.id &&
      Buffer.from(info.credential.id, 'base64url').length <= MAX_CREDENTIAL_ID_BYTES &&
      ACCEPTED_ATTESTATION_FORMATS.includes(info.fmt)
    )
      return info;
  } catch {
    // A malformed or mismatched attestation is a rejected registration, not a server error.
  }
  throw new BadRequest(API_MESSAGES.registrationFailed);
};
