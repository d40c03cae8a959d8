/**
 * What a progress chart shows, computed from the stored readings: one chart per measurement type
 * with data, values in the person's units, the SPEC target band where one applies, and the rows of
 * its text alternative. Pure: the chart library only draws the result.
 */
import {
  displayUnit,
  fromStoredValue,
  MEASUREMENT_TYPES,
  roundForDisplay,
  TARGETS,
  type MeasurementSystem,
  type MeasurementType,
  type MeasurementUnit,
  type Target,
} from '../../../../shared/health';
import type { Measurement } from '../../../../shared/health-schemas';
import { targetLabel } from './entries';
import { CONTEXT_LABELS, displayValue, measurementLabel } from './health-format';

export interface TargetBand {
  /** Absent: the band reaches down to the bottom of the chart ('under ...'). */
  min?: number;
  max: number;
  /** Says in words what the shading means, so it never depends on colour. */
  description: string;
}

export interface ChartRow {
  id: string;
  at: string;
  value: string;
  context?: string;
  /** 'Above target', 'Below target', 'In target', or why no target applies. */
  target?: string;
}

export interface ChartModel {
  type: MeasurementType;
  title: string;
  unit: MeasurementUnit;
  /** Seconds since the epoch, oldest first (what uPlot's time scale takes). */
  times: number[];
  series: { label: string; values: number[] }[];
  band?: TargetBand;
  /** Whether the table has a Context column (glucose). */
  hasContext: boolean;
  /** Whether the table has a Target column (the types SPEC sets a target for). */
  hasTarget: boolean;
  /** The same readings for the table, newest first. */
  rows: ChartRow[];
}

const bandFor = (target: Target, unit: MeasurementUnit): TargetBand => {
  const shown = (value: number) =>
    roundForDisplay(target.type, fromStoredValue(target.type, value, unit), unit);
  const max = shown(target.max);
  const range = target.min === undefined ? `under ${max}` : `${shown(target.min)}-${max}`;
  const space = unit === '%' ? '' : ' ';
  const scope = target.context ? `, ${CONTEXT_LABELS[target.context].toLowerCase()} readings` : '';
  return {
    ...(target.min === undefined ? {} : { min: shown(target.min) }),
    max,
    description: `Shaded band: target ${range}${space}${unit}${scope}.`,
  };
};

const rowTarget = (measurement: Measurement): string => {
  const label = targetLabel(measurement);
  if (label) return label;
  if (measurement.type === 'glucose' && measurement.context !== 'fasting') return 'No target (not fasting)';
  return 'In target';
};

const chartFor = (
  type: MeasurementType,
  newestFirst: Measurement[],
  system: MeasurementSystem,
): ChartModel => {
  const unit = displayUnit(type, system);
  const oldestFirst = [...newestFirst].reverse();
  const numeric = (value: number) => roundForDisplay(type, fromStoredValue(type, value, unit), unit);
  const pick = (key: 'systolic' | 'diastolic') => (m: Measurement) =>
    typeof m.value === 'number' ? Number.NaN : numeric(m.value[key]);
  const series =
    type === 'blood_pressure'
      ? [
          { label: 'Systolic', values: oldestFirst.map(pick('systolic')) },
          { label: 'Diastolic', values: oldestFirst.map(pick('diastolic')) },
        ]
      : [
          {
            label: measurementLabel(type),
            values: oldestFirst.map((m) => (typeof m.value === 'number' ? numeric(m.value) : Number.NaN)),
          },
        ];
  const target = TARGETS.find((t) => t.type === type);
  return {
    type,
    title: measurementLabel(type),
    unit,
    times: oldestFirst.map((m) => Date.parse(m.takenAt) / 1000),
    series,
    ...(target ? { band: bandFor(target, unit) } : {}),
    hasContext: type === 'glucose',
    hasTarget: target !== undefined,
    rows: newestFirst.map((m) => ({
      id: m.measurementId,
      at: m.takenAt,
      value: displayValue(type, m.value, unit),
      ...(m.context ? { context: CONTEXT_LABELS[m.context] } : {}),
      ...(target ? { target: rowTarget(m) } : {}),
    })),
  };
};

/** One chart per type that has readings, in the product's type order. Input: newest first. */
export const buildCharts = (measurements: readonly Measurement[], system: MeasurementSystem): ChartModel[] =>
  MEASUREMENT_TYPES.flatMap((type) => {
    const ofType = measurements
      .filter((m) => m.type === type)
      .sort((a, b) => Date.parse(b.takenAt) - Date.parse(a.takenAt));
    return ofType.length ? [chartFor(type, ofType, system)] : [];
  });
