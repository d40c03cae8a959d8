import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { endServerSession } from './end-session';
import { loadAuth, signInWithProof } from './load-auth';
import { getWebConfig } from '../../config/web-config';
import { forgetUnansweredCreates } from '../idempotency';
import { noteSessionEnded, onSessionEnded } from './session-ended';
import { hasStoredSession } from './stored-session';
import type { PasskeyProof, SessionUser } from './session-user';

export type { PasskeyProof };

export type AuthState =
  | { status: 'loading'; user: null }
  | { status: 'signed-out'; user: null }
  | { status: 'signed-in'; user: SessionUser };

export interface AuthContextValue {
  state: AuthState;
  /** Cognito custom sign-in with a passkey proof, then the user is refreshed from the new tokens. */
  completePasskeySignIn: (proof: PasskeyProof) => Promise<SessionUser>;
  /** Always ends signed out, whatever the server says. */
  signOut: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

const SIGNED_OUT: AuthState = { status: 'signed-out', user: null };

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>({ status: 'loading', user: null });
  /** Who is signed in, for a session that ends under them; undefined while signing out on purpose. */
  const signedInAs = state.status === 'signed-in' ? state.user.userId : undefined;
  /** Whatever the last person's screens read or sent: nothing of it may reach the next one. */
  const forgetPerson = useCallback(() => {
    queryClient.clear();
    forgetUnansweredCreates();
  }, [queryClient]);
  const signedInUser = useRef<string | undefined>(undefined);
  useEffect(() => {
    signedInUser.current = signedInAs;
  }, [signedInAs]);

  /**
   * The session ended without the person signing out: /signin says so, and the same person's next
   * sign-in comes back to the page they were on (`RequireAuth`; docs/decisions/048-sessions-that-end.md).
   */
  const endedUnderThem = useCallback(() => {
    const userId = signedInUser.current;
    if (userId === undefined) return;
    signedInUser.current = undefined;
    noteSessionEnded(userId);
  }, []);

  // SPEC section 4: the state is read at app start from the stored session. Amplify loads here
  // (docs/decisions/056-signin-weight.md); should it fail to load, nobody is signed in.
  useEffect(() => {
    let active = true;
    void loadAuth()
      .then((auth) => auth.getSessionUser())
      .catch(() => null)
      .then((user) => {
        if (active) setState(user ? { status: 'signed-in', user } : SIGNED_OUT);
      });
    return () => {
      active = false;
    };
  }, []);

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let active = true;
    loadAuth().then(
      (auth) => {
        if (!active) return;
        unsubscribe = auth.onSessionRevoked(() => {
          endedUnderThem();
          forgetPerson();
          setState(SIGNED_OUT);
        });
      },
      () => undefined,
    );
    return () => {
      active = false;
      unsubscribe?.();
    };
  }, [forgetPerson, endedUnderThem]);

  // Amplify's cookies are shared by every tab: another tab may have signed out, or signed someone
  // else in. When this tab is seen again, the stored session must still be its person's; otherwise
  // their screen and cached data go (Amplify's own sign-out would end the other tab's session too).
  useEffect(() => {
    if (!signedInAs) return;
    let active = true;
    const recheck = () => {
      if (document.visibilityState !== 'visible') return;
      void loadAuth()
        .then((auth) => auth.getSessionUser())
        .then(
          (user) => {
            if (!active || user?.userId === signedInAs) return;
            // No user read while this app's cookies are still there: the read failed (offline, a
            // refresh that could not be made), which the refresh's own failure handling decides on.
            if (!user && hasStoredSession(getWebConfig().userPoolClientId, document.cookie)) return;
            active = false;
            endedUnderThem();
            forgetPerson();
            setState(SIGNED_OUT);
          },
          () => undefined, // Amplify could not be fetched: nothing is known, so nothing changes.
        );
    };
    document.addEventListener('visibilitychange', recheck);
    window.addEventListener('focus', recheck);
    return () => {
      active = false;
      document.removeEventListener('visibilitychange', recheck);
      window.removeEventListener('focus', recheck);
    };
  }, [signedInAs, forgetPerson, endedUnderThem]);

  const completePasskeySignIn = useCallback(
    async (proof: PasskeyProof) => {
      try {
        const user = await signInWithProof(proof);
        // Cached data belongs to whoever was signed in before.
        forgetPerson();
        setState({ status: 'signed-in', user });
        return user;
      } catch (error) {
        // Whoever was signed in before is signed out now (signInWithPasskeyProof signs them
        // out first), so their cached data must go as well.
        forgetPerson();
        setState(SIGNED_OUT);
        throw error;
      }
    },
    [forgetPerson],
  );

  const signOut = useCallback(async () => {
    // On purpose: a 401 meanwhile (a read the server sign-out refused) is not a session that ended.
    signedInUser.current = undefined;
    // The id token stays valid for minutes: the API must refuse it before the tokens are dropped.
    await endServerSession();
    try {
      await (await loadAuth()).signOut();
    } catch {
      // The server side is best effort; locally the person is signed out regardless.
    }
    forgetPerson();
    setState(SIGNED_OUT);
  }, [forgetPerson]);

  // The API refused the session (disabled, deleted, reset, roles changed): sign out for real.
  useEffect(
    () =>
      onSessionEnded(() => {
        endedUnderThem();
        void signOut();
      }),
    [signOut, endedUnderThem],
  );

  const value = useMemo(
    () => ({ state, completePasskeySignIn, signOut }),
    [state, completePasskeySignIn, signOut],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

export const useAuth = (): AuthContextValue => {
  const value = use(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
};

/** The signed-in user, for screens that only render behind the sign-in guard. */
export const useSessionUser = (): SessionUser => {
  const { state } = useAuth();
  if (state.status !== 'signed-in') throw new Error('useSessionUser must be used behind the sign-in guard');
  return state.user;
};
