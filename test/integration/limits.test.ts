/**
 * SPEC-2 section 5 on the local stack (issue 11, docs/decisions/049-abuse-limits.md): wrong activation
 * codes per email, activation attempts and sign-in starts per source IP. Each test sends from loopback
 * addresses of its own (127.0.0.0/8), which the local gateway hands the Lambdas as the source IP.
 */
import { createHash, randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createTables } from '../../infra/local/tables';
import { TABLES } from '../../shared/tables';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEvent } from '../../shared/audit';
import {
  ACTIVATION_EMAIL_FAILURES,
  ACTIVATION_IP_ATTEMPTS,
  SIGNIN_IP_STARTS,
  TOO_MANY_ATTEMPTS,
  TOO_MANY_SIGNIN_STARTS,
} from '../../shared/limits';
import { API_MESSAGES } from '../../shared/messages';
import { expireInvitation, localDocuments } from '../fixtures/aws-env';
import { startPeople, type People } from '../fixtures/health-people';
import { loopbackClient, type LoopbackClient } from '../fixtures/loopback-client';
import { SoftwareAuthenticator } from '../fixtures/software-authenticator';

let world: People<never>;
const clients: LoopbackClient[] = [];

beforeAll(async () => {
  world = await startPeople<never>({});
}, 120_000);
afterAll(async () => {
  for (const client of clients) client.close();
  await world?.stop();
});
afterEach(() => {
  vi.useRealTimers();
});

let nextAddress = 2;
/** A client with a loopback source address no other test uses. */
const newClient = (): LoopbackClient => {
  const client = loopbackClient(world.stack.origin, `127.0.0.${nextAddress}`);
  nextAddress += 1;
  clients.push(client);
  return client;
};

const invite = async (email: string): Promise<string> => {
  const answer = await world.http.request<{ activationCode: string }>(
    'POST',
    '/internal/v1/admin/invitations',
    {
      token: world.admin.idToken,
      json: { email },
    },
  );
  expect(answer.status).toBe(201);
  return answer.body.activationCode;
};

/** A code of the right shape that is not the invitation's. */
const wrongCodeFor = (code: string): string =>
  code.startsWith('A') ? `B${code.slice(1)}` : `A${code.slice(1)}`;

const verify = (client: LoopbackClient, email: string, activationCode: string) =>
  client.post<{ valid?: boolean; message?: string }>('/v1/auth/verify-activation', { email, activationCode });

const auditEvents = async (): Promise<AuditEvent[]> =>
  (await world.scan('auditEvents')) as unknown as AuditEvent[];
const eventsFor = async (type: AuditEvent['type'], detail: Record<string, unknown>) =>
  (await auditEvents()).filter(
    (event) =>
      event.type === type && Object.entries(detail).every(([key, value]) => event.details[key] === value),
  );

const locked = { status: 429, body: { message: TOO_MANY_ATTEMPTS } };

/** A registration with this code and a well-formed passkey answer to no ceremony of ours. */
const registerWith = (client: LoopbackClient, email: string, activationCode: string) =>
  client.post<{ message?: string }>('/v1/auth/register-passkey', {
    email,
    activationCode,
    cognitoUsername: 'anything',
    registrationResponse: new SoftwareAuthenticator(world.stack.origin).createCredential({
      challenge: 'AAAAAAAAAAAAAAAAAAAAAA',
      rp: { id: 'localhost', name: 'x' },
      user: { id: 'AAAA', name: email, displayName: email },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    }),
  });

