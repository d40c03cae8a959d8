import { useMemo, type ReactElement } from 'react';
import { SignInHostContext, SignInPage, type SignInHost } from '../features/auth/signin-page';
import { preloadAuthSignIn, signInWithProof } from '../lib/auth/load-auth';
import { loadPage } from '../lib/browser';
import { loadApp, preloadApp } from './load-app';
import { preloadDashboard } from './route-modules';

/**
 * Intent to sign in (hover, focus, touch, or at the latest the press), once the ceremony's own code is
 * here: Amplify first (needed once the passkey is verified), then the app and the dashboard's chunks
 * (needed once Cognito has signed the person in), each while the steps before it run.
 */
const preloadSignIn = () => {
  void preloadAuthSignIn().then(() => {
    preloadApp();
    preloadDashboard();
  });
};

/**
 * The first load of /signin when this browser holds no session (main.tsx decides, from the cookie
 * names: lib/auth/stored-session.ts). The sign-in page alone, without the router, the query client or
 * Amplify (docs/decisions/056-signin-weight.md); the page fetches what it needs on intent. Leaving it
 * (signed in, to /dashboard; or to /activate) sets the address and hands the root over to the whole
 * app, which starts there and reads the new session as at any app start.
 */
export function SignInEntry({ show }: { show: (app: ReactElement) => void }) {
  const host = useMemo<SignInHost>(
    () => ({
      completePasskeySignIn: signInWithProof,
      navigate: async (path, { replace }) => {
        let app: Awaited<ReturnType<typeof loadApp>>;
        try {
          app = await loadApp();
        } catch {
          // The app could not be fetched here: a full page load of the address gets there all the same.
          loadPage(path, { replace });
          return;
        }
        if (replace) window.history.replaceState(null, '', path);
        else window.history.pushState(null, '', path);
        show(app.createApp());
      },
      preloadSignIn,
      preloadActivation: preloadApp,
    }),
    [show],
  );
  return (
    <SignInHostContext value={host}>
      <SignInPage />
    </SignInHostContext>
  );
}
