import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIST_LIMIT, type LogKind } from '../../../../../shared/health';
import { logPageSchema, type HealthLog, type LogPage } from '../../../../../shared/health-schemas';
import { apiRequest } from '../../../lib/api-client';
import { collectPages, listPath, type Collected } from './list-pages';

/** Every daily-log query starts with this key. */
export const logsQueryKey = ['health', 'logs'] as const;

export interface LogListQuery {
  kind?: LogKind;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

/** One page of GET /v1/logs, newest first. */
export const getLogPage = (query: LogListQuery): Promise<LogPage> =>
  apiRequest(listPath('/v1/logs', { ...query }), { schema: logPageSchema });

/** Every meal, activity and sleep logged since `from` (bounded: see `collectPages`). */
export const getLogsSince = (from: string): Promise<Collected<HealthLog>> =>
  collectPages((cursor) => getLogPage({ from, limit: LIST_LIMIT.max, cursor }));

export const logsSinceQueryOptions = (from: string) =>
  queryOptions({ queryKey: [...logsQueryKey, 'since', from], queryFn: () => getLogsSince(from) });

export const useLogsSince = (from: string) => useQuery(logsSinceQueryOptions(from));
