/**
 * SPEC-2 sections 2 and 4 over HTTP on the local stack: an admin assigns coach C to client U; C
 * follows U (client list, measurements, logs, notes) and writes a note U reads; coach D, a client and
 * an admin are refused; unassigning ends C's access at once; every read C makes is exactly one audit
 * event naming C, U and what was read, and no audit item holds a value, code, proof or token; a read
 * that cannot be recorded is a 503 that shows nothing; a role change that ends being a client or a
 * coach ends the coaching with it.
 */
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_MESSAGES, SECURITY_EVENT_TYPES, type AuditEvent, type AuditPerson } from '../../shared/audit';
import { COACHING_MESSAGES, type CoachClient, type CoachNote, type MyCoach } from '../../shared/coaching';
import type { HealthLog, Measurement } from '../../shared/health-schemas';
import { API_MESSAGES, VALIDATION } from '../../shared/messages';
import type { AdminUserListItem } from '../../shared/schemas';
import { TABLES } from '../../shared/tables';
import { createTables } from '../../infra/local/tables';
import { localDocuments, storeAuditEvent } from '../fixtures/aws-env';
import { interleave, staleByCoach } from '../fixtures/interleave';
import { startPeople, type People, type Person } from '../fixtures/health-people';

type Who = 'u' | 'v' | 'c' | 'd';
let world: People<Who>;
let u: Person, v: Person, c: Person, d: Person;
beforeAll(async () => {
  world = await startPeople({
    u: { email: 'client.u@example.com' },
    v: { email: 'client.v@example.com' },
    c: { email: 'coach.c@example.com', roles: ['coaches'] },
    d: { email: 'coach.d@example.com', roles: ['coaches'] },
  });
  ({ u, v, c, d } = world.people);
  // Names as people give them, so that each list is seen to carry them.
  for (const [who, preferredName, familyName] of [
    [u, 'Una', 'Ulrich'],
    [c, 'Cara', 'Cole'],
  ] as const) {
    const named = await call(who, 'PUT', '/v1/users/me', { preferredName, familyName });
    expect(named.status).toBe(200);
  }
}, 90_000);
afterAll(async () => {
  await world.stop();
});

type Page<T> = { items: T[]; nextCursor?: string };
const call = <T = Record<string, unknown>>(who: Person, method: string, path: string, json?: unknown) =>
  world.http.request<T>(method, path, { token: who.idToken, ...(json !== undefined && { json }) });
const assign = (userId: string, coachId: string, as: Person = world.admin) =>
  call<{ userId: string; coachId: string; message?: string }>(
    as,
    'PUT',
    `/internal/v1/admin/users/${userId}/coach`,
    {
      coachId,
    },
  );
const auditOf = async () =>
  (await world.scan('auditEvents')).sort((a, b) => String(a.sk).localeCompare(String(b.sk))) as (AuditEvent &
    Record<string, unknown>)[];
const coachingItems = async () => (await world.scan('coaching')).map((item) => JSON.stringify(item)).sort();

/** The fields of SPEC-2 section 4 every event has, with its keys and expiry; `actorId` and `subjectId` may be added. */
const REQUIRED_EVENT_FIELDS = [
  'at',
  'details',
  'eventId',
  'expiresAt',
  'ip',
  'outcome',
  'pk',
  'sk',
  'type',
  'userAgent',
];

/** Every client route of one client, as the coach routes of SPEC-2 section 2 list them. */
const clientRoutes = (clientId: string): [string, string, unknown?][] => [
  ['GET', `/v1/coach/clients/${clientId}/measurements`],
  ['GET', `/v1/coach/clients/${clientId}/logs`],
  ['GET', `/v1/coach/clients/${clientId}/notes`],
  ['POST', `/v1/coach/clients/${clientId}/notes`, { text: 'Hello' }],
];
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** Reads of U's data by C that answered 200, with the details each event must hold: one event each. */
const readsOfU: Record<string, string>[] = [];
const readAsC = async <T>(path: string, details: Record<string, string>) => {
  const answer = await call<T>(c, 'GET', path);
  expect(answer.status, path).toBe(200);
  readsOfU.push(details);
  return answer.body;
};

/** C's reads of the client list that answered 200 showing U: each must be one `client-list` event. */
let listsOfUByC = 0;
const listAsC = async () => {
  const answer = await call<{ clients: CoachClient[] }>(c, 'GET', '/v1/coach/clients');
  expect(answer.status).toBe(200);
  if (answer.body.clients.some((client) => client.userId === u.userId)) listsOfUByC += 1;
  return answer;
};

let aboveTarget: Measurement;
let meal: HealthLog;
let note: CoachNote;

describe('assignment', () => {
  it('refuses what is not a coach for a client, and changes nothing', async () => {
    const before = { coaching: await coachingItems(), audit: (await auditOf()).length };
    const cases: [string, Promise<{ status: number; body: { message?: string } }>, number, string][] = [
      ['a client as the coach', assign(u.userId, v.userId), 400, COACHING_MESSAGES.notACoach],
      ['a coach as the client', assign(c.userId, d.userId), 400, COACHING_MESSAGES.notAClient],
      ['an admin as the client', assign(world.admin.userId, c.userId), 400, COACHING_MESSAGES.notAClient],
      ['an unknown coach id', assign(u.userId, randomUUID()), 400, COACHING_MESSAGES.notACoach],
      ['an unknown user id', assign(randomUUID(), c.userId), 404, COACHING_MESSAGES.userNotFound],
      ['a user id that is no id', assign('not-an-id', c.userId), 404, COACHING_MESSAGES.userNotFound],
      ['a coach id that is no id', assign(u.userId, 'nobody'), 400, VALIDATION.userIdUuid],
      ['the client as their own coach', assign(u.userId, u.userId), 400, COACHING_MESSAGES.selfCoaching],
      ['a coach calling the admin route', assign(u.userId, c.userId, c), 403, API_MESSAGES.forbidden],
      ['a client calling the admin route', assign(u.userId, c.userId, u), 403, API_MESSAGES.forbidden],
    ];
    for (const [label, answer, status, message] of cases)
      expect(await answer, label).toMatchObject({ status, body: { message } });
    expect(await coachingItems()).toEqual(before.coaching);
    expect((await auditOf()).length).toBe(before.audit);
  });

  it('assigns coach C to client U, and the admin list shows it', async () => {
    // Both ids in capitals: a UUID is the same in either case, and is answered as stored.
    const answer = await assign(u.userId.toUpperCase(), c.userId.toUpperCase());
    expect(answer).toMatchObject({ status: 200, body: { userId: u.userId, coachId: c.userId } });
    const users = await call<{ users: AdminUserListItem[] }>(world.admin, 'GET', '/internal/v1/admin/users');
    const byId = new Map(users.body.users.map((user) => [user.userId, user]));
    expect(byId.get(u.userId)).toMatchObject({ coachId: c.userId, status: 'active' });
    expect(byId.get(v.userId)?.coachId).toBeUndefined();
    expect(byId.get(c.userId)?.status).toBe('active');
    const events = await auditOf();
    expect(events.at(-1)).toMatchObject({
      type: 'coach.assigned',
      actorId: world.admin.userId,
      subjectId: u.userId,
      outcome: 'success',
      details: { coachId: c.userId },
    });
  });
});

