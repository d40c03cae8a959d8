/**
 * The API's half of signing out (docs/decisions/048-sessions-that-end.md): the server refuses this
 * session's tokens from now on. Amplify's sign-out then revokes the refresh token with Cognito.
 */
import { apiRequest } from '../api-client';

const SIGN_OUT_TIMEOUT_MS = 5_000;

/** Best effort for this session: signing out locally never waits on, or fails with, the server. */
export const endServerSession = async (): Promise<void> => {
  try {
    await apiRequest('/v1/users/me/sign-out', {
      method: 'POST',
      body: {},
      reportEndedSession: false,
      signal: AbortSignal.timeout(SIGN_OUT_TIMEOUT_MS),
    });
  } catch {
    // Already signed out, offline, or a session the server refuses anyway.
  }
};
