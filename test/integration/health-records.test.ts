/**
 * SPEC-2 section 1 over HTTP on the local stack (the real handlers on DynamoDB Local): create, list,
 * filter, page and delete every measurement type and log kind; the unit conversions; every bad input
 * answered with its message and nothing written; and person B unable to reach person A's entries.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatValue,
  MEASUREMENT_TYPES,
  LOG_KINDS,
  type LogKind,
  type MeasurementType,
  type MeasurementValue,
} from '../../shared/health';
import type { HealthLog, Measurement } from '../../shared/health-schemas';
import { API_MESSAGES } from '../../shared/messages';
import { HEALTH_MESSAGES } from '../../shared/health-messages';
import { localDocuments } from '../fixtures/aws-env';
import { startHealthPeople, type HealthPeople } from '../fixtures/health-people';
import { refuse } from '../fixtures/interleave';

let people: HealthPeople;
beforeAll(async () => {
  people = await startHealthPeople();
}, 60_000);
afterAll(async () => {
  await people.stop();
});

type Page<T> = { items: T[]; nextCursor?: string };
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const as = (who: 'a' | 'b') => ({
  post: <T = Record<string, unknown>>(path: string, json: unknown) =>
    people.http.request<T>('POST', path, { token: people[who].idToken, json }),
  get: <T = Record<string, unknown>>(path: string) =>
    people.http.request<T>('GET', path, { token: people[who].idToken }),
  delete: (path: string) => people.http.request('DELETE', path, { token: people[who].idToken }),
});

const SAMPLE: Record<MeasurementType, Record<string, unknown>> = {
  glucose: { value: 112, enteredUnit: 'mg/dL', context: 'after_meal' },
  weight: { value: 82.4, enteredUnit: 'kg' },
  waist: { value: 94, enteredUnit: 'cm' },
  blood_pressure: { value: { systolic: 128, diastolic: 82 } },
  hba1c: { value: 5.9 },
  triglycerides: { value: 1.9, enteredUnit: 'mmol/L' },
};
const LOG_SAMPLE = {
  meal: { kind: 'meal', description: 'Oats with berries', carbsGrams: 48, eatenAt: minutesAgo(90) },
  activity: {
    kind: 'activity',
    activity: 'Brisk walk',
    minutes: 35,
    intensity: 'moderate',
    startedAt: minutesAgo(60),
  },
  sleep: { kind: 'sleep', start: minutesAgo(9 * 60), end: minutesAgo(60), quality: 4 },
} as const;

/** A log of this kind filed under `at`: the meal eaten, the activity or the sleep started then. */
const logAt = (kind: LogKind, at: string) =>
  kind === 'meal'
    ? { ...LOG_SAMPLE.meal, eatenAt: at }
    : kind === 'activity'
      ? { ...LOG_SAMPLE.activity, startedAt: at }
      : { ...LOG_SAMPLE.sleep, start: at, end: new Date(Date.parse(at) + 8 * 3_600_000).toISOString() };
const logTimeOf = (log: HealthLog) =>
  log.kind === 'meal' ? log.eatenAt : log.kind === 'activity' ? log.startedAt : log.start;