describe('wrong activation codes for one email', () => {
  it('lock the email after 5: the 6th attempt, the right code too, is a 429; other emails still work; after the window the code activates', async () => {
    const client = newClient();
    const code = await invite('guessed@example.com');
    const otherCode = await invite('colleague@example.com');
    for (let i = 0; i < ACTIVATION_EMAIL_FAILURES.limit; i += 1)
      expect(await verify(client, 'guessed@example.com', wrongCodeFor(code))).toEqual({
        status: 200,
        body: { valid: false },
      });

    const lockedOut = await verify(client, 'guessed@example.com', code);
    expect(lockedOut).toMatchObject(locked);
    // SPEC-2 section 5, letter for letter.
    expect(lockedOut.body.message).toBe('Too many attempts. Please wait 15 minutes and try again.');
    // The registration step checks the same lock.
    const registration = await client.post('/v1/auth/register-passkey', {
      email: 'guessed@example.com',
      activationCode: code,
      cognitoUsername: 'anything',
      registrationResponse: new SoftwareAuthenticator(world.stack.origin).createCredential({
        challenge: 'AAAAAAAAAAAAAAAAAAAAAA',
        rp: { id: 'localhost', name: 'x' },
        user: { id: 'AAAA', name: 'guessed@example.com', displayName: 'guessed@example.com' },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      }),
    });
    expect(registration).toMatchObject(locked);
    // Another email from the same address is not locked.
    expect((await verify(client, 'colleague@example.com', otherCode)).body.valid).toBe(true);

    // Every wrong code and the lock are audit events, with the email and a reason, never the code.
    expect(
      await eventsFor('activation.failed', { email: 'guessed@example.com', reason: 'wrong-code' }),
    ).toHaveLength(ACTIVATION_EMAIL_FAILURES.limit);
    const [lock, ...more] = await eventsFor('limit.locked', { email: 'guessed@example.com' });
    expect(more).toHaveLength(0);
    expect(lock).toMatchObject({
      outcome: 'failure',
      ip: client.address,
      details: { limit: 'activation-email' },
    });
    expect(JSON.stringify(await auditEvents())).not.toContain(code);

    // 'Please wait 15 minutes': just before, still locked; after, the right code works.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ACTIVATION_EMAIL_FAILURES.windowMs - 5_000 });
    expect(await verify(client, 'guessed@example.com', code)).toMatchObject(locked);
    vi.setSystemTime(Date.now() + 10_000);
    expect((await verify(client, 'guessed@example.com', code)).body.valid).toBe(true);
    const activated = await world.http.activate('guessed@example.com', code);
    expect(activated.idToken).toBeTruthy();
  });

  it('lock the email after 5 within any 15 minutes, also across the quarter hour the first one began', async () => {
    const client = newClient();
    const code = await invite('patient@example.com');
    const wrong = async () =>
      expect((await verify(client, 'patient@example.com', wrongCodeFor(code))).body.valid).toBe(false);
    const start = Date.now();
    const at = (ms: number) => vi.useFakeTimers({ toFake: ['Date'], now: start + ms });
    const { windowMs } = ACTIVATION_EMAIL_FAILURES;
    await wrong();
    // Three more just before 15 minutes have passed since the first, two just after: the first has
    // dropped out, and the last five came within 3 seconds.
    at(windowMs - 2_000);
    for (let i = 0; i < 3; i += 1) await wrong();
    at(windowMs + 1_000);
    await wrong();
    await wrong();
    expect(await verify(client, 'patient@example.com', code)).toMatchObject(locked);
    expect(await eventsFor('limit.locked', { email: 'patient@example.com' })).toHaveLength(1);
    // Once the lock has run its 15 minutes, the right code works.
    at(2 * windowMs + 2_000);
    expect((await verify(client, 'patient@example.com', code)).body.valid).toBe(true);
  });

  it("counts on over an email's fixed-window counter kept from before the sliding log", async () => {
    const client = newClient();
    const code = await invite('kept-counter@example.com');
    const digest = createHash('sha256')
      .update('activation-email:kept-counter@example.com')
      .digest('base64url');
    const documents = localDocuments();
    try {
      await documents.send(
        new PutCommand({
          TableName: world.stack.tables.authChallenges,
          Item: { pk: `limit#activation-email#${digest}`, attempts: 3, windowEndsAt: Date.now() + 60_000 },
        }),
      );
    } finally {
      documents.destroy();
    }
    for (let i = 0; i < ACTIVATION_EMAIL_FAILURES.limit; i += 1)
      expect(await verify(client, 'kept-counter@example.com', wrongCodeFor(code))).toEqual({
        status: 200,
        body: { valid: false },
      });
    expect(await verify(client, 'kept-counter@example.com', code)).toMatchObject(locked);
  });

  it('do not count attempts that met a server error: the right code still works after more than 5', async () => {
    const client = newClient();
    const code = await invite('unlucky@example.com');
    const documents = localDocuments();
    const name = world.stack.tables.invitations;
    const kept = await world.scan('invitations');
    try {
      // The invitations cannot be read: every attempt is a server error, the right code's too.
      await documents.send(new DeleteTableCommand({ TableName: name }));
      for (let i = 0; i <= ACTIVATION_EMAIL_FAILURES.limit; i += 1)
        expect((await verify(client, 'unlucky@example.com', code)).status).toBe(500);
    } finally {
      await createTables(documents, name.slice(0, -`-${TABLES.invitations.id}`.length));
      for (const item of kept) await documents.send(new PutCommand({ TableName: name, Item: item }));
      documents.destroy();
    }
    expect((await verify(client, 'unlucky@example.com', code)).body.valid).toBe(true);
    expect(await eventsFor('limit.locked', { email: 'unlucky@example.com' })).toHaveLength(0);
  });

  it('count only failures: right codes between wrong ones do not lock the email', async () => {
    const client = newClient();
    const code = await invite('forgetful@example.com');
    for (let i = 0; i < ACTIVATION_EMAIL_FAILURES.limit - 1; i += 1) {
      expect((await verify(client, 'forgetful@example.com', wrongCodeFor(code))).body.valid).toBe(false);
      expect((await verify(client, 'forgetful@example.com', code)).body.valid).toBe(true);
    }
    expect((await verify(client, 'forgetful@example.com', code)).body.valid).toBe(true);
  });

  it('do not count a right code refused for being expired: tried on, it never locks, and a resent code works at once', async () => {
    const client = newClient();
    const code = await invite('week-old@example.com');
    await expireInvitation(world.stack.tables.invitations, 'week-old@example.com');
    for (let i = 0; i <= ACTIVATION_EMAIL_FAILURES.limit; i += 1)
      expect(await verify(client, 'week-old@example.com', code)).toEqual({
        status: 200,
        body: { valid: false },
      });
    expect(
      await eventsFor('activation.failed', { email: 'week-old@example.com', reason: 'expired' }),
    ).toHaveLength(ACTIVATION_EMAIL_FAILURES.limit + 1);
    const resent = await world.http.request<{ activationCode: string }>(
      'POST',
      '/internal/v1/admin/invitations/week-old%40example.com/resend',
      { token: world.admin.idToken },
    );
    expect(resent.status).toBe(200);
    expect((await verify(client, 'week-old@example.com', resent.body.activationCode)).body.valid).toBe(true);
    expect(await eventsFor('limit.locked', { email: 'week-old@example.com' })).toHaveLength(0);
  });

  it('keep no email nobody was invited with: its failures and its lock are recorded by reason alone', async () => {
    const client = newClient();
    for (let i = 0; i < ACTIVATION_EMAIL_FAILURES.limit; i += 1)
      expect((await verify(client, 'typed.by.anyone@example.com', 'ABCDEFGHJKMNPQRS')).body.valid).toBe(
        false,
      );
    expect(await registerWith(client, 'typed.by.anyone@example.com', 'ABCDEFGHJKMNPQRS')).toMatchObject(
      locked,
    );
    const fromHere = (await auditEvents()).filter((event) => event.ip === client.address);
    const failures = fromHere.filter((event) => event.type === 'activation.failed');
    expect(failures.map((event) => event.details)).toEqual(
      Array.from({ length: ACTIVATION_EMAIL_FAILURES.limit }, () => ({ reason: 'no-invitation' })),
    );
    const locks = fromHere.filter((event) => event.type === 'limit.locked');
    expect(locks.map((event) => Object.keys(event.details).sort())).toEqual([['limit', 'until']]);
    expect(fromHere).toHaveLength(ACTIVATION_EMAIL_FAILURES.limit + 1);
    expect(JSON.stringify(await auditEvents())).not.toContain('typed.by.anyone');

    // A registration with an unknown email is recorded the same way.
    const other = newClient();
    expect((await registerWith(other, 'also.typed@example.com', 'ABCDEFGHJKMNPQRS')).status).toBe(400);
    expect(
      (await auditEvents()).filter((event) => event.ip === other.address).map((event) => event.details),
    ).toEqual([{ reason: 'no-invitation' }]);
    expect(JSON.stringify(await auditEvents())).not.toContain('also.typed');
  });

  it('never let a sixth through when attempts at the limit race', async () => {
    const client = newClient();
    const code = await invite('raced@example.com');
    for (let i = 0; i < ACTIVATION_EMAIL_FAILURES.limit - 1; i += 1)
      expect((await verify(client, 'raced@example.com', wrongCodeFor(code))).body.valid).toBe(false);

    const answers = await Promise.all(
      Array.from({ length: 6 }, () => verify(client, 'raced@example.com', wrongCodeFor(code))),
    );
    // Exactly one of them was the fifth and was looked at; the others never were.
    expect(answers.filter((answer) => answer.status === 200)).toEqual([
      { status: 200, body: { valid: false } },
    ]);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(5);
    expect(await eventsFor('activation.failed', { email: 'raced@example.com' })).toHaveLength(
      ACTIVATION_EMAIL_FAILURES.limit,
    );
    expect(await verify(client, 'raced@example.com', code)).toMatchObject(locked);
  });
});

