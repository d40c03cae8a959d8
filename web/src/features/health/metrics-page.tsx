import { useState } from 'react';
import type { MeasurementSystem } from '../../../../shared/health';
import { HEALTH_MESSAGES } from '../../../../shared/health-messages';
import { Alert } from '../../components/alert';
import { PageHeader } from '../../components/page-header';
import { errorMessage } from '../../lib/errors';
import { useUnderWay } from '../../lib/use-under-way';
import { useDeleteLog } from './api/delete-log';
import { useDeleteMeasurement } from './api/delete-measurement';
import { OWN_RECORDS } from './api/record-source';
import { ExportRecords } from './components/export-records';
import { PeriodRecords } from './components/period-records';
import { TargetRanges } from './components/target-ranges';
import type { Entry } from './entries';

/** Not worded by SPEC-2 (docs/decisions/041-health-screens.md). */
const DELETE_FAILED = 'Could not delete the entry. Please try again.';
const LOAD_FAILED = 'Could not load your entries';

/** Metrics & Analytics: targets, progress charts and recent entries over 7, 30 or 90 days, export. */
export function MetricsPage({ measurementSystem }: { measurementSystem: MeasurementSystem }) {
  const removeMeasurement = useDeleteMeasurement();
  const removeLog = useDeleteLog();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  // Several deletes may be under way (one entry need not wait for another), each settling its own button.
  const { underWay: deleting, run } = useUnderWay<'delete'>();

  const onDelete = (entry: Entry) => {
    if (!window.confirm(HEALTH_MESSAGES.confirmDeleteEntry)) return;
    setDeleteError(null);
    setStatus('');
    const remove = entry.source === 'measurement' ? removeMeasurement : removeLog;
    void run(entry.id, 'delete', remove.mutateAsync(entry.id)).then(
      () => setStatus('Entry deleted'),
      (error: unknown) => setDeleteError(errorMessage(error, DELETE_FAILED)),
    );
  };

  return (
    <>
      <PageHeader title="Metrics & Analytics" description="Track your markers against healthy targets." />
      <TargetRanges />
      <PeriodRecords
        source={OWN_RECORDS}
        system={measurementSystem}
        loadFailed={LOAD_FAILED}
        onDelete={onDelete}
        deleting={deleting}
        entriesNotice={
          <>
            {deleteError && (
              <Alert tone="error" onDismiss={() => setDeleteError(null)} dismissLabel="Dismiss error">
                <p>{deleteError}</p>
              </Alert>
            )}
            <p className="save-status" role="status">
              {status}
            </p>
          </>
        }
      />
      <ExportRecords />
    </>
  );
}
