import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { MESSAGES } from '../../../../shared/messages';
import {
  getSessionUser,
  onSessionRevoked,
  signInWithPasskeyProof,
  signOut as cognitoSignOut,
} from './cognito';
import { endServerSession } from './end-session';
import { onSessionEnded } from './session-ended';
import type { SessionUser } from './session-user';

export type AuthState =
  | { status: 'loading'; user: null }
  | { status: 'signed-out'; user: null }
  | { status: 'signed-in'; user: SessionUser };

/** What a passkey ceremony hands over: the server's answer to verify-webauthn or register-passkey. */
export interface PasskeyProof {
  userId: string;
  cognitoUsername: string;
  passkeyProof: string;
}

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

  useEffect(() => {
    let active = true;
    void getSessionUser().then((user) => {
      if (active) setState(user ? { status: 'signed-in', user } : SIGNED_OUT);
    });
    return () => {
      active = false;
    };
  }, []);

  useEffect(
    () =>
      onSessionRevoked(() => {
        queryClient.clear();
        setState(SIGNED_OUT);
      }),
    [queryClient],
  );

  const completePasskeySignIn = useCallback(
    async ({ cognitoUsername, passkeyProof, userId }: PasskeyProof) => {
      try {
        const user = await signInWithPasskeyProof(cognitoUsername, passkeyProof, userId);
        // Cached data belongs to whoever was signed in before.
        queryClient.clear();
        setState({ status: 'signed-in', user });
        return user;
      } catch (error) {
        // Whoever was signed in before is signed out now (signInWithPasskeyProof signs them
        // out first), so their cached data must go as well.
        queryClient.clear();
        setState(SIGNED_OUT);
        throw error instanceof Error && error.message ? error : new Error(MESSAGES.passkeySignInFailed);
      }
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    // The id token stays valid for minutes: the API must refuse it before the tokens are dropped.
    await endServerSession();
    try {
      await cognitoSignOut();
    } catch {
      // The server side is best effort; locally the person is signed out regardless.
    }
    queryClient.clear();
    setState(SIGNED_OUT);
  }, [queryClient]);

  // The API refused the session (disabled, deleted, reset, roles changed): sign out for real.
  useEffect(() => onSessionEnded(() => void signOut()), [signOut]);

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
