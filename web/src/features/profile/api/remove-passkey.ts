import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { refreshPasskeys } from '../passkey-signal';

/** 204; 409 for the only passkey, 401 when the sign-in is older than 10 minutes. */
export const removePasskey = (credentialId: string): Promise<void> =>
  apiRequest(`/v1/users/me/passkeys/${encodeURIComponent(credentialId)}`, { method: 'DELETE' });

// The list is read again either way: a refusal may mean it changed meanwhile.
export const useRemovePasskey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    onSettled: () => refreshPasskeys(queryClient),
  });
};
