import { useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { SignInHostContext, SignInPage, type SignInHost } from '../../features/auth/signin-page';
import { useAuth } from '../../lib/auth/auth-provider';
import { preloadAuthSignIn } from '../../lib/auth/load-auth';
import { afterSignIn } from '../../lib/auth/return-to';
import { sessionEndedNotice } from '../../lib/auth/session-ended';
import { preloadDashboard } from '../route-modules';

/** Intent to sign in: Amplify's sign-in calls, then the dashboard's chunks, fetched ahead. */
const preloadSignIn = () => {
  void preloadAuthSignIn().then(preloadDashboard);
};

/**
 * /signin inside the app (after a sign-out, or when the guard sends someone here): the router
 * navigates and the auth provider completes the sign-in. A first load of /signin without a stored
 * session shows the same page without the app: app/public-entry.tsx.
 */
export function SignInRoute() {
  const navigate = useNavigate();
  const { completePasskeySignIn } = useAuth();
  /** Who signed in: 'Sign in again' brings only them back to the page they were on. */
  const signedIn = useRef<string | undefined>(undefined);
  const host = useMemo<SignInHost>(
    () => ({
      completePasskeySignIn: async (proof) => {
        const user = await completePasskeySignIn(proof);
        signedIn.current = user.userId;
        return user;
      },
      // The same place as GuestOnly's redirect, which the new session sets off too.
      navigate: (path, { replace }) =>
        navigate(path === paths.dashboard ? afterSignIn(signedIn.current) : path, { replace }),
      preloadSignIn,
      notice: sessionEndedNotice(),
    }),
    [completePasskeySignIn, navigate],
  );
  return (
    <SignInHostContext value={host}>
      <SignInPage />
    </SignInHostContext>
  );
}
