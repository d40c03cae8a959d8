/**
 * zod/mini schemas of SPEC-2 section 1: the measurement and daily-log requests (with the unit
 * conversion to the stored unit and the exact bound messages), the list queries, and the answers.
 * The SPA validates a dialog with the same request schema the Lambda parses the body with.
 * Each value built at load sits under a `@__PURE__` mark, so that a Lambda bundle keeps only the
 * schemas it uses (`shared/schemas.ts` says why).
 */
import * as z from 'zod/mini';
import {
  ACTIVITY_INTENSITIES,
  ACTIVITY_MINUTES,
  ACTIVITY_NAME_MAX,
  BLOOD_PRESSURE_BOUNDS,
  CARBS_GRAMS,
  DEFAULT_GLUCOSE_CONTEXT,
  EARLIEST_RECORD_TIME,
  FUTURE_TOLERANCE_MS,
  GLUCOSE_CONTEXTS,
  LIST_LIMIT,
  LOG_KINDS,
  MEAL_DESCRIPTION_MAX,
  MEASUREMENT_TYPES,
  MEASUREMENT_UNITS,
  MEASUREMENTS,
  NOTE_MAX,
  outOfBoundsMessage,
  SLEEP_MAX_MS,
  SLEEP_QUALITY,
  toStoredValue,
  type GlucoseContext,
  type MeasurementType,
  type MeasurementUnit,
  type MeasurementValue,
} from './health';
import { HEALTH_MESSAGES } from './health-messages';
import { requiredText, userIdSchema, type WireSchema } from './schemas';

type Ctx = Parameters<Parameters<typeof z.superRefine<unknown>>[0]>[1];
const issue = (ctx: Ctx, path: string, message: string, input: unknown) =>
  ctx.issues.push({ code: 'custom', message, path: [path], input });

/**
 * A moment as ISO 8601 with a zone (`Z` or an offset), normalized to UTC (`toISOString`), so stored
 * times sort as text and every list orders them the same way. One whose UTC year leaves 0000 to 9999
 * (`9999-12-31T23:00:00-05:00`) is refused: `toISOString` writes it with a sign and six digits, which
 * sorts before every other time.
 */
export const instantSchema = /* @__PURE__ */ (() =>
  z.pipe(
    z.iso.datetime({ offset: true, error: 'Invalid datetime' }),
    z.transform((value: string, ctx) => {
      const utc = new Date(value).toISOString();
      if (/^\d{4}-/.test(utc)) return utc;
      ctx.issues.push({ code: 'custom', message: 'Invalid datetime', input: value });
      return z.NEVER;
    }),
  ))();

/** A record's own time: not before 1900 and at most five minutes ahead of the server's clock. */
const checkRecordTime = (ctx: Ctx, path: string, at: string, label: string) => {
  if (at < EARLIEST_RECORD_TIME) issue(ctx, path, HEALTH_MESSAGES.timeTooEarly(label), at);
  else if (Date.parse(at) > Date.now() + FUTURE_TOLERANCE_MS)
    issue(ctx, path, HEALTH_MESSAGES.timeInFuture(label), at);
};

const finite = (message: string) =>
  z.number({ error: message }).check(z.refine(Number.isFinite, { error: message }));

const bloodPressureValueSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    systolic: finite(HEALTH_MESSAGES.valueRequired),
    diastolic: finite(HEALTH_MESSAGES.valueRequired),
  }))();

const noteSchema = /* @__PURE__ */ (() =>
  z.string().check(z.trim(), z.maxLength(NOTE_MAX, { error: HEALTH_MESSAGES.noteTooLong })))();

// ---------------------------------------------------------------- measurements

const measurementInputSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.enum(MEASUREMENT_TYPES, { error: HEALTH_MESSAGES.measurementType }),
    // Any object: whether it is a blood pressure is told by its type (`toNewMeasurement`).
    value: z.union([finite(HEALTH_MESSAGES.valueRequired), z.record(z.string(), z.unknown())], {
      error: HEALTH_MESSAGES.valueRequired,
    }),
    enteredUnit: z.optional(z.enum(MEASUREMENT_UNITS, { error: HEALTH_MESSAGES.unit })),
    takenAt: instantSchema,
    context: z.optional(z.enum(GLUCOSE_CONTEXTS, { error: HEALTH_MESSAGES.glucoseContext })),
    note: z.optional(noteSchema),
  }))();
type MeasurementInput = z.infer<typeof measurementInputSchema>;

/** What a valid request becomes: the value in the stored unit, what the person typed kept beside it. */
export interface NewMeasurement {
  readonly type: MeasurementType;
  readonly value: MeasurementValue;
  readonly unit: MeasurementUnit;
  readonly enteredUnit: MeasurementUnit;
  readonly takenAt: string;
  readonly context?: GlucoseContext;
  readonly note?: string;
}

const toNewMeasurement = (input: MeasurementInput, ctx: Ctx): NewMeasurement | undefined => {
  const spec = MEASUREMENTS[input.type];
  const enteredUnit = input.enteredUnit ?? spec.storedUnit;
  checkRecordTime(ctx, 'takenAt', input.takenAt, HEALTH_MESSAGES.takenAtLabel);
  if (input.context !== undefined && input.type !== 'glucose')
    issue(ctx, 'context', HEALTH_MESSAGES.contextGlucoseOnly, input.context);
  if (spec.inputUnits[enteredUnit] === undefined) {
    issue(ctx, 'enteredUnit', HEALTH_MESSAGES.unitNotForType(enteredUnit, spec.label), enteredUnit);
    return undefined;
  }
  const base = {
    type: input.type,
    unit: spec.storedUnit,
    enteredUnit,
    takenAt: input.takenAt,
    ...(input.type === 'glucose' && { context: input.context ?? DEFAULT_GLUCOSE_CONTEXT }),
    ...(input.note ? { note: input.note } : {}),
  };
  if (input.type === 'blood_pressure') {
    // A number, or an object that is not exactly a numeric systolic and diastolic.
    const pressure = bloodPressureValueSchema.safeParse(input.value);
    if (!pressure.success) {
      issue(ctx, 'value', HEALTH_MESSAGES.bloodPressureShape, input.value);
      return undefined;
    }
    const { systolic, diastolic } = pressure.data;
    const { systolic: sys, diastolic: dia } = BLOOD_PRESSURE_BOUNDS;
    if (systolic < sys.min || systolic > sys.max)
      issue(ctx, 'value.systolic', outOfBoundsMessage(sys.label, sys, spec.storedUnit), systolic);
    if (diastolic < dia.min || diastolic > dia.max)
      issue(ctx, 'value.diastolic', outOfBoundsMessage(dia.label, dia, spec.storedUnit), diastolic);
    if (systolic <= diastolic) issue(ctx, 'value', HEALTH_MESSAGES.systolicAboveDiastolic, input.value);
    return { ...base, value: { systolic, diastolic } };
  }
  if (typeof input.value !== 'number') {
    issue(ctx, 'value', HEALTH_MESSAGES.valueRequired, input.value);
    return undefined;
  }
  const stored = toStoredValue(input.type, input.value, enteredUnit) ?? Number.NaN;
  if (!(stored >= spec.bounds.min && stored <= spec.bounds.max))
    issue(ctx, 'value', outOfBoundsMessage(spec.label, spec.bounds, spec.storedUnit), input.value);
  return { ...base, value: stored };
};

/** POST /v1/measurements: validated, then converted to the stored unit. */
export const createMeasurementRequestSchema: WireSchema<NewMeasurement> = /* @__PURE__ */ (() =>
  z.pipe(
    measurementInputSchema,
    z.transform((input, ctx) => toNewMeasurement(input, ctx as Ctx) as NewMeasurement),
  ))();

const measurementValueSchema = /* @__PURE__ */ (() =>
  z.union([z.number(), z.object({ systolic: z.number(), diastolic: z.number() })]))();

