import { useCallback, useRef, useState } from 'react';
import type { PasskeyProof, SessionUser } from '../../../lib/auth/session-user';

const loadSequence = () => import('./run-passkey-sign-in');

/**
 * Fetches the sign-in code as soon as the person shows intent (hover, focus, touch), so the
 * click does not wait for it; the first load of /signin stays small (docs/decisions/022, 056).
 * Resolves when it is here, or could not be fetched (the sign-in then tries again and says so).
 */
export const preloadPasskeySignIn = (): Promise<void> =>
  loadSequence().then(
    () => undefined,
    () => undefined,
  );

export type SignInState =
  | { status: 'idle'; error?: undefined }
  | { status: 'pending'; error?: undefined }
  | { status: 'error'; error: unknown };

const IDLE: SignInState = { status: 'idle' };

/**
 * The passkey sign-in as a screen runs it: pending while it runs, the failure when it fails. Plain
 * React state, not a TanStack mutation, so that /signin needs no query client before the click
 * (docs/decisions/056-signin-weight.md). Never retried: a retry would prompt the person again, and
 * each session is single use. A second press while one runs does nothing. `run` never rejects: a
 * failure is the state's `error`.
 */
export const useSignInWithPasskey = (
  completePasskeySignIn: (proof: PasskeyProof) => Promise<SessionUser>,
) => {
  const [state, setState] = useState<SignInState>(IDLE);
  const running = useRef(false);

  const run = useCallback(
    async (onSignedIn: (user: SessionUser) => void | Promise<void>) => {
      if (running.current) return;
      running.current = true;
      setState({ status: 'pending' });
      try {
        const user = await (await loadSequence()).runPasskeySignIn(completePasskeySignIn);
        // Stays pending until the next screen is there (the host may still be fetching it).
        await onSignedIn(user);
        setState(IDLE);
      } catch (error) {
        setState({ status: 'error', error });
      } finally {
        running.current = false;
      }
    },
    [completePasskeySignIn],
  );

  return { ...state, isPending: state.status === 'pending', isError: state.status === 'error', run };
};
