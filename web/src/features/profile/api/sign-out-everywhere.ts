import { useMutation } from '@tanstack/react-query';
import { signOutRequestSchema } from '../../../../../shared/account';
import { apiRequest, validateRequest } from '../../../lib/api-client';

/** Ends every session of the person, on every device, this one included (204). */
export const signOutEverywhere = (): Promise<void> =>
  apiRequest('/v1/users/me/sign-out', {
    method: 'POST',
    body: validateRequest(signOutRequestSchema, { everywhere: true }),
  });

// Nothing to refresh afterwards: the caller signs out, which clears the cache.
export const useSignOutEverywhere = () => useMutation({ mutationFn: signOutEverywhere, retry: false });