/** Creates these entries, 25 at a time as a busy clinic would, and answers them as stored. */
const createAll = async <T>(path: string, bodies: unknown[]): Promise<T[]> => {
  const made: T[] = [];
  for (let i = 0; i < bodies.length; i += 25) {
    const created = await Promise.all(bodies.slice(i, i + 25).map((body) => as('a').post<T>(path, body)));
    for (const answer of created) {
      expect(answer.status).toBe(201);
      made.push(answer.body);
    }
  }
  return made;
};
/** Every page of a list, following `nextCursor` (at most 30 pages). */
const allPages = async <T>(path: string): Promise<Page<T>[]> => {
  const pages: Page<T>[] = [];
  let cursor: string | undefined;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page = await as('a').get<Page<T>>(
      `${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(page.status).toBe(200);
    pages.push(page.body);
    cursor = page.body.nextCursor;
  } while (cursor && pages.length < 30);
  return pages;
};

describe('measurements', () => {
  it.each(MEASUREMENT_TYPES)('creates, lists newest first and deletes a %s reading', async (type) => {
    const older = await as('a').post<Measurement>('/v1/measurements', {
      type,
      ...SAMPLE[type],
      takenAt: minutesAgo(120),
    });
    const newer = await as('a').post<Measurement>('/v1/measurements', {
      type,
      ...SAMPLE[type],
      takenAt: minutesAgo(10),
      note: 'after the walk',
    });
    expect(older.status).toBe(201);
    expect(newer.status).toBe(201);
    expect(newer.body).toMatchObject({ type, userId: people.a.userId, note: 'after the walk' });

    const list = await as('a').get<Page<Measurement>>(`/v1/measurements?type=${type}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((m) => m.measurementId)).toEqual([
      newer.body.measurementId,
      older.body.measurementId,
    ]);

    const deleted = await as('a').delete(`/v1/measurements/${older.body.measurementId}`);
    expect(deleted.status).toBe(204);
    const after = await as('a').get<Page<Measurement>>(`/v1/measurements?type=${type}`);
    expect(after.body.items.map((m) => m.measurementId)).toEqual([newer.body.measurementId]);
    const again = await as('a').delete(`/v1/measurements/${older.body.measurementId}`);
    expect(again).toMatchObject({ status: 404, body: { message: HEALTH_MESSAGES.measurementNotFound } });
  });

  it('never says "not found" of a reading it could not delete: kept colliding, it is a failure, and the reading stays', async () => {
    const reading = await as('a').post<Measurement>('/v1/measurements', {
      type: 'glucose',
      ...SAMPLE.glucose,
      value: 250,
      context: 'fasting',
      takenAt: minutesAgo(7),
    });
    const id = reading.body.measurementId;
    // Every try of the delete's transaction meets another one on the coaching summary, as DynamoDB answers it.
    const conflicted = () =>
      new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
        $metadata: {},
        CancellationReasons: [
          { Code: 'None' },
          { Code: 'None' },
          { Code: 'None' },
          { Code: 'TransactionConflict' },
        ],
      });
    const busy = await refuse('TransactWriteItemsCommand', id, conflicted, Number.POSITIVE_INFINITY);
    try {
      const refused = await as('a').delete(`/v1/measurements/${id}`);
      expect(refused).toMatchObject({ status: 500, body: { message: API_MESSAGES.internal } });
      expect(busy.count()).toBeGreaterThan(1);
    } finally {
      busy.remove();
    }
    const list = await as('a').get<Page<Measurement>>('/v1/measurements?type=glucose&limit=200');
    expect(list.body.items.map((m) => m.measurementId)).toContain(id);
    expect((await as('a').delete(`/v1/measurements/${id}`)).status).toBe(204);
  });

  it('stores the stored unit only: 5.5 mmol/L is 99.088 mg/dL shown as 99, 154 lb is 69.85 kg, 34 in is 86.36 cm', async () => {
    const glucose = await as('a').post<Measurement>('/v1/measurements', {
      type: 'glucose',
      value: 5.5,
      enteredUnit: 'mmol/L',
      context: 'fasting',
      takenAt: minutesAgo(5),
    });
    expect(glucose.body).toMatchObject({
      value: 99.088,
      unit: 'mg/dL',
      enteredUnit: 'mmol/L',
      context: 'fasting',
    });
    expect(formatValue('glucose', glucose.body.value as number, 'mg/dL')).toBe('99');

    const weight = await as('a').post<Measurement>('/v1/measurements', {
      type: 'weight',
      value: 154,
      enteredUnit: 'lb',
      takenAt: minutesAgo(5),
    });
    expect(weight.body).toMatchObject({ unit: 'kg', enteredUnit: 'lb' });
    expect(weight.body.value).toBeCloseTo(69.85, 2);

    const waist = await as('a').post<Measurement>('/v1/measurements', {
      type: 'waist',
      value: 34,
      enteredUnit: 'in',
      takenAt: minutesAgo(5),
    });
    expect(waist.body).toMatchObject({ value: 86.36, unit: 'cm', enteredUnit: 'in' });

    // What the list answers is what was stored, not what was typed.
    const stored = await as('a').get<Page<Measurement>>('/v1/measurements?type=waist&limit=1');
    expect(stored.body.items[0]).toMatchObject({ value: 86.36, unit: 'cm' });
    const defaulted = await as('a').post<Measurement>('/v1/measurements', {
      type: 'glucose',
      value: 100,
      takenAt: minutesAgo(5),
    });
    expect(defaulted.body).toMatchObject({ context: 'random', enteredUnit: 'mg/dL' });
  });

  it('filters by type and by date, newest first, across types through the owner index', async () => {
    const base = Date.UTC(2024, 0, 10, 8);
    const at = (day: number) => new Date(base + day * 86_400_000).toISOString();
    const made: Measurement[] = [];
    for (const [day, type] of [
      [0, 'hba1c'],
      [1, 'weight'],
      [2, 'hba1c'],
      [3, 'weight'],
      [4, 'hba1c'],
    ] as const) {
      const value = type === 'hba1c' ? 5.5 : 80;
      made.push(
        (await as('a').post<Measurement>('/v1/measurements', { type, value, takenAt: at(day) })).body,
      );
    }
    const window = `from=${encodeURIComponent(at(1))}&to=${encodeURIComponent(at(3))}`;
    const hba1c = await as('a').get<Page<Measurement>>(`/v1/measurements?type=hba1c&${window}`);
    expect(hba1c.body.items.map((m) => m.takenAt)).toEqual([at(2)]);
    const all = await as('a').get<Page<Measurement>>(`/v1/measurements?${window}`);
    expect(all.body.items.map((m) => [m.type, m.takenAt])).toEqual([
      ['weight', at(3)],
      ['hba1c', at(2)],
      ['weight', at(1)],
    ]);
    const offsetTime = await as('a').get<Page<Measurement>>(
      `/v1/measurements?type=hba1c&from=${encodeURIComponent('2024-01-14T09:00:00+01:00')}&to=${encodeURIComponent(at(4))}`,
    );
    expect(offsetTime.body.items.map((m) => m.takenAt)).toEqual([at(4)]);
    for (const m of made)
      expect((await as('a').delete(`/v1/measurements/${m.measurementId}`)).status).toBe(204);
  });

  it('pages through 500 entries with no duplicate and no gap, by type and across types', async () => {
    const start = Date.UTC(2023, 0, 1);
    const ids = new Set<string>();
    const bodies = Array.from({ length: 500 }, (_, i) => ({
      type: 'triglycerides',
      value: 100 + (i % 50),
      // Pairs share a time: the order must still be total (ties broken by id) for paging to be exact.
      takenAt: new Date(start + Math.floor(i / 2) * 3_600_000).toISOString(),
    }));
    for (let i = 0; i < bodies.length; i += 25) {
      const created = await Promise.all(
        bodies.slice(i, i + 25).map((body) => as('a').post<Measurement>('/v1/measurements', body)),
      );
      for (const answer of created) {
        expect(answer.status).toBe(201);
        ids.add(answer.body.measurementId);
      }
    }
    const to = encodeURIComponent(new Date(start + 400 * 86_400_000).toISOString());
    for (const query of [`type=triglycerides&to=${to}`, `to=${to}`]) {
      const seen: Measurement[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await as('a').get<Page<Measurement>>(
          `/v1/measurements?${query}&limit=37${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.status).toBe(200);
        expect(page.body.items.length).toBeLessThanOrEqual(37);
        seen.push(...page.body.items);
        cursor = page.body.nextCursor;
        pages += 1;
      } while (cursor && pages < 30);
      const seenIds = seen.map((m) => m.measurementId);
      expect(new Set(seenIds).size).toBe(seenIds.length);
      expect(new Set(seenIds)).toEqual(ids);
      const times = seen.map((m) => m.takenAt);
      expect(times).toEqual([...times].sort().reverse());
    }
  }, 120_000);
});

describe('daily logs', () => {
  it.each(LOG_KINDS)('creates, lists newest first and deletes a %s log', async (kind) => {
    const first = await as('a').post<HealthLog>('/v1/logs', LOG_SAMPLE[kind]);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ ...LOG_SAMPLE[kind], userId: people.a.userId });
    const later = await as('a').post<HealthLog>('/v1/logs', {
      ...LOG_SAMPLE[kind],
      ...(kind === 'meal' && { eatenAt: minutesAgo(1) }),
      ...(kind === 'activity' && { startedAt: minutesAgo(1) }),
      ...(kind === 'sleep' && { start: minutesAgo(30), end: minutesAgo(1) }),
    });
    const list = await as('a').get<Page<HealthLog>>(`/v1/logs?kind=${kind}`);
    expect(list.body.items.map((log) => log.logId)).toEqual([later.body.logId, first.body.logId]);
    expect(list.body.items.every((log) => log.kind === kind)).toBe(true);

    expect((await as('a').delete(`/v1/logs/${first.body.logId}`)).status).toBe(204);
    const after = await as('a').get<Page<HealthLog>>(`/v1/logs?kind=${kind}`);
    expect(after.body.items.map((log) => log.logId)).toEqual([later.body.logId]);
    // A measurement route does not delete a log, nor the other way round.
    expect((await as('a').delete(`/v1/measurements/${later.body.logId}`)).status).toBe(404);
  });

  it('keeps carbs to a tenth of a gram, however many digits are sent', async () => {
    for (const [sent, kept] of [
      [1e-200, 0],
      [12.345, 12.3],
      [999.96, 1000],
    ] as const) {
      const created = await as('a').post<HealthLog>('/v1/logs', { ...LOG_SAMPLE.meal, carbsGrams: sent });
      expect(created.status, String(sent)).toBe(201);
      expect(created.body).toMatchObject({ carbsGrams: kept });
      const listed = await as('a').get<Page<HealthLog>>('/v1/logs?kind=meal');
      expect(listed.body.items.find((log) => log.logId === created.body.logId)).toMatchObject({
        carbsGrams: kept,
      });
    }
  });
});

describe('the daily-log list (GET /v1/logs)', () => {
  it('filters by date across kinds, newest first, both ends included', async () => {
    const base = Date.UTC(2021, 2, 1, 7);
    const at = (day: number) => new Date(base + day * 86_400_000).toISOString();
    const kinds: LogKind[] = ['meal', 'activity', 'sleep', 'meal', 'activity', 'sleep', 'meal'];
    const made = await createAll<HealthLog>(
      '/v1/logs',
      kinds.map((kind, day) => logAt(kind, at(day))),
    );
    const window = `from=${encodeURIComponent(at(1))}&to=${encodeURIComponent(at(5))}`;
    const inWindow = await as('a').get<Page<HealthLog>>(`/v1/logs?${window}`);
    expect(inWindow.status).toBe(200);
    expect(inWindow.body.items.map((log) => [log.kind, logTimeOf(log)])).toEqual([
      ['sleep', at(5)],
      ['activity', at(4)],
      ['meal', at(3)],
      ['sleep', at(2)],
      ['activity', at(1)],
    ]);
    const sleeps = await as('a').get<Page<HealthLog>>(`/v1/logs?kind=sleep&${window}`);
    expect(sleeps.body.items.map(logTimeOf)).toEqual([at(5), at(2)]);
    const untilDay1 = await as('a').get<Page<HealthLog>>(`/v1/logs?to=${encodeURIComponent(at(1))}`);
    expect(untilDay1.body.items.map(logTimeOf)).toEqual([at(1), at(0)]);
    const ids = new Set(made.map((log) => log.logId));
    const fromDay5 = await as('a').get<Page<HealthLog>>(
      `/v1/logs?limit=200&from=${encodeURIComponent(at(5))}`,
    );
    expect(fromDay5.body.items.filter((log) => ids.has(log.logId)).map(logTimeOf)).toEqual([at(6), at(5)]);
    for (const log of made) expect((await as('a').delete(`/v1/logs/${log.logId}`)).status).toBe(204);
  });

  it('pages with limit and cursor through every log once, newest first across kinds', async () => {
    const base = Date.UTC(2021, 5, 1, 7);
    // Twelve logs over nine hours: kinds take turns, and the last four share one time.
    const bodies = Array.from({ length: 12 }, (_, i) =>
      logAt(LOG_KINDS[i % 3] ?? 'meal', new Date(base + Math.min(i, 8) * 3_600_000).toISOString()),
    );
    const made = await createAll<HealthLog>('/v1/logs', bodies);
    const window = `from=${encodeURIComponent(new Date(base).toISOString())}&to=${encodeURIComponent(new Date(base + 86_400_000).toISOString())}`;
    const pages = await allPages<HealthLog>(`/v1/logs?${window}&limit=5`);
    expect(pages.map((page) => page.items.length)).toEqual([5, 5, 2]);
    expect(pages.at(-1)?.nextCursor).toBeUndefined();
    const seen = pages.flatMap((page) => page.items);
    expect(seen.map((log) => log.logId).sort()).toEqual(made.map((log) => log.logId).sort());
    const times = seen.map(logTimeOf);
    expect(times).toEqual([...times].sort().reverse());
    expect(new Set(pages[0]?.items.map((log) => log.kind))).toEqual(new Set(LOG_KINDS));
    for (const log of made) expect((await as('a').delete(`/v1/logs/${log.logId}`)).status).toBe(204);
  });
});

describe('a list without a limit', () => {
  const base = Date.UTC(2022, 0, 1, 7);
  const at = (hour: number) => new Date(base + hour * 3_600_000).toISOString();
  const window = `from=${encodeURIComponent(at(0))}&to=${encodeURIComponent(at(100))}`;
  it.each([
    ['/v1/measurements', (hour: number) => ({ type: 'weight', value: 80, takenAt: at(hour) })],
    ['/v1/logs', (hour: number) => logAt(LOG_KINDS[hour % 3] ?? 'meal', at(hour))],
  ] as const)(
    'GET %s answers 50 entries and a cursor to the 51st',
    async (path, body) => {
      const made = await createAll<Measurement | HealthLog>(
        path,
        Array.from({ length: 51 }, (_, hour) => body(hour)),
      );
      const idOf = (entry: Measurement | HealthLog) =>
        'measurementId' in entry ? entry.measurementId : entry.logId;
      const pages = await allPages<Measurement | HealthLog>(`${path}?${window}`);
      expect(pages.map((page) => page.items.length)).toEqual([50, 1]);
      expect(pages[0]?.nextCursor).toEqual(expect.any(String));
      expect(pages[1]?.nextCursor).toBeUndefined();
      expect(pages.flatMap((page) => page.items.map(idOf)).sort()).toEqual(made.map(idOf).sort());
      for (const entry of made) expect((await as('a').delete(`${path}/${idOf(entry)}`)).status).toBe(204);
    },
    60_000,
  );
});

describe('bad input gets a clear error and changes nothing', () => {
  const now = () => new Date().toISOString();
  const measurementCases: [string, () => unknown, string][] = [
    [
      'glucose too high in mg/dL',
      () => ({ type: 'glucose', value: 601, takenAt: now() }),
      'Blood glucose must be between 20 and 600 mg/dL',
    ],
    [
      'glucose too high in mmol/L',
      () => ({ type: 'glucose', value: 34, enteredUnit: 'mmol/L', takenAt: now() }),
      'Blood glucose must be between 20 and 600 mg/dL',
    ],
    [
      'weight too low in lb',
      () => ({ type: 'weight', value: 40, enteredUnit: 'lb', takenAt: now() }),
      'Weight must be between 20 and 400 kg',
    ],
    [
      'waist too high in in',
      () => ({ type: 'waist', value: 99, enteredUnit: 'in', takenAt: now() }),
      'Waist circumference must be between 40 and 250 cm',
    ],
    [
      'HbA1c out of range',
      () => ({ type: 'hba1c', value: 2.9, takenAt: now() }),
      'HbA1c must be between 3 and 20 %',
    ],
    [
      'triglycerides in mmol/L out of range',
      () => ({ type: 'triglycerides', value: 60, enteredUnit: 'mmol/L', takenAt: now() }),
      'Triglycerides must be between 20 and 5000 mg/dL',
    ],
    [
      'systolic out of range',
      () => ({ type: 'blood_pressure', value: { systolic: 300, diastolic: 80 }, takenAt: now() }),
      'Systolic must be between 60 and 260 mmHg',
    ],
    [
      'systolic not above diastolic',
      () => ({ type: 'blood_pressure', value: { systolic: 90, diastolic: 90 }, takenAt: now() }),
      // SPEC-2 1.1, letter for letter.
      'Systolic must be higher than diastolic',
    ],
    [
      "a unit that is not the type's",
      () => ({ type: 'weight', value: 80, enteredUnit: 'mg/dL', takenAt: now() }),
      'mg/dL is not a unit for Weight',
    ],
    [
      'an unknown unit',
      () => ({ type: 'weight', value: 80, enteredUnit: 'stone', takenAt: now() }),
      HEALTH_MESSAGES.unit,
    ],
    [
      'a future takenAt',
      () => ({ type: 'weight', value: 80, takenAt: new Date(Date.now() + 6 * 60_000).toISOString() }),
      HEALTH_MESSAGES.timeInFuture('Date and time'),
    ],
    [
      'a takenAt before 1900',
      () => ({ type: 'weight', value: 80, takenAt: '1899-12-31T23:59:59Z' }),
      HEALTH_MESSAGES.timeTooEarly('Date and time'),
    ],
    ['an invalid takenAt', () => ({ type: 'weight', value: 80, takenAt: 'yesterday' }), 'Invalid datetime'],
    [
      'an unknown field',
      () => ({ type: 'weight', value: 80, takenAt: now(), userId: people.b.userId }),
      'Unrecognized key: "userId"',
    ],
    [
      'a context on a weight',
      () => ({ type: 'weight', value: 80, takenAt: now(), context: 'fasting' }),
      HEALTH_MESSAGES.contextGlucoseOnly,
    ],
    [
      'a note over 500 characters',
      () => ({ type: 'weight', value: 80, takenAt: now(), note: 'x'.repeat(501) }),
      HEALTH_MESSAGES.noteTooLong,
    ],
    [
      'a value that is not a number',
      () => ({ type: 'weight', value: '80', takenAt: now() }),
      HEALTH_MESSAGES.valueRequired,
    ],
    [
      'an object as a weight',
      () => ({ type: 'weight', value: { systolic: 120, diastolic: 80 }, takenAt: now() }),
      HEALTH_MESSAGES.valueRequired,
    ],
    [
      'a number as a blood pressure',
      () => ({ type: 'blood_pressure', value: 120, takenAt: now() }),
      HEALTH_MESSAGES.bloodPressureShape,
    ],
    [
      'a blood pressure without its diastolic',
      () => ({ type: 'blood_pressure', value: { systolic: 120 }, takenAt: now() }),
      HEALTH_MESSAGES.bloodPressureShape,
    ],
    [
      'a blood pressure with its diastolic as text',
      () => ({ type: 'blood_pressure', value: { systolic: 120, diastolic: '80' }, takenAt: now() }),
      HEALTH_MESSAGES.bloodPressureShape,
    ],
  ];
  it.each(measurementCases)('POST /v1/measurements refuses %s', async (_name, body, message) => {
    const before = await people.healthItems();
    const answer = await as('a').post('/v1/measurements', body());
    expect(answer).toMatchObject({ status: 400, body: { message } });
    expect(answer.text).not.toMatch(/at .*\.ts|Error:/);
    expect(await people.healthItems()).toEqual(before);
  });

  const logCases: [string, () => unknown, string][] = [
    [
      'a sleep that ends before it starts',
      () => ({ kind: 'sleep', start: minutesAgo(60), end: minutesAgo(120) }),
      HEALTH_MESSAGES.sleepEndsBeforeStart,
    ],
    [
      'a sleep over 24 hours',
      () => ({ kind: 'sleep', start: minutesAgo(25 * 60), end: minutesAgo(0) }),
      HEALTH_MESSAGES.sleepTooLong,
    ],
    [
      'an activity of 0 minutes',
      () => ({
        kind: 'activity',
        activity: 'Run',
        minutes: 0,
        intensity: 'vigorous',
        startedAt: minutesAgo(5),
      }),
      HEALTH_MESSAGES.activityMinutes,
    ],
    [
      'an empty meal',
      () => ({ kind: 'meal', description: '  ', eatenAt: minutesAgo(5) }),
      HEALTH_MESSAGES.mealDescription.required,
    ],
    [
      'carbs over 1000 g',
      () => ({ kind: 'meal', description: 'Cake', carbsGrams: 1001, eatenAt: minutesAgo(5) }),
      HEALTH_MESSAGES.carbs,
    ],
    [
      'a meal in the future',
      () => ({ kind: 'meal', description: 'Cake', eatenAt: new Date(Date.now() + 3_600_000).toISOString() }),
      HEALTH_MESSAGES.timeInFuture('Meal time'),
    ],
    [
      'an unknown kind',
      () => ({ kind: 'nap', start: minutesAgo(60), end: minutesAgo(0) }),
      HEALTH_MESSAGES.logKind,
    ],
    ['an unknown field', () => ({ ...LOG_SAMPLE.meal, mood: 'happy' }), 'Unrecognized key: "mood"'],
  ];
  it.each(logCases)('POST /v1/logs refuses %s', async (_name, body, message) => {
    const before = await people.healthItems();
    expect(await as('a').post('/v1/logs', body())).toMatchObject({ status: 400, body: { message } });
    expect(await people.healthItems()).toEqual(before);
  });

  it('refuses a body over the size limit (413) and a body that is not JSON (400)', async () => {
    const before = await people.healthItems();
    const big = await as('a').post('/v1/measurements', {
      type: 'weight',
      value: 80,
      takenAt: new Date().toISOString(),
      note: 'x'.repeat(40_000),
    });
    expect(big).toMatchObject({ status: 413, body: { message: API_MESSAGES.payloadTooLarge } });
    const raw = await people.http.request('POST', '/v1/logs', { token: people.a.idToken, raw: '{"kind":' });
    expect(raw).toMatchObject({ status: 400, body: { message: API_MESSAGES.invalidJson } });
    expect(await people.healthItems()).toEqual(before);
  });

  /** Bad list queries both lists refuse alike. */
  const LIST_REFUSALS: [string, string][] = [
    ['limit=0', HEALTH_MESSAGES.limit],
    ['limit=201', HEALTH_MESSAGES.limit],
    ['limit=ten', HEALTH_MESSAGES.limit],
    ['from=yesterday', 'Invalid datetime'],
    // A year past 9999 in UTC, which would sort before every stored time.
    [`to=${encodeURIComponent('9999-12-31T23:59:59-05:00')}`, 'Invalid datetime'],
    [
      `from=${encodeURIComponent('2025-02-01T00:00:00Z')}&to=${encodeURIComponent('2025-01-01T00:00:00Z')}`,
      HEALTH_MESSAGES.fromAfterTo,
    ],
    ['cursor=not-a-cursor', HEALTH_MESSAGES.cursor],
  ];

  it.each([
    ...LIST_REFUSALS,
    ['type=sugar', HEALTH_MESSAGES.measurementType],
    [`from=${encodeURIComponent('0000-01-01T00:30:00+01:00')}`, 'Invalid datetime'],
    ['sort=asc', 'Unrecognized key: "sort"'],
  ])('GET /v1/measurements?%s is a 400', async (query, message) => {
    expect(await as('a').get(`/v1/measurements?${query}`)).toMatchObject({ status: 400, body: { message } });
  });

  it.each([
    ...LIST_REFUSALS,
    ['kind=nap', HEALTH_MESSAGES.logKind],
    ['type=meal', 'Unrecognized key: "type"'],
  ])('GET /v1/logs?%s is a 400', async (query, message) => {
    expect(await as('a').get(`/v1/logs?${query}`)).toMatchObject({ status: 400, body: { message } });
  });

  it('refuses a query parameter given twice, rather than reading the last one', async () => {
    expect(await as('a').get('/v1/measurements?type=glucose&type=weight')).toMatchObject({
      status: 400,
      body: { message: "'type' may be given once" },
    });
    expect(await as('a').get('/v1/logs?limit=5&limit=50')).toMatchObject({
      status: 400,
      body: { message: "'limit' may be given once" },
    });
    expect((await as('a').get('/v1/measurements?type=glucose&limit=5')).status).toBe(200);
  });

  it('refuses a cursor of the measurements list on the logs list, and a log cursor on another kind', async () => {
    await as('a').post('/v1/measurements', { type: 'weight', value: 80, takenAt: minutesAgo(3) });
    await as('a').post('/v1/measurements', { type: 'weight', value: 81, takenAt: minutesAgo(2) });
    const measurements = await as('a').get<Page<Measurement>>('/v1/measurements?limit=1');
    const measurementCursor = encodeURIComponent(measurements.body.nextCursor ?? '');
    expect(measurementCursor).not.toBe('');
    expect(await as('a').get(`/v1/logs?limit=1&cursor=${measurementCursor}`)).toMatchObject({
      status: 400,
      body: { message: HEALTH_MESSAGES.cursor },
    });

    await as('a').post('/v1/logs', { ...LOG_SAMPLE.meal, eatenAt: minutesAgo(3) });
    await as('a').post('/v1/logs', { ...LOG_SAMPLE.meal, eatenAt: minutesAgo(2) });
    const meals = await as('a').get<Page<HealthLog>>('/v1/logs?kind=meal&limit=1');
    const mealCursor = encodeURIComponent(meals.body.nextCursor ?? '');
    expect(mealCursor).not.toBe('');
    expect(await as('a').get(`/v1/logs?kind=sleep&limit=1&cursor=${mealCursor}`)).toMatchObject({
      status: 400,
      body: { message: HEALTH_MESSAGES.cursor },
    });
    expect((await as('a').get(`/v1/logs?kind=meal&limit=1&cursor=${mealCursor}`)).status).toBe(200);
  });

  it('refuses to delete an entry that does not exist, or with an id that is no id', async () => {
    const before = await people.healthItems();
    expect(await as('a').delete(`/v1/measurements/${crypto.randomUUID()}`)).toMatchObject({
      status: 404,
      body: { message: HEALTH_MESSAGES.measurementNotFound },
    });
    expect((await as('a').delete('/v1/measurements/..%2F..%2Fusers')).status).toBe(404);
    expect(await as('a').delete(`/v1/logs/${crypto.randomUUID()}`)).toMatchObject({
      status: 404,
      body: { message: HEALTH_MESSAGES.logNotFound },
    });
    expect(await people.healthItems()).toEqual(before);
  });

  it('deletes an entry named by its id in capitals (a UUID is the same in either case)', async () => {
    const reading = await as('a').post<Measurement>('/v1/measurements', {
      type: 'weight',
      value: 79,
      takenAt: minutesAgo(4),
    });
    const log = await as('a').post<HealthLog>('/v1/logs', { ...LOG_SAMPLE.meal, eatenAt: minutesAgo(4) });
    expect(
      (await as('a').delete(`/v1/measurements/${reading.body.measurementId.toUpperCase()}`)).status,
    ).toBe(204);
    expect((await as('a').delete(`/v1/logs/${log.body.logId.toUpperCase()}`)).status).toBe(204);
    expect(JSON.stringify(await people.healthItems())).not.toContain(reading.body.measurementId);
    expect(JSON.stringify(await people.healthItems())).not.toContain(log.body.logId);
  });

  it('answers 401 without a token on every health route', async () => {
    for (const [method, path] of [
      ['POST', '/v1/measurements'],
      ['GET', '/v1/measurements'],
      ['DELETE', `/v1/measurements/${crypto.randomUUID()}`],
      ['POST', '/v1/logs'],
      ['GET', '/v1/logs'],
      ['DELETE', `/v1/logs/${crypto.randomUUID()}`],
      ['GET', '/v1/users/me/export'],
    ]) {
      const json = method === 'POST' ? {} : undefined;
      expect((await people.http.request(method ?? 'GET', path ?? '/', { json })).status).toBe(401);
    }
  });
});

describe('every bound of SPEC-2 1.1 and 1.2 holds: on the bound is saved, one step past it is refused', () => {
  const now = () => new Date().toISOString();
  const bp = (systolic: number, diastolic: number) => ({ systolic, diastolic });

  it.each<[MeasurementType, MeasurementValue]>([
    ['glucose', 20],
    ['glucose', 600],
    ['weight', 20],
    ['weight', 400],
    ['waist', 40],
    ['waist', 250],
    ['hba1c', 3],
    ['hba1c', 20],
    ['triglycerides', 20],
    ['triglycerides', 5000],
    ['blood_pressure', bp(60, 40)],
    ['blood_pressure', bp(260, 80)],
    ['blood_pressure', bp(120, 30)],
    ['blood_pressure', bp(200, 160)],
    ['blood_pressure', bp(91, 90)],
  ])('a %s reading of %j is saved as typed', async (type, value) => {
    const answer = await as('a').post<Measurement>('/v1/measurements', { type, value, takenAt: now() });
    expect(answer.status).toBe(201);
    expect(answer.body.value).toEqual(value);
    expect((await as('a').delete(`/v1/measurements/${answer.body.measurementId}`)).status).toBe(204);
  });

  it.each<[MeasurementType, MeasurementValue, string]>([
    ['glucose', 19, 'Blood glucose must be between 20 and 600 mg/dL'],
    ['glucose', 601, 'Blood glucose must be between 20 and 600 mg/dL'],
    ['weight', 19.9, 'Weight must be between 20 and 400 kg'],
    ['weight', 400.1, 'Weight must be between 20 and 400 kg'],
    ['waist', 39.5, 'Waist circumference must be between 40 and 250 cm'],
    ['waist', 250.5, 'Waist circumference must be between 40 and 250 cm'],
    ['hba1c', 2.9, 'HbA1c must be between 3 and 20 %'],
    ['hba1c', 20.1, 'HbA1c must be between 3 and 20 %'],
    ['triglycerides', 19, 'Triglycerides must be between 20 and 5000 mg/dL'],
    ['triglycerides', 5001, 'Triglycerides must be between 20 and 5000 mg/dL'],
    ['blood_pressure', bp(59, 40), 'Systolic must be between 60 and 260 mmHg'],
    ['blood_pressure', bp(261, 80), 'Systolic must be between 60 and 260 mmHg'],
    ['blood_pressure', bp(120, 29), 'Diastolic must be between 30 and 160 mmHg'],
    ['blood_pressure', bp(200, 161), 'Diastolic must be between 30 and 160 mmHg'],
    ['blood_pressure', bp(80, 81), 'Systolic must be higher than diastolic'],
  ])('a %s reading of %j is refused: %s', async (type, value, message) => {
    const before = await people.healthItems();
    const answer = await as('a').post('/v1/measurements', { type, value, takenAt: now() });
    expect(answer).toMatchObject({ status: 400, body: { message } });
    expect(await people.healthItems()).toEqual(before);
  });

  const sleepOf = (length: number, extra: Record<string, unknown> = {}) => {
    const end = Date.now() - 60_000;
    return {
      kind: 'sleep',
      start: new Date(end - length).toISOString(),
      end: new Date(end).toISOString(),
      ...extra,
    };
  };
  const hour = 3_600_000;

  it.each<[string, () => Record<string, unknown>]>([
    ['a meal of 0 g of carbs', () => ({ ...LOG_SAMPLE.meal, carbsGrams: 0 })],
    ['a meal of 1000 g of carbs', () => ({ ...LOG_SAMPLE.meal, carbsGrams: 1000 })],
    ['a meal described in 500 characters', () => ({ ...LOG_SAMPLE.meal, description: 'x'.repeat(500) })],
    ['an activity of 1 minute', () => ({ ...LOG_SAMPLE.activity, minutes: 1 })],
    ['an activity of 1440 minutes', () => ({ ...LOG_SAMPLE.activity, minutes: 1440 })],
    ['an activity named in 100 characters', () => ({ ...LOG_SAMPLE.activity, activity: 'x'.repeat(100) })],
    ['a sleep of quality 1', () => sleepOf(8 * hour, { quality: 1 })],
    ['a sleep of quality 5', () => sleepOf(8 * hour, { quality: 5 })],
    ['a sleep of exactly 24 hours', () => sleepOf(24 * hour)],
    ['a sleep of 1 minute', () => sleepOf(60_000)],
  ])('%s is saved as sent', async (_name, body) => {
    const sent = body();
    const answer = await as('a').post<HealthLog>('/v1/logs', sent);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject(sent);
    expect((await as('a').delete(`/v1/logs/${answer.body.logId}`)).status).toBe(204);
  });

  it.each<[string, () => Record<string, unknown>, string]>([
    ['a meal of -0.1 g of carbs', () => ({ ...LOG_SAMPLE.meal, carbsGrams: -0.1 }), HEALTH_MESSAGES.carbs],
    [
      'a meal of 1000.1 g of carbs',
      () => ({ ...LOG_SAMPLE.meal, carbsGrams: 1000.1 }),
      HEALTH_MESSAGES.carbs,
    ],
    [
      'a meal described in 501 characters',
      () => ({ ...LOG_SAMPLE.meal, description: 'x'.repeat(501) }),
      HEALTH_MESSAGES.mealDescription.tooLong,
    ],
    [
      'an activity of 0 minutes',
      () => ({ ...LOG_SAMPLE.activity, minutes: 0 }),
      HEALTH_MESSAGES.activityMinutes,
    ],
    [
      'an activity of 1441 minutes',
      () => ({ ...LOG_SAMPLE.activity, minutes: 1441 }),
      HEALTH_MESSAGES.activityMinutes,
    ],
    [
      'an activity named in 101 characters',
      () => ({ ...LOG_SAMPLE.activity, activity: 'x'.repeat(101) }),
      HEALTH_MESSAGES.activityName.tooLong,
    ],
    ['a sleep of quality 0', () => sleepOf(8 * hour, { quality: 0 }), HEALTH_MESSAGES.sleepQuality],
    ['a sleep of quality 6', () => sleepOf(8 * hour, { quality: 6 }), HEALTH_MESSAGES.sleepQuality],
    ['a sleep of 24 hours and 1 minute', () => sleepOf(24 * hour + 60_000), HEALTH_MESSAGES.sleepTooLong],
    ['a sleep that ends as it starts', () => sleepOf(0), HEALTH_MESSAGES.sleepEndsBeforeStart],
  ])('%s is refused', async (_name, body, message) => {
    const before = await people.healthItems();
    expect(await as('a').post('/v1/logs', body())).toMatchObject({ status: 400, body: { message } });
    expect(await people.healthItems()).toEqual(before);
  });

  const ahead = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
  it.each<[string, string, (at: string) => Record<string, unknown>, string]>([
    ['a reading', '/v1/measurements', (at) => ({ type: 'weight', value: 80, takenAt: at }), 'Date and time'],
    ['a meal', '/v1/logs', (at) => ({ ...LOG_SAMPLE.meal, eatenAt: at }), 'Meal time'],
    ['an activity', '/v1/logs', (at) => ({ ...LOG_SAMPLE.activity, startedAt: at }), 'Start time'],
    ['a sleep', '/v1/logs', (at) => ({ kind: 'sleep', start: minutesAgo(8 * 60), end: at }), 'Sleep end'],
  ])(
    '%s dated 4 minutes ahead (a phone clock running fast) is saved; 6 minutes ahead is refused',
    async (_name, path, body, label) => {
      const saved = await as('a').post<{ measurementId?: string; logId?: string }>(path, body(ahead(4)));
      expect(saved.status).toBe(201);
      const before = await people.healthItems();
      expect(await as('a').post(path, body(ahead(6)))).toMatchObject({
        status: 400,
        body: { message: HEALTH_MESSAGES.timeInFuture(label) },
      });
      expect(await people.healthItems()).toEqual(before);
      const id = saved.body.measurementId ?? saved.body.logId ?? '';
      expect((await as('a').delete(`${path}/${id}`)).status).toBe(204);
    },
  );

  it.each<[string, string, (at: string) => Record<string, unknown>, string]>([
    ['a reading', '/v1/measurements', (at) => ({ type: 'weight', value: 80, takenAt: at }), 'Date and time'],
    ['a meal', '/v1/logs', (at) => ({ ...LOG_SAMPLE.meal, eatenAt: at }), 'Meal time'],
  ])(
    '%s dated 1900-01-01T00:00:00Z is saved; a millisecond earlier is refused',
    async (_name, path, body, label) => {
      const saved = await as('a').post<{ measurementId?: string; logId?: string }>(
        path,
        body('1900-01-01T00:00:00.000Z'),
      );
      expect(saved.status).toBe(201);
      const before = await people.healthItems();
      expect(await as('a').post(path, body('1899-12-31T23:59:59.999Z'))).toMatchObject({
        status: 400,
        body: { message: HEALTH_MESSAGES.timeTooEarly(label) },
      });
      expect(await people.healthItems()).toEqual(before);
      const id = saved.body.measurementId ?? saved.body.logId ?? '';
      expect((await as('a').delete(`${path}/${id}`)).status).toBe(204);
    },
  );
});

describe('person B and person A', () => {
  it("B can neither list, read through a cursor, nor delete A's entries", async () => {
    const mine = await as('a').post<Measurement>('/v1/measurements', {
      type: 'hba1c',
      value: 6.1,
      takenAt: minutesAgo(3),
    });
    const myLog = await as('a').post<HealthLog>('/v1/logs', LOG_SAMPLE.meal);
    await as('a').post('/v1/measurements', { type: 'hba1c', value: 6.0, takenAt: minutesAgo(4) });

    const theirs = await as('b').get<Page<Measurement>>('/v1/measurements?limit=200');
    expect(theirs.body.items.filter((m) => m.userId !== people.b.userId)).toEqual([]);
    const theirLogs = await as('b').get<Page<HealthLog>>('/v1/logs?limit=200');
    expect(theirLogs.body.items).toEqual([]);

    // A's cursor, replayed by B, is refused; so is the same cursor edited by one character, even by A.
    const page = await as('a').get<Page<Measurement>>('/v1/measurements?type=hba1c&limit=1');
    const cursor = page.body.nextCursor ?? '';
    expect(cursor).not.toBe('');
    expect(
      await as('b').get(`/v1/measurements?type=hba1c&limit=1&cursor=${encodeURIComponent(cursor)}`),
    ).toMatchObject({
      status: 400,
      body: { message: HEALTH_MESSAGES.cursor },
    });
    const edited = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    expect(
      (await as('a').get(`/v1/measurements?type=hba1c&limit=1&cursor=${encodeURIComponent(edited)}`)).status,
    ).toBe(400);
    // A cursor is bound to its query too: the same cursor on another filter is refused.
    expect(
      (await as('a').get(`/v1/measurements?type=weight&limit=1&cursor=${encodeURIComponent(cursor)}`)).status,
    ).toBe(400);
    expect(
      (await as('a').get(`/v1/measurements?type=hba1c&limit=1&cursor=${encodeURIComponent(cursor)}`)).status,
    ).toBe(200);

    const before = await people.healthItems();
    expect(await as('b').delete(`/v1/measurements/${mine.body.measurementId}`)).toMatchObject({
      status: 404,
      body: { message: HEALTH_MESSAGES.measurementNotFound },
    });
    expect((await as('b').delete(`/v1/logs/${myLog.body.logId}`)).status).toBe(404);
    expect(await people.healthItems()).toEqual(before);
    const stillThere = await as('a').get<Page<Measurement>>('/v1/measurements?type=hba1c&limit=200');
    expect(stillThere.body.items.map((m) => m.measurementId)).toContain(mine.body.measurementId);
  });
});

describe('a create sent again with its Idempotency-Key (its answer lost)', () => {
  const postWithKey = <T = Record<string, unknown>>(
    who: 'a' | 'b',
    path: string,
    json: unknown,
    key: string,
  ) =>
    people.http.request<T>('POST', path, {
      token: people[who].idToken,
      json,
      headers: { 'Idempotency-Key': key },
    });
  /** The stored items naming this id: a record and its reference per person. */
  const storedWithId = async (id: string) => (await people.healthItems()).filter((line) => line.includes(id));
  /** A's coaching summary (last entry, counters of readings outside target): the same = nothing counted. */
  const summaryOfA = async () => {
    const documents = localDocuments();
    try {
      const state = await documents.send(
        new GetCommand({
          TableName: people.stack.tables.coaching,
          Key: { pk: `client#${people.a.userId}`, sk: 'state' },
          ConsistentRead: true,
        }),
      );
      return state.Item;
    } finally {
      documents.destroy();
    }
  };

  it('answers the reading the first one stored, and stores it once', async () => {
    const key = randomUUID();
    const reading = { type: 'glucose', ...SAMPLE.glucose, value: 205, takenAt: minutesAgo(4) };
    const first = await postWithKey<Measurement>('a', '/v1/measurements', reading, key);
    const again = await postWithKey<Measurement>('a', '/v1/measurements', reading, key.toUpperCase());
    expect(first.status).toBe(201);
    expect(again).toEqual({ status: 201, body: first.body, text: expect.any(String) as string });
    expect(first.body.measurementId).toBe(key);
    // The reading and its reference, once; the list shows it once.
    expect(await storedWithId(key)).toHaveLength(2);
    const list = await as('a').get<Page<Measurement>>('/v1/measurements?type=glucose');
    expect(list.body.items.filter((item) => item.measurementId === key)).toHaveLength(1);
  });

  it('refuses the key sent again with another body (422), writing and counting nothing', async () => {
    const key = randomUUID();
    const reading = { type: 'glucose', ...SAMPLE.glucose, value: 250, takenAt: minutesAgo(7) };
    const first = await postWithKey<Measurement>('a', '/v1/measurements', reading, key);
    expect(first.status).toBe(201);
    const before = { items: await people.healthItems(), summary: await summaryOfA() };
    // Another value (outside target too), another context, a note: each another request.
    for (const other of [{ value: 260 }, { context: 'fasting' }, { note: 'After the walk' }])
      expect(await postWithKey('a', '/v1/measurements', { ...reading, ...other }, key)).toMatchObject({
        status: 422,
        body: { message: API_MESSAGES.idempotencyKeyMismatch },
      });
    expect(await people.healthItems()).toEqual(before.items);
    expect(await summaryOfA()).toEqual(before.summary);
    const list = await as('a').get<Page<Measurement>>('/v1/measurements?type=glucose&limit=200');
    expect(list.body.items.filter((item) => item.measurementId === key)).toEqual([first.body]);
    // The first body again, its keys in another order: the same request, answered as the first was.
    const reordered = Object.fromEntries(Object.entries(reading).reverse());
    expect(await postWithKey('a', '/v1/measurements', reordered, key)).toMatchObject({
      status: 201,
      body: first.body,
    });
  });

  it('refuses a log key sent again with another body (422), writing nothing', async () => {
    const key = randomUUID();
    const meal = { ...LOG_SAMPLE.meal, eatenAt: minutesAgo(30) };
    const first = await postWithKey<HealthLog>('a', '/v1/logs', meal, key);
    expect(first.status).toBe(201);
    const before = { items: await people.healthItems(), summary: await summaryOfA() };
    expect(await postWithKey('a', '/v1/logs', { ...meal, carbsGrams: 60 }, key)).toMatchObject({
      status: 422,
      body: { message: API_MESSAGES.idempotencyKeyMismatch },
    });
    expect(await people.healthItems()).toEqual(before.items);
    expect(await summaryOfA()).toEqual(before.summary);
    const list = await as('a').get<Page<HealthLog>>('/v1/logs?kind=meal&limit=200');
    expect(list.body.items.filter((item) => item.logId === key)).toEqual([first.body]);
  });

  it('answers a record stored before fingerprints were kept as it did then, whatever the body', async () => {
    const key = randomUUID();
    const reading = { type: 'weight', ...SAMPLE.weight, takenAt: minutesAgo(8) };
    const first = await postWithKey<Measurement>('a', '/v1/measurements', reading, key);
    expect(first.status).toBe(201);
    // Its reference as a create before this change stored it: no fingerprint.
    const documents = localDocuments();
    try {
      await documents.send(
        new UpdateCommand({
          TableName: people.stack.tables.healthRecords,
          Key: { pk: `${people.a.userId}#R`, sk: key },
          UpdateExpression: 'REMOVE fingerprint',
          ConditionExpression: 'attribute_exists(fingerprint)',
        }),
      );
    } finally {
      documents.destroy();
    }
    expect(await postWithKey('a', '/v1/measurements', { ...reading, value: 90 }, key)).toMatchObject({
      status: 201,
      body: first.body,
    });
  });

  it('keeps each person to their own: the same key from B stores B a reading of their own', async () => {
    const key = randomUUID();
    const reading = { type: 'weight', ...SAMPLE.weight, takenAt: minutesAgo(6) };
    const fromA = await postWithKey<Measurement>('a', '/v1/measurements', reading, key);
    const fromB = await postWithKey<Measurement>('b', '/v1/measurements', { ...reading, value: 60 }, key);
    expect([fromA.status, fromB.status]).toEqual([201, 201]);
    expect(fromB.body.userId).not.toBe(fromA.body.userId);
    expect(fromB.body.value).toBe(60);
    expect(await storedWithId(key)).toHaveLength(4);
  });

  it('does the same for a log, refuses a key a reading holds (409) and a key that is no UUID (400)', async () => {
    const key = randomUUID();
    const first = await postWithKey<HealthLog>('a', '/v1/logs', LOG_SAMPLE.meal, key);
    const again = await postWithKey<HealthLog>('a', '/v1/logs', LOG_SAMPLE.meal, key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await storedWithId(key)).toHaveLength(2);

    const reading = { type: 'weight', ...SAMPLE.weight, takenAt: minutesAgo(3) };
    const before = await people.healthItems();
    expect(await postWithKey('a', '/v1/measurements', reading, key)).toMatchObject({
      status: 409,
      body: { message: API_MESSAGES.idempotencyKeyReused },
    });
    expect(await people.healthItems()).toEqual(before);
    expect(await postWithKey('a', '/v1/measurements', reading, 'not-a-uuid')).toMatchObject({
      status: 400,
      body: { message: API_MESSAGES.invalidIdempotencyKey },
    });
    expect(await people.healthItems()).toEqual(before);
  });

  it('refuses a key the app could not read back as an id, and the person own id, storing nothing', async () => {
    const reading = { type: 'weight', ...SAMPLE.weight, takenAt: minutesAgo(2) };
    const before = await people.healthItems();
    // UUID-shaped, but no RFC 9562 version (0) or variant (0): the answer schemas' z.uuid() refuses it,
    // so a page holding such a reading would fail on the person's Metrics and the coach's Client detail.
    for (const key of ['11111111-1111-1111-1111-111111111111', '11111111-1111-0111-8111-111111111111'])
      expect(await postWithKey('a', '/v1/measurements', reading, key)).toMatchObject({
        status: 400,
        body: { message: API_MESSAGES.invalidIdempotencyKey },
      });
    // The person's id is their Patient's in the FHIR export; an Observation of that id would share its fullUrl.
    expect(await postWithKey('a', '/v1/measurements', reading, people.a.userId)).toMatchObject({
      status: 409,
      body: { message: API_MESSAGES.idempotencyKeyReused },
    });
    expect(await postWithKey('a', '/v1/logs', LOG_SAMPLE.meal, people.a.userId)).toMatchObject({
      status: 409,
    });
    expect(await people.healthItems()).toEqual(before);
  });
});
