/**
 * `npm run bench`: how fast GET /v1/measurements answers for a heavy logger, on the local stack
 * (DynamoDB Local, the real handlers, loopback only). One client logs 90 days of 6 types x 4 a day
 * (2,160 readings) through the API; then each read is timed RUNS times and the median reported:
 * - one page of 200 across every type (Recent Entries; the byOwner index),
 * - one type over 90 days, every page (one chart; the table, read consistently),
 * - every type over 90 days, every page (what Metrics loads for its 90-day view).
 * Bounded: a fixed data set, a fixed number of runs, and a hard time limit.
 */
import { resolve } from 'node:path';
import { MEASUREMENT_TYPES, MEASUREMENTS, type MeasurementType } from '../shared/health';
import { hardLimit, ms, startBenchStack, timeRuns } from './bench-support';

// Set before the AWS SDK loads (hence the dynamic imports below); the deployed Lambdas run Node 22.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

const DAYS = 90;
const PER_DAY = 4;
const RUNS = Number(process.env.RUNS ?? 15);
const HARD_LIMIT_MS = 5 * 60_000;
const root = resolve(import.meta.dirname, '..');

hardLimit(HARD_LIMIT_MS);

const valueFor = (type: MeasurementType, i: number) => {
  if (type === 'blood_pressure') return { systolic: 115 + (i % 20), diastolic: 70 + (i % 10) };
  const { min, max } = MEASUREMENTS[type].bounds;
  return min + ((max - min) / 4) * (0.5 + (i % 10) / 20);
};

const { http, admin, stop } = await startBenchStack(root);
try {
  const invite = await http.request<{ activationCode: string }>('POST', '/internal/v1/admin/invitations', {
    token: admin.idToken,
    json: { email: 'heavy@example.com' },
  });
  const { idToken: token } = await http.activate('heavy@example.com', invite.body.activationCode);

  const now = Date.now();
  const bodies = [];
  for (let day = 0; day < DAYS; day += 1)
    for (let slot = 0; slot < PER_DAY; slot += 1)
      for (const type of MEASUREMENT_TYPES) {
        const takenAt = new Date(now - day * 86_400_000 - slot * 4 * 3_600_000 - 60_000).toISOString();
        bodies.push({ type, value: valueFor(type, day + slot), takenAt });
      }
  const seeded = performance.now();
  for (let i = 0; i < bodies.length; i += 20) {
    const answers = await Promise.all(
      bodies.slice(i, i + 20).map((json) => http.request('POST', '/v1/measurements', { token, json })),
    );
    const failed = answers.find((answer) => answer.status !== 201);
    if (failed) throw new Error(`Seeding failed: ${failed.status} ${failed.text}`);
  }
  console.log(
    `Seeded ${bodies.length} readings (${DAYS} days x ${MEASUREMENT_TYPES.length} types x ${PER_DAY} a day) in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );

  const from = encodeURIComponent(new Date(now - DAYS * 86_400_000 - 86_400_000).toISOString());
  /** Reads every page of a query; answers the number of items and pages. */
  const readAll = async (query: string, maxPages: number) => {
    let cursor: string | undefined;
    let items = 0;
    let pages = 0;
    do {
      const page = await http.request<{ items: unknown[]; nextCursor?: string }>(
        'GET',
        `/v1/measurements?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token },
      );
      if (page.status !== 200) throw new Error(`GET failed: ${page.status} ${page.text}`);
      items += page.body.items.length;
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor && pages < maxPages);
    return { items, pages };
  };
  const cases = [
    { name: 'one page of 200, every type', query: `from=${from}&limit=200`, maxPages: 1 },
    { name: 'glucose, 90 days, every page', query: `type=glucose&from=${from}&limit=200`, maxPages: 20 },
    { name: 'every type, 90 days, every page', query: `from=${from}&limit=200`, maxPages: 20 },
  ];
  for (const bench of cases) {
    const timing = await timeRuns(RUNS, () => readAll(bench.query, bench.maxPages));
    console.log(
      `GET /v1/measurements, ${bench.name}: ${timing.last.items} items in ${timing.last.pages} page(s); median ${ms(timing.median)}, min ${ms(timing.min)}, max ${ms(timing.max)} over ${RUNS} runs`,
    );
  }
} finally {
  await stop();
}
