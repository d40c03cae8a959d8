import { useState } from 'react';
import type { MeasurementSystem } from '../../../../shared/health';
import { HEALTH_MESSAGES } from '../../../../shared/health-messages';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { useLatestMeasurements } from './api/get-latest-measurements';
import { ActivityDialog } from './components/activity-dialog';
import { MealDialog } from './components/meal-dialog';
import { MeasurementDialog } from './components/measurement-dialog';
import { MeasurementTiles, TILES } from './components/measurement-tiles';
import { SleepDialog } from './components/sleep-dialog';
import { formatDate } from './health-format';
import { beforePeriod } from './period';
import { LoadFailed } from '../../components/load-failed';

type DialogName = 'meal' | 'activity' | 'sleep' | 'measurement';

const LOG_BUTTONS: readonly { dialog: DialogName; label: string }[] = [
  { dialog: 'meal', label: 'Log Meal' },
  { dialog: 'activity', label: 'Log Activity' },
  { dialog: 'sleep', label: 'Log Sleep' },
];

const TILE_TYPES = TILES.map((tile) => tile.type);

/**
 * Not worded by SPEC-2 (docs/decisions/041-health-screens.md): a save dated before the period
 * Metrics & Analytics shows (a mistyped year, say) would otherwise appear nowhere, unexplained.
 */
const savedBeforePeriod = (date: string) =>
  `Entry saved. It is dated ${date}, before the period Metrics & Analytics shows.`;

/** Health Overview: log meals, activity, sleep and measurements; the latest readings as tiles. */
export function HealthPage({ measurementSystem }: { measurementSystem: MeasurementSystem }) {
  const [open, setOpen] = useState<DialogName | null>(null);
  const [status, setStatus] = useState('');
  const readings = useLatestMeasurements(TILE_TYPES);

  const openDialog = (dialog: DialogName) => {
    setStatus('');
    setOpen(dialog);
  };
  const close = () => setOpen(null);
  /** `at`: when the saved record happened. */
  const saved = (at: string) => {
    setOpen(null);
    setStatus(beforePeriod(at) ? savedBeforePeriod(formatDate(at)) : HEALTH_MESSAGES.entrySaved);
  };

  return (
    <>
      <PageHeader title="Health Overview" description="Your latest readings in one place." />
      <section className="section" aria-labelledby="health-log-title">
        <h2 id="health-log-title" className="section__title">
          Log today
        </h2>
        <div className="button-row">
          <button type="button" className="button button--primary" onClick={() => openDialog('measurement')}>
            Log Measurement
          </button>
          {LOG_BUTTONS.map(({ dialog, label }) => (
            <button
              key={dialog}
              type="button"
              className="button button--secondary"
              onClick={() => openDialog(dialog)}
            >
              {label}
            </button>
          ))}
        </div>
        {/* Always in the page, so the confirmation is announced when its text appears. */}
        <p className="save-status" role="status">
          {status}
        </p>
      </section>
      <section className="section" aria-labelledby="health-readings-title">
        <h2 id="health-readings-title" className="section__title">
          Latest readings
        </h2>
        {readings.error ? (
          <LoadFailed
            title="Could not load your readings"
            error={readings.error}
            onRetry={readings.refetch}
          />
        ) : readings.isPending ? (
          <Spinner />
        ) : (
          <MeasurementTiles latest={readings.latest} system={measurementSystem} />
        )}
      </section>
      {open === 'measurement' && (
        <MeasurementDialog system={measurementSystem} onClose={close} onSaved={saved} />
      )}
      {open === 'meal' && <MealDialog onClose={close} onSaved={saved} />}
      {open === 'activity' && <ActivityDialog onClose={close} onSaved={saved} />}
      {open === 'sleep' && <SleepDialog onClose={close} onSaved={saved} />}
    </>
  );
}
