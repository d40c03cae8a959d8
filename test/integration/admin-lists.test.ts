/**
 * Issue 12: the admin lists on the local stack (DynamoDB Local, the local Cognito endpoint, the real
 * handlers). Paged on the server with signed cursors, filtered and searched by index, and counted by
 * counters kept in the same transactions as the writes: each person exactly once across pages while
 * people come and go, and counts equal to what the tables hold after every kind of write.
 */
import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { InitializeMiddleware, MetadataBearer } from '@smithy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIRECTORY_MESSAGES,
  type AdminUserList,
  type DirectoryCounts,
  type InvitationList,
} from '../../shared/directory';
import { ACCOUNT_MESSAGES } from '../../shared/account';
import { API_MESSAGES } from '../../shared/messages';
import { AUDIT_RETENTION_DAYS, type AuditEvent } from '../../shared/audit';
import { HEALTH_MESSAGES } from '../../shared/health-messages';
import { storeAuditEvent } from '../fixtures/aws-env';
import { startPeople, type People } from '../fixtures/health-people';
import { refuse } from '../fixtures/interleave';

type Key = 'deputy' | 'coach';
let world: People<Key>;
let admin = '';
let serial = 0;

beforeAll(async () => {
  world = await startPeople<Key>({
    deputy: { email: 'deputy@example.com', roles: ['admins'] },
    coach: { email: 'coach@example.com', roles: ['coaches'] },
  });
  admin = world.admin.idToken;
}, 120_000);
afterAll(() => world?.stop());

const api = <T = Record<string, unknown>>(method: string, path: string, json?: unknown, token = admin) =>
  world.http.request<T>(method, path, { token, ...(json !== undefined && { json }) });

