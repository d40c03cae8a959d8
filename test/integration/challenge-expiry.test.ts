/**
 * The single-use challenges of the passkey ceremonies expire, on the local stack (DynamoDB Local, the
 * local Cognito endpoint, the real handlers over HTTP) with software passkeys: a sign-in session
 * (`SIGNIN_SESSION_TTL_SECONDS`), an invitation's registration challenge and the challenge of a passkey a
 * signed-in person adds (both `REGISTRATION_CHALLENGE_TTL_SECONDS`). AWS deletes an expired item late
 * (DynamoDB Local by its own clock, which the tests' moved clock does not reach), so the code's own
 * expiry checks are all that refuses one.
 * Each ceremony finished a second after its challenge's time is refused with the route's message and
 * changes nothing; the same steps a second before it succeed. A registration challenge is checked when
 * read and again at the commit: one whose time runs out between the two is refused at the commit.
 */
import { ListUsersCommand, ListUsersInGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Passkey } from '../../shared/account';
import {
  REGISTRATION_CHALLENGE_TTL_SECONDS,
  ROLE_GROUPS,
  SIGNIN_SESSION_TTL_SECONDS,
} from '../../shared/constants';
import { API_MESSAGES } from '../../shared/messages';
import { TABLE_KEYS } from '../../shared/tables';
import { LOCAL_USER_POOL_ID } from '../../infra/local/stack';
import { localDocuments } from '../fixtures/aws-env';
import { startPeople, type People } from '../fixtures/health-people';
import { interleave } from '../fixtures/interleave';
import { SoftwareAuthenticator } from '../fixtures/software-authenticator';

type CreationOptions = Parameters<SoftwareAuthenticator['createCredential']>[0];

let world: People<'client'>;
let counter = 0;
const nextEmail = (label: string) => `${label}.${++counter}@example.com`;

beforeAll(async () => {
  world = await startPeople({ client: { email: 'client@example.com' } });
}, 120_000);
afterAll(() => world?.stop());
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Runs the request that stores a challenge (expiring `ttl` seconds after the second it was stored in)
 * and answers its answer, with the clock moves of the test: `pastExpiry` a second after the challenge's
 * time, `beforeExpiry` a second before it, whatever the request itself took.
 */
const started = async <T>(ttl: number, start: () => Promise<T>) => {
  const askedAt = Date.now();
  const answer = await start();
  const answeredAt = Date.now();
  return {
    answer,
    pastExpiry: () => vi.useFakeTimers({ toFake: ['Date'], now: answeredAt + (ttl + 1) * 1000 }),
    beforeExpiry: () => vi.useFakeTimers({ toFake: ['Date'], now: askedAt + (ttl - 1) * 1000 }),
  };
};

const setsAsArrays = (_key: string, value: unknown) => (value instanceof Set ? [...value] : value);

/**
 * A snapshot taker for one test: every table's items but the audit log's and the abuse-limit counters'
 * (which count refused attempts too, by design: limits.test.ts), and the pool's users and group members,
 * as one comparable value. DynamoDB Local deletes an item once its TTL attribute has passed by its own,
 * real clock: an item whose time ends within two minutes of the test's start may go while the test runs,
 * and is left out.
 */
const snapshots = () => {
  const sweptBefore = Math.floor(vi.getRealSystemTime() / 1000) + 120;
  const lasting = (item: Record<string, unknown>) =>
    !(typeof item.pk === 'string' && item.pk.startsWith('limit#')) &&
    !(typeof item.expiresAt === 'number' && item.expiresAt < sweptBefore);
  return async () => {
    const data: Record<string, string[]> = {};
    for (const table of TABLE_KEYS.filter((key) => key !== 'auditEvents')) {
      data[table] = (await world.scan(table))
        .filter(lasting)
        .map((item) => JSON.stringify(item, setsAsArrays))
        .sort();
    }
    const users = await world.http.cognito.send(new ListUsersCommand({ UserPoolId: LOCAL_USER_POOL_ID }));
    data.users = (users.Users ?? []).map((user) => user.Username ?? '').sort();
    for (const group of ROLE_GROUPS) {
      const members = await world.http.cognito.send(
        new ListUsersInGroupCommand({ UserPoolId: LOCAL_USER_POOL_ID, GroupName: group }),
      );
      data[group] = (members.Users ?? []).map((user) => user.Username ?? '').sort();
    }
    return data;
  };
};

