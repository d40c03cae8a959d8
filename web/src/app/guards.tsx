import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import type { Role } from '../../../shared/constants';
import { FullPageSpinner } from '../components/spinner';
import { paths } from '../config/paths';
import { useAuth } from '../lib/auth/auth-provider';
import { afterSignIn, comeBackAfterSignIn, forgetComeBack, isComeBack } from '../lib/auth/return-to';
import { forgetSessionEnded, sessionEndedFor } from '../lib/auth/session-ended';
import { hasAnyRole } from '../lib/auth/session-user';

/** Signed-in only: 'Loading...' while the session resolves, /signin when there is none. */
export function RequireAuth() {
  const { state } = useAuth();
  const { pathname, search } = useLocation();
  // A page reached signed in: any return 'Sign in again' asked for is done (both the sign-in page and
  // GuestOnly read it until then, so they send the person to the same place), and so is /signin's
  // word that a session ended.
  const signedIn = state.status === 'signed-in';
  useEffect(() => {
    if (signedIn) {
      forgetComeBack();
      forgetSessionEnded();
    }
  }, [signedIn]);
  if (state.status === 'loading') return <FullPageSpinner />;
  if (state.status === 'signed-out') {
    // The session ended under the person on this page: their next sign-in comes back here.
    const endedFor = sessionEndedFor();
    if (endedFor !== undefined) comeBackAfterSignIn(`${pathname}${search}`, endedFor);
    return <Navigate to={paths.signin} replace />;
  }
  return <Outlet />;
}

/** Needs one of the roles, else /unauthorized. Sits inside RequireAuth. */
export function RequireRole({ anyOf }: { anyOf: readonly Role[] }) {
  const { state } = useAuth();
  const { pathname, search } = useLocation();
  if (state.status !== 'signed-in') return <Navigate to={paths.signin} replace />;
  if (!hasAnyRole(state.user, anyOf)) {
    // Brought back to the page they were on when their session ended, which their roles no longer open.
    const cameBack = isComeBack(`${pathname}${search}`, state.user.userId);
    return <Navigate to={cameBack ? paths.dashboard : paths.unauthorized} replace />;
  }
  return <Outlet />;
}

/** /signin is for signed-out visitors; a signed-in one goes to the dashboard (or back: 'Sign in again'). */
export function GuestOnly() {
  const { state } = useAuth();
  if (state.status === 'loading') return <FullPageSpinner />;
  if (state.status === 'signed-in') return <Navigate to={afterSignIn(state.user.userId)} replace />;
  return <Outlet />;
}
