import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invitationsQueryKey } from './get-invitations';
import { usersQueryKey } from './get-users';

/** Only pending invitations can be deleted; the answer is empty (204). */
export const deleteInvitation = (email: string): Promise<void> =>
  apiRequest(`/internal/v1/admin/invitations/${encodeURIComponent(email)}`, { method: 'DELETE' });

export const useDeleteInvitation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteInvitation,
    // Refresh either way: a failure may mean someone else already changed the list.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: invitationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: usersQueryKey }),
      ]),
  });
};
