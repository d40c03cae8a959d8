import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import {
  invitationListQuerySchema,
  invitationListSchema,
  type InvitationList,
} from '../../../../../shared/directory';
import { apiRequest, validateRequest } from '../../../lib/api-client';
import { DIRECTORY_PAGE_SIZE } from './get-users';

export const invitationsQueryKey = ['admin', 'invitations'] as const;

interface InvitationsPageQuery {
  /** Email prefix, already lowercased ('' for none). */
  q: string;
  cursor?: string | undefined;
}

/**
 * One page of the invitations not taken up (`status=pending`: pending and expired), newest first,
 * or by email with `q`.
 */
export const getOpenInvitationsPage = ({ q, cursor }: InvitationsPageQuery): Promise<InvitationList> => {
  const query = {
    status: 'pending',
    limit: String(DIRECTORY_PAGE_SIZE),
    ...(q && { q }),
    ...(cursor !== undefined && { cursor }),
  };
  validateRequest(invitationListQuerySchema, query);
  return apiRequest(`/internal/v1/admin/invitations?${new URLSearchParams(query).toString()}`, {
    schema: invitationListSchema,
  });
};

/** A page and the search it answers (see PeoplePage). */
export interface InvitationsPage extends InvitationList {
  q: string;
}

export const openInvitationsQueryOptions = (q: string) =>
  infiniteQueryOptions({
    queryKey: [...invitationsQueryKey, 'open', { q }],
    queryFn: async ({ pageParam }): Promise<InvitationsPage> => ({
      ...(await getOpenInvitationsPage({ q, cursor: pageParam })),
      q,
    }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });

/** The open-invitations stream of User Management, page by page. */
export const useOpenInvitations = (q: string) => useInfiniteQuery(openInvitationsQueryOptions(q));
