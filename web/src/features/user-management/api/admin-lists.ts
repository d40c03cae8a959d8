import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { invitationsQueryKey } from './get-invitations';
import { usersQueryKey } from './get-users';

/** Reads both admin lists again: an invitation and the person it became share a row. */
export const invalidateAdminLists = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: invitationsQueryKey }),
    queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  ]);

/**
 * A change to a person or an invitation. The lists are read again either way: a refusal may mean
 * someone else changed them meanwhile.
 */
export const useAdminListMutation = <Input, Output>(mutationFn: (input: Input) => Promise<Output>) => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => invalidateAdminLists(queryClient) });
};