/** The audit log's event ids now; `eventsSince` answers the events written after. */
const auditMark = async () =>
  new Set((await world.scan('auditEvents')).map((event) => String(event.eventId)));
const eventsSince = async (mark: Set<string>) =>
  (await world.scan('auditEvents'))
    .filter((event) => !mark.has(String(event.eventId)))
    .sort((a, b) => String(a.sk).localeCompare(String(b.sk)));

/**
 * A minute into a challenge's time, with the clock stopped there: a request reads the challenge unexpired,
 * and `expireAtCommit` moves its stored expiry to this very second when the request is about to commit
 * (the transaction mentions `pk`): its time ran out between the read and the commit. The second is still
 * ahead of DynamoDB Local's real clock, so its TTL sweep leaves the item in place.
 */
const expireAtCommit = async (pk: string) => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
  return interleave('TransactWriteItemsCommand', pk, async () => {
    const documents = localDocuments();
    try {
      await documents.send(
        new UpdateCommand({
          TableName: world.stack.tables.authChallenges,
          Key: { pk },
          UpdateExpression: 'SET expiresAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': Math.floor(Date.now() / 1000) },
        }),
      );
    } finally {
      documents.destroy();
    }
  });
};

describe(`a sign-in session (${SIGNIN_SESSION_TTL_SECONDS} s)`, () => {
  it('refuses an assertion sent a second after the session expired: no proof, nothing written but session-expired in the audit log, and the session is spent', async () => {
    const { authenticator } = world.people.client;
    if (!authenticator) throw new Error('the client has no passkey');
    const snapshot = snapshots();
    const before = await snapshot();
    const mark = await auditMark();
    const { answer: send, pastExpiry } = await started(SIGNIN_SESSION_TTL_SECONDS, () =>
      world.http.prepareSignIn(authenticator),
    );

    pastExpiry();
    const late = await send();
    expect(late).toMatchObject({ status: 401, body: { message: API_MESSAGES.sessionExpired } });
    expect(late.body.passkeyProof).toBeUndefined();
    // The session came and went; the passkey's counter did not move, no proof was stored.
    expect(await snapshot()).toEqual(before);
    const added = await eventsSince(mark);
    expect(added).toMatchObject([
      { type: 'signin.failed', outcome: 'failure', details: { reason: 'session-expired' } },
    ]);
    // Nobody is named: the session is spent before the assertion is looked at.
    expect(added[0]).not.toHaveProperty('subjectId');

    // Spent by the late attempt: back within its time, the same assertion opens nothing either.
    vi.useRealTimers();
    expect(await send()).toMatchObject({ status: 401, body: { message: API_MESSAGES.sessionExpired } });
    expect(await snapshot()).toEqual(before);
  });

  it('accepts the same steps a second before the session expires', async () => {
    const { authenticator } = world.people.client;
    if (!authenticator) throw new Error('the client has no passkey');
    const mark = await auditMark();
    const { answer: send, beforeExpiry } = await started(SIGNIN_SESSION_TTL_SECONDS, () =>
      world.http.prepareSignIn(authenticator),
    );

    beforeExpiry();
    const inTime = await send();
    expect(inTime.status).toBe(200);
    expect(inTime.body.passkeyProof).toEqual(expect.any(String));
    const tokens = await world.http.signInWithProof(inTime.body.cognitoUsername, inTime.body.passkeyProof);
    expect(tokens.idToken).toBeTruthy();
    expect(await eventsSince(mark)).toMatchObject([
      { type: 'signin.succeeded', subjectId: world.people.client.userId },
    ]);
  });
});

