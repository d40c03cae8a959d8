import { queryOptions, useQuery } from '@tanstack/react-query';
import { invitationListSchema, type Invitation } from '../../../../../shared/schemas';
import { apiRequest } from '../../../lib/api-client';

export const invitationsQueryKey = ['admin', 'invitations'] as const;

export const getInvitations = async (): Promise<Invitation[]> =>
  (await apiRequest('/internal/v1/admin/invitations', { schema: invitationListSchema })).invitations;

export const invitationsQueryOptions = () =>
  queryOptions({ queryKey: invitationsQueryKey, queryFn: getInvitations });

export const useInvitations = () => useQuery(invitationsQueryOptions());
