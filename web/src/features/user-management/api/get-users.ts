import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import {
  adminUserListQuerySchema,
  adminUserListSchema,
  type AdminUserList,
} from '../../../../../shared/directory';
import type { AdminUserListItem } from '../../../../../shared/schemas';
import { apiRequest, validateRequest } from '../../../lib/api-client';
import { usersQueryKey } from '../../../lib/query-keys';

/** People per page: within the server's 1 to 200. */
export const DIRECTORY_PAGE_SIZE = 50;
/** Per page when every page is read (the coaches): the server's largest. */
const WHOLE_LIST_PAGE_SIZE = 200;
/** Matches a people picker offers for a search (the Audit Log's Person filter): the first by email. */
export const MATCHES_LIMIT = 20;

/** Where one person's admin routes live (coach, roles, recovery, disable, enable, delete). */
export const adminUserPath = (userId: string): string =>
  `/internal/v1/admin/users/${encodeURIComponent(userId)}`;

interface UsersPageQuery {
  /** Email prefix, already lowercased ('' for none). */
  q?: string;
  role?: 'coaches';
  cursor?: string | undefined;
  limit?: number;
}

/** One page of GET /internal/v1/admin/users: newest first, or by email with `q`; `counts` on every page. */
export const getUsersPage = ({ q, role, cursor, limit }: UsersPageQuery): Promise<AdminUserList> => {
  const query = {
    limit: String(limit ?? DIRECTORY_PAGE_SIZE),
    ...(q && { q }),
    ...(role && { role }),
    ...(cursor !== undefined && { cursor }),
  };
  validateRequest(adminUserListQuerySchema, query);
  return apiRequest(`/internal/v1/admin/users?${new URLSearchParams(query).toString()}`, {
    schema: adminUserListSchema,
  });
};

/** Every page of one listing, following `nextCursor` to the end. */
export const getAllUsers = async (query: Omit<UsersPageQuery, 'cursor'>): Promise<AdminUserListItem[]> => {
  const users: AdminUserListItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await getUsersPage({ ...query, cursor, limit: WHOLE_LIST_PAGE_SIZE });
    users.push(...page.users);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return users;
};

/** A page and the search it answers, so a page kept on screen while the next search loads is merged in its own order. */
export interface PeoplePage extends AdminUserList {
  q: string;
}

export const peopleQueryOptions = (q: string) =>
  infiniteQueryOptions({
    queryKey: [...usersQueryKey, 'people', { q }],
    queryFn: async ({ pageParam }): Promise<PeoplePage> => ({
      ...(await getUsersPage({ q, cursor: pageParam })),
      q,
    }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    // The last answer stays on screen while another search loads.
    placeholderData: keepPreviousData,
  });

/** The people stream of User Management, page by page ('Load more' follows `nextCursor`). */
export const usePeople = (q: string) => useInfiniteQuery(peopleQueryOptions(q));

export const coachesQueryOptions = () =>
  queryOptions({
    queryKey: [...usersQueryKey, 'coaches'],
    queryFn: () => getAllUsers({ role: 'coaches' }),
  });

/** Every member of `coaches`: the coach picker and the Coach column's names. */
export const useCoaches = () => useQuery(coachesQueryOptions());

export const userMatchesQueryOptions = (q: string) =>
  queryOptions({
    queryKey: [...usersQueryKey, 'matches', { q }],
    queryFn: () => getUsersPage({ q, limit: MATCHES_LIMIT }),
    enabled: q !== '',
    // The last matches stay offered while another search loads.
    placeholderData: keepPreviousData,
  });

/** The first people whose email starts with `q` (none read for ''): a picker's matches, never the whole list. */
export const useUserMatches = (q: string) => useQuery(userMatchesQueryOptions(q));
