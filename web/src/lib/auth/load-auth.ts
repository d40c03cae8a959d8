/**
 * Amplify, loaded when something first needs it and configured exactly once before anyone uses it
 * (docs/decisions/056-signin-weight.md). Nothing imports `./cognito` statically: the first load of
 * /signin carries no Amplify at all, and every other path goes through here, so no Amplify call can
 * run before `configureAuth`.
 */
import { MESSAGES } from '../../../../shared/messages';
import { getWebConfig } from '../../config/web-config';
import type * as Cognito from './cognito';
import type { PasskeyProof, SessionUser } from './session-user';

type Auth = typeof Cognito;

let loading: Promise<Auth> | undefined;

/** The Amplify boundary (./cognito.ts), configured. Fetched once; later calls share that fetch. */
export const loadAuth = (): Promise<Auth> => {
  if (!loading) {
    const attempt = import('./cognito').then((auth) => {
      auth.configureAuth(getWebConfig());
      return auth;
    });
    // A failed fetch (offline, a deploy replaced the chunk) is not kept: the next call tries again.
    attempt.catch(() => {
      if (loading === attempt) loading = undefined;
    });
    loading = attempt;
  }
  return loading;
};

/**
 * Fetches ahead everything a passkey sign-in needs of Amplify, its sign-in calls included. Resolves
 * when they are here (or could not be fetched: the sign-in itself then tries again and reports it).
 */
export const preloadAuthSignIn = (): Promise<void> =>
  loadAuth()
    .then((auth) => auth.preloadSignIn())
    .then(
      () => undefined,
      () => undefined,
    );

/**
 * Steps 4 and 5 of the passkey sign-in (SPEC section 4): Cognito custom auth with the proof, then the
 * signed-in user from the new tokens. A failure without a message reads as the SPEC's text.
 */
export const signInWithProof = async ({
  cognitoUsername,
  passkeyProof,
  userId,
}: PasskeyProof): Promise<SessionUser> => {
  try {
    const auth = await loadAuth();
    return await auth.signInWithPasskeyProof(cognitoUsername, passkeyProof, userId);
  } catch (error) {
    throw error instanceof Error && error.message ? error : new Error(MESSAGES.passkeySignInFailed);
  }
};
