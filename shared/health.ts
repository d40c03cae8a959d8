/**
 * Health records of SPEC-2 section 1: the measurement types with their stored and accepted units,
 * bounds, LOINC codes and display rounding; the daily-log bounds; the metabolic targets. Numbers and
 * labels here are the product contract, shared by the Lambdas (which store) and the SPA (which shows).
 */

export const MEASUREMENT_TYPES = [
  'glucose',
  'weight',
  'waist',
  'blood_pressure',
  'hba1c',
  'triglycerides',
] as const;
export type MeasurementType = (typeof MEASUREMENT_TYPES)[number];
export type ScalarMeasurementType = Exclude<MeasurementType, 'blood_pressure'>;

export const GLUCOSE_CONTEXTS = ['fasting', 'before_meal', 'after_meal', 'bedtime', 'random'] as const;
export type GlucoseContext = (typeof GLUCOSE_CONTEXTS)[number];
export const DEFAULT_GLUCOSE_CONTEXT: GlucoseContext = 'random';

export const MEASUREMENT_UNITS = ['mg/dL', 'mmol/L', 'kg', 'lb', 'cm', 'in', 'mmHg', '%'] as const;
export type MeasurementUnit = (typeof MEASUREMENT_UNITS)[number];

export interface Bounds {
  readonly min: number;
  readonly max: number;
}

export interface MeasurementSpec {
  readonly label: string;
  readonly storedUnit: MeasurementUnit;
  /** Every unit a person may type, with the factor that turns it into the stored unit. */
  readonly inputUnits: Partial<Record<MeasurementUnit, number>>;
  /** In the stored unit (blood pressure: see `BLOOD_PRESSURE_BOUNDS`). */
  readonly bounds: Bounds;
  /** The step values are rounded to for display, in whatever unit they are shown. */
  readonly displayStep: number;
  /** LOINC code of the observation (blood pressure: the panel). */
  readonly loinc: string;
  readonly loincDisplay: string;
  /** UCUM code of the stored unit, for FHIR. */
  readonly ucum: string;
  /** FHIR observation category. */
  readonly category: 'vital-signs' | 'laboratory';
}

export const MEASUREMENTS: Record<MeasurementType, MeasurementSpec> = {
  glucose: {
    label: 'Blood glucose',
    storedUnit: 'mg/dL',
    inputUnits: { 'mg/dL': 1, 'mmol/L': 18.016 },
    bounds: { min: 20, max: 600 },
    displayStep: 1,
    loinc: '41653-7',
    loincDisplay: 'Glucose [Mass/volume] in Capillary blood by Glucometer',
    ucum: 'mg/dL',
    category: 'laboratory',
  },
  weight: {
    label: 'Weight',
    storedUnit: 'kg',
    inputUnits: { kg: 1, lb: 0.45359237 },
    bounds: { min: 20, max: 400 },
    displayStep: 0.1,
    loinc: '29463-7',
    loincDisplay: 'Body weight',
    ucum: 'kg',
    category: 'vital-signs',
  },
  waist: {
    label: 'Waist circumference',
    storedUnit: 'cm',
    inputUnits: { cm: 1, in: 2.54 },
    bounds: { min: 40, max: 250 },
    displayStep: 0.5,
    loinc: '8280-0',
    loincDisplay: 'Waist Circumference at umbilicus by Tape measure',
    ucum: 'cm',
    category: 'vital-signs',
  },
  blood_pressure: {
    label: 'Blood pressure',
    storedUnit: 'mmHg',
    inputUnits: { mmHg: 1 },
    bounds: { min: 30, max: 260 },
    displayStep: 1,
    loinc: '85354-9',
    loincDisplay: 'Blood pressure panel with all children optional',
    ucum: 'mm[Hg]',
    category: 'vital-signs',
  },
  hba1c: {
    label: 'HbA1c',
    storedUnit: '%',
    inputUnits: { '%': 1 },
    bounds: { min: 3, max: 20 },
    displayStep: 0.1,
    loinc: '4548-4',
    loincDisplay: 'Hemoglobin A1c/Hemoglobin.total in Blood',
    ucum: '%',
    category: 'laboratory',
  },
  triglycerides: {
    label: 'Triglycerides',
    storedUnit: 'mg/dL',
    inputUnits: { 'mg/dL': 1, 'mmol/L': 88.57 },
    bounds: { min: 20, max: 5000 },
    displayStep: 1,
    loinc: '2571-8',
    loincDisplay: 'Triglyceride [Mass/volume] in Serum or Plasma',
    ucum: 'mg/dL',
    category: 'laboratory',
  },
};

/** The glucose LOINC code when the reading was taken fasting. */
export const FASTING_GLUCOSE_LOINC = {
  code: '41604-0',
  display: 'Fasting glucose [Mass/volume] in Capillary blood by Glucometer',
};

export const BLOOD_PRESSURE_BOUNDS = {
  systolic: {
    min: 60,
    max: 260,
    label: 'Systolic',
    loinc: '8480-6',
    loincDisplay: 'Systolic blood pressure',
  },
  diastolic: {
    min: 30,
    max: 160,
    label: 'Diastolic',
    loinc: '8462-4',
    loincDisplay: 'Diastolic blood pressure',
  },
} as const;

export interface BloodPressureValue {
  readonly systolic: number;
  readonly diastolic: number;
}
export type MeasurementValue = number | BloodPressureValue;

export const NOTE_MAX = 500;
/** `takenAt` and every log time: at most this far in the future (a phone's clock runs a little fast). */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;
export const EARLIEST_RECORD_TIME = '1900-01-01T00:00:00.000Z';