describe(`an invitation's registration challenge (${REGISTRATION_CHALLENGE_TTL_SECONDS} s)`, () => {
  const invite = async (email: string) => {
    const invited = await world.http.request<{ activationCode: string }>(
      'POST',
      '/internal/v1/admin/invitations',
      { token: world.admin.idToken, json: { email } },
    );
    expect(invited.status).toBe(201);
    return invited.body.activationCode;
  };
  const verifyCode = async (email: string, activationCode: string) => {
    const verified = await world.http.request<{
      valid: boolean;
      cognitoUsername: string;
      registrationOptions: CreationOptions;
    }>('POST', '/v1/auth/verify-activation', { json: { email, activationCode } });
    expect(verified.body.valid).toBe(true);
    return verified.body;
  };
  /** The new passkey the device made for these options, as the SPA sends it. */
  const registration = (
    email: string,
    activationCode: string,
    verified: Awaited<ReturnType<typeof verifyCode>>,
  ) => ({
    email,
    activationCode,
    cognitoUsername: verified.cognitoUsername,
    expectedChallenge: verified.registrationOptions.challenge,
    registrationResponse: new SoftwareAuthenticator(world.stack.origin).createCredential(
      verified.registrationOptions,
    ),
  });
  const register = (json: ReturnType<typeof registration>) =>
    world.http.request<{ userId?: string; passkeyProof?: string; message?: string }>(
      'POST',
      '/v1/auth/register-passkey',
      { json },
    );
  const refused = { status: 400, body: { message: API_MESSAGES.registrationFailed } };
  const invitationOf = async (email: string) =>
    (await world.scan('invitations')).find((item) => item.email === email);

  it('refuses a passkey registered a second after the challenge expired: no account, passkey or groups, the invitation still pending, and starting over works', async () => {
    const email = nextEmail('late-registration');
    const code = await invite(email);
    const { answer: verified, pastExpiry } = await started(REGISTRATION_CHALLENGE_TTL_SECONDS, () =>
      verifyCode(email, code),
    );
    const sent = registration(email, code, verified);
    const snapshot = snapshots();
    const before = await snapshot();
    const mark = await auditMark();

    pastExpiry();
    const late = await register(sent);
    expect(late).toMatchObject(refused);
    expect(late.body.passkeyProof).toBeUndefined();
    // Not even the reserved user's groups: the refusal comes before anything is written.
    expect(await snapshot()).toEqual(before);
    expect(await invitationOf(email)).toMatchObject({ codeUsed: false });
    expect(await eventsSince(mark)).toMatchObject([
      { type: 'activation.failed', outcome: 'failure', details: { email, reason: 'registration-refused' } },
    ]);
    // Sent again, it is refused again.
    expect(await register(sent)).toMatchObject(refused);
    expect(await snapshot()).toEqual(before);

    // The person starts over with the same code, in time.
    vi.useRealTimers();
    const again = registration(email, code, await verifyCode(email, code));
    expect((await register(again)).status).toBe(200);
    expect(await invitationOf(email)).toMatchObject({ codeUsed: true });
  });

  it('registers the same passkey a second before the challenge expires', async () => {
    const email = nextEmail('in-time-registration');
    const code = await invite(email);
    const { answer: verified, beforeExpiry } = await started(REGISTRATION_CHALLENGE_TTL_SECONDS, () =>
      verifyCode(email, code),
    );
    const sent = registration(email, code, verified);

    beforeExpiry();
    const inTime = await register(sent);
    expect(inTime.status).toBe(200);
    expect(inTime.body.passkeyProof).toEqual(expect.any(String));
    expect(await invitationOf(email)).toMatchObject({ codeUsed: true });
    const passkeys = (await world.scan('passkeys')).filter((item) => item.userId === inTime.body.userId);
    expect(passkeys).toHaveLength(1);
  });

  it('refuses at the commit a challenge whose time ran out after it was read', async () => {
    const email = nextEmail('expiring-registration');
    const code = await invite(email);
    const sent = registration(email, code, await verifyCode(email, code));
    const race = await expireAtCommit(`registration#${email}`);
    try {
      const late = await register(sent);
      expect(race.fired()).toBe(true);
      expect(late).toMatchObject(refused);
      expect(late.body.passkeyProof).toBeUndefined();
    } finally {
      race.remove();
    }
    // No account, passkey or profile; the invitation is still pending.
    expect(await invitationOf(email)).toMatchObject({ codeUsed: false });
    expect((await world.scan('accounts')).filter((item) => item.email === email)).toEqual([]);
    expect((await world.scan('profiles')).filter((item) => item.email === email)).toEqual([]);
    const passkeys = await world.scan('passkeys');
    expect(passkeys.filter((item) => item.credentialId === sent.registrationResponse.id)).toEqual([]);
  });
});

