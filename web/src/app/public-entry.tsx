import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactElement,
} from 'react';
import { ErrorScreen } from '../components/error-screen';
import { FullPageSpinner } from '../components/spinner';
import type { ActivationHost } from '../features/activation/activation-page';
import { SignInHostContext, SignInPage, type SignInHost } from '../features/auth/signin-page';
import { preloadAuthSignIn, signInWithProof } from '../lib/auth/load-auth';
import { loadPage } from '../lib/browser';
import { publicScreenOf, type PublicScreen } from './first-screen';
import { loadApp, preloadApp } from './load-app';
import { preloadDashboard } from './route-modules';

/**
 * Once the ceremony's own code is here (the sign-in's on intent, step 2's of the activation once it
 * shows): Amplify first (needed once the passkey is verified), then the app and the dashboard's chunks
 * (needed once Cognito has signed the person in), each while the steps before it run.
 */
const preloadSignedIn = () => {
  void preloadAuthSignIn().then(() => {
    preloadApp();
    preloadDashboard();
  });
};

/** /activate's page and its host, fetched only when /activate is shown (the first load of /signin stays small). */
const loadActivation = () => import('./public-activation');
type ActivationModule = Awaited<ReturnType<typeof loadActivation>>;
/** Once fetched, shown at once whenever /activate is shown again. */
let activationModule: ActivationModule | undefined;

/**
 * /activate once its chunk is here: the loading state meanwhile (the prerendered screen stays on show),
 * and when it cannot be fetched (the network dropped, a deploy replaced the chunk) the error screen
 * with its Reload, as the router shows for a page that failed to load.
 */
function ActivationScreen({ host }: { host: ActivationHost }) {
  const [loaded, setLoaded] = useState<ActivationModule | 'failed' | undefined>(activationModule);
  useEffect(() => {
    if (loaded) return;
    let shown = true;
    loadActivation().then(
      (module) => {
        activationModule = module;
        if (shown) setLoaded(module);
      },
      () => shown && setLoaded('failed'),
    );
    return () => {
      shown = false;
    };
  }, [loaded]);
  if (loaded === 'failed') return <ErrorScreen />;
  if (!loaded) return <FullPageSpinner />;
  return <loaded.default host={host} />;
}

/** The address as the entry follows it: changed by its own navigation and by Back and Forward. */
const addressListeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  addressListeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    addressListeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
};
const address = () => window.location.pathname + window.location.search;
/** Sets the address; the app that takes over reads it as it starts. */
const setAddress = (path: string, { replace }: { replace: boolean }) => {
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
};
/** Sets the address and shows its page here. */
const go = (path: string, options: { replace: boolean }) => {
  setAddress(path, options);
  for (const listener of addressListeners) listener();
};

/**
 * The first load of /signin or /activate when this browser holds no session (main.tsx decides, from
 * the cookie names: lib/auth/stored-session.ts). Those two pages alone, without the router, the query
 * client or Amplify (docs/decisions/056-signin-weight.md, 060-activate-alone.md); each fetches what it
 * needs next on intent. Between the two it stays here, Back and Forward included. Leaving them
 * (signed in, to /dashboard) sets the address and hands the root over to the whole app, which starts
 * there and reads the new session as at any app start; so does Back to any other page.
 */
export function PublicEntry({ show }: { show: (app: ReactElement) => void }) {
  const current = useSyncExternalStore(subscribe, address);
  const { pathname, search } = new URL(current, window.location.origin);
  const screen = publicScreenOf(pathname);

  const leave = useCallback(
    async (path: string, options: { replace: boolean }) => {
      let app: Awaited<ReturnType<typeof loadApp>>;
      try {
        app = await loadApp();
      } catch {
        // The app could not be fetched here: a full page load of the address gets there all the same.
        loadPage(path, options);
        return;
      }
      if (path !== address()) setAddress(path, options);
      show(app.createApp());
    },
    [show],
  );
  const navigate = useCallback(
    (path: string, options: { replace: boolean }) =>
      publicScreenOf(new URL(path, window.location.origin).pathname)
        ? go(path, options)
        : leave(path, options),
    [leave],
  );

  // Back or Forward to a page that is neither of these two: the app shows it (once).
  const leaving = useRef(false);
  useEffect(() => {
    if (screen || leaving.current) return;
    leaving.current = true;
    void leave(address(), { replace: true });
  }, [screen, leave]);

  const signInHost = useMemo<SignInHost>(
    () => ({
      completePasskeySignIn: signInWithProof,
      navigate,
      preloadSignIn: preloadSignedIn,
      preloadActivation: () => void loadActivation().catch(() => undefined),
    }),
    [navigate],
  );
  const activationHost = useMemo<ActivationHost>(
    () => ({
      completePasskeySignIn: signInWithProof,
      navigate,
      search,
      setSearch: (next, options) => go(`${pathname}${next}`, options),
      preloadAfterActivation: preloadSignedIn,
    }),
    [navigate, pathname, search],
  );

  return <EntryScreen screen={screen} signInHost={signInHost} activationHost={activationHost} />;
}

function EntryScreen({
  screen,
  signInHost,
  activationHost,
}: {
  screen: PublicScreen | null;
  signInHost: SignInHost;
  activationHost: ActivationHost;
}) {
  if (screen === 'signin')
    return (
      <SignInHostContext value={signInHost}>
        <SignInPage />
      </SignInHostContext>
    );
  if (screen === 'activate') return <ActivationScreen host={activationHost} />;
  return <FullPageSpinner />;
}