export const measurementSchema = /* @__PURE__ */ (() =>
  z.object({
    measurementId: z.uuid(),
    userId: userIdSchema,
    type: z.enum(MEASUREMENT_TYPES),
    value: measurementValueSchema,
    unit: z.enum(MEASUREMENT_UNITS),
    enteredUnit: z.enum(MEASUREMENT_UNITS),
    takenAt: z.iso.datetime(),
    context: z.optional(z.enum(GLUCOSE_CONTEXTS)),
    note: z.optional(z.string()),
    createdAt: z.iso.datetime(),
  }))();
export type Measurement = z.infer<typeof measurementSchema>;

// ---------------------------------------------------------------- daily logs

const boundedNumber = (bounds: { min: number; max: number }, message: string, integer = false) =>
  z.number({ error: message }).check(
    z.refine((n) => Number.isFinite(n) && (!integer || Number.isInteger(n)), { error: message }),
    z.gte(bounds.min, { error: message }),
    z.lte(bounds.max, { error: message }),
  );

/**
 * Carbs are kept to a tenth of a gram, as a label or a scale gives them; unrounded, a value such as
 * 1e-200 passed the bounds and then failed DynamoDB's number range (10^-130 and up) with a 500.
 */
const carbsGramsSchema = /* @__PURE__ */ (() =>
  z.pipe(
    boundedNumber(CARBS_GRAMS, HEALTH_MESSAGES.carbs),
    z.transform((grams: number) => Math.round(grams * 10) / 10),
  ))();

const mealInputSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    kind: z.literal('meal'),
    description: requiredText(MEAL_DESCRIPTION_MAX, HEALTH_MESSAGES.mealDescription),
    carbsGrams: z.optional(carbsGramsSchema),
    eatenAt: instantSchema,
  }))();
const activityInputSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    kind: z.literal('activity'),
    activity: requiredText(ACTIVITY_NAME_MAX, HEALTH_MESSAGES.activityName),
    minutes: boundedNumber(ACTIVITY_MINUTES, HEALTH_MESSAGES.activityMinutes, true),
    intensity: z.enum(ACTIVITY_INTENSITIES, { error: HEALTH_MESSAGES.intensity }),
    startedAt: instantSchema,
  }))();
const sleepInputSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    kind: z.literal('sleep'),
    start: instantSchema,
    end: instantSchema,
    quality: z.optional(boundedNumber(SLEEP_QUALITY, HEALTH_MESSAGES.sleepQuality, true)),
  }))();

const logInputSchema = /* @__PURE__ */ (() =>
  z.discriminatedUnion('kind', [mealInputSchema, activityInputSchema, sleepInputSchema], {
    error: HEALTH_MESSAGES.logKind,
  }))();
export type NewLog = z.infer<typeof logInputSchema>;

/** The moment a log is filed under: when the meal was eaten, the activity or the sleep started. */
export const logTime = (log: NewLog): string =>
  log.kind === 'meal' ? log.eatenAt : log.kind === 'activity' ? log.startedAt : log.start;

/** POST /v1/logs. */
export const createLogRequestSchema: WireSchema<NewLog> = /* @__PURE__ */ (() =>
  logInputSchema.check(
    z.superRefine((log, ctx) => {
      if (log.kind === 'meal') checkRecordTime(ctx, 'eatenAt', log.eatenAt, HEALTH_MESSAGES.eatenAtLabel);
      if (log.kind === 'activity')
        checkRecordTime(ctx, 'startedAt', log.startedAt, HEALTH_MESSAGES.startedAtLabel);
      if (log.kind === 'sleep') {
        checkRecordTime(ctx, 'start', log.start, HEALTH_MESSAGES.sleepStartLabel);
        checkRecordTime(ctx, 'end', log.end, HEALTH_MESSAGES.sleepEndLabel);
        const length = Date.parse(log.end) - Date.parse(log.start);
        if (length <= 0) issue(ctx, 'end', HEALTH_MESSAGES.sleepEndsBeforeStart, log.end);
        else if (length > SLEEP_MAX_MS) issue(ctx, 'end', HEALTH_MESSAGES.sleepTooLong, log.end);
      }
    }),
  ))();