describe('the coach follows the client', () => {
  it('lists U (not V) with the summary the health writes keep, Pending Review on', async () => {
    const first = await listAsC();
    expect(first.body.clients).toMatchObject([{ userId: u.userId, outOfTarget7d: 0, pendingReview: false }]);
    expect(first.body.clients[0]?.lastEntryAt).toBeUndefined();

    const inTarget = await call<Measurement>(u, 'POST', '/v1/measurements', {
      type: 'glucose',
      value: 92,
      enteredUnit: 'mg/dL',
      context: 'fasting',
      takenAt: minutesAgo(30),
    });
    const above = await call<Measurement>(u, 'POST', '/v1/measurements', {
      type: 'glucose',
      value: 7.4,
      enteredUnit: 'mmol/L',
      context: 'fasting',
      takenAt: minutesAgo(20),
    });
    const logged = await call<HealthLog>(u, 'POST', '/v1/logs', {
      kind: 'meal',
      description: 'Lentil soup and rye bread',
      carbsGrams: 52,
      eatenAt: minutesAgo(10),
    });
    expect([inTarget.status, above.status, logged.status]).toEqual([201, 201, 201]);
    aboveTarget = above.body;
    meal = logged.body;

    const list = await listAsC();
    expect(list.status).toBe(200);
    expect(list.body.clients).toHaveLength(1);
    const [client] = list.body.clients;
    expect(client).toMatchObject({
      userId: u.userId,
      email: u.email,
      preferredName: 'Una',
      familyName: 'Ulrich',
      outOfTarget7d: 1,
      pendingReview: true,
    });
    expect(client?.lastEntryAt).toBe(meal.createdAt);
    // D has no clients; U is not theirs.
    const other = await call<{ clients: CoachClient[] }>(d, 'GET', '/v1/coach/clients');
    expect(other).toMatchObject({ status: 200, body: { clients: [] } });
  });

  it("reads who coaches U (getClientCoach: the admin's assignment routes, the coach checks) without U's summary", async () => {
    const stored = (await world.scan('coaching')).find((item) => item.pk === `client#${u.userId}`);
    // The state item holds the summary the health writes keep: the last entry and a day's counter.
    expect(stored).toMatchObject({ coachId: c.userId, lastEntryAt: meal.createdAt });
    expect(Object.keys(stored ?? {}).some((key) => key.startsWith('oot_'))).toBe(true);
    const { getClientCoach } = await import('../../lambdas/common/repositories/coaching');
    expect(await getClientCoach(u.userId)).toEqual({ clientId: u.userId, coachId: c.userId });
  });

  it("reads U's measurements, logs and notes exactly as U sees them", async () => {
    const own = await call<Page<Measurement>>(u, 'GET', '/v1/measurements');
    const seen = await readAsC<Page<Measurement>>(`/v1/coach/clients/${u.userId}/measurements`, {
      read: 'measurements',
    });
    expect(seen.items).toEqual(own.body.items);
    expect(seen.items.map((m) => m.measurementId)[0]).toBe(aboveTarget.measurementId);

    const glucose = await readAsC<Page<Measurement>>(
      `/v1/coach/clients/${u.userId}/measurements?type=glucose&limit=1`,
      { read: 'measurements', type: 'glucose' },
    );
    expect(glucose.items).toEqual([aboveTarget]);
    expect(glucose.nextCursor).toBeDefined();
    const next = await readAsC<Page<Measurement>>(
      `/v1/coach/clients/${u.userId}/measurements?type=glucose&limit=1&cursor=${encodeURIComponent(glucose.nextCursor ?? '')}`,
      { read: 'measurements', type: 'glucose' },
    );
    expect(next.items).toHaveLength(1);
    expect(next.items[0]?.measurementId).not.toBe(aboveTarget.measurementId);

    // The coach's cursor is the coach's: U cannot continue their own list with it.
    const foreign = await call(
      u,
      'GET',
      `/v1/measurements?type=glucose&limit=1&cursor=${encodeURIComponent(glucose.nextCursor ?? '')}`,
    );
    expect(foreign.status).toBe(400);

    const logs = await readAsC<Page<HealthLog>>(`/v1/coach/clients/${u.userId}/logs`, { read: 'logs' });
    expect(logs.items).toEqual([meal]);
    const notes = await readAsC<{ notes: CoachNote[] }>(`/v1/coach/clients/${u.userId}/notes`, {
      read: 'notes',
    });
    expect(notes.notes).toEqual([]);
  });

  it('refuses a note that is empty or over 2000 characters, and writes nothing', async () => {
    const before = { coaching: await coachingItems(), audit: (await auditOf()).length };
    for (const text of ['', '   ', 'x'.repeat(2001)]) {
      const answer = await call(c, 'POST', `/v1/coach/clients/${u.userId}/notes`, { text });
      expect(answer).toMatchObject({ status: 400, body: { message: COACHING_MESSAGES.noteText } });
    }
    const extra = await call(c, 'POST', `/v1/coach/clients/${u.userId}/notes`, {
      text: 'Hi',
      coachId: d.userId,
    });
    expect(extra.status).toBe(400);
    expect(await coachingItems()).toEqual(before.coaching);
    expect((await auditOf()).length).toBe(before.audit);
  });

  it('writes a note U sees on My Coach, which clears Pending Review', async () => {
    const text = 'Your fasting reading was high today. Shall we look at evening meals together?';
    const written = await call<CoachNote>(c, 'POST', `/v1/coach/clients/${u.userId}/notes`, {
      text: `  ${text} `,
    });
    expect(written).toMatchObject({ status: 201, body: { clientId: u.userId, coachId: c.userId, text } });
    note = written.body;

    const mine = await call<MyCoach>(u, 'GET', '/v1/users/me/coach');
    expect(mine).toMatchObject({
      status: 200,
      body: {
        coach: { userId: c.userId, email: c.email, preferredName: 'Cara', familyName: 'Cole' },
        notes: [note],
      },
    });
    const list = await listAsC();
    expect(list.body.clients[0]).toMatchObject({ userId: u.userId, outOfTarget7d: 1, pendingReview: false });

    const thread = await readAsC<{ notes: CoachNote[] }>(`/v1/coach/clients/${u.userId}/notes`, {
      read: 'notes',
    });
    expect(thread.notes).toEqual([note]);

    // V has no coach.
    expect(await call(v, 'GET', '/v1/users/me/coach')).toMatchObject({
      status: 200,
      body: { coach: null, notes: [] },
    });
  });

  it('counts a deleted reading out of the 7-day figure', async () => {
    const extra = await call<Measurement>(u, 'POST', '/v1/measurements', {
      type: 'triglycerides',
      value: 220,
      enteredUnit: 'mg/dL',
      takenAt: minutesAgo(5),
    });
    const withIt = await listAsC();
    expect(withIt.body.clients[0]).toMatchObject({ outOfTarget7d: 2, pendingReview: true });
    expect((await call(u, 'DELETE', `/v1/measurements/${extra.body.measurementId}`)).status).toBe(204);
    const without = await listAsC();
    expect(without.body.clients[0]?.outOfTarget7d).toBe(1);
  });
});

