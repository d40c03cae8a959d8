import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIST_LIMIT, type MeasurementType } from '../../../../../shared/health';
import {
  measurementPageSchema,
  type Measurement,
  type MeasurementPage,
} from '../../../../../shared/health-schemas';
import { apiRequest } from '../../../lib/api-client';
import { collectPages, listPath, type Collected } from './list-pages';

/** Every measurement query starts with this key, so one invalidation refreshes them all. */
export const measurementsQueryKey = ['health', 'measurements'] as const;

export interface MeasurementListQuery {
  type?: MeasurementType;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

/** One page of GET /v1/measurements, newest `takenAt` first. */
export const getMeasurementPage = (query: MeasurementListQuery): Promise<MeasurementPage> =>
  apiRequest(listPath('/v1/measurements', { ...query }), { schema: measurementPageSchema });

/** Every measurement taken since `from` (bounded: see `collectPages`). */
export const getMeasurementsSince = (from: string): Promise<Collected<Measurement>> =>
  collectPages((cursor) => getMeasurementPage({ from, limit: LIST_LIMIT.max, cursor }));

export const measurementsSinceQueryOptions = (from: string) =>
  queryOptions({
    queryKey: [...measurementsQueryKey, 'since', from],
    queryFn: () => getMeasurementsSince(from),
  });

export const useMeasurementsSince = (from: string) => useQuery(measurementsSinceQueryOptions(from));