const invite = async (email: string, roles?: string[]) => {
  const answer = await api<{ activationCode: string }>('POST', '/internal/v1/admin/invitations', {
    email,
    ...(roles && { roles }),
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.activationCode;
};
const activate = async (email: string, roles?: string[]) =>
  world.http.activate(email, await invite(email, roles));
const nextEmail = (prefix: string) => {
  serial += 1;
  return `${prefix}${String(serial).padStart(3, '0')}@example.com`;
};

const usersPage = (query: Record<string, string>, token = admin) =>
  api<AdminUserList & { message?: string }>(
    'GET',
    `/internal/v1/admin/users?${new URLSearchParams(query)}`,
    undefined,
    token,
  );
const invitationsPage = (query: Record<string, string>) =>
  api<InvitationList & { message?: string }>(
    'GET',
    `/internal/v1/admin/invitations?${new URLSearchParams(query)}`,
  );

/** What the tables hold, counted the slow way: the counts must always equal it. */
const truth = async (): Promise<DirectoryCounts> => {
  const accounts = (await world.scan('accounts')).filter((item) => item.dir === 'people');
  const invitations = await world.scan('invitations');
  return {
    people: accounts.length,
    disabled: accounts.filter((item) => item.status === 'disabled').length,
    pendingInvitations: invitations.filter((item) => item.codeUsed === false).length,
  };
};
const counts = async () => {
  const page = await usersPage({ limit: '1' });
  expect(page.status, page.text).toBe(200);
  return page.body.counts;
};

describe('paging (issue 12)', () => {
  it('returns every person exactly once, newest first, while people are added and removed between pages', async () => {
    const seeded: string[] = [];
    for (let i = 0; i < 14; i += 1) seeded.push((await activate(nextEmail('paged'))).userId);
    const present = new Set([
      world.admin.userId,
      world.people.deputy.userId,
      world.people.coach.userId,
      ...seeded,
    ]);
    const removedUnseen = new Set<string>();
    const seen: string[] = [];
    const added: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await usersPage({ limit: '3', ...(cursor && { cursor }) });
      expect(page.status, page.text).toBe(200);
      expect(page.body.users.length).toBeLessThanOrEqual(3);
      // Newest first within the page.
      const order = page.body.users.map((user) => `${user.createdAt}#${user.userId}`);
      expect(order).toEqual([...order].sort().reverse());
      seen.push(...page.body.users.map((user) => user.userId));
      cursor = page.body.nextCursor;
      pages += 1;
      // Between pages: someone new activates, and someone not yet listed is deleted.
      added.push((await activate(nextEmail('added'))).userId);
      const unseen = seeded.find((id) => !seen.includes(id) && !removedUnseen.has(id));
      if (unseen && pages % 2 === 0) {
        expect((await api('DELETE', `/internal/v1/admin/users/${unseen}`)).status).toBe(204);
        removedUnseen.add(unseen);
        present.delete(unseen);
      }
    } while (cursor);

    expect(removedUnseen.size).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of present)
      expect(
        seen.filter((s) => s === id),
        id,
      ).toHaveLength(1);
    for (const id of removedUnseen) expect(seen).not.toContain(id);
    // Newer than every cursor: they are on the next first page, not in this walk.
    for (const id of added) expect(seen).not.toContain(id);
    const first = await usersPage({ limit: '3' });
    expect(first.body.users.map((user) => user.userId)).toEqual(added.slice(-3).reverse());
  });

  it('pages the pending invitations exactly once while invitations are created, taken up and deleted between pages', async () => {
    const emails: string[] = [];
    for (let i = 0; i < 9; i += 1) {
      const email = nextEmail('pending');
      await invite(email);
      emails.push(email);
    }
    const present = new Set(emails);
    const seen: string[] = [];
    let cursor: string | undefined;
    let turn = 0;
    do {
      const page = await invitationsPage({ status: 'pending', limit: '2', ...(cursor && { cursor }) });
      expect(page.status, page.text).toBe(200);
      for (const invitation of page.body.invitations)
        expect(['pending', 'expired']).toContain(invitation.status);
      seen.push(...page.body.invitations.map((invitation) => invitation.email));
      cursor = page.body.nextCursor;
      turn += 1;
      await invite(nextEmail('late'));
      const unseen = emails.filter((email) => !seen.includes(email) && present.has(email));
      const [first, second] = unseen;
      if (turn === 1 && first && second) {
        // One not yet listed is deleted, another is taken up: neither is pending any more.
        const gone = await api('DELETE', `/internal/v1/admin/invitations/${encodeURIComponent(first)}`);
        expect(gone.status).toBe(204);
        present.delete(first);
        const code = (await world.scan('invitations')).find((item) => item.email === second)?.activationCode;
        await world.http.activate(second, String(code));
        present.delete(second);
      }
    } while (cursor);

    expect(present.size).toBe(emails.length - 2);
    expect(new Set(seen).size).toBe(seen.length);
    for (const email of present)
      expect(
        seen.filter((s) => s === email),
        email,
      ).toHaveLength(1);
    for (const email of emails.filter((e) => !present.has(e))) expect(seen).not.toContain(email);
  });

  it('searches by email prefix in email order, page by page, and filters by status and by the coach role', async () => {
    const search = ['find-c@example.com', 'find-a@example.com', 'find-b@example.com'];
    for (const email of search) await activate(email, email.startsWith('find-b') ? ['coaches'] : undefined);
    await activate('other-find@example.com');
    // Just below and just above every email that starts with 'find-' (the search reads a range).
    await activate('find+a@example.com');
    await activate('find.z@example.com');

    const found: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await usersPage({ q: ' FIND-', limit: '2', ...(cursor && { cursor }) });
      expect(page.status, page.text).toBe(200);
      found.push(...page.body.users.map((user) => user.email));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(found).toEqual(['find-a@example.com', 'find-b@example.com', 'find-c@example.com']);

    const coaches = await usersPage({ role: 'coaches' });
    expect(coaches.body.users.map((user) => user.email).sort()).toEqual([
      'coach@example.com',
      'find-b@example.com',
    ]);
    const coachSearch = await usersPage({ role: 'coaches', q: 'find' });
    expect(coachSearch.body.users.map((user) => user.email)).toEqual(['find-b@example.com']);

    const pendingSearch = await invitationsPage({ status: 'pending', q: 'pending' });
    expect(pendingSearch.status).toBe(200);
    const emails = pendingSearch.body.invitations.map((invitation) => invitation.email);
    expect(emails.length).toBeGreaterThan(0);
    expect(emails).toEqual([...emails].sort());
    for (const email of emails) expect(email.startsWith('pending')).toBe(true);
  });

  it('refuses a cursor of another query, of another admin, or edited, and bad parameters, with a clear 400', async () => {
    const first = await usersPage({ limit: '1' });
    const cursor = first.body.nextCursor ?? '';
    expect(cursor).not.toBe('');
    expect((await usersPage({ limit: '1', cursor })).status).toBe(200);
    for (const answer of [
      await usersPage({ limit: '1', status: 'active', cursor }),
      await usersPage({ limit: '1', cursor }, world.people.deputy.idToken),
      // One character of the signed part changed (the end of the signature may hold bits base64 ignores).
      await usersPage({
        limit: '1',
        cursor: `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`,
      }),
      await invitationsPage({ limit: '1', cursor }),
    ])
      expect(answer).toMatchObject({ status: 400, body: { message: HEALTH_MESSAGES.cursor } });

    expect(await usersPage({ status: 'gone' })).toMatchObject({
      status: 400,
      body: { message: DIRECTORY_MESSAGES.userStatus },
    });
    expect(await usersPage({ role: 'admins' })).toMatchObject({
      status: 400,
      body: { message: DIRECTORY_MESSAGES.role },
    });
    expect(await usersPage({ q: 'a b' })).toMatchObject({
      status: 400,
      body: { message: DIRECTORY_MESSAGES.search },
    });
    expect(await usersPage({ limit: '0' })).toMatchObject({
      status: 400,
      body: { message: HEALTH_MESSAGES.limit },
    });
    expect(await invitationsPage({ status: 'expired' })).toMatchObject({
      status: 400,
      body: { message: DIRECTORY_MESSAGES.invitationStatus },
    });
    // Not an admin: the coach may not list anyone.
    expect((await usersPage({}, world.people.coach.idToken)).status).toBe(403);
  });

  it('reads one index page, the counts, names and coaches: no Cognito call and the same DynamoDB calls at any size', async () => {
    const { ddb, cognito } = await import('../../lambdas/common/aws');
    const calls: string[] = [];
    const counter: InitializeMiddleware<object, MetadataBearer> = (next, context) => (args) => {
      calls.push(context.commandName ?? '?');
      return next(args);
    };
    ddb.middlewareStack.add(counter, { step: 'initialize', name: 'adminListCallCounter' });
    cognito.middlewareStack.add(counter, { step: 'initialize', name: 'adminListCallCounter' });
    try {
      for (const query of [{ limit: '50' }, { q: 'find' }, { status: 'active' }] as Record<
        string,
        string
      >[]) {
        calls.length = 0;
        expect((await usersPage(query)).status).toBe(200);
        // The session check's GetItem, one Query, and one BatchGetItem each for counts, names, coaches.
        expect(calls.sort(), JSON.stringify(query)).toEqual([
          'BatchGetItemCommand',
          'BatchGetItemCommand',
          'BatchGetItemCommand',
          'GetItemCommand',
          'QueryCommand',
        ]);
      }
      calls.length = 0;
      expect((await invitationsPage({ status: 'pending' })).status).toBe(200);
      expect(calls.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
    } finally {
      ddb.middlewareStack.remove('adminListCallCounter');
      cognito.middlewareStack.remove('adminListCallCounter');
    }
  });
});

describe('counts kept on write (issue 12)', () => {
  it('equal what the tables hold after invite, activation, role change, disable, enable, delete and invitation delete', async () => {
    const steps: [string, () => Promise<unknown>][] = [];
    const email = nextEmail('counted');
    const pendingEmail = nextEmail('uninvited');
    let userId = '';
    steps.push(['invite', () => invite(email)]);
    steps.push(['invite another', () => invite(pendingEmail)]);
    steps.push([
      'activation',
      async () => {
        const code = (await world.scan('invitations')).find((item) => item.email === email)?.activationCode;
        userId = (await world.http.activate(email, String(code))).userId;
      },
    ]);
    steps.push([
      'role change',
      () => api('PUT', `/internal/v1/admin/users/${userId}/roles`, { roles: ['coaches'] }),
    ]);
    steps.push(['disable', () => api('POST', `/internal/v1/admin/users/${userId}/disable`)]);
    steps.push(['disable again', () => api('POST', `/internal/v1/admin/users/${userId}/disable`)]);
    steps.push(['enable', () => api('POST', `/internal/v1/admin/users/${userId}/enable`)]);
    steps.push(['delete', () => api('DELETE', `/internal/v1/admin/users/${userId}`)]);
    steps.push([
      'delete invitation',
      () => api('DELETE', `/internal/v1/admin/invitations/${encodeURIComponent(pendingEmail)}`),
    ]);

    let before = await counts();
    expect(before).toEqual(await truth());
    const expected: Record<string, Partial<DirectoryCounts>> = {
      invite: { pendingInvitations: 1 },
      'invite another': { pendingInvitations: 1 },
      activation: { people: 1, pendingInvitations: -1 },
      'role change': {},
      disable: { disabled: 1 },
      'disable again': {},
      enable: { disabled: -1 },
      delete: { people: -1 },
      'delete invitation': { pendingInvitations: -1 },
    };
    // What each admin call answers (the invitations and the activation check their own): a disable
    // sent again answers 200 too, so that a retry finishes the work, and changes no count.
    const answered: Record<string, number> = {
      'role change': 200,
      disable: 200,
      'disable again': 200,
      enable: 200,
      delete: 204,
      'delete invitation': 204,
    };
    for (const [name, step] of steps) {
      const answer = await step();
      if (name in answered) expect((answer as { status: number }).status, name).toBe(answered[name]);
      const after = await counts();
      expect(after, name).toEqual(await truth());
      const change = expected[name] ?? {};
      expect(after, name).toEqual({
        people: before.people + (change.people ?? 0),
        disabled: before.disabled + (change.disabled ?? 0),
        pendingInvitations: before.pendingInvitations + (change.pendingInvitations ?? 0),
      });
      if (name === 'role change') {
        const coaches = await usersPage({ role: 'coaches', q: email });
        expect(coaches.body.users.map((user) => user.userId)).toEqual([userId]);
      }
      before = after;
    }
  });

  it('stay right when people are invited and activate at the same moment, and when a person deletes their own account', async () => {
    const emails = Array.from({ length: 6 }, () => nextEmail('together'));
    const codes = await Promise.all(emails.map((email) => invite(email)));
    expect(await counts()).toEqual(await truth());
    const people = await Promise.all(emails.map((email, i) => world.http.activate(email, codes[i] ?? '')));
    expect(await counts()).toEqual(await truth());

    const leaver = people[0];
    const before = await counts();
    const gone = await api('DELETE', '/v1/users/me', { confirmEmail: emails[0] }, leaver?.idToken);
    expect(gone.status, gone.text).toBe(204);
    const after = await counts();
    expect(after).toEqual(await truth());
    expect(after.people).toBe(before.people - 1);
  });
});

/**
 * Holds the shard of the counts that the first transaction mentioning `marker` adds to, as other
 * writes at the same moment would: every transaction mentioning `marker` that adds to that shard is
 * cancelled the way DynamoDB cancels a collision (`TransactionConflict` on the counts' item).
 */
const holdCountsShard = async (marker: string) => {
  const { ddb } = await import('../../lambdas/common/aws');
  const name = `hold counts shard ${marker}`;
  let held: string | undefined;
  let refused = 0;
  const hook: InitializeMiddleware<object, MetadataBearer> = (next, context) => async (args) => {
    const items = (args.input as { TransactItems?: { Update?: { Key?: { userId?: unknown } } }[] })
      .TransactItems;
    const counts =
      items?.findIndex((item) => String(item.Update?.Key?.userId).startsWith('directory#counts#')) ?? -1;
    if (
      context.commandName === 'TransactWriteItemsCommand' &&
      counts >= 0 &&
      JSON.stringify(args.input).includes(marker)
    ) {
      const shard = String(items?.[counts]?.Update?.Key?.userId);
      held ??= shard;
      if (shard === held) {
        refused += 1;
        throw new TransactionCanceledException({
          message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
          $metadata: {},
          CancellationReasons: (items ?? []).map((_, i) => ({
            Code: i === counts ? 'TransactionConflict' : 'None',
          })),
        });
      }
    }
    return next(args);
  };
  ddb.middlewareStack.add(hook, { step: 'initialize', name });
  return { refused: () => refused, remove: () => ddb.middlewareStack.remove(name) };
};

describe('a shard of the counts held by other writes', () => {
  it('does not refuse an invitation or an activation: the next try adds to another shard, counted once', async () => {
    const email = nextEmail('crowded');
    const before = await counts();
    const invited = await holdCountsShard(email);
    let code = '';
    try {
      code = await invite(email);
      expect(invited.refused()).toBe(1);
    } finally {
      invited.remove();
    }
    expect(await counts()).toEqual({ ...before, pendingInvitations: before.pendingInvitations + 1 });

    const activated = await holdCountsShard(email);
    try {
      const person = await world.http.activate(email, code);
      expect(person.userId).toBeTruthy();
      expect(activated.refused()).toBe(1);
    } finally {
      activated.remove();
    }
    expect(await counts()).toEqual({ ...before, people: before.people + 1 });
    expect(await counts()).toEqual(await truth());
  });
});

describe('a transaction that keeps colliding', () => {
  it("answers a server error, not 'already pending', and stores nothing; the retry creates it", async () => {
    const email = nextEmail('jammed');
    const before = await counts();
    // Every try meets another transaction on the counts, whichever shard it adds to.
    const jammed = await refuse(
      'TransactWriteItemsCommand',
      email,
      () =>
        new TransactionCanceledException({
          message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
          $metadata: {},
          CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
        }),
      100,
    );
    try {
      const answer = await api('POST', '/internal/v1/admin/invitations', { email });
      expect(answer).toMatchObject({ status: 500, body: { message: API_MESSAGES.internal } });
      // transactWrite's four tries, each refused.
      expect(jammed.count()).toBe(4);
    } finally {
      jammed.remove();
    }
    expect((await world.scan('invitations')).filter((item) => item.email === email)).toEqual([]);
    expect(await counts()).toEqual(before);
    // Nothing of it stands in the way of the next try.
    await invite(email);
    expect(await counts()).toEqual({ ...before, pendingInvitations: before.pendingInvitations + 1 });
  });
});

describe("the counters' items", () => {
  it('cannot be named as a person by an admin action: 404, and the counts stay', async () => {
    const counter = (await world.scan('accounts')).find((item) =>
      String(item.userId).startsWith('directory#'),
    );
    expect(counter).toBeDefined();
    const path = `/internal/v1/admin/users/${encodeURIComponent(String(counter?.userId))}`;
    const before = await counts();
    for (const [method, suffix, json] of [
      ['POST', '/disable', undefined],
      ['POST', '/enable', undefined],
      ['POST', '/recovery', undefined],
      ['PUT', '/roles', { roles: ['users'] }],
      ['DELETE', '', undefined],
    ] as const) {
      const answer = await api(method, `${path}${suffix}`, json);
      expect(answer.status, `${method} ${suffix}`).toBe(404);
    }
    expect(await counts()).toEqual(before);
    expect(await counts()).toEqual(await truth());
    // API Gateway hands the handlers path parameters as sent (`%23` stays), so no URL reaches the
    // item; the handlers refuse its id anyway, should a route ever decode its parameters.
    const { targetAccount } = await import('../../lambdas/common/account-admin');
    await expect(targetAccount(String(counter?.userId))).rejects.toThrow('User not found');
  });
});

/** Makes the erase stop at its last step (the account item and the counts), as a timeout would. */
const atLastStep = (userId: string) =>
  [
    'TransactWriteItemsCommand',
    `"Key":{"userId":"${userId}"},"ConditionExpression":"#status = :status"`,
  ] as const;
/** Makes it stop at its first (a passkey), before anything of the person is gone. */
const atFirstStep = ['DeleteItemCommand', '"credentialId"'] as const;
const cutShort = async <T>(
  [command, marker]: readonly [string, string],
  request: () => Promise<T>,
): Promise<T> => {
  const cut = await refuse(command, marker, () => new Error('Task timed out'), 1);
  try {
    return await request();
  } finally {
    expect(cut.count()).toBe(1);
    cut.remove();
  }
};

describe('an erase cut short, finished by FinishErases (lambdas/scheduled/finish-erases.ts)', () => {
  const accountOf = async (userId: string) =>
    (await world.scan('accounts')).find((item) => item.userId === userId);
  const eventsAbout = async (userId: string) =>
    (await world.scan('auditEvents'))
      .filter((item) => item.subjectId === userId)
      .map((item) => [item.type, item.actorId]);

  it("finishes a person's own delete once it is past its request's time, and records it as theirs", async () => {
    const { finishUnfinishedErases, ERASE_GRACE_MS } = await import('../../lambdas/scheduled/finish-erases');
    const email = nextEmail('leaving');
    const person = await activate(email);
    const gone = await cutShort(atLastStep(person.userId), () =>
      api('DELETE', '/v1/users/me', { confirmEmail: email }, person.idToken),
    );
    expect(gone.status).toBe(500);
    // Disabled, half erased, and nobody can retry it: the person's tokens ended with the disable.
    expect((await accountOf(person.userId))?.status).toBe('disabled');
    expect((await api('DELETE', '/v1/users/me', { confirmEmail: email }, person.idToken)).status).toBe(401);

    // A run right away leaves it to the request that may still be erasing.
    expect(await finishUnfinishedErases()).toEqual({ finished: 0, failed: 0 });
    expect(await accountOf(person.userId)).toBeDefined();

    const before = await counts();
    // Two runs at once (an event delivered twice): one of them finishes it, and records it once.
    const runs = await Promise.all([
      finishUnfinishedErases(Date.now() + ERASE_GRACE_MS + 1_000),
      finishUnfinishedErases(Date.now() + ERASE_GRACE_MS + 1_000),
    ]);
    expect(runs.map((run) => run.finished).sort()).toEqual([0, 1]);
    expect(runs.map((run) => run.failed)).toEqual([0, 0]);
    expect(await accountOf(person.userId)).toBeUndefined();
    expect(await counts()).toEqual({ ...before, people: before.people - 1, disabled: before.disabled - 1 });
    expect(await counts()).toEqual(await truth());
    // Recorded once, as the person's own.
    expect((await eventsAbout(person.userId)).sort()).toEqual(
      [
        ['activation.completed', person.userId],
        ['user.disabled', person.userId],
        ['account.deleted', person.userId],
      ].sort(),
    );
    // Nothing more to finish.
    expect(await finishUnfinishedErases(Date.now() + ERASE_GRACE_MS + 1_000)).toEqual({
      finished: 0,
      failed: 0,
    });
  });

  it("finishes an admin's deletes as the admin's, one cut at its first step too, which nobody may enable meanwhile", async () => {
    const { finishUnfinishedErases, ERASE_GRACE_MS } = await import('../../lambdas/scheduled/finish-erases');
    const later = () => Date.now() + ERASE_GRACE_MS + 1_000;
    const emails = [nextEmail('cut-at-end'), nextEmail('cut-at-start')] as const;
    const atEnd = await activate(emails[0]);
    const atStart = await activate(emails[1]);
    for (const [person, step] of [
      [atEnd, atLastStep(atEnd.userId)],
      [atStart, atFirstStep],
    ] as const) {
      const answer = await cutShort(step, () => api('DELETE', `/internal/v1/admin/users/${person.userId}`));
      expect(answer.status).toBe(500);
    }
    // Cut before anything was removed, the account still looks whole; a delete is never undone.
    const enable = await api('POST', `/internal/v1/admin/users/${atStart.userId}/enable`);
    expect(enable).toMatchObject({ status: 409, body: { message: ACCOUNT_MESSAGES.beingDeleted } });
    expect((await accountOf(atStart.userId))?.status).toBe('disabled');
    // User Management says what is under way: disabled and being deleted, unlike a plain disable.
    const plain = await activate(nextEmail('cut-plain'));
    expect((await api('POST', `/internal/v1/admin/users/${plain.userId}/disable`)).status).toBe(200);
    const listed = await usersPage({ q: 'cut-', limit: '50' });
    const shown = new Map(listed.body.users.map((user) => [user.userId, user]));
    for (const person of [atEnd, atStart])
      expect(shown.get(person.userId)).toMatchObject({ status: 'disabled', beingDeleted: true });
    expect(shown.get(plain.userId)?.status).toBe('disabled');
    expect(shown.get(plain.userId)).not.toHaveProperty('beingDeleted');

    expect(await finishUnfinishedErases(later())).toEqual({ finished: 2, failed: 0 });
    for (const person of [atEnd, atStart]) {
      expect(await accountOf(person.userId)).toBeUndefined();
      expect((await world.scan('profiles')).some((item) => item.userId === person.userId)).toBe(false);
      expect((await world.scan('passkeys')).some((item) => item.userId === person.userId)).toBe(false);
      // Their passkey no longer signs anyone in: it is unknown now, and the browser is told to forget it.
      await expect(world.http.signIn(person.authenticator)).rejects.toThrow(
        /sign-in failed with 401: .*"unknownCredential":true/,
      );
      // Each deletion recorded once, by the admin.
      expect((await eventsAbout(person.userId)).sort()).toEqual(
        [
          ['activation.completed', person.userId],
          ['user.disabled', world.admin.userId],
          ['user.deleted', world.admin.userId],
        ].sort(),
      );
    }
    expect(await counts()).toEqual(await truth());
  });
});

describe("an admin's Delete on an account being deleted", () => {
  it("finishes a person's own delete at once, recorded as theirs, without disabling or marking it again", async () => {
    const email = nextEmail('own-then-admin');
    const person = await activate(email);
    const gone = await cutShort(atLastStep(person.userId), () =>
      api('DELETE', '/v1/users/me', { confirmEmail: email }, person.idToken),
    );
    expect(gone.status).toBe(500);
    const listed = await usersPage({ q: email });
    expect(listed.body.users).toMatchObject([{ userId: person.userId, beingDeleted: true }]);
    const before = await counts();

    const finished = await api('DELETE', `/internal/v1/admin/users/${person.userId}`);
    expect(finished.status, finished.text).toBe(204);
    expect((await world.scan('accounts')).some((item) => item.userId === person.userId)).toBe(false);
    expect((await world.scan('profiles')).some((item) => item.userId === person.userId)).toBe(false);
    expect(await counts()).toEqual({ ...before, people: before.people - 1, disabled: before.disabled - 1 });
    // The person asked for it: their own deletion, once; the admin's click adds no disable of its own.
    const events = (await world.scan('auditEvents'))
      .filter((item) => item.subjectId === person.userId)
      .map((item) => [item.type, item.actorId]);
    expect(events.sort()).toEqual(
      [
        ['activation.completed', person.userId],
        ['user.disabled', person.userId],
        ['account.deleted', person.userId],
      ].sort(),
    );
  });
});

describe('a role change on an account being deleted', () => {
  it('is refused as an enable is (409), and changes nothing: the account, its events and the counts stay', async () => {
    const person = await activate(nextEmail('roles-erased'));
    // Cut at its last step: the Cognito user is gone, the account item is still there, marked.
    const gone = await cutShort(atLastStep(person.userId), () =>
      api('DELETE', `/internal/v1/admin/users/${person.userId}`),
    );
    expect(gone.status).toBe(500);
    const accountOf = async () =>
      (await world.scan('accounts')).find((item) => item.userId === person.userId);
    const eventsAbout = async () =>
      (await world.scan('auditEvents')).filter((item) => item.subjectId === person.userId);
    const before = { account: await accountOf(), events: await eventsAbout(), counts: await counts() };
    expect(before.account).toMatchObject({ status: 'disabled', erasing: { by: world.admin.userId } });

    const enable = await api('POST', `/internal/v1/admin/users/${person.userId}/enable`);
    expect(enable).toMatchObject({ status: 409, body: { message: ACCOUNT_MESSAGES.beingDeleted } });
    const roles = await api('PUT', `/internal/v1/admin/users/${person.userId}/roles`, { roles: ['coaches'] });
    expect(roles).toMatchObject({ status: 409, body: { message: ACCOUNT_MESSAGES.beingDeletedRoles } });
    expect(await accountOf()).toEqual(before.account);
    expect(await eventsAbout()).toEqual(before.events);
    expect(await counts()).toEqual(before.counts);

    // The admin's Delete finishes it, as it would have without the role change.
    expect((await api('DELETE', `/internal/v1/admin/users/${person.userId}`)).status).toBe(204);
    expect(await accountOf()).toBeUndefined();
  });
});

describe('an erase cut short, run again after the email was invited anew', () => {
  it("leaves the new invitation and its count alone: only the erased person's items go", async () => {
    const email = nextEmail('rerun');
    const person = await activate(email);
    const answer = await cutShort(atLastStep(person.userId), () =>
      api('DELETE', `/internal/v1/admin/users/${person.userId}`),
    );
    expect(answer.status).toBe(500);
    // The person's invitation went with the erase, so the email can be invited again: someone new.
    const code = await invite(email);
    const before = await counts();
    expect(before).toEqual(await truth());

    expect((await api('DELETE', `/internal/v1/admin/users/${person.userId}`)).status).toBe(204);

    const after = await counts();
    expect(after).toEqual(await truth());
    expect(after).toEqual({ ...before, people: before.people - 1, disabled: before.disabled - 1 });
    const pending = await invitationsPage({ q: email });
    expect(pending.body.invitations.map((invitation) => invitation.email)).toEqual([email]);
    // And the new person can still activate with their code.
    expect((await world.http.activate(email, code)).userId).not.toBe(person.userId);
  });
});

describe('the Audit Log, bounded by what it keeps', () => {
  it('reads from this month back whatever `to` says: a `to` in the year 9999 is not 95,000 months of Queries', async () => {
    const { ddb } = await import('../../lambdas/common/aws');
    let queries = 0;
    const counter: InitializeMiddleware<object, MetadataBearer> = (next, context) => (args) => {
      if (context.commandName === 'QueryCommand') queries += 1;
      // Fails fast instead of running for minutes: the retention spans at most 15 months.
      if (queries > 50) throw new Error('The Audit Log read more than 50 months.');
      return next(args);
    };
    ddb.middlewareStack.add(counter, { step: 'initialize', name: 'auditQueryCounter' });
    try {
      const page = await api<{ events: { type: string }[] }>(
        'GET',
        `/internal/v1/admin/audit?${new URLSearchParams({ to: '9999-12-31T23:59:59.000Z', limit: '5' })}`,
      );
      expect(page.status, page.text).toBe(200);
      // The newest events are there (the activations and invitations of this file), read in this month.
      expect(page.body.events).toHaveLength(5);
      expect(queries).toBeLessThanOrEqual(Math.ceil(AUDIT_RETENTION_DAYS / 28) + 1);
    } finally {
      ddb.middlewareStack.remove('auditQueryCounter');
    }
  });
});

describe("the Audit Log's `from` and `to`", () => {
  it('shows the events from `from` to `to`, both included and nothing a millisecond outside, in the whole log and for one person', async () => {
    // One person's events at known times, months before anything else this file wrote (all of it today).
    const subjectId = randomUUID();
    const DAY = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const from = new Date(now - 60 * DAY).toISOString();
    const to = new Date(now - 30 * DAY).toISOString();
    const times = {
      oldest: new Date(now - 90 * DAY).toISOString(),
      beforeFrom: new Date(Date.parse(from) - 1).toISOString(),
      atFrom: from,
      atTo: to,
      afterTo: new Date(Date.parse(to) + 1).toISOString(),
      recent: new Date(now - 10 * DAY).toISOString(),
    };
    const ids = new Map<string, keyof typeof times>();
    for (const [name, at] of Object.entries(times) as [keyof typeof times, string][]) {
      const eventId = randomUUID();
      ids.set(eventId, name);
      await storeAuditEvent(world.stack.tables.auditEvents, {
        eventId,
        at,
        type: 'roles.changed',
        actorId: world.admin.userId,
        subjectId,
        userAgent: 'a browser',
        details: { from: ['users'], to: ['coaches'] },
      });
    }
    /** Every event the query finds, page after page, newest first; and those of this test by name. */
    const audit = async (query: Record<string, string>) => {
      const all: AuditEvent[] = [];
      let cursor: string | undefined;
      do {
        const page = await api<{ events: AuditEvent[]; nextCursor?: string }>(
          'GET',
          `/internal/v1/admin/audit?${new URLSearchParams({ ...query, limit: '200', ...(cursor && { cursor }) })}`,
        );
        expect(page.status, page.text).toBe(200);
        all.push(...page.body.events);
        cursor = page.body.nextCursor;
      } while (cursor);
      return { mine: all.flatMap((event) => ids.get(event.eventId) ?? []), all };
    };

    for (const [label, person] of [
      ['the whole log', {}],
      ['one person', { subjectId }],
    ] as [string, Record<string, string>][]) {
      const sinceFrom = await audit({ ...person, from });
      expect(sinceFrom.mine, label).toEqual(['recent', 'afterTo', 'atTo', 'atFrom']);
      expect(sinceFrom.all.every((event) => event.at >= from)).toBe(true);
      // Nothing else is as old as `to`: exactly the events up to it, across three months.
      const untilTo = await audit({ ...person, to });
      expect(untilTo.mine, label).toEqual(['atTo', 'atFrom', 'beforeFrom', 'oldest']);
      expect(untilTo.all, label).toHaveLength(4);
      const between = await audit({ ...person, from, to });
      expect(between.mine, label).toEqual(['atTo', 'atFrom']);
      expect(between.all, label).toHaveLength(2);
      // One instant is a range too: the events at that very time.
      expect((await audit({ ...person, from, to: from })).mine, label).toEqual(['atFrom']);
    }
    // A range that ends before it starts is refused, not read as empty.
    expect(
      await api('GET', `/internal/v1/admin/audit?${new URLSearchParams({ from: to, to: from })}`),
    ).toMatchObject({ status: 400, body: { message: HEALTH_MESSAGES.fromAfterTo } });
  });
});