describe('everyone else', () => {
  it('refuses coach D on every client route of U, with nothing recorded or written', async () => {
    const before = { coaching: await coachingItems(), audit: (await auditOf()).length };
    for (const [method, path, json] of clientRoutes(u.userId)) {
      const answer = await call(d, method, path, json);
      expect(answer, `${method} ${path}`).toMatchObject({
        status: 403,
        body: { message: COACHING_MESSAGES.notYourClient },
      });
      expect(JSON.stringify(answer.body)).not.toContain('items');
    }
    expect(await coachingItems()).toEqual(before.coaching);
    expect((await auditOf()).length).toBe(before.audit);
  });

  it('refuses a client and an admin on every coach route, with nothing recorded or written', async () => {
    const before = { coaching: await coachingItems(), audit: (await auditOf()).length };
    for (const who of [u, v, world.admin]) {
      for (const [method, path, json] of [
        ['GET', '/v1/coach/clients'] as [string, string],
        ...clientRoutes(u.userId),
      ]) {
        const answer = await call(who, method, path, json);
        expect(answer, `${who.email} ${method} ${path}`).toMatchObject({
          status: 403,
          body: { message: API_MESSAGES.forbidden },
        });
      }
    }
    // No note written (the client routes include POST .../notes), no read recorded.
    expect(await coachingItems()).toEqual(before.coaching);
    expect((await auditOf()).length).toBe(before.audit);
  });

  it('answers 401 on the coach routes without a token', async () => {
    const answer = await world.http.request('GET', '/v1/coach/clients');
    expect(answer.status).toBe(401);
  });
});

