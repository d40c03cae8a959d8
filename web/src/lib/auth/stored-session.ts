/**
 * Whether this browser may hold a session, answered from the cookie names alone, without loading
 * Amplify (docs/decisions/056-signin-weight.md). Amplify keeps the Cognito tokens in cookies
 * (docs/decisions/027) named `CognitoIdentityServiceProvider.<app client id>.LastAuthUser` and
 * `CognitoIdentityServiceProvider.<app client id>.<username>.<accessToken|idToken|...>`; with none of
 * them, Amplify's own session read finds nothing and answers signed out. Any one of them answers
 * "maybe": the caller then loads Amplify and lets it decide (an expired or refused session still reads
 * as signed out there), so a wrong "maybe" costs bytes, never a wrong screen.
 */
const AMPLIFY_KEY_PREFIX = 'CognitoIdentityServiceProvider';

const cookieNames = (cookies: string): string[] =>
  cookies
    .split(';')
    .map((pair) => pair.split('=')[0]?.trim() ?? '')
    .filter(Boolean)
    .map((name) => {
      try {
        return decodeURIComponent(name);
      } catch {
        return name;
      }
    });

export const hasStoredSession = (userPoolClientId: string, cookies: string): boolean => {
  const prefix = `${AMPLIFY_KEY_PREFIX}.${userPoolClientId}.`;
  return cookieNames(cookies).some((name) => name.startsWith(prefix));
};