export const LOG_KINDS = ['meal', 'activity', 'sleep'] as const;
export type LogKind = (typeof LOG_KINDS)[number];
export const ACTIVITY_INTENSITIES = ['light', 'moderate', 'vigorous'] as const;
export type ActivityIntensity = (typeof ACTIVITY_INTENSITIES)[number];

export const MEAL_DESCRIPTION_MAX = 500;
export const CARBS_GRAMS = { min: 0, max: 1000 } as const;
export const ACTIVITY_NAME_MAX = 100;
export const ACTIVITY_MINUTES = { min: 1, max: 1440 } as const;
export const SLEEP_QUALITY = { min: 1, max: 5 } as const;
export const SLEEP_MAX_MS = 24 * 60 * 60_000;

export const LIST_LIMIT = { min: 1, max: 200, default: 50 } as const;

/** Stored values keep four decimals: enough for every conversion, none of the float noise. */
const STORED_DECIMALS = 10_000;

/** A value typed in `unit` as the stored unit of `type`; undefined when the unit is not accepted. */
export const toStoredValue = (
  type: MeasurementType,
  value: number,
  unit: MeasurementUnit,
): number | undefined => {
  const factor = MEASUREMENTS[type].inputUnits[unit];
  if (factor === undefined) return undefined;
  return Math.round(value * factor * STORED_DECIMALS) / STORED_DECIMALS;
};

/** A stored value in another accepted unit (no rounding: see `roundForDisplay`). */
export const fromStoredValue = (type: MeasurementType, stored: number, unit: MeasurementUnit): number => {
  const factor = MEASUREMENTS[type].inputUnits[unit] ?? 1;
  return stored / factor;
};

const decimalsOf = (step: number): number => (step >= 1 ? 0 : Math.ceil(-Math.log10(step) - 1e-9));

/**
 * Rounds for display (SPEC-2 1.1): glucose and triglycerides to whole numbers, weight to 0.1, waist to
 * 0.5, HbA1c to 0.1. A value shown in mmol/L keeps one decimal, as glucometers show it.
 */
export const roundForDisplay = (type: MeasurementType, value: number, unit: MeasurementUnit): number => {
  const step = unit === 'mmol/L' ? 0.1 : MEASUREMENTS[type].displayStep;
  // A half step typed exactly (5.55 %) is a hair under it in binary (55.49999... tenths): the nudge,
  // far below the 4 decimals values are stored with, rounds it up as the person reads it.
  const rounded = Math.round(value / step + 1e-9) * step;
  return Number(rounded.toFixed(decimalsOf(step)));
};

/** Text for a value with its display rounding, e.g. `99`, `152.3`, `34.5`. */
export const formatValue = (type: MeasurementType, value: number, unit: MeasurementUnit): string => {
  const step = unit === 'mmol/L' ? 0.1 : MEASUREMENTS[type].displayStep;
  return roundForDisplay(type, value, unit).toFixed(decimalsOf(step));
};

export type MeasurementSystem = 'metric' | 'imperial';

/** The unit a measurement is shown in for a person's measurement system. */
export const displayUnit = (type: MeasurementType, system: MeasurementSystem): MeasurementUnit => {
  if (system === 'imperial') {
    if (type === 'weight') return 'lb';
    if (type === 'waist') return 'in';
  }
  return MEASUREMENTS[type].storedUnit;
};

/** '{label} must be between {min} and {max} {unit}', in the stored unit. */
export const outOfBoundsMessage = (label: string, bounds: Bounds, unit: string): string =>
  `${label} must be between ${bounds.min} and ${bounds.max} ${unit}`;

// ---------------------------------------------------------------- targets

export type TargetStatus = 'above' | 'below' | 'in';

export interface Target {
  readonly type: MeasurementType;
  /** Only readings taken in this glucose context are judged (fasting glucose). */
  readonly context?: GlucoseContext;
  /** In the stored unit; a missing side is unbounded. */
  readonly min?: number;
  /** Exclusive upper bound when `exclusiveMax` (HbA1c under 5.7%). */
  readonly max: number;
  readonly exclusiveMax: boolean;
}

/** SPEC: fasting glucose 70-100 mg/dL, HbA1c under 5.7%, triglycerides under 150 mg/dL. */
export const TARGETS: readonly Target[] = [
  { type: 'glucose', context: 'fasting', min: 70, max: 100, exclusiveMax: false },
  { type: 'hba1c', max: 5.7, exclusiveMax: true },
  { type: 'triglycerides', max: 150, exclusiveMax: true },
];

export const targetFor = (type: MeasurementType, context?: GlucoseContext): Target | undefined =>
  TARGETS.find(
    (target) => target.type === type && (target.context === undefined || target.context === context),
  );

/**
 * Where a reading stands against its target; undefined when no target applies to it. Judged on the
 * value as it is shown (rounded in the stored unit, SPEC-2 1.1; the types with a target are always
 * shown in it), as a laboratory classifies the value it reports: 1.69 mmol/L of triglycerides is
 * stored as 149.68 mg/dL and shown as 150 mg/dL, which is not under 150, so it is marked above
 * target rather than 'In target' beside a value that contradicts it.
 */
export const targetStatus = (
  type: MeasurementType,
  value: MeasurementValue,
  context?: GlucoseContext,
): TargetStatus | undefined => {
  if (typeof value !== 'number') return undefined;
  const target = targetFor(type, context);
  if (!target) return undefined;
  const shown = roundForDisplay(type, value, MEASUREMENTS[type].storedUnit);
  if (target.min !== undefined && shown < target.min) return 'below';
  if (target.exclusiveMax ? shown >= target.max : shown > target.max) return 'above';
  return 'in';
};

export const TARGET_LABELS: Record<Exclude<TargetStatus, 'in'>, string> = {
  above: 'Above target',
  below: 'Below target',
};
