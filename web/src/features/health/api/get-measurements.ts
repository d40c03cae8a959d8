import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIST_LIMIT, type MeasurementType } from '../../../../../shared/health';
import {
  measurementPageSchema,
  type Measurement,
  type MeasurementPage,
} from '../../../../../shared/health-schemas';
import { apiRequest } from '../../../lib/api-client';
import { collectPages, listPath, type Collected, type RecordRange } from './list-pages';
import { cacheOf, OWN_RECORDS, type RecordSource } from './record-source';

/** Every query of the person's own measurements starts with this key, so one invalidation refreshes them all. */
export const measurementsQueryKey = ['health', 'measurements'] as const;

/** `measurementsQueryKey` for the person's own; a client's start with the client's id. */
const measurementsKeyOf = (source: RecordSource) => [...source.keyPrefix, 'measurements'];

export interface MeasurementListQuery {
  type?: MeasurementType;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

/** One page of GET {base}/measurements, newest `takenAt` first. */
export const getMeasurementPage = (
  query: MeasurementListQuery,
  source: RecordSource = OWN_RECORDS,
): Promise<MeasurementPage> =>
  apiRequest(listPath(`${source.basePath}/measurements`, { ...query }), { schema: measurementPageSchema });

/** Every measurement taken in `range` (bounded: see `collectPages`). */
export const getMeasurementsIn = (
  range: RecordRange,
  source: RecordSource = OWN_RECORDS,
): Promise<Collected<Measurement>> =>
  collectPages((cursor) => getMeasurementPage({ ...range, limit: LIST_LIMIT.max, cursor }, source));

export const measurementsInQueryOptions = (range: RecordRange, source: RecordSource = OWN_RECORDS) =>
  queryOptions({
    queryKey: [...measurementsKeyOf(source), 'in', range],
    queryFn: () => getMeasurementsIn(range, source),
    ...cacheOf(source),
  });

/** Every measurement in `range`; read only while `enabled`. */
export const useMeasurementsIn = (range: RecordRange, source: RecordSource = OWN_RECORDS, enabled = true) =>
  useQuery({ ...measurementsInQueryOptions(range, source), enabled });