describe('the audit log', () => {
  it("holds exactly one event per read of U's data by C, naming C, U and what was read", async () => {
    const reads = (await auditOf()).filter(
      (event) => event.type === 'client.data.read' && event.subjectId === u.userId,
    );
    expect(reads.map((event) => ({ actorId: event.actorId, details: event.details }))).toEqual(
      readsOfU.map((details) => ({ actorId: c.userId, details })),
    );
    for (const event of reads) {
      expect(event.outcome).toBe('success');
      expect(event.ip).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    }
    // Ids and reason codes only (SPEC-2 section 4): the details above are whole, and say nothing of
    // how many entries a page held.
    expect(reads.length).toBeGreaterThan(0);
    // The client list is recorded too, naming every client it showed.
    const lists = (await auditOf()).filter(
      (event) => event.type === 'client.data.read' && event.details.read === 'client-list',
    );
    expect(lists).toHaveLength(listsOfUByC);
    expect(listsOfUByC).toBeGreaterThan(0);
    for (const event of lists)
      expect(event).toMatchObject({ actorId: c.userId, details: { clientIds: [u.userId] } });
    expect(lists.every((event) => event.subjectId === undefined)).toBe(true);
    // The note is its own event.
    expect((await auditOf()).filter((event) => event.type === 'note.created')).toMatchObject([
      { actorId: c.userId, subjectId: u.userId, details: { noteId: note.noteId } },
    ]);
  });

  it('holds no health value, activation code, proof or token anywhere', async () => {
    // A sign-in of U's, each of its secrets kept: the challenge, the session, the device's signed
    // answer, the proof and the three tokens (its signin.succeeded event is among the events).
    if (!u.authenticator) throw new Error('U has no passkey');
    const started = await world.http.request<{
      sessionId: string;
      authenticationOptions: Parameters<NonNullable<Person['authenticator']>['getAssertion']>[0];
    }>('POST', '/v1/auth/initiate-signin', { json: {} });
    const assertion = u.authenticator.getAssertion(started.body.authenticationOptions);
    const verified = await world.http.request<{ cognitoUsername: string; passkeyProof: string }>(
      'POST',
      '/v1/auth/verify-webauthn',
      { json: { sessionId: started.body.sessionId, authenticationResponse: assertion } },
    );
    expect(verified.status).toBe(200);
    const tokens = await world.http.signInWithProof(
      verified.body.cognitoUsername,
      verified.body.passkeyProof,
    );
    const signInSecrets = [
      started.body.authenticationOptions.challenge,
      started.body.sessionId,
      assertion.response.signature,
      assertion.response.clientDataJSON,
      assertion.response.authenticatorData,
      verified.body.passkeyProof,
      ...Object.values(tokens).map(String),
    ];
    expect(signInSecrets.every((secret) => secret.length >= 16)).toBe(true);

    const events = await auditOf();
    expect(
      events.filter((event) => event.type === 'signin.succeeded' && event.subjectId === u.userId),
    ).not.toEqual([]);
    const invitations = await world.scan('invitations');
    const codes = invitations.map((item) => String(item.activationCode));
    expect(codes.length).toBeGreaterThan(4);
    const secrets = [
      ...codes,
      ...signInSecrets,
      ...[u, v, c, d, world.admin].map((person) => person.idToken),
      note.text,
      'Lentil soup',
      '133.318', // 7.4 mmol/L as stored
      '"value"',
      'systolic',
    ];
    const text = JSON.stringify(events);
    for (const secret of secrets) expect(text, secret.slice(0, 24)).not.toContain(secret);
    // Each event has exactly the fields of SPEC-2 section 4 and its keys, nothing else; the events
    // 'Recent activity' shows carry their subject again as the key of that index.
    for (const event of events) {
      const fields = Object.keys(event);
      expect(fields).toEqual(expect.arrayContaining(REQUIRED_EVENT_FIELDS));
      expect(
        fields.filter(
          (key) => ![...REQUIRED_EVENT_FIELDS, 'actorId', 'subjectId', 'activityOf'].includes(key),
        ),
      ).toEqual([]);
      const shown = SECURITY_EVENT_TYPES.includes(event.type) && event.subjectId !== undefined;
      expect(event.activityOf, event.type).toBe(shown ? event.subjectId : undefined);
      expect(event.userAgent.length).toBeLessThanOrEqual(200);
      // Expires 400 days after the event.
      expect(Number(event.expiresAt) - Date.parse(event.at) / 1000).toBeCloseTo(400 * 86_400, -1);
    }
  });

  it('lists events for the admin newest first, by subject and type, paged with a cursor bound to the query', async () => {
    const all = await call<{ events: AuditEvent[]; nextCursor?: string }>(
      world.admin,
      'GET',
      `/internal/v1/admin/audit?subjectId=${u.userId}&limit=200`,
    );
    expect(all.status).toBe(200);
    expect(all.body.events.length).toBeGreaterThan(5);
    const times = all.body.events.map((event) => event.at);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.body.events.every((event) => event.subjectId === u.userId)).toBe(true);
    expect(all.body.events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['activation.completed', 'coach.assigned', 'client.data.read', 'note.created']),
    );

    const paged: AuditEvent[] = [];
    let cursor: string | undefined;
    let first: string | undefined;
    do {
      const page = await call<{ events: AuditEvent[]; nextCursor?: string }>(
        world.admin,
        'GET',
        `/internal/v1/admin/audit?subjectId=${u.userId}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status).toBe(200);
      paged.push(...page.body.events);
      cursor = page.body.nextCursor;
      first ??= cursor;
    } while (cursor);
    expect(paged.map((event) => event.eventId)).toEqual(all.body.events.map((event) => event.eventId));

    // A person and a type: the one activation among U's many later events is found on the first
    // page, though the type is filtered after reading; and the reads, paged two at a time, are all of
    // them, each once.
    const activation = await call<{ events: AuditEvent[]; nextCursor?: string }>(
      world.admin,
      'GET',
      `/internal/v1/admin/audit?subjectId=${u.userId}&type=activation.completed&limit=1`,
    );
    expect(all.body.events.at(-1)?.type).toBe('activation.completed');
    // The person's id in capitals is the same person (a UUID is the same in either case).
    const shouted = await call<{ events: AuditEvent[] }>(
      world.admin,
      'GET',
      `/internal/v1/admin/audit?subjectId=${u.userId.toUpperCase()}&type=activation.completed&limit=1`,
    );
    expect(shouted.body.events).toEqual(activation.body.events);
    expect(activation.body.events.map((event) => event.eventId)).toEqual([all.body.events.at(-1)?.eventId]);
    const readsOfUInAll = all.body.events.filter((event) => event.type === 'client.data.read');
    expect(readsOfUInAll.length).toBeGreaterThan(3);
    const pagedReads: AuditEvent[] = [];
    let readsCursor: string | undefined;
    do {
      const page = await call<{ events: AuditEvent[]; nextCursor?: string }>(
        world.admin,
        'GET',
        `/internal/v1/admin/audit?subjectId=${u.userId}&type=client.data.read&limit=2${readsCursor ? `&cursor=${encodeURIComponent(readsCursor)}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.events.length).toBeLessThanOrEqual(2);
      pagedReads.push(...page.body.events);
      readsCursor = page.body.nextCursor;
    } while (readsCursor);
    expect(pagedReads.map((event) => event.eventId)).toEqual(readsOfUInAll.map((event) => event.eventId));

    const reads = await call<{ events: AuditEvent[]; people: AuditPerson[] }>(
      world.admin,
      'GET',
      `/internal/v1/admin/audit?type=client.data.read&actorId=${c.userId}`,
    );
    expect(reads.body.events.length).toBeGreaterThan(0);
    expect(
      reads.body.events.every((event) => event.type === 'client.data.read' && event.actorId === c.userId),
    ).toBe(true);
    // The page names its actor and subject, and nobody else: the Audit Log reads no user list.
    const idAndEmail = ({ userId, email }: AuditPerson | Person) => ({ userId, email });
    expect(reads.body.people.map(idAndEmail).sort((a, b) => a.email.localeCompare(b.email))).toEqual(
      [u, c].map(idAndEmail),
    );
    expect(reads.body.people).toEqual(
      expect.arrayContaining([
        { userId: u.userId, email: u.email, preferredName: 'Una', familyName: 'Ulrich' },
        { userId: c.userId, email: c.email, preferredName: 'Cara', familyName: 'Cole' },
      ]),
    );

    // Every event, newest first, across the month partitions.
    const everything = await call<{ events: AuditEvent[] }>(
      world.admin,
      'GET',
      '/internal/v1/admin/audit?limit=200',
    );
    expect(everything.body.events.length).toBe((await auditOf()).length);

    const otherQuery = await call(
      world.admin,
      'GET',
      `/internal/v1/admin/audit?type=note.created&cursor=${encodeURIComponent(first ?? '')}`,
    );
    expect(otherQuery.status).toBe(400);
    const badType = await call(world.admin, 'GET', '/internal/v1/admin/audit?type=coach.bribed');
    expect(badType).toMatchObject({ status: 400, body: { message: AUDIT_MESSAGES.type } });
  });

  it("shows a person their own security events, not their coach's reads", async () => {
    if (!u.authenticator) throw new Error('U has no passkey');
    await world.http.signIn(u.authenticator);
    const activity = await call<{ events: AuditEvent[] }>(u, 'GET', '/v1/users/me/activity');
    expect(activity.status).toBe(200);
    expect(activity.body.events.map((event) => event.type).slice(0, 1)).toEqual(['signin.succeeded']);
    expect(activity.body.events.map((event) => event.type)).toContain('activation.completed');
    expect(activity.body.events.every((event) => event.subjectId === u.userId)).toBe(true);
    expect(activity.body.events.map((event) => event.type)).not.toContain('client.data.read');
  });

  it("keeps a person's sign-ins in Recent activity however often their coach reads their data", async () => {
    if (!u.authenticator) throw new Error('U has no passkey');
    await world.http.signIn(u.authenticator);
    // More reads by C than the 500 newest events about U the activity used to look through.
    for (let batch = 0; batch < 66; batch += 1)
      await Promise.all(
        Array.from({ length: 8 }, async () =>
          expect((await call(c, 'GET', `/v1/coach/clients/${u.userId}/notes`)).status).toBe(200),
        ),
      );
    const activity = await call<{ events: AuditEvent[] }>(u, 'GET', '/v1/users/me/activity');
    const types = activity.body.events.map((event) => event.type);
    expect(types[0]).toBe('signin.succeeded');
    expect(types).toContain('activation.completed');
    expect(types).not.toContain('client.data.read');
  });

  it('still shows the events stored before they were indexed for it (0.6.0), in their place', async () => {
    const at = new Date(Date.now() - 60_000).toISOString();
    const eventId = randomUUID();
    // A sign-in of V's as 0.6.0 stored it: no `activityOf`.
    await storeAuditEvent(world.stack.tables.auditEvents, {
      eventId,
      at,
      type: 'signin.succeeded',
      actorId: v.userId,
      subjectId: v.userId,
      userAgent: 'an older browser',
    });
    if (!v.authenticator) throw new Error('V has no passkey');
    await world.http.signIn(v.authenticator);
    const activity = await call<{ events: AuditEvent[] }>(v, 'GET', '/v1/users/me/activity');
    const events = activity.body.events;
    // Both sign-ins (arrayContaining alone would take one for two) and the activation.
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'signin.succeeded').length).toBeGreaterThanOrEqual(2);
    expect(types).toContain('activation.completed');
    // Newest first: today's sign-in, the older one, then the activation before both.
    const older = events.findIndex((event) => event.eventId === eventId);
    expect(older).toBeGreaterThan(0);
    expect(events[older]).toMatchObject({ userAgent: 'an older browser' });
    expect(events.map((event) => event.at)).toEqual([...events.map((event) => event.at)].sort().reverse());
    expect(events[older]).not.toHaveProperty('activityOf');
  });
});

describe('unassigning', () => {
  it('ends C’s access at once, even to a read already under way; U keeps the notes', async () => {
    // C's read passed its check and is reading U's measurements when the admin unassigns C.
    let answer: Awaited<ReturnType<typeof call>> | undefined;
    const unassigning = await interleave('QueryCommand', `${u.userId}#M`, async () => {
      answer = await call(world.admin, 'DELETE', `/internal/v1/admin/users/${u.userId}/coach`);
    });
    try {
      const raced = await call(c, 'GET', `/v1/coach/clients/${u.userId}/measurements`);
      expect(unassigning.fired()).toBe(true);
      expect(raced).toMatchObject({ status: 403, body: { message: COACHING_MESSAGES.notYourClient } });
    } finally {
      unassigning.remove();
    }
    expect(answer?.status).toBe(204);
    for (const [method, path, json] of clientRoutes(u.userId)) {
      const refused = await call(c, method, path, json);
      expect(refused, `${method} ${path}`).toMatchObject({ status: 403 });
    }
    expect(await call(c, 'GET', '/v1/coach/clients')).toMatchObject({ status: 200, body: { clients: [] } });
    expect(await call(u, 'GET', '/v1/users/me/coach')).toMatchObject({
      body: { coach: null, notes: [note] },
    });
    expect((await auditOf()).at(-1)).toMatchObject({
      type: 'coach.unassigned',
      actorId: world.admin.userId,
      subjectId: u.userId,
      details: { coachId: c.userId },
    });
    // Again: nothing to remove is still 204; nobody at all is a 404.
    expect((await call(world.admin, 'DELETE', `/internal/v1/admin/users/${u.userId}/coach`)).status).toBe(
      204,
    );
    expect((await call(world.admin, 'DELETE', `/internal/v1/admin/users/${randomUUID()}/coach`)).status).toBe(
      404,
    );
  });

  it('a new coach starts with Pending Review on (no note of theirs yet)', async () => {
    expect((await assign(u.userId, d.userId)).status).toBe(200);
    const list = await call<{ clients: CoachClient[] }>(d, 'GET', '/v1/coach/clients');
    expect(list.body.clients).toMatchObject([{ userId: u.userId, pendingReview: true, outOfTarget7d: 1 }]);
  });
});

