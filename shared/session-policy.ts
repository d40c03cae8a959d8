/**
 * How long a signed-in session lasts, one definition for the Cognito app client (CDK) and the local
 * Cognito endpoint alike (docs/decisions/048-sessions-that-end.md).
 */

/** The custom-auth sign-in session (Cognito's `Session` between the passkey challenge and its answer). */
export const AUTH_SESSION_VALIDITY_MINUTES = 3;

/** Id and access tokens: Amplify refreshes them before they expire. */
export const ID_TOKEN_VALIDITY_MINUTES = 15;
export const ACCESS_TOKEN_VALIDITY_MINUTES = 15;
/** The refresh token, counted from the passkey sign-in; rotation does not extend it. */
export const REFRESH_TOKEN_VALIDITY_DAYS = 7;
/** Refresh-token rotation: a rotated-out refresh token still works this long, for a client's retry. */
export const REFRESH_TOKEN_GRACE_SECONDS = 10;

/**
 * API Gateway's Cognito authorizer keeps a verified id token's claims this long (`resultsCacheTtl`), and
 * the local gateway does the same, never past the token's `exp`. Nothing of the session is cached: the
 * session check still reads the account on every request (docs/decisions/059-wrapper-ratio-measured-warm.md).
 */
export const AUTHORIZER_CACHE_MINUTES = 5;
