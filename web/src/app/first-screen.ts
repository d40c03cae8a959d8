import { paths } from '../config/paths';
import { hasStoredSession } from '../lib/auth/stored-session';

/** The pages a browser without a session may see without the app (app/public-entry.tsx). */
export type PublicScreen = 'signin' | 'activate';

/** Which of them this path is, as the router matches it: any case, trailing slashes ignored. */
export const publicScreenOf = (pathname: string): PublicScreen | null => {
  const path = pathname.replace(/\/+$/, '').toLowerCase();
  if (path === paths.signin) return 'signin';
  if (path === paths.activate) return 'activate';
  return null;
};

/**
 * The page this first load may show alone (app/public-entry.tsx), without the app: /signin or
 * /activate, when this browser holds no Amplify cookie of this app client, so there is no session to
 * send on to the dashboard or to sign out of (docs/decisions/056-signin-weight.md,
 * 060-activate-alone.md). Anything else (`null`) loads the whole app.
 */
export const firstPublicScreen = (
  pathname: string,
  userPoolClientId: string,
  cookies: string,
): PublicScreen | null => (hasStoredSession(userPoolClientId, cookies) ? null : publicScreenOf(pathname));