describe('a read that cannot be recorded', () => {
  it('is a 503 that shows nothing', async () => {
    const client = new DynamoDBClient({
      endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
      region: 'us-west-2',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const name = world.stack.tables.auditEvents;
    try {
      await client.send(new DeleteTableCommand({ TableName: name }));
      const answer = await call(d, 'GET', `/v1/coach/clients/${u.userId}/measurements`);
      expect(answer).toEqual(
        expect.objectContaining({ status: 503, body: { message: AUDIT_MESSAGES.unavailable } }),
      );
      const list = await call(d, 'GET', '/v1/coach/clients');
      expect(list).toMatchObject({ status: 503, body: { message: AUDIT_MESSAGES.unavailable } });
    } finally {
      await createTables(client, name.slice(0, -`-${TABLES.auditEvents.id}`.length));
      client.destroy();
    }
    expect((await call(d, 'GET', `/v1/coach/clients/${u.userId}/measurements`)).status).toBe(200);
  });
});

describe('at the same time', () => {
  it('eight entries and a note on one client at once all succeed (each updates the client state)', async () => {
    const writes = [
      ...Array.from({ length: 8 }, (_, i) =>
        call(u, 'POST', '/v1/measurements', {
          type: 'weight',
          value: 70 + i / 10,
          takenAt: minutesAgo(i + 1),
        }),
      ),
      call(d, 'POST', `/v1/coach/clients/${u.userId}/notes`, { text: 'Nice and steady this week.' }),
    ];
    const answers = await Promise.all(writes);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 201]);
    const weights = await call<Page<Measurement>>(u, 'GET', '/v1/measurements?type=weight');
    expect(weights.body.items).toHaveLength(8);
  });
});

describe('a note sent again with its Idempotency-Key (its answer lost)', () => {
  const postNote = (text: string, key: string) =>
    world.http.request<CoachNote>('POST', `/v1/coach/clients/${u.userId}/notes`, {
      token: d.idToken,
      json: { text },
      headers: { 'Idempotency-Key': key },
    });
  const notesCreated = async () => (await auditOf()).filter((event) => event.type === 'note.created').length;

  it('answers the note the first one stored, and stores it and its event once', async () => {
    const key = randomUUID();
    const before = { coaching: (await coachingItems()).length, events: await notesCreated() };
    const first = await postNote('Well done on the walks.', key);
    const again = await postNote('Well done on the walks.', key.toUpperCase());
    expect(first).toMatchObject({ status: 201, body: { clientId: u.userId, coachId: d.userId } });
    expect(again).toEqual({ status: 201, body: first.body, text: expect.any(String) as string });
    // The note and its key; one event.
    expect((await coachingItems()).length).toBe(before.coaching + 2);
    expect(await notesCreated()).toBe(before.events + 1);

    // U's My Coach and D's thread show it once, and only notes (the key is no note).
    const mine = await call<MyCoach>(u, 'GET', '/v1/users/me/coach');
    const thread = await call<{ notes: CoachNote[] }>(d, 'GET', `/v1/coach/clients/${u.userId}/notes`);
    for (const notes of [mine.body.notes, thread.body.notes]) {
      expect(notes.filter((item) => item.noteId === first.body.noteId)).toHaveLength(1);
      expect(notes.every((item) => typeof item.text === 'string' && item.clientId === u.userId)).toBe(true);
    }
    expect(thread.body.notes[0]).toEqual(first.body);

    // A new key is a new note.
    const next = await postNote('Well done on the walks.', randomUUID());
    expect(next.status).toBe(201);
    expect(next.body.noteId).not.toBe(first.body.noteId);
  });

  it('refuses the key sent again with another text (422), writing nothing and recording no event', async () => {
    const key = randomUUID();
    const first = await postNote('Lovely numbers this week.', key);
    expect(first.status).toBe(201);
    const before = { coaching: await coachingItems(), audit: (await auditOf()).length };
    expect(await postNote('Lovely numbers this month.', key)).toMatchObject({
      status: 422,
      body: { message: API_MESSAGES.idempotencyKeyMismatch },
    });
    expect(await coachingItems()).toEqual(before.coaching);
    expect((await auditOf()).length).toBe(before.audit);
    // The thread holds the first note, once, and no other.
    const thread = await call<{ notes: CoachNote[] }>(d, 'GET', `/v1/coach/clients/${u.userId}/notes`);
    expect(thread.body.notes[0]).toEqual(first.body);
    expect(thread.body.notes.filter((note) => note.text.startsWith('Lovely numbers'))).toEqual([first.body]);
  });

  it('answers a key put before fingerprints were kept with its note, whatever the text', async () => {
    const key = randomUUID();
    const first = await postNote('Keep it up.', key);
    expect(first.status).toBe(201);
    const documents = localDocuments();
    try {
      await documents.send(
        new UpdateCommand({
          TableName: world.stack.tables.coaching,
          Key: { pk: `notes#${u.userId}`, sk: `key#${d.userId}#${key}` },
          UpdateExpression: 'REMOVE fingerprint',
          ConditionExpression: 'attribute_exists(fingerprint)',
        }),
      );
    } finally {
      documents.destroy();
    }
    expect(await postNote('Keep it up!', key)).toMatchObject({ status: 201, body: first.body });
  });

  it('refuses a key that is no UUID (400) and writes nothing', async () => {
    const before = { coaching: await coachingItems(), audit: (await auditOf()).length };
    expect(await postNote('Hello', 'not-a-uuid')).toMatchObject({
      status: 400,
      body: { message: API_MESSAGES.invalidIdempotencyKey },
    });
    expect(await coachingItems()).toEqual(before.coaching);
    expect((await auditOf()).length).toBe(before.audit);
  });

  it("refuses a key once its coach is no longer the client's coach", async () => {
    const key = randomUUID();
    expect((await postNote('Before the change', key)).status).toBe(201);
    expect((await assign(u.userId, c.userId)).status).toBe(200);
    try {
      expect(await postNote('Before the change', key)).toMatchObject({
        status: 403,
        body: { message: COACHING_MESSAGES.notYourClient },
      });
    } finally {
      expect((await assign(u.userId, d.userId)).status).toBe(200);
    }
  });
});

