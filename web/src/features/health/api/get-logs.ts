import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIST_LIMIT, type LogKind } from '../../../../../shared/health';
import { logPageSchema, type HealthLog, type LogPage } from '../../../../../shared/health-schemas';
import { apiRequest } from '../../../lib/api-client';
import { collectPages, listPath, type Collected, type RecordRange } from './list-pages';
import { cacheOf, OWN_RECORDS, type RecordSource } from './record-source';

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

/** Every meal, activity and sleep logged in `range` (bounded: see `collectPages`). */
export const getLogsIn = (
  range: RecordRange,
  source: RecordSource = OWN_RECORDS,
): Promise<Collected<HealthLog>> =>
  collectPages((cursor) => getLogPage({ ...range, limit: LIST_LIMIT.max, cursor }, source));

export const logsInQueryOptions = (range: RecordRange, source: RecordSource = OWN_RECORDS) =>
  queryOptions({
    queryKey: [...logsKeyOf(source), 'in', range],
    queryFn: () => getLogsIn(range, source),
    ...cacheOf(source),
  });

/** Every log in `range`; read only while `enabled`. */
export const useLogsIn = (range: RecordRange, source: RecordSource = OWN_RECORDS, enabled = true) =>
  useQuery({ ...logsInQueryOptions(range, source), enabled });
