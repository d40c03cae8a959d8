import { paths } from '../config/paths';
import { hasStoredSession } from '../lib/auth/stored-session';

/**
 * Whether this first load may show the sign-in page alone (app/signin-entry.tsx), without the app:
 * the address is /signin (as the router matches it: any case, trailing slashes ignored) and this
 * browser holds no Amplify cookie of this app client, so there is no session to send on to the
 * dashboard (docs/decisions/056-signin-weight.md). Anything else loads the whole app.
 */
export const showsSignInAlone = (pathname: string, userPoolClientId: string, cookies: string): boolean =>
  pathname.replace(/\/+$/, '').toLowerCase() === paths.signin && !hasStoredSession(userPoolClientId, cookies);