describe('a role change', () => {
  const changeRoles = (person: Person, roles: string[]) =>
    call<{ userId: string; roles: string[] }>(
      world.admin,
      'PUT',
      `/internal/v1/admin/users/${person.userId}/roles`,
      { roles },
    );
  /** The person with the id token of a new sign-in with their passkey. */
  const signedInAgain = async (person: Person): Promise<Person> => {
    if (!person.authenticator) throw new Error(`${person.email} has no passkey`);
    const tokens = await world.http.signIn(person.authenticator);
    return { ...person, idToken: tokens.idToken ?? '' };
  };
  /** A new client, invited by the admin and activated. */
  const newClient = async (email: string): Promise<Person> => {
    const invite = await call<{ activationCode: string }>(
      world.admin,
      'POST',
      '/internal/v1/admin/invitations',
      { email },
    );
    expect(invite.status).toBe(201);
    const activated = await world.http.activate(email, invite.body.activationCode);
    return {
      email,
      userId: activated.userId,
      idToken: activated.idToken ?? '',
      authenticator: activated.authenticator,
    };
  };
  const clientIdsOf = async (coach: Person) => {
    const list = await call<{ clients: CoachClient[] }>(coach, 'GET', '/v1/coach/clients');
    expect(list.status).toBe(200);
    return list.body.clients.map((client) => client.userId);
  };
  const refusedOnEveryClientRoute = async (coach: Person, clientId: string) => {
    for (const [method, path, json] of clientRoutes(clientId)) {
      const answer = await call(coach, method, path, json);
      expect(answer, `${method} ${path}`).toMatchObject({
        status: 403,
        body: { message: COACHING_MESSAGES.notYourClient },
      });
    }
  };
  const unassignedEventsOf = async (clientId: string) =>
    (await auditOf()).filter((event) => event.type === 'coach.unassigned' && event.subjectId === clientId);

  it('ends the access of the coach of a person who is no longer a client, who has no coach any more', async () => {
    expect((await assign(v.userId, c.userId)).status).toBe(200);
    expect((await call(c, 'GET', `/v1/coach/clients/${v.userId}/measurements`)).status).toBe(200);
    expect(await clientIdsOf(c)).toEqual([v.userId]);

    // C asks for the client list right after the change committed (at the role change's next read of
    // V's state, the first being before its commit): V is gone already, in the same commit.
    let listedMeanwhile: string[] = [];
    const race = await interleave(
      'GetItemCommand',
      `client#${v.userId}`,
      async () => {
        listedMeanwhile = await clientIdsOf(c);
      },
      1,
    );
    let changed: Awaited<ReturnType<typeof changeRoles>>;
    try {
      changed = await changeRoles(v, ['coaches']);
      expect(race.fired()).toBe(true);
    } finally {
      race.remove();
    }
    expect(listedMeanwhile).toEqual([]);
    expect(changed).toMatchObject({ status: 200, body: { userId: v.userId, roles: ['coaches'] } });

    await refusedOnEveryClientRoute(c, v.userId);
    expect(await clientIdsOf(c)).not.toContain(v.userId);
    const vAgain = await signedInAgain(v);
    expect(await call(vAgain, 'GET', '/v1/users/me/coach')).toMatchObject({
      status: 200,
      body: { coach: null },
    });
    const users = await call<{ users: AdminUserListItem[] }>(world.admin, 'GET', '/internal/v1/admin/users');
    expect(users.body.users.find((user) => user.userId === v.userId)?.coachId).toBeUndefined();
    // Recorded as an unassignment by the admin who changed the roles, with its reason code.
    expect(await unassignedEventsOf(v.userId)).toMatchObject([
      {
        actorId: world.admin.userId,
        outcome: 'success',
        details: { coachId: c.userId, reason: 'roles-changed' },
      },
    ]);
  });

  it('refuses a coach a person who no longer holds users, even while their state still names the coach', async () => {
    // V (now a coach only) named as C's client again behind the API's back, as a state written before
    // a role change ended the coaching in its own commit could have been left.
    const documents = localDocuments();
    try {
      await documents.send(
        new UpdateCommand({
          TableName: world.stack.tables.coaching,
          Key: { pk: `client#${v.userId}`, sk: 'state' },
          UpdateExpression: 'SET coachId = :coach, assignedAt = :at',
          ExpressionAttributeValues: { ':coach': c.userId, ':at': new Date().toISOString() },
        }),
      );
    } finally {
      documents.destroy();
    }
    const before = (await auditOf()).length;
    await refusedOnEveryClientRoute(c, v.userId);
    expect((await auditOf()).length).toBe(before);
  });

  it('ends the access of a coach who stops coaching: a coach again, they start with no clients', async () => {
    const w = await newClient('client.w@example.com');
    expect((await assign(w.userId, c.userId)).status).toBe(200);
    // A change that keeps W a client keeps W's coach.
    expect((await changeRoles(w, ['coaches', 'users'])).status).toBe(200);
    expect((await call(c, 'GET', `/v1/coach/clients/${w.userId}/measurements`)).status).toBe(200);
    expect(await clientIdsOf(c)).toContain(w.userId);
    expect(await unassignedEventsOf(w.userId)).toEqual([]);

    const eventsBefore = (await auditOf()).length;
    expect((await changeRoles(c, ['users'])).status).toBe(200);
    expect((await call(c, 'GET', '/v1/coach/clients')).status).toBe(401);
    expect((await changeRoles(c, ['coaches'])).status).toBe(200);
    const cAgain = await signedInAgain(c);

    expect(await clientIdsOf(cAgain)).toEqual([]);
    await refusedOnEveryClientRoute(cAgain, w.userId);
    expect(await call(w, 'GET', '/v1/users/me/coach')).toMatchObject({ status: 401 });
    const wAgain = await signedInAgain(w);
    expect(await call(wAgain, 'GET', '/v1/users/me/coach')).toMatchObject({
      status: 200,
      body: { coach: null },
    });
    expect(await unassignedEventsOf(w.userId)).toMatchObject([
      { actorId: world.admin.userId, details: { coachId: c.userId, reason: 'roles-changed' } },
    ]);
    // Nobody assigned anyone since: C came back with no clients, not with the old ones.
    const since = (await auditOf()).slice(eventsBefore);
    expect(since.filter((event) => event.type === 'coach.assigned')).toEqual([]);
    expect(since.map((event) => event.type)).toContain('roles.changed');
  });

  it('lists only the clients whose state names the coach when it is read, not what the index found a moment before', async () => {
    const y = await newClient('client.y@example.com');
    const coach = await signedInAgain(c);
    expect((await assign(y.userId, c.userId)).status).toBe(200);
    expect(await clientIdsOf(coach)).toContain(y.userId);
    // byCoach has found Y; the admin unassigns Y before the states are read (in AWS the index can lag
    // behind the table for longer than that).
    const race = await interleave('BatchGetItemCommand', `client#${y.userId}`, async () => {
      expect((await call(world.admin, 'DELETE', `/internal/v1/admin/users/${y.userId}/coach`)).status).toBe(
        204,
      );
    });
    try {
      expect(await clientIdsOf(coach)).not.toContain(y.userId);
    } finally {
      race.remove();
    }
    expect(race.fired()).toBe(true);
  });

  it("unassigns a former coach's client assigned a moment before, though byCoach does not list them yet", async () => {
    const k = await newClient('coach.k@example.com');
    expect((await changeRoles(k, ['coaches'])).status).toBe(200);
    const z = await newClient('client.z@example.com');
    // byCoach as it was before the assignment (in AWS the index can lag its table): K has no client.
    const lagging = await staleByCoach(world.stack.tables.coaching, k.userId);
    try {
      expect((await assign(z.userId, k.userId)).status).toBe(200);
      expect((await changeRoles(k, ['users'])).status).toBe(200);
      expect(lagging.answered()).toBeGreaterThan(0);
    } finally {
      lagging.remove();
    }
    const state = (await world.scan('coaching')).find((item) => item.pk === `client#${z.userId}`);
    expect(state).toBeDefined();
    expect(state?.coachId).toBeUndefined();
    expect(await unassignedEventsOf(z.userId)).toMatchObject([
      { actorId: world.admin.userId, details: { coachId: k.userId, reason: 'roles-changed' } },
    ]);
    // Nothing is left of the assignment: not the coach's client item either.
    expect((await world.scan('coaching')).filter((item) => item.pk === `coach#${k.userId}`)).toEqual([]);
  });

  it('refuses an assignment that read the groups before a role change committed', async () => {
    const x = await newClient('client.x@example.com');
    // The assignment has read the groups (X a client); X is made a coach before its transaction runs.
    const race = await interleave('TransactWriteItemsCommand', 'coach.assigned', async () => {
      expect((await changeRoles(x, ['coaches'])).status).toBe(200);
    });
    try {
      expect(await assign(x.userId, c.userId)).toMatchObject({
        status: 400,
        body: { message: COACHING_MESSAGES.notAClient },
      });
    } finally {
      race.remove();
    }
    expect(race.fired()).toBe(true);
    expect(await clientIdsOf(await signedInAgain(c))).not.toContain(x.userId);
    expect(
      (await auditOf()).filter((event) => event.type === 'coach.assigned' && event.subjectId === x.userId),
    ).toEqual([]);
  });
});

