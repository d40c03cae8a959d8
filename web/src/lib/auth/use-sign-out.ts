import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useAuth } from './auth-provider';
import { comeBackAfterSignIn, forgetComeBack } from './return-to';

/**
 * Signs out, then lands on /signin (the sidebar's Sign Out, and wherever a fresh sign-in is needed).
 * With `comeBack`, the same person's next sign-in returns to this page ('Sign in again').
 */
export const useSignOutToSignIn = (): ((options?: { comeBack?: boolean }) => Promise<void>) => {
  const { signOut, state } = useAuth();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const userId = state.status === 'signed-in' ? state.user.userId : undefined;
  return useCallback(
    async ({ comeBack = false } = {}) => {
      if (comeBack && userId !== undefined) comeBackAfterSignIn(`${pathname}${search}`, userId);
      else forgetComeBack();
      await signOut();
      await navigate(paths.signin, { replace: true });
    },
    [signOut, navigate, pathname, search, userId],
  );
};
