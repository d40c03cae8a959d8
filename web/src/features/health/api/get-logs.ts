import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIST_LIMIT, type LogKind } from '../../../../../shared/health';
import { logPageSchema, type HealthLog, type LogPage } from '../../../../../shared/health-schemas';
import { apiRequest } from '../../../lib/api-client';
import { collectPages, listPath, type Collected } from './list-pages';
import { OWN_RECORDS, type RecordSource } from './record-source';

/** Every query of the person's own daily logs starts with this key. */
export const logsQueryKey = ['health', 'logs'] as const;

/** `logsQueryKey` for the person's own; a client's start with the client's id. */
const logsKeyOf = (source: RecordSource) => [...source.keyPrefix, 'logs'];

export interface LogListQuery {
  kind?: LogKind;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

/** One page of GET {base}/logs, newest first. */
export const getLogPage = (query: LogListQuery, source: RecordSource = OWN_RECORDS): Promise<LogPage> =>
  apiRequest(listPath(`${source.basePath}/logs`, { ...query }), { schema: logPageSchema });

/** Every meal, activity and sleep logged since `from` (bounded: see `collectPages`). */
export const getLogsSince = (
  from: string,
  source: RecordSource = OWN_RECORDS,
): Promise<Collected<HealthLog>> =>
  collectPages((cursor) => getLogPage({ from, limit: LIST_LIMIT.max, cursor }, source));

export const logsSinceQueryOptions = (from: string, source: RecordSource = OWN_RECORDS) =>
  queryOptions({
    queryKey: [...logsKeyOf(source), 'since', from],
    queryFn: () => getLogsSince(from, source),
  });

export const useLogsSince = (from: string, source: RecordSource = OWN_RECORDS) =>
  useQuery(logsSinceQueryOptions(from, source));
