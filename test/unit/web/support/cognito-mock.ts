/**
 * Stand-in for web/src/lib/auth/cognito (the Amplify boundary). Use with
 * `vi.mock('<path>/web/src/lib/auth/cognito', () => import('<path>/support/cognito-mock'))`.
 */
import { vi } from 'vitest';
import type { SessionUser } from '../../../../web/src/lib/auth/session-user';

export const configureAuth = vi.fn();
export const getIdToken = vi.fn<() => Promise<string | undefined>>();
export const getSessionUser = vi.fn<() => Promise<SessionUser | null>>();
export const signOut = vi.fn<() => Promise<void>>();
export const onSessionRevoked = vi.fn<(callback: () => void) => () => void>(() => () => undefined);
export const preloadSignIn = vi.fn();
export const signInWithPasskeyProof =
  vi.fn<(cognitoUsername: string, proof: string, userId: string) => Promise<SessionUser>>();

/** Signed in as `user` (or signed out with null), with a token for API calls. */
export const givenSession = (user: SessionUser | null): void => {
  getSessionUser.mockResolvedValue(user);
  getIdToken.mockResolvedValue(user ? 'test-id-token' : undefined);
  signOut.mockResolvedValue(undefined);
};

/** The callback the app registered for a refused token refresh; call it to end the session. */
export const revokeSession = (): void => {
  const callback = onSessionRevoked.mock.calls.at(-1)?.[0];
  if (!callback) throw new Error('The app did not subscribe to session revocation');
  getSessionUser.mockResolvedValue(null);
  getIdToken.mockResolvedValue(undefined);
  callback();
};
