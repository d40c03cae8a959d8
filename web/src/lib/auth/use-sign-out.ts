import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useAuth } from './auth-provider';

/** Signs out, then lands on /signin (the sidebar's Sign Out, and wherever a fresh sign-in is needed). */
export const useSignOutToSignIn = (): (() => Promise<void>) => {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  return useCallback(async () => {
    await signOut();
    await navigate(paths.signin, { replace: true });
  }, [signOut, navigate]);
};
