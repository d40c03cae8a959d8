import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { auditQueryKey } from '../../audit/api/get-audit-events';
import { coachClientsQueryKey } from '../../coaching/api/get-coach-clients';
import { invitationsQueryKey } from './get-invitations';
import { usersQueryKey } from './get-users';

/**
 * Reads both admin lists again (an invitation and the person it became share a row), and marks the
 * Audit Log stale: the change wrote an event it must show when it is next opened. My Clients too: a
 * disable, a delete or a role change may end coaching, and the admin may be a coach of that person.
 */
export const invalidateAdminLists = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: invitationsQueryKey }),
    queryClient.invalidateQueries({ queryKey: usersQueryKey }),
    queryClient.invalidateQueries({ queryKey: auditQueryKey }),
    queryClient.invalidateQueries({ queryKey: coachClientsQueryKey }),
  ]);

/**
 * A change to a person or an invitation. The lists are read again either way: a refusal may mean
 * someone else changed them meanwhile.
 */
export const useAdminListMutation = <Input, Output>(
  mutationFn: (input: Input) => Promise<Output>,
  /** A change after which nothing is read again (its success ended the admin's own session). */
  endsOwnSession: (input: Input) => boolean = () => false,
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: (_data, error, input) =>
      error === null && endsOwnSession(input) ? undefined : invalidateAdminLists(queryClient),
  });
};