describe('activation attempts from one address', () => {
  it('are 100 in 15 minutes: the 101st is a 429, while another address still gets an answer', async () => {
    const client = newClient();
    for (let i = 0; i < ACTIVATION_IP_ATTEMPTS.limit; i += 1)
      expect((await verify(client, `stranger${i}@example.com`, 'ABCDEFGHJKMNPQRS')).status).toBe(200);
    expect(await verify(client, 'stranger-last@example.com', 'ABCDEFGHJKMNPQRS')).toMatchObject(locked);
    const [lock, ...more] = (await eventsFor('limit.locked', { limit: 'activation-ip' })).filter(
      (event) => event.ip === client.address,
    );
    expect(more).toHaveLength(0);
    expect(lock?.outcome).toBe('failure');
    expect((await verify(newClient(), 'stranger-last@example.com', 'ABCDEFGHJKMNPQRS')).status).toBe(200);
  });
});

describe('registrations refused from one address', () => {
  it('count against it though the code was right: a used code replayed 100 times, then a 429', async () => {
    const code = await invite('replayed@example.com');
    await world.http.activate('replayed@example.com', code);
    const client = newClient();
    for (let i = 0; i < ACTIVATION_IP_ATTEMPTS.limit; i += 1)
      expect((await registerWith(client, 'replayed@example.com', code)).body).toEqual({
        message: API_MESSAGES.activationCodeUsed,
      });
    expect(await registerWith(client, 'replayed@example.com', code)).toMatchObject(locked);
    // A right code is not a wrong one: the email itself is not locked.
    expect(await verify(newClient(), 'replayed@example.com', code)).toEqual({
      status: 200,
      body: { valid: false },
    });
  });
});