describe(`the challenge of a passkey a signed-in person adds (${REGISTRATION_CHALLENGE_TTL_SECONDS} s)`, () => {
  /** A person of the test's own, invited, activated and so just signed in (their token is fresh). */
  const signedInPerson = async (label: string) => {
    const email = nextEmail(label);
    const invited = await world.http.request<{ activationCode: string }>(
      'POST',
      '/internal/v1/admin/invitations',
      { token: world.admin.idToken, json: { email } },
    );
    const person = await world.http.activate(email, invited.body.activationCode);
    return { userId: person.userId, idToken: person.idToken ?? '' };
  };
  const askOptions = async (idToken: string) => {
    const options = await world.http.request<CreationOptions>('POST', '/v1/users/me/passkeys/options', {
      token: idToken,
    });
    expect(options.status).toBe(200);
    return options.body;
  };
  const add = (idToken: string, registrationResponse: unknown) =>
    world.http.request<Passkey & { message?: string }>('POST', '/v1/users/me/passkeys', {
      token: idToken,
      json: { registrationResponse },
    });
  const passkeysOf = async (idToken: string) =>
    (await world.http.request<{ passkeys: Passkey[] }>('GET', '/v1/users/me/passkeys', { token: idToken }))
      .body.passkeys;
  const refused = { status: 400, body: { message: API_MESSAGES.registrationFailed } };

  it('refuses a passkey sent a second after the challenge expired: nothing stored, listed or recorded, and asking again works', async () => {
    const { userId, idToken } = await signedInPerson('late-add');
    const { answer: options, pastExpiry } = await started(REGISTRATION_CHALLENGE_TTL_SECONDS, () =>
      askOptions(idToken),
    );
    const device = new SoftwareAuthenticator(world.stack.origin);
    const registrationResponse = device.createCredential(options);
    const snapshot = snapshots();
    const before = await snapshot();
    const mark = await auditMark();

    pastExpiry();
    expect(await add(idToken, registrationResponse)).toMatchObject(refused);
    expect(await snapshot()).toEqual(before);
    expect(await eventsSince(mark)).toEqual([]);
    expect(await passkeysOf(idToken)).toHaveLength(1);
    // Sent again, it is refused again.
    expect(await add(idToken, registrationResponse)).toMatchObject(refused);
    expect(await snapshot()).toEqual(before);

    // New options, still within the sign-in's 10 minutes: the next passkey is added.
    const retried = await add(idToken, device.createCredential(await askOptions(idToken)));
    expect(retried.status).toBe(201);
    expect(await passkeysOf(idToken)).toHaveLength(2);
    expect((await eventsSince(mark)).map((event) => [event.type, event.subjectId])).toEqual([
      ['passkey.added', userId],
    ]);
  });

  it('adds the same passkey a second before the challenge expires', async () => {
    const { idToken } = await signedInPerson('in-time-add');
    const { answer: options, beforeExpiry } = await started(REGISTRATION_CHALLENGE_TTL_SECONDS, () =>
      askOptions(idToken),
    );
    const registrationResponse = new SoftwareAuthenticator(world.stack.origin).createCredential(options);

    beforeExpiry();
    const inTime = await add(idToken, registrationResponse);
    expect(inTime.status).toBe(201);
    expect(inTime.body.credentialId).toBe(registrationResponse.id);
    expect(await passkeysOf(idToken)).toHaveLength(2);
  });

  it('refuses at the commit a challenge whose time ran out after it was read', async () => {
    const { userId, idToken } = await signedInPerson('expiring-add');
    const registrationResponse = new SoftwareAuthenticator(world.stack.origin).createCredential(
      await askOptions(idToken),
    );
    const mark = await auditMark();
    const race = await expireAtCommit(`passkey#${userId}`);
    try {
      expect(await add(idToken, registrationResponse)).toMatchObject(refused);
      expect(race.fired()).toBe(true);
    } finally {
      race.remove();
    }
    expect(await passkeysOf(idToken)).toHaveLength(1);
    expect(
      (await world.scan('passkeys')).filter((item) => item.credentialId === registrationResponse.id),
    ).toEqual([]);
    expect(await eventsSince(mark)).toEqual([]);
  });
});
