import { useMutation } from '@tanstack/react-query';
import { useAuth } from '../../../lib/auth/auth-provider';

const loadSequence = () => import('./run-passkey-sign-in');

/**
 * Fetches the sign-in code as soon as the person shows intent (hover, focus, touch), so the
 * click does not wait for it; the first load of /signin stays small (docs/decisions/022).
 */
export const preloadPasskeySignIn = (): void => {
  void loadSequence();
};

/** Never retried: a retry would prompt the person again, and each session is single use. */
export const useSignInWithPasskey = () => {
  const { completePasskeySignIn } = useAuth();
  return useMutation({
    mutationFn: async () => (await loadSequence()).runPasskeySignIn(completePasskeySignIn),
    retry: false,
  });
};
