import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { invitationsQueryKey } from './get-invitations';
import {
  coachClientsQueryKey,
  invalidateEvents,
  myCoachQueryKey,
  usersQueryKey,
} from '../../../lib/query-keys';

/**
 * After a change to a person: reads the people again, and marks the events stale (the change wrote one
 * the Audit Log, and 'Recent activity' when the admin is its subject, must show when next opened), and
 * the admin's own coaching: a disable, a delete, a role change or an assignment may begin or end
 * coaching, and the admin may be the coach (My Clients) or the client (My Coach) concerned.
 */
export const invalidatePeople = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: usersQueryKey }),
    queryClient.invalidateQueries({ queryKey: coachClientsQueryKey }),
    queryClient.invalidateQueries({ queryKey: myCoachQueryKey }),
    invalidateEvents(queryClient),
  ]);

/** `invalidatePeople`, and the invitations: an invitation and the person it became share a row. */
export const invalidateAdminLists = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: invitationsQueryKey }),
    invalidatePeople(queryClient),
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
