import { useMemo } from 'react';
import type { Measurement } from '../../../../../shared/health-schemas';
import { mergeEntries, type Entry } from '../entries';
import { useLogsIn } from './get-logs';
import { useMeasurementsIn } from './get-measurements';
import type { RecordRange } from './list-pages';
import type { RecordSource } from './record-source';

const NO_MEASUREMENTS: readonly Measurement[] = [];

export interface EntriesIn {
  /** The measurements alone, for the charts. */
  measurements: readonly Measurement[];
  /** Measurements and logs in one list, newest first. */
  entries: Entry[];
  /** The first of the two reads' errors: one alert serves both. */
  error: Error | null;
  /** Either read has not answered yet. */
  pending: boolean;
  /** A bound stopped either read before its last page: the oldest are left out. */
  partial: boolean;
  /** Reads both again. */
  retry: () => void;
}

/** One person's measurements and daily logs in `range`, read together; read only while `enabled`. */
export const useEntriesIn = (range: RecordRange, source: RecordSource, enabled = true): EntriesIn => {
  const measurements = useMeasurementsIn(range, source, enabled);
  const logs = useLogsIn(range, source, enabled);
  const entries = useMemo(
    () => mergeEntries(measurements.data?.items ?? [], logs.data?.items ?? []),
    [measurements.data, logs.data],
  );
  return {
    measurements: measurements.data?.items ?? NO_MEASUREMENTS,
    entries,
    error: measurements.error ?? logs.error,
    pending: measurements.isPending || logs.isPending,
    partial: measurements.data?.complete === false || logs.data?.complete === false,
    retry: () => void Promise.all([measurements.refetch(), logs.refetch()]),
  };
};
