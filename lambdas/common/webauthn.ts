/** WebAuthn policy shared by registration and sign-in. */

/** Ed25519 (what Chromium's platform authenticator uses), ES256, RS256. */
export const SUPPORTED_ALGORITHM_IDS = [-8, -7, -257];
