import { useMutation } from '@tanstack/react-query';
import { deleteMeRequestSchema } from '../../../../../shared/account';
import { apiRequest, validateRequest } from '../../../lib/api-client';

/** Erases the account and everything it holds (204); 409 for the last admin. */
export const deleteAccount = (confirmEmail: string): Promise<void> =>
  apiRequest('/v1/users/me', {
    method: 'DELETE',
    body: validateRequest(deleteMeRequestSchema, { confirmEmail }),
  });

// Nothing to refresh afterwards: the caller signs out, which clears the cache.
export const useDeleteAccount = () => useMutation({ mutationFn: deleteAccount, retry: false });
