/**
 * `npm run bench` (second part): GET /v1/coach/clients for a coach with 200 clients who each have 90
 * days of readings, on the local stack (DynamoDB Local, the real handlers, loopback only), and how many
 * DynamoDB and Cognito calls one request makes. The counters come from the per-client summary the
 * health writes keep, so the request must not read any entry: its call count does not grow with data.
 *
 * Seeding (documented, bounded): the 200 clients are invited and activated over HTTP and assigned by
 * the admin route. Each gets a glucose reading a day for days 7 to 89, written in bulk as exactly the
 * items the create route stores (`recordItems`), and, for the last 7 days, a glucose and a weight a
 * day through the real create path (`createMeasurement`: the record, its reference and the summary
 * in one transaction), some of them outside target.
 */
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  bulkPut,
  countCalls,
  hardLimit,
  ms,
  seedOwner,
  seedReading,
  startBenchStack,
  timeRuns,
} from './bench-support';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';
const { LOCAL_CLIENT_ID } = await import('../infra/local/stack');
const { createHttpClient } = await import('../test/fixtures/http-client');

const CLIENTS = Number(process.env.CLIENTS ?? 200);
const DAYS = 90;
const RECENT_DAYS = 7;
const RUNS = Number(process.env.RUNS ?? 15);
const HARD_LIMIT_MS = 8 * 60_000;
const DAY_MS = 86_400_000;
const root = resolve(import.meta.dirname, '..');
hardLimit(HARD_LIMIT_MS);

/** Runs `work` over `items`, `width` at a time. */
const inBatches = async <T>(items: T[], width: number, work: (item: T) => Promise<void>) => {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
};

const { stack, http, admin, stop } = await startBenchStack(root);
// The stack's environment is set now: the Lambda modules below are the ones its gateway loads.
const { ddb, cognito } = await import('../lambdas/common/aws');
const { createMeasurement } = await import('../lambdas/common/health-records');
const { recordItems } = await import('../lambdas/common/repositories/health-records');
let devices = 0;
/** 127.0.1.1, 127.0.1.2, ...: Linux routes all of 127.0.0.0/8 to loopback. */
const nextDeviceAddress = () => {
  devices += 1;
  return `127.0.${1 + Math.floor(devices / 250)}.${1 + (devices % 250)}`;
};

/** Every call the handlers make through the shared clients: DynamoDB's, and Cognito's (there must be none). */
const counted = countCalls([ddb]);
const cognitoCalls = countCalls([cognito]);

try {
  const seeded = performance.now();
  const invite = async (email: string, roles: string[]) => {
    const answer = await http.request<{ activationCode: string }>('POST', '/internal/v1/admin/invitations', {
      token: admin.idToken,
      json: { email, roles },
    });
    if (answer.status !== 201) throw new Error(`Invitation failed: ${answer.status} ${answer.text}`);
    // Each person activates from a device of their own: one loopback source address each, as the
    // per-IP activation limit (SPEC-2 section 5) would otherwise stop a 200-person seed at 100.
    const device = createHttpClient(stack.origin, LOCAL_CLIENT_ID, { sourceAddress: nextDeviceAddress() });
    try {
      return await device.activate(email, answer.body.activationCode);
    } finally {
      device.close();
    }
  };
  const coach = await invite('coach@example.com', ['coaches']);
  const clientIds: string[] = [];
  await inBatches(
    Array.from({ length: CLIENTS }, (_, i) => i),
    4,
    async (i) => {
      const client = await invite(`client${String(i).padStart(3, '0')}@example.com`, ['users']);
      const assigned = await http.request('PUT', `/internal/v1/admin/users/${client.userId}/coach`, {
        token: admin.idToken,
        json: { coachId: coach.userId },
      });
      if (assigned.status !== 200) throw new Error(`Assignment failed: ${assigned.status} ${assigned.text}`);
      clientIds.push(client.userId);
    },
  );
  const people = performance.now();

  const now = Date.now();
  const table = stack.tables.healthRecords;
  const history: Record<string, unknown>[] = clientIds.flatMap((userId, c) =>
    Array.from({ length: DAYS - RECENT_DAYS }, (_, d) => {
      const takenAt = new Date(now - (RECENT_DAYS + d) * DAY_MS).toISOString();
      const measurement = {
        measurementId: randomUUID(),
        userId,
        ...seedReading({ type: 'glucose', value: 80 + ((c + d) % 20), context: 'fasting', takenAt }),
        createdAt: takenAt,
      };
      return recordItems('M', {
        userId,
        id: measurement.measurementId,
        subtype: 'glucose',
        at: takenAt,
        item: measurement,
      });
    }).flat(),
  );
  await bulkPut(
    ddb,
    history.map((item) => ({ table, item })),
  );
  await inBatches(clientIds, 8, async (userId) => {
    for (let d = 0; d < RECENT_DAYS; d += 1) {
      const takenAt = new Date(now - d * DAY_MS - 3_600_000).toISOString();
      // Every third client has a high fasting glucose on day 1: outside target, Pending Review.
      const glucose = d === 1 && clientIds.indexOf(userId) % 3 === 0 ? 142 : 88 + d;
      await createMeasurement(
        await seedOwner(userId),
        seedReading({ type: 'glucose', value: glucose, context: 'fasting', takenAt }),
      );
      await createMeasurement(
        await seedOwner(userId),
        seedReading({ type: 'weight', value: 70 + (d % 3), takenAt }),
      );
    }
  });
  const readings = history.length / 2 + clientIds.length * RECENT_DAYS * 2;
  console.log(
    `Seeded ${CLIENTS} clients (invited, activated and assigned over HTTP in ${((people - seeded) / 1000).toFixed(1)} s) and ${readings} readings, ${DAYS} days each (in ${((performance.now() - people) / 1000).toFixed(1)} s)`,
  );

  const list = async () => {
    const answer = await http.request<{ clients: { pendingReview: boolean }[] }>('GET', '/v1/coach/clients', {
      token: coach.idToken,
    });
    if (answer.status !== 200) throw new Error(`GET failed: ${answer.status} ${answer.text}`);
    return answer.body.clients;
  };
  await list();
  counted.take();
  cognitoCalls.take();
  const clients = await list();
  const perRequest = counted.take();
  const cognitoPerRequest = cognitoCalls.take();
  counted.stop();
  cognitoCalls.stop();
  const timing = await timeRuns(RUNS, list);
  console.log(
    `GET /v1/coach/clients, ${clients.length} clients (${clients.filter((c) => c.pendingReview).length} pending review): median ${ms(timing.median)}, min ${ms(timing.min)}, max ${ms(timing.max)} over ${RUNS} runs; per request: ${perRequest}; Cognito: ${cognitoPerRequest || 'no call'}`,
  );
  if (cognitoPerRequest) {
    console.error(`The coach's client list calls Cognito (${cognitoPerRequest}).`);
    process.exitCode = 1;
  }
} finally {
  await stop();
}
