/**
 * One side of `bin/bench-admin-lists.ts` (issue 12): a throwaway local stack holding `BENCH_SIZE` people
 * and pending invitations, for the parent to time over HTTP while it times the other size, interleaved.
 * Prints one line, `READY {json}` (origin, tokens, the DynamoDB and Cognito calls of one of each
 * request), then serves until SIGTERM or the end of its stdin. Loopback only, bounded.
 *
 * Seeding (documented, bounded): a coach and `BENCH_CLIENTS` clients are invited, activated over HTTP
 * and assigned by the admin route; one of them logs 90 readings through the real create path. The other
 * people are written by a bulk seeder as exactly the items activation stores (`createAccountItem`,
 * `createProfileItem`, `invitationItem` of the used invitation) and one reading each (`recordItems`),
 * with the counts moved as the write paths move them (`countsUpdateItem`); one in twenty is left a
 * pending invitation instead. The bulk people have no Cognito user (no list reads Cognito), so they
 * cannot sign in.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import {
  bulkPut,
  countCalls,
  hardLimit,
  seedOwner,
  seedReading,
  startBenchStack,
  type BulkItem,
} from './bench-support';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

/** The number of people and pending invitations this stack holds. */
const SIZE = Number(process.env.BENCH_SIZE);
/** What the parent will time: each request's name, path and who asks (`bin/bench-admin-lists.ts`). */
const REQUESTS = JSON.parse(process.env.BENCH_REQUESTS ?? '[]') as {
  name: string;
  path: string;
  as: 'admin' | 'coach' | 'logger';
}[];
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const HARD_LIMIT_MS = 12 * 60_000;
const DAY_MS = 86_400_000;
const root = resolve(import.meta.dirname, '..');
hardLimit(HARD_LIMIT_MS);

const { stack, http, admin, stop } = await startBenchStack(root);
// The stack's environment is set now: these are the modules its gateway runs.
const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
const { ddb, cognito } = await import('../lambdas/common/aws');
const { createAccountItem } = await import('../lambdas/common/repositories/accounts');
const { createProfileItem } = await import('../lambdas/common/repositories/profiles');
const { invitationItem } = await import('../lambdas/common/repositories/invitations');
const { countsUpdateItem } = await import('../lambdas/common/repositories/directory');
const { recordItems } = await import('../lambdas/common/repositories/health-records');
const { createMeasurement } = await import('../lambdas/common/health-records');

const putItem = (transactItem: {
  Put?: { TableName?: string; Item?: Record<string, unknown> };
}): BulkItem => ({
  table: transactItem.Put?.TableName ?? '',
  item: transactItem.Put?.Item ?? {},
});

