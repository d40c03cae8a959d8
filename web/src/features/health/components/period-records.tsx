import { useMemo, useState, type ReactNode } from 'react';
import type { MeasurementSystem } from '../../../../../shared/health';
import { Alert } from '../../../components/alert';
import { Spinner } from '../../../components/spinner';
import type { RecordSource } from '../api/record-source';
import { useEntriesIn } from '../api/use-entries-in';
import type { Entry } from '../entries';
import { DEFAULT_PERIOD, periodStart, type PeriodDays } from '../period';
import { PeriodSelector } from './period-selector';
import { ProgressCharts } from './progress-charts';
import { RecentEntries } from './recent-entries';
import { LoadFailed } from '../../../components/load-failed';
import { OlderEntries } from './older-entries';

interface PeriodRecordsProps {
  /** Whose records: the person's own, or (for their coach) a client's. */
  source: RecordSource;
  system: MeasurementSystem;
  /** The alert title when the period cannot be read. */
  loadFailed: string;
  /** Shown at the top of Recent Entries (the outcome of a delete). */
  entriesNotice?: ReactNode;
  /** Omit for read-only entries (someone else's records). */
  onDelete?: (entry: Entry) => void;
  deleting?: ReadonlyMap<string, unknown>;
}

/**
 * The period selector, Progress Charts and Recent Entries over 7, 30 or 90 days of one person's
 * records, and the entries before on request: Metrics & Analytics for the person's own, the client
 * detail for a coach.
 */
export function PeriodRecords({
  source,
  system,
  loadFailed,
  entriesNotice,
  onDelete,
  deleting,
}: PeriodRecordsProps) {
  const [days, setDays] = useState<PeriodDays>(DEFAULT_PERIOD);
  const from = useMemo(() => periodStart(days), [days]);
  const range = useMemo(() => ({ from }), [from]);
  const { measurements, entries, error: loadError, pending, partial, retry } = useEntriesIn(range, source);
  // One alert for both sections; each section says briefly that it has nothing to show.
  const body = (content: () => ReactNode) =>
    loadError ? <p className="muted">{loadFailed}.</p> : pending ? <Spinner /> : content();

  return (
    <>
      <PeriodSelector value={days} onChange={setDays} />
      {loadError && <LoadFailed title={loadFailed} error={loadError} onRetry={retry} />}
      {partial && (
        <Alert tone="info">
          <p>This period holds more entries than can be shown at once; the oldest are left out.</p>
        </Alert>
      )}
      <section className="card" aria-labelledby="records-charts-title">
        <h2 id="records-charts-title" className="card__title">
          Progress Charts
        </h2>
        {body(() => (
          <ProgressCharts measurements={measurements} system={system} />
        ))}
      </section>
      <section className="card" aria-labelledby="records-entries-title">
        <h2 id="records-entries-title" className="card__title">
          Recent Entries
        </h2>
        {entriesNotice}
        {body(() => (
          <RecentEntries
            entries={entries}
            system={system}
            {...(onDelete && { onDelete, ...(deleting && { deleting }) })}
          />
        ))}
        {/* Kept whatever the period's read does: it reads and fails on its own. */}
        <OlderEntries
          source={source}
          system={system}
          before={from}
          loadFailed={loadFailed}
          {...(onDelete && { onDelete, ...(deleting && { deleting }) })}
        />
      </section>
    </>
  );
}
