import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { auditPageSchema, type AuditEventType, type AuditPage } from '../../../../../shared/audit';
import { apiRequest } from '../../../lib/api-client';
import { auditQueryKey } from '../../../lib/query-keys';

/** Events per page: the server's default page, asked for explicitly. */
export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilters {
  subjectId?: string;
  actorId?: string;
  type?: AuditEventType;
}

/** One page of GET /internal/v1/admin/audit, newest first; `cursor` continues the same filters. */
export const getAuditPage = (filters: AuditFilters, cursor?: string): Promise<AuditPage> => {
  const query = new URLSearchParams({
    ...filters,
    limit: String(AUDIT_PAGE_SIZE),
    ...(cursor !== undefined && { cursor }),
  });
  return apiRequest(`/internal/v1/admin/audit?${query.toString()}`, { schema: auditPageSchema });
};

export const auditEventsQueryOptions = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: [...auditQueryKey, filters],
    queryFn: ({ pageParam }) => getAuditPage(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The log page by page ('Load more' follows `nextCursor`). */
export const useAuditEvents = (filters: AuditFilters) => useInfiniteQuery(auditEventsQueryOptions(filters));