/** Bulk people `from` to `to - 1`: every twentieth a pending invitation, the others activated. */
const seed = async (from: number, to: number) => {
  const writes: BulkItem[] = [];
  const start = Date.now() - to * 60_000;
  let people = 0;
  let pending = 0;
  let disabled = 0;
  for (let i = from; i < to; i += 1) {
    const email = `person${String(i).padStart(5, '0')}@example.com`;
    const createdAt = new Date(start + i * 60_000).toISOString();
    const invitation = {
      email,
      activationCode: 'ABCDEFGHJKMNPQRS',
      codeUsed: false,
      roles: ['users' as const],
      createdBy: admin.userId,
      createdAt,
      expiresAt: new Date(Date.parse(createdAt) + 7 * DAY_MS).toISOString(),
    };
    if (i % 20 === 19) {
      writes.push({ table: stack.tables.invitations, item: invitationItem(invitation) });
      pending += 1;
      continue;
    }
    const userId = randomUUID();
    const status = i % 50 === 7 ? 'disabled' : 'active';
    if (status === 'disabled') disabled += 1;
    const activatedAt = new Date(Date.parse(createdAt) + 1000).toISOString();
    writes.push({
      table: stack.tables.invitations,
      item: invitationItem({ ...invitation, codeUsed: true, usedAt: activatedAt, usedBy: userId }),
    });
    writes.push(
      putItem(
        createAccountItem({
          userId,
          email,
          cognitoUsername: randomUUID(),
          userHandle: Buffer.from(randomUUID()).toString('base64url'),
          roles: ['users'],
          status,
          tokensValidAfter: 0,
          credentialIds: new Set([randomUUID()]),
          createdAt: activatedAt,
          updatedAt: activatedAt,
        }),
      ),
    );
    writes.push(
      putItem(
        createProfileItem({
          userId,
          email,
          name: `Person ${i}`,
          preferredName: `Person`,
          familyName: `${i}`,
          createdAt: activatedAt,
          updatedAt: activatedAt,
          sexAssignedAtBirth: 'prefer-not-to-say',
          measurementSystem: 'metric',
          timezone: 'UTC',
          locale: 'en-US',
          metadata: { onboardingCompleted: false },
        }),
      ),
    );
    const id = randomUUID();
    for (const item of recordItems('M', {
      userId,
      id,
      subtype: 'weight',
      at: activatedAt,
      item: {
        measurementId: id,
        userId,
        ...seedReading({ type: 'weight', value: 70, takenAt: activatedAt }),
        createdAt: activatedAt,
      },
    }))
      writes.push({ table: stack.tables.healthRecords, item });
    people += 1;
  }
  await bulkPut(ddb, writes);
  const [update] = countsUpdateItem({ people, disabled, pendingInvitations: pending });
  if (update?.Update)
    await ddb.send(new UpdateCommand(update.Update as ConstructorParameters<typeof UpdateCommand>[0]));
  return { people, pending };
};

try {
  const invite = async (email: string, roles: string[]) => {
    const answer = await http.request<{ activationCode: string }>('POST', '/internal/v1/admin/invitations', {
      token: admin.idToken,
      json: { email, roles },
    });
    if (answer.status !== 201) throw new Error(`Invitation failed: ${answer.status} ${answer.text}`);
    return http.activate(email, answer.body.activationCode);
  };
  const coach = await invite('coach@example.com', ['coaches']);
  const clients: { userId: string; idToken?: string }[] = [];
  for (let i = 0; i < CLIENTS; i += 1) {
    const client = await invite(`client${String(i).padStart(3, '0')}@example.com`, ['users']);
    const assigned = await http.request('PUT', `/internal/v1/admin/users/${client.userId}/coach`, {
      token: admin.idToken,
      json: { coachId: coach.userId },
    });
    if (assigned.status !== 200) throw new Error(`Assignment failed: ${assigned.status} ${assigned.text}`);
    clients.push(client);
  }
  const logger = clients[0] ?? { userId: '' };
  for (let d = 0; d < 90; d += 1) {
    const takenAt = new Date(Date.now() - d * DAY_MS - 3_600_000).toISOString();
    await createMeasurement(
      await seedOwner(logger.userId),
      seedReading({ type: 'glucose', value: 90 + (d % 10), context: 'fasting', takenAt }),
    );
  }
  const seeding = performance.now();
  const seeded = await seed(0, SIZE - (2 + CLIENTS));
  const seconds = (performance.now() - seeding) / 1000;

  const tokens = { admin: admin.idToken, coach: coach.idToken, logger: logger.idToken };
  const counted = countCalls([ddb, cognito]);
  const callsOf: Record<string, string> = {};
  for (const { name, path, as } of REQUESTS) {
    const answer = await http.request('GET', path, { token: tokens[as] });
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.text}`);
    callsOf[name] = counted.take();
  }
  counted.stop();

  const ready = {
    origin: stack.origin,
    tokens,
    calls: callsOf,
    seededPeople: seeded.people,
    seededPending: seeded.pending,
    seconds,
  };
  console.log(`READY ${JSON.stringify(ready)}`);
  await new Promise<void>((done) => {
    process.once('SIGTERM', () => done());
    process.stdin.once('end', () => done());
    process.stdin.resume();
  });
} finally {
  await stop();
}