const logBase = /* @__PURE__ */ (() => ({
  logId: z.uuid(),
  userId: userIdSchema,
  createdAt: z.iso.datetime(),
}))();
export const logSchema = /* @__PURE__ */ (() =>
  z.discriminatedUnion('kind', [
    z.object({
      ...logBase,
      kind: z.literal('meal'),
      description: z.string(),
      carbsGrams: z.optional(z.number()),
      eatenAt: z.iso.datetime(),
    }),
    z.object({
      ...logBase,
      kind: z.literal('activity'),
      activity: z.string(),
      minutes: z.number(),
      intensity: z.enum(ACTIVITY_INTENSITIES),
      startedAt: z.iso.datetime(),
    }),
    z.object({
      ...logBase,
      kind: z.literal('sleep'),
      start: z.iso.datetime(),
      end: z.iso.datetime(),
      quality: z.optional(z.number()),
    }),
  ]))();
export type HealthLog = z.infer<typeof logSchema>;

// ---------------------------------------------------------------- list queries

export const limitSchema = /* @__PURE__ */ (() =>
  z._default(
    z.pipe(
      z.string().check(z.regex(/^\d{1,4}$/, { error: HEALTH_MESSAGES.limit })),
      z.pipe(
        z.transform((value: string) => Number(value)),
        z
          .number()
          .check(
            z.gte(LIST_LIMIT.min, { error: HEALTH_MESSAGES.limit }),
            z.lte(LIST_LIMIT.max, { error: HEALTH_MESSAGES.limit }),
          ),
      ),
    ),
    LIST_LIMIT.default,
  ))();
export const cursorSchema = /* @__PURE__ */ (() =>
  z
    .string()
    .check(
      z.minLength(1, { error: HEALTH_MESSAGES.cursor }),
      z.maxLength(2048, { error: HEALTH_MESSAGES.cursor }),
    ))();

export const rangeCheck = /* @__PURE__ */ (() =>
  z.superRefine((query: { from?: string; to?: string }, ctx) => {
    if (query.from !== undefined && query.to !== undefined && query.from > query.to)
      issue(ctx, 'from', HEALTH_MESSAGES.fromAfterTo, query.from);
  }))();

/** GET /v1/measurements query string; unknown parameters are refused like unknown body fields. */
export const measurementListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      type: z.optional(z.enum(MEASUREMENT_TYPES, { error: HEALTH_MESSAGES.measurementType })),
      from: z.optional(instantSchema),
      to: z.optional(instantSchema),
      limit: limitSchema,
      cursor: z.optional(cursorSchema),
    })
    .check(rangeCheck))();
export type MeasurementListQuery = z.infer<typeof measurementListQuerySchema>;

/** GET /v1/logs query string. */
export const logListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      kind: z.optional(z.enum(LOG_KINDS, { error: HEALTH_MESSAGES.logKind })),
      from: z.optional(instantSchema),
      to: z.optional(instantSchema),
      limit: limitSchema,
      cursor: z.optional(cursorSchema),
    })
    .check(rangeCheck))();
export type LogListQuery = z.infer<typeof logListQuerySchema>;

export const exportQuerySchema = /* @__PURE__ */ (() =>
  z.strictObject({
    format: z._default(z.enum(['json', 'fhir'], { error: HEALTH_MESSAGES.exportFormat }), 'json'),
  }))();
export type ExportQuery = z.infer<typeof exportQuerySchema>;

export const measurementPageSchema = /* @__PURE__ */ (() =>
  z.object({
    items: z.array(measurementSchema),
    nextCursor: z.optional(z.string()),
  }))();
export type MeasurementPage = z.infer<typeof measurementPageSchema>;
export const logPageSchema = /* @__PURE__ */ (() =>
  z.object({ items: z.array(logSchema), nextCursor: z.optional(z.string()) }))();
export type LogPage = z.infer<typeof logPageSchema>;
