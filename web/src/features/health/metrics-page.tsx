import { useMemo, useState, type ReactNode } from 'react';
import type { MeasurementSystem } from '../../../../shared/health';
import { HEALTH_MESSAGES } from '../../../../shared/health-messages';
import { Alert } from '../../components/alert';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { errorMessage } from '../../lib/errors';
import { useDeleteLog } from './api/delete-log';
import { useDeleteMeasurement } from './api/delete-measurement';
import { useLogsSince } from './api/get-logs';
import { useMeasurementsSince } from './api/get-measurements';
import { ExportRecords } from './components/export-records';
import { PeriodSelector } from './components/period-selector';
import { ProgressCharts } from './components/progress-charts';
import { RecentEntries } from './components/recent-entries';
import { TargetRanges } from './components/target-ranges';
import { mergeEntries, type Entry } from './entries';
import { DEFAULT_PERIOD, periodStart, type PeriodDays } from './period';

/** Not worded by SPEC-2 (docs/decisions/041-health-screens.md). */
const DELETE_FAILED = 'Could not delete the entry. Please try again.';
const LOAD_FAILED = 'Could not load your entries';

/** Metrics & Analytics: targets, progress charts and recent entries over 7, 30 or 90 days, export. */
export function MetricsPage({ measurementSystem }: { measurementSystem: MeasurementSystem }) {
  const [days, setDays] = useState<PeriodDays>(DEFAULT_PERIOD);
  const from = useMemo(() => periodStart(days), [days]);
  const measurements = useMeasurementsSince(from);
  const logs = useLogsSince(from);
  const removeMeasurement = useDeleteMeasurement();
  const removeLog = useDeleteLog();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const entries = useMemo(
    () => mergeEntries(measurements.data?.items ?? [], logs.data?.items ?? []),
    [measurements.data, logs.data],
  );

  const onDelete = (entry: Entry) => {
    if (!window.confirm(HEALTH_MESSAGES.confirmDeleteEntry)) return;
    setDeleteError(null);
    setStatus('');
    const callbacks = {
      onSuccess: () => setStatus('Entry deleted'),
      onError: (error: Error) => setDeleteError(errorMessage(error, DELETE_FAILED)),
    };
    if (entry.source === 'measurement') removeMeasurement.mutate(entry.id, callbacks);
    else removeLog.mutate(entry.id, callbacks);
  };
  const deletingId =
    (removeMeasurement.isPending && removeMeasurement.variables) ||
    (removeLog.isPending && removeLog.variables) ||
    null;

  const loadError = measurements.error ?? logs.error;
  const retry = () => void Promise.all([measurements.refetch(), logs.refetch()]);
  // One alert for both sections; each section says briefly that it has nothing to show.
  const body = (content: () => ReactNode) =>
    loadError ? (
      <p className="muted">{LOAD_FAILED}.</p>
    ) : measurements.isPending || logs.isPending ? (
      <Spinner />
    ) : (
      content()
    );
  const partial = measurements.data?.complete === false || logs.data?.complete === false;

  return (
    <>
      <PageHeader title="Metrics & Analytics" description="Track your markers against healthy targets." />
      <TargetRanges />
      <PeriodSelector value={days} onChange={setDays} />
      {loadError && (
        <Alert tone="error" title={LOAD_FAILED}>
          <p>{errorMessage(loadError, 'Please try again.')}</p>
          <button type="button" className="button button--secondary button--small" onClick={retry}>
            Try again
          </button>
        </Alert>
      )}
      {partial && (
        <Alert tone="info">
          <p>This period holds more entries than can be shown at once; the oldest are left out.</p>
        </Alert>
      )}
      <section className="card" aria-labelledby="metrics-charts-title">
        <h2 id="metrics-charts-title" className="card__title">
          Progress Charts
        </h2>
        {body(() => (
          <ProgressCharts measurements={measurements.data?.items ?? []} system={measurementSystem} />
        ))}
      </section>
      <section className="card" aria-labelledby="metrics-entries-title">
        <h2 id="metrics-entries-title" className="card__title">
          Recent Entries
        </h2>
        {deleteError && (
          <Alert tone="error" onDismiss={() => setDeleteError(null)} dismissLabel="Dismiss error">
            <p>{deleteError}</p>
          </Alert>
        )}
        <p className="save-status" role="status">
          {status}
        </p>
        {body(() => (
          <RecentEntries
            entries={entries}
            system={measurementSystem}
            onDelete={onDelete}
            deletingId={deletingId}
          />
        ))}
      </section>
      <ExportRecords />
    </>
  );
}
