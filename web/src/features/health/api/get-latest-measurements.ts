import { queryOptions, useQueries } from '@tanstack/react-query';
import type { MeasurementType } from '../../../../../shared/health';
import type { Measurement } from '../../../../../shared/health-schemas';
import { getMeasurementPage, measurementsQueryKey } from './get-measurements';

/** The newest measurement of one type, or null when there is none. */
export const getLatestMeasurement = async (type: MeasurementType): Promise<Measurement | null> =>
  (await getMeasurementPage({ type, limit: 1 })).items[0] ?? null;

export const latestMeasurementQueryOptions = (type: MeasurementType) =>
  queryOptions({
    queryKey: [...measurementsQueryKey, 'latest', type],
    queryFn: () => getLatestMeasurement(type),
  });

export interface LatestMeasurements {
  /** The newest reading per type (null: none yet; absent: not loaded). */
  latest: Partial<Record<MeasurementType, Measurement | null>>;
  isPending: boolean;
  error: Error | null;
  refetch: () => void;
}

/** One small call per type (`?type=...&limit=1`): exact however many readings of other types exist. */
export const useLatestMeasurements = (types: readonly MeasurementType[]): LatestMeasurements =>
  useQueries({
    queries: types.map((type) => latestMeasurementQueryOptions(type)),
    combine: (results) => {
      const latest: LatestMeasurements['latest'] = {};
      results.forEach((result, index) => {
        const type = types[index];
        if (type && result.data !== undefined) latest[type] = result.data;
      });
      return {
        latest,
        isPending: results.some((result) => result.isPending),
        error: results.find((result) => result.error)?.error ?? null,
        refetch: () => {
          for (const result of results) if (result.isError) void result.refetch();
        },
      };
    },
  });
