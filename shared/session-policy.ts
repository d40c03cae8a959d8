/**
 * How long a signed-in session lasts, one definition for the Cognito app client (CDK) and the local
 * Cognito endpoint alike (docs/decisions/048-sessions-that-end.md).
 */

/** Id and access tokens: Amplify refreshes them before they expire. */
export const ID_TOKEN_VALIDITY_MINUTES = 15;
export const ACCESS_TOKEN_VALIDITY_MINUTES = 15;
/** The refresh token, counted from the passkey sign-in; rotation does not extend it. */
export const REFRESH_TOKEN_VALIDITY_DAYS = 7;
/** Refresh-token rotation: a rotated-out refresh token still works this long, for a client's retry. */
export const REFRESH_TOKEN_GRACE_SECONDS = 10;
