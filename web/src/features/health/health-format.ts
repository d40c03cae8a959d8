/**
 * How the health screens word and format records: labels, values in the person's units, dates,
 * and the `datetime-local` round trip. Pure functions, shared by the tiles, dialogs, charts and lists.
 */
import {
  displayUnit,
  formatValue,
  fromStoredValue,
  MEASUREMENTS,
  type ActivityIntensity,
  type GlucoseContext,
  type MeasurementSystem,
  type MeasurementType,
  type MeasurementUnit,
} from '../../../../shared/health';
import type { Measurement } from '../../../../shared/health-schemas';
import { localDate, pad2 } from '../../lib/format';

export const CONTEXT_LABELS: Record<GlucoseContext, string> = {
  fasting: 'Fasting',
  before_meal: 'Before meal',
  after_meal: 'After meal',
  bedtime: 'Bedtime',
  random: 'Random',
};

export const INTENSITY_LABELS: Record<ActivityIntensity, string> = {
  light: 'Light',
  moderate: 'Moderate',
  vigorous: 'Vigorous',
};

export const measurementLabel = (type: MeasurementType): string => MEASUREMENTS[type].label;

/** The value text of a stored reading in `unit`, rounded for display: `152.3`, `128/82`. */
export const displayValue = (
  type: MeasurementType,
  value: Measurement['value'],
  unit: MeasurementUnit,
): string => {
  if (typeof value !== 'number') {
    return `${formatValue(type, value.systolic, unit)}/${formatValue(type, value.diastolic, unit)}`;
  }
  return formatValue(type, fromStoredValue(type, value, unit), unit);
};

/** A reading as the person reads it: value and unit in their measurement system. */
export const displayReading = (measurement: Measurement, system: MeasurementSystem) => {
  const unit = displayUnit(measurement.type, system);
  return { value: displayValue(measurement.type, measurement.value, unit), unit };
};

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatDate = (iso: string): string => dateFormat.format(new Date(iso));
export const formatDateTime = (iso: string): string => dateTimeFormat.format(new Date(iso));

/** `date` as a `datetime-local` value (local time, minutes). */
export const toLocalInput = (date: Date): string =>
  `${localDate(date)}T${pad2(date.getHours())}:${pad2(date.getMinutes())}`;

/**
 * A `datetime-local` value as an ISO 8601 UTC instant. Anything that is not a time is passed on
 * unchanged, so the shared schema refuses it with its own message.
 */
export const toInstant = (local: string): string => {
  const date = new Date(local);
  return local && !Number.isNaN(date.getTime()) ? date.toISOString() : local;
};

/**
 * A typed number: digits with an optional decimal point or comma (`5.5`, `5,5`). Anything else is
 * NaN, which the shared schema refuses with its own message.
 */
export const parseNumber = (text: string): number => {
  const normalized = text.trim().replace(',', '.');
  return /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(normalized) ? Number(normalized) : Number.NaN;
};

/** An optional number: empty means not given. */
export const parseOptionalNumber = (text: string): number | undefined =>
  text.trim() === '' ? undefined : parseNumber(text);

/** `7 h 30 min`, `45 min`. */
export const formatDuration = (ms: number): string => {
  const minutes = Math.round(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return `${rest} min`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
};
