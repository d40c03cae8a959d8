import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteResource } from '../../../lib/api-client';
import { refreshPasskeys } from '../passkey-signal';

/**
 * 204; 409 for the only passkey, 401 when the sign-in is older than 10 minutes. Gone already (404)
 * is done too.
 */
export const removePasskey = (credentialId: string): Promise<void> =>
  deleteResource(`/v1/users/me/passkeys/${encodeURIComponent(credentialId)}`);

/** Names the removals under way (`queryClient.isMutating`). */
export const removePasskeyMutationKey = ['passkeys', 'remove'] as const;

// The list is read again either way: a refusal may mean it changed meanwhile.
export const useRemovePasskey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: removePasskeyMutationKey,
    mutationFn: removePasskey,
    onSettled: () => refreshPasskeys(queryClient),
  });
};
