/**
 * The only way into Amplify. Everything else calls these verbs, so the vendor can be mocked (or
 * replaced) at one boundary. Nothing imports this module statically: `./load-auth.ts` fetches it when
 * first needed and configures it once (docs/decisions/056-signin-weight.md). The sign-in calls are a
 * chunk of their own (cognito-sign-in.ts), fetched on intent to sign in.
 */
import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signOut as amplifySignOut } from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { CookieStorage, Hub } from 'aws-amplify/utils';
import { COOKIE_STORAGE_EXPIRES_DAYS } from '../../../../shared/constants';
import { MESSAGES } from '../../../../shared/messages';
import type { WebEnv } from '../../config/env';
import { sessionUserFromClaims, type SessionUser } from './session-user';
import { hasStoredSession } from './stored-session';

const absolute = (urlOrPath: string) => new URL(urlOrPath, window.location.origin).toString();

/** The app client configured, whose cookies hold the session. */
let clientId = '';

export const configureAuth = (env: WebEnv): void => {
  clientId = env.userPoolClientId;
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: env.userPoolId,
        userPoolClientId: env.userPoolClientId,
        // Local mode serves a Cognito-compatible endpoint same-origin (DESIGN section 2).
        ...(env.cognitoEndpoint ? { userPoolEndpoint: absolute(env.cognitoEndpoint) } : {}),
      },
    },
  });
  // SPEC section 9: tokens live in cookies for 365 days, secure. Only after configure, which
  // resets the token storage to localStorage (docs/decisions/027). Secure on every https page, which
  // every deployed stage is; Safari drops Secure cookies on plain-http localhost, so local mode
  // cannot ask for it there.
  cognitoUserPoolsTokenProvider.setKeyValueStorage(
    new CookieStorage({
      expires: COOKIE_STORAGE_EXPIRES_DAYS,
      secure: window.location.protocol === 'https:',
      sameSite: 'strict',
      path: '/',
    }),
  );
};

/**
 * The current id token (refreshed by Amplify when about to expire), or undefined when signed out.
 * A refresh Cognito refused has cleared the tokens (Amplify's TokenOrchestrator): signed out. A refresh
 * that could not be made (offline, Cognito unavailable or throttling) keeps them, and so does the
 * session (SPEC section 4): its failure is the caller's, the person stays signed in.
 */
export const getIdToken = async (): Promise<string | undefined> => {
  try {
    const session = await fetchAuthSession();
    return session.tokens?.idToken?.toString();
  } catch (error) {
    if (!hasStoredSession(clientId, document.cookie)) return undefined;
    throw error;
  }
};

/**
 * The signed-in user from the stored session, or null. A refused refresh reads as signed out (Amplify
 * has cleared the tokens). A refresh that could not be made (offline, Cognito unavailable or
 * throttling) keeps the tokens and the session (SPEC section 4): the user is read from the stored id
 * token as it is, and the screens' own calls meet the network error, retry and say so.
 */
export const getSessionUser = async (): Promise<SessionUser | null> => {
  try {
    const session = await fetchAuthSession();
    const payload = session.tokens?.idToken?.payload;
    return payload ? sessionUserFromClaims(payload) : null;
  } catch (error) {
    // Amplify starts clearing the cookies of a refused refresh without waiting: decide on the error.
    if (endsSession(error) || !hasStoredSession(clientId, document.cookie)) return null;
    const stored = await cognitoUserPoolsTokenProvider.authTokenStore.loadTokens().catch(() => null);
    const payload = stored?.idToken?.payload;
    return payload ? sessionUserFromClaims(payload) : null;
  }
};

/**
 * The refresh failures after which Amplify has dropped the stored tokens (its token orchestrator's
 * authentication errors): the session is over, whichever of them Cognito answered. A refresh token
 * rotated out more than the grace period ago is `RefreshTokenReuseException`, not `NotAuthorizedException`.
 * Amplify's list is private; `session-ending-errors.test.ts` runs its real orchestrator against this one.
 */
const SESSION_ENDING_ERRORS = [
  'NotAuthorizedException',
  'RefreshTokenReuseException',
  'TokenRevokedException',
  'UserNotFoundException',
  'PasswordResetRequiredException',
  'UserNotConfirmedException',
];

/** Whether a refresh failed for one of the reasons after which the session is over. */
const endsSession = (error: unknown): boolean => {
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  return SESSION_ENDING_ERRORS.some((ending) => name.startsWith(ending));
};

/**
 * Calls back when Cognito refuses to refresh the session (revoked, expired or rotated-out refresh
 * token, a deleted user): SPEC section 4, "a not-authorized failure yields signed-out". A network
 * failure or throttling keeps the session. Answers the unsubscribe function.
 */
export const onSessionRevoked = (callback: () => void): (() => void) =>
  Hub.listen('auth', ({ payload }) => {
    if (payload.event !== 'tokenRefresh_failure') return;
    if (endsSession(payload.data?.error)) callback();
  });

/** Signs out; local tokens are gone afterwards even when revoking them on the server fails. */
export const signOut = async (): Promise<void> => {
  try {
    await amplifySignOut();
  } catch {
    // Amplify already proceeds after a failed revoke; should anything else fail, drop the
    // stored tokens directly so the person is not signed in again on the next load.
    await cognitoUserPoolsTokenProvider.tokenOrchestrator.clearTokens().catch(() => undefined);
  }
};

const loadSignIn = () => import('./cognito-sign-in');

/** Fetches Amplify's sign-in calls ahead (intent to sign in), so the sign-in does not wait for them. */
export const preloadSignIn = (): Promise<unknown> => loadSignIn().catch(() => undefined);

/**
 * Steps 4 and 5 of the passkey sign-in sequence (SPEC section 4): a custom-flow sign-in without
 * SRP for the Cognito username, then the single-use proof as the challenge answer.
 */
export const signInWithPasskeyProof = async (
  cognitoUsername: string,
  proof: string,
  userId: string,
): Promise<SessionUser> => {
  // Amplify refuses to start a sign-in while someone is signed in (an admin trying an
  // activation link in the same browser, say): the new person wins.
  if (await getSessionUser()) await signOut();
  const { customSignInWithProof } = await loadSignIn();
  await customSignInWithProof(cognitoUsername, proof, userId);
  const user = await getSessionUser();
  if (!user) throw new Error(MESSAGES.passkeySignInFailed);
  return user;
};