describe('an access that ends while a request is under way', () => {
  /** A new person with `roles`, invited by the admin and activated. */
  const newPerson = async (email: string, roles: string[]): Promise<Person> => {
    const invite = await call<{ activationCode: string }>(
      world.admin,
      'POST',
      '/internal/v1/admin/invitations',
      { email, roles },
    );
    expect(invite.status).toBe(201);
    const activated = await world.http.activate(email, invite.body.activationCode);
    return { email, userId: activated.userId, idToken: activated.idToken ?? '' };
  };
  /** A new client and a new coach of theirs. */
  const newCoaching = async (name: string) => {
    const client = await newPerson(`client.${name}@example.com`, ['users']);
    const coach = await newPerson(`coach.${name}@example.com`, ['coaches']);
    expect((await assign(client.userId, coach.userId)).status).toBe(200);
    return { client, coach };
  };
  const disable = (person: Person, as: Person = world.admin) =>
    call(as, 'POST', `/internal/v1/admin/users/${person.userId}/disable`);
  const eventsBy = async (actorId: string, type: string) =>
    (await auditOf()).filter((event) => event.actorId === actorId && event.type === type);

  it("shows a coach disabled during the read nothing of the client's data, and records no read", async () => {
    const { client, coach } = await newCoaching('disabled-reader');
    expect(
      (await call(client, 'POST', '/v1/measurements', { type: 'weight', value: 71, takenAt: minutesAgo(5) }))
        .status,
    ).toBe(201);
    // The read passed the session check and is reading the client's measurements when the coach is disabled.
    const race = await interleave('QueryCommand', `${client.userId}#M`, async () => {
      expect((await disable(coach)).status).toBe(200);
    });
    try {
      const read = await call(coach, 'GET', `/v1/coach/clients/${client.userId}/measurements`);
      expect(race.fired()).toBe(true);
      expect(read).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
      expect(JSON.stringify(read.body)).not.toContain('71');
    } finally {
      race.remove();
    }
    expect(await eventsBy(coach.userId, 'client.data.read')).toEqual([]);
  });

  it('shows a coach disabled while the client list was read no client, and records no read', async () => {
    const { client, coach } = await newCoaching('disabled-lister');
    // The list passed the session check and is reading the clients' states when the coach is disabled.
    const race = await interleave('BatchGetItemCommand', `client#${client.userId}`, async () => {
      expect((await disable(coach)).status).toBe(200);
    });
    try {
      const list = await call(coach, 'GET', '/v1/coach/clients');
      expect(race.fired()).toBe(true);
      expect(list).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
      expect(JSON.stringify(list.body)).not.toContain(client.userId);
    } finally {
      race.remove();
    }
    expect(await eventsBy(coach.userId, 'client.data.read')).toEqual([]);
  });

  it('lists no client unassigned after the list was read, before its read was recorded', async () => {
    const { client: kept, coach } = await newCoaching('kept-while-listed');
    const gone = await newPerson('client.unassigned-while-listed@example.com', ['users']);
    expect((await assign(gone.userId, coach.userId)).status).toBe(200);
    expect(
      (await call(gone, 'POST', '/v1/measurements', { type: 'weight', value: 77, takenAt: minutesAgo(5) }))
        .status,
    ).toBe(201);
    // The list has read both clients' states; the admin unassigns one before the read's event commits.
    const race = await interleave('TransactWriteItemsCommand', gone.userId, async () => {
      expect(
        (await call(world.admin, 'DELETE', `/internal/v1/admin/users/${gone.userId}/coach`)).status,
      ).toBe(204);
    });
    try {
      const list = await call<{ clients: CoachClient[] }>(coach, 'GET', '/v1/coach/clients');
      expect(race.fired()).toBe(true);
      expect(list.status).toBe(200);
      expect(list.body.clients.map((client) => client.userId)).toEqual([kept.userId]);
      expect(JSON.stringify(list.body)).not.toContain(gone.userId);
    } finally {
      race.remove();
    }
    // The read answered is the one recorded: the cancelled event left nothing naming the former client.
    expect(
      (await eventsBy(coach.userId, 'client.data.read')).map((event) => event.details.clientIds),
    ).toEqual([[kept.userId]]);
  });

  it('lists a coach with more clients than one transaction holds, each event naming at most 98', async () => {
    const coach = await newPerson('coach.many-clients@example.com', ['coaches']);
    // 150 clients, stored as assignment and activation leave them (inviting 150 people over HTTP is
    // the bench's work): a state naming the coach, and a profile.
    const clientIds = Array.from({ length: 150 }, () => randomUUID());
    const at = new Date().toISOString();
    const documents = localDocuments();
    try {
      for (let start = 0; start < clientIds.length; start += 12)
        await documents.send(
          new BatchWriteCommand({
            RequestItems: {
              [world.stack.tables.coaching]: clientIds.slice(start, start + 12).map((clientId) => ({
                PutRequest: {
                  Item: {
                    pk: `client#${clientId}`,
                    sk: 'state',
                    clientId,
                    coachId: coach.userId,
                    assignedAt: at,
                  },
                },
              })),
              [world.stack.tables.profiles]: clientIds.slice(start, start + 12).map((userId, i) => ({
                PutRequest: {
                  Item: {
                    userId,
                    email: `many.${start + i}@example.com`,
                    name: 'Many',
                    createdAt: at,
                    updatedAt: at,
                  },
                },
              })),
            },
          }),
        );
    } finally {
      documents.destroy();
    }
    const list = await call<{ clients: CoachClient[] }>(coach, 'GET', '/v1/coach/clients');
    expect(list.status).toBe(200);
    expect(list.body.clients.map((client) => client.userId).sort()).toEqual([...clientIds].sort());
    const events = await eventsBy(coach.userId, 'client.data.read');
    expect(events.map((event) => (event.details.clientIds as string[]).length).sort()).toEqual([52, 98]);
    expect(events.flatMap((event) => event.details.clientIds as string[]).sort()).toEqual(
      [...clientIds].sort(),
    );
  });

  it('stores no note of a coach who signed out everywhere while it was being sent', async () => {
    const { client, coach } = await newCoaching('signed-out-writer');
    const before = await coachingItems();
    // The note passed the session check; the coach signs out everywhere (another device) before it commits.
    const race = await interleave('TransactWriteItemsCommand', 'note.created', async () => {
      expect((await call(coach, 'POST', '/v1/users/me/sign-out', { everywhere: true })).status).toBe(204);
    });
    try {
      const sent = await call(coach, 'POST', `/v1/coach/clients/${client.userId}/notes`, {
        text: 'Late note',
      });
      expect(race.fired()).toBe(true);
      expect(sent).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
    } finally {
      race.remove();
    }
    expect(await coachingItems()).toEqual(before);
    expect(await eventsBy(coach.userId, 'note.created')).toEqual([]);
  });

  it('refuses the note of a coach disabled while it was being sent', async () => {
    const { client, coach } = await newCoaching('disabled-writer');
    const race = await interleave('TransactWriteItemsCommand', 'note.created', async () => {
      expect((await disable(coach)).status).toBe(200);
    });
    try {
      const sent = await call(coach, 'POST', `/v1/coach/clients/${client.userId}/notes`, {
        text: 'Late note',
      });
      expect(race.fired()).toBe(true);
      expect(sent).toMatchObject({ status: 401 });
    } finally {
      race.remove();
    }
    expect((await call(client, 'GET', '/v1/users/me/coach')).body).toMatchObject({ notes: [] });
  });

  it("ends a disabled client's coaching in the disable, even a read under way; an enable brings no coach back", async () => {
    const { client, coach } = await newCoaching('disabled-client');
    expect(
      (await call(client, 'POST', '/v1/measurements', { type: 'weight', value: 83, takenAt: minutesAgo(5) }))
        .status,
    ).toBe(201);
    // The coach's read passed its checks and is reading the client's measurements when the client is disabled.
    const race = await interleave('QueryCommand', `${client.userId}#M`, async () => {
      expect((await disable(client)).status).toBe(200);
    });
    try {
      const read = await call(coach, 'GET', `/v1/coach/clients/${client.userId}/measurements`);
      expect(race.fired()).toBe(true);
      expect(read).toMatchObject({ status: 403, body: { message: COACHING_MESSAGES.notYourClient } });
      expect(JSON.stringify(read.body)).not.toContain('83');
    } finally {
      race.remove();
    }
    const refusedEverywhere = async () => {
      for (const [method, path, json] of clientRoutes(client.userId))
        expect(await call(coach, method, path, json), `${method} ${path}`).toMatchObject({
          status: 403,
          body: { message: COACHING_MESSAGES.notYourClient },
        });
      expect(await call(coach, 'GET', '/v1/coach/clients')).toMatchObject({
        status: 200,
        body: { clients: [] },
      });
    };
    await refusedEverywhere();
    expect(await eventsBy(coach.userId, 'client.data.read')).toEqual([]);
    // Ended in the disable's own commit, by the admin who disabled, with its reason code.
    const events = (await auditOf()).filter((event) => event.subjectId === client.userId);
    expect(
      events
        .slice(-2)
        .map((event) => event.type)
        .sort(),
    ).toEqual(['coach.unassigned', 'user.disabled']);
    expect(events.find((event) => event.type === 'coach.unassigned')).toMatchObject({
      actorId: world.admin.userId,
      details: { coachId: coach.userId, reason: 'account-disabled' },
    });

    const enabled = await call(world.admin, 'POST', `/internal/v1/admin/users/${client.userId}/enable`);
    expect(enabled.status).toBe(200);
    await refusedEverywhere();
    const users = await call<{ users: AdminUserListItem[] }>(world.admin, 'GET', '/internal/v1/admin/users');
    const listed = users.body.users.find((user) => user.userId === client.userId);
    expect(listed).toMatchObject({ status: 'active' });
    expect(listed?.coachId).toBeUndefined();
    // Assigned again, the coach follows the client as before.
    expect((await assign(client.userId, coach.userId)).status).toBe(200);
    expect((await call(coach, 'GET', `/v1/coach/clients/${client.userId}/measurements`)).status).toBe(200);
  });

  it('refuses a coach a client disabled before the disable ended coaching, and a second disable unassigns them', async () => {
    const { client, coach } = await newCoaching('disabled-earlier');
    expect((await disable(client)).status).toBe(200);
    // The state names the coach again behind the API's back, as a disable of 0.6.0 before this change left it.
    const documents = localDocuments();
    try {
      await documents.send(
        new UpdateCommand({
          TableName: world.stack.tables.coaching,
          Key: { pk: `client#${client.userId}`, sk: 'state' },
          UpdateExpression: 'SET coachId = :coach, assignedAt = :at',
          ExpressionAttributeValues: { ':coach': coach.userId, ':at': new Date().toISOString() },
        }),
      );
    } finally {
      documents.destroy();
    }
    for (const [method, path, json] of clientRoutes(client.userId))
      expect(await call(coach, method, path, json), `${method} ${path}`).toMatchObject({
        status: 403,
        body: { message: COACHING_MESSAGES.notYourClient },
      });
    expect(await eventsBy(coach.userId, 'client.data.read')).toEqual([]);

    // Disabled again: the coach left over is unassigned, with its event.
    expect((await disable(client)).status).toBe(200);
    const state = (await world.scan('coaching')).find((item) => item.pk === `client#${client.userId}`);
    expect(state?.coachId).toBeUndefined();
    const unassigned = (await auditOf()).filter(
      (event) => event.type === 'coach.unassigned' && event.subjectId === client.userId,
    );
    expect(unassigned.at(-1)).toMatchObject({
      details: { coachId: coach.userId, reason: 'account-disabled' },
    });
    expect(unassigned).toHaveLength(2);
  });

  it('refuses an assignment whose admin was disabled after the session check (403), and assigns nothing', async () => {
    const admin2 = await newPerson('admin.two@example.com', ['admins']);
    const client = await newPerson('client.unassigned@example.com', ['users']);
    const coach = await newPerson('coach.unassigned@example.com', ['coaches']);
    // Admin 2's assignment has read the groups; the first admin disables admin 2 before it commits.
    const race = await interleave('TransactWriteItemsCommand', 'coach.assigned', async () => {
      expect((await disable(admin2)).status).toBe(200);
    });
    try {
      expect(await assign(client.userId, coach.userId, admin2)).toMatchObject({
        status: 403,
        body: { message: API_MESSAGES.forbidden },
      });
    } finally {
      race.remove();
    }
    expect(race.fired()).toBe(true);
    expect(await call(client, 'GET', '/v1/users/me/coach')).toMatchObject({
      status: 200,
      body: { coach: null },
    });
    expect(await eventsBy(admin2.userId, 'coach.assigned')).toEqual([]);
  });

  it('refuses an unassignment whose admin was disabled after the session check (403), and unassigns nothing', async () => {
    const admin3 = await newPerson('admin.unassigning@example.com', ['admins']);
    const { client, coach } = await newCoaching('kept-by-refusal');
    const before = await coachingItems();
    // Admin 3's unassignment has read the client's coach; the first admin disables admin 3 before it commits.
    const race = await interleave('TransactWriteItemsCommand', 'coach.unassigned', async () => {
      expect((await disable(admin3)).status).toBe(200);
    });
    try {
      expect(await call(admin3, 'DELETE', `/internal/v1/admin/users/${client.userId}/coach`)).toMatchObject({
        status: 403,
        body: { message: API_MESSAGES.forbidden },
      });
    } finally {
      race.remove();
    }
    expect(race.fired()).toBe(true);
    expect(await coachingItems()).toEqual(before);
    expect(await call(client, 'GET', '/v1/users/me/coach')).toMatchObject({
      status: 200,
      body: { coach: { userId: coach.userId } },
    });
    expect(await eventsBy(admin3.userId, 'coach.unassigned')).toEqual([]);
  });

  it('lets an admin who coaches too take a client, and a client who is an admin too be given a coach', async () => {
    const coachingAdmin = await newPerson('admin.coach@example.com', ['admins', 'coaches']);
    const client = await newPerson('client.of-admin@example.com', ['users']);
    expect(await assign(client.userId, coachingAdmin.userId, coachingAdmin)).toMatchObject({
      status: 200,
      body: { userId: client.userId, coachId: coachingAdmin.userId },
    });
    const clientAdmin = await newPerson('admin.client@example.com', ['admins', 'users']);
    const coach = await newPerson('coach.of-admin@example.com', ['coaches']);
    expect(await assign(clientAdmin.userId, coach.userId, clientAdmin)).toMatchObject({ status: 200 });
    expect((await call(clientAdmin, 'GET', '/v1/users/me/coach')).body).toMatchObject({
      coach: { userId: coach.userId },
    });
  });
});
