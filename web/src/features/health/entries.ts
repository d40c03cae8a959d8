import {
  targetStatus,
  TARGET_LABELS,
  type MeasurementSystem,
  type TargetStatus,
} from '../../../../shared/health';
import { logTime, type HealthLog, type Measurement } from '../../../../shared/health-schemas';
import {
  CONTEXT_LABELS,
  displayReading,
  formatDuration,
  INTENSITY_LABELS,
  measurementLabel,
} from './health-format';

export type Entry =
  | { source: 'measurement'; id: string; at: string; measurement: Measurement }
  | { source: 'log'; id: string; at: string; log: HealthLog };

/** Measurements and daily logs in one list, newest first (by when it happened, not when it was typed). */
export const mergeEntries = (measurements: readonly Measurement[], logs: readonly HealthLog[]): Entry[] =>
  [
    ...measurements.map((measurement): Entry => ({
      source: 'measurement',
      id: measurement.measurementId,
      at: measurement.takenAt,
      measurement,
    })),
    ...logs.map((log): Entry => ({ source: 'log', id: log.logId, at: logTime(log), log })),
  ].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));

/** Where a reading stands against its SPEC target; glucose is judged only when taken fasting. */
export const measurementTarget = (measurement: Measurement): Exclude<TargetStatus, 'in'> | undefined => {
  const status = targetStatus(measurement.type, measurement.value, measurement.context);
  return status === 'above' || status === 'below' ? status : undefined;
};

export const targetLabel = (measurement: Measurement): string | undefined => {
  const status = measurementTarget(measurement);
  return status && TARGET_LABELS[status];
};

export interface EntrySummary {
  title: string;
  detail: string;
}

const logSummary = (log: HealthLog): EntrySummary => {
  switch (log.kind) {
    case 'meal':
      return {
        title: 'Meal',
        detail: [log.description, log.carbsGrams === undefined ? '' : `${log.carbsGrams} g carbs`]
          .filter(Boolean)
          .join(' · '),
      };
    case 'activity':
      return {
        title: 'Activity',
        detail: `${log.activity} · ${log.minutes} min · ${INTENSITY_LABELS[log.intensity]}`,
      };
    case 'sleep':
      return {
        title: 'Sleep',
        detail: [
          formatDuration(Date.parse(log.end) - Date.parse(log.start)),
          log.quality === undefined ? '' : `quality ${log.quality} of 5`,
        ]
          .filter(Boolean)
          .join(' · '),
      };
  }
};

/** The title and one-line detail of an entry, values in the person's units. */
export const summarize = (entry: Entry, system: MeasurementSystem): EntrySummary => {
  if (entry.source === 'log') return logSummary(entry.log);
  const { measurement } = entry;
  const { value, unit } = displayReading(measurement, system);
  const context = measurement.context && CONTEXT_LABELS[measurement.context];
  return {
    title: measurementLabel(measurement.type),
    detail: [`${value} ${unit}`, context].filter(Boolean).join(' · '),
  };
};
