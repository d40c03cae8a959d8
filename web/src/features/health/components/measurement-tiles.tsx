import { displayUnit, type MeasurementSystem, type MeasurementType } from '../../../../../shared/health';
import type { Measurement } from '../../../../../shared/health-schemas';
import { HEALTH_MESSAGES } from '../../../../../shared/health-messages';
import { CONTEXT_LABELS, displayReading, formatDate } from '../health-format';

/** The four tiles of SPEC's Health Overview. */
export const TILES: readonly { type: MeasurementType; title: string }[] = [
  { type: 'glucose', title: 'Blood Glucose' },
  { type: 'weight', title: 'Weight' },
  { type: 'waist', title: 'Waist Circumference' },
  { type: 'blood_pressure', title: 'Blood Pressure' },
];

interface MeasurementTilesProps {
  /** The newest reading per type; null or absent: none yet. */
  latest: Partial<Record<MeasurementType, Measurement | null>>;
  system: MeasurementSystem;
}

/** The latest value of each tile in the person's units, with its date (data in, nothing fetched). */
export function MeasurementTiles({ latest, system }: MeasurementTilesProps) {
  return (
    <ul className="metric-grid">
      {TILES.map(({ type, title }) => {
        const reading = latest[type];
        const shown = reading && displayReading(reading, system);
        return (
          <li key={type} className="metric-tile">
            <h3 className="metric-tile__title">{title}</h3>
            {shown ? (
              <>
                <p className="metric-tile__value">
                  {shown.value} <span className="metric-tile__unit">{shown.unit}</span>
                </p>
                <p className="metric-tile__hint">
                  <time dateTime={reading.takenAt}>{formatDate(reading.takenAt)}</time>
                  {reading.context && ` · ${CONTEXT_LABELS[reading.context]}`}
                </p>
              </>
            ) : (
              <>
                <p className="metric-tile__value" aria-hidden="true">
                  -- <span className="metric-tile__unit">{displayUnit(type, system)}</span>
                </p>
                <p className="metric-tile__hint">{HEALTH_MESSAGES.noEntries}</p>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