describe('sign-in starts from one address', () => {
  it('are 300 in 5 minutes: the 301st is a 429, audited once; another address can still start one', async () => {
    const client = newClient();
    for (let i = 0; i < SIGNIN_IP_STARTS.limit; i += 1)
      expect((await client.post('/v1/auth/initiate-signin', {})).status).toBe(200);
    const refused = { status: 429, body: { message: TOO_MANY_SIGNIN_STARTS } };
    expect(await client.post('/v1/auth/initiate-signin', {})).toMatchObject(refused);
    expect(await client.post('/v1/auth/initiate-signin', {})).toMatchObject(refused);
    const locks = (await eventsFor('limit.locked', { limit: 'signin-ip' })).filter(
      (event) => event.ip === client.address,
    );
    expect(locks).toHaveLength(1);

    expect((await newClient().post('/v1/auth/initiate-signin', {})).status).toBe(200);
    // After the window the address may start again.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SIGNIN_IP_STARTS.windowMs + 1_000 });
    expect((await client.post('/v1/auth/initiate-signin', {})).status).toBe(200);
  });

  it('are spent by verifications without a live session too: past the limit a 429, and no more signin.failed events', async () => {
    const client = newClient();
    for (let i = 0; i < SIGNIN_IP_STARTS.limit - 1; i += 1)
      expect((await client.post('/v1/auth/initiate-signin', {})).status).toBe(200);
    // A made-up session id with an assertion of the right shape, as a script flooding the route sends.
    const madeUp = () =>
      client.post('/v1/auth/verify-webauthn', {
        sessionId: `made-up-${randomUUID()}`,
        authenticationResponse: {
          id: 'AAAA',
          rawId: 'AAAA',
          response: { authenticatorData: 'AAAA', clientDataJSON: 'AAAA', signature: 'AAAA' },
          clientExtensionResults: {},
          type: 'public-key',
        },
      });
    const failures = async () =>
      (await auditEvents()).filter((event) => event.type === 'signin.failed' && event.ip === client.address);

    expect(await madeUp()).toMatchObject({ status: 401, body: { message: API_MESSAGES.sessionExpired } });
    expect(await failures()).toHaveLength(1);
    const refused = { status: 429, body: { message: TOO_MANY_SIGNIN_STARTS } };
    expect(await madeUp()).toMatchObject(refused);
    expect(await madeUp()).toMatchObject(refused);
    expect(await failures()).toHaveLength(1);
    // The address's budget is spent for sign-in starts as well.
    expect(await client.post('/v1/auth/initiate-signin', {})).toMatchObject(refused);
  });
});
