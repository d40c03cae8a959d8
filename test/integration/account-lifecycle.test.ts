/**
 * SPEC-2 section 3 on the local stack (DynamoDB Local, the local Cognito endpoint, the real handlers),
 * with software passkeys: passkey management, recovery, admin actions, the person's own erase, and the
 * races of the account lifecycle, each with exactly one outcome a person can explain.
 */
import { randomUUID } from 'node:crypto';
import { ListUsersCommand, NotAuthorizedException } from '@aws-sdk/client-cognito-identity-provider';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { InitializeMiddleware, MetadataBearer } from '@smithy/types';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES, PASSKEY_REAUTH_MAX_AGE_SECONDS, type Passkey } from '../../shared/account';
import { AUDIT_MESSAGES, type AuditEvent, type AuditPerson } from '../../shared/audit';
import { MAX_PASSKEYS } from '../../shared/constants';
import { COACHING_MESSAGES } from '../../shared/coaching';
import { API_MESSAGES } from '../../shared/messages';
import type { Invitation } from '../../shared/schemas';
import { TABLE_KEYS } from '../../shared/tables';
import { LOCAL_USER_POOL_ID } from '../../infra/local/stack';
import { localDocuments } from '../fixtures/aws-env';
import { interleave, refuse, staleByCoach } from '../fixtures/interleave';
import { startPeople, type People, type Person } from '../fixtures/health-people';
import { SoftwareAuthenticator } from '../fixtures/software-authenticator';

const ICLOUD_AAGUID = 'dd4ec289-e01d-41c9-bb89-70fa845d4bf2';

type Key = 'client' | 'other' | 'deputy' | 'coach' | 'leaver';
let world: People<Key>;
const token = { admin: '' };

beforeAll(async () => {
  world = await startPeople<Key>({
    client: { email: 'client@example.com' },
    other: { email: 'other@example.com' },
    deputy: { email: 'deputy@example.com', roles: ['admins', 'users'] },
    coach: { email: 'coach@example.com', roles: ['coaches'] },
    leaver: { email: 'leaver@example.com' },
  });
  token.admin = world.admin.idToken;
}, 120_000);
afterAll(() => world?.stop());
afterEach(() => {
  vi.useRealTimers();
});

const api = <T = Record<string, unknown>>(method: string, path: string, idToken?: string, json?: unknown) =>
  world.http.request<T>(method, path, {
    ...(idToken && { token: idToken }),
    ...(json !== undefined && { json }),
  });

/** An invited and activated person of one test's own (roles `users` unless given), with their passkey. */
const activatedPerson = async (email: string, roles?: string[]) => {
  const invite = await api<{ activationCode: string }>(
    'POST',
    '/internal/v1/admin/invitations',
    token.admin,
    {
      email,
      ...(roles && { roles }),
    },
  );
  return world.http.activate(email, invite.body.activationCode);
};

/** A weight reading taken now, sent by the person. */
const postReading = (idToken?: string) =>
  api<{ measurementId: string }>('POST', '/v1/measurements', idToken, {
    type: 'weight',
    value: 70,
    takenAt: new Date().toISOString(),
  });

const passkeysOf = async (idToken: string) =>
  (await api<{ passkeys: Passkey[] }>('GET', '/v1/users/me/passkeys', idToken)).body.passkeys;

/** Registers another passkey on a new authenticator for the signed-in person. */
const addPasskey = async (idToken: string, name?: string, aaguid?: string) => {
  const options = await api<Parameters<SoftwareAuthenticator['createCredential']>[0]>(
    'POST',
    '/v1/users/me/passkeys/options',
    idToken,
  );
  expect(options.status).toBe(200);
  const device = new SoftwareAuthenticator(world.stack.origin, aaguid);
  const answer = await api<Passkey>('POST', '/v1/users/me/passkeys', idToken, {
    registrationResponse: device.createCredential(options.body),
    ...(name !== undefined && { name }),
  });
  return { device, answer, options: options.body };
};

const signInAs = async (device: SoftwareAuthenticator) => {
  const tokens = await world.http.signIn(device);
  return { idToken: tokens.idToken ?? '', refreshToken: tokens.refreshToken ?? '' };
};

/** Every item of every table but the audit log that mentions this person's id or email. */
const traces = async (person: { userId: string; email: string }) => {
  const found: string[] = [];
  for (const table of TABLE_KEYS.filter((key) => key !== 'auditEvents')) {
    for (const item of await world.scan(table)) {
      const text = JSON.stringify(item, (_key, value: unknown) =>
        value instanceof Set ? [...value] : value,
      );
      if (text.includes(person.userId) || text.includes(person.email)) found.push(`${table}: ${text}`);
    }
  }
  return found;
};

const poolUsersWithSub = async (userId: string) =>
  (
    await world.http.cognito.send(
      new ListUsersCommand({ UserPoolId: LOCAL_USER_POOL_ID, Filter: `sub = "${userId}"` }),
    )
  ).Users ?? [];

const auditOf = async (type: string, subjectId: string) =>
  (await world.scan('auditEvents')).filter(
    (event) => event.type === type && event.subjectId === subjectId,
  ) as unknown as AuditEvent[];

const groupsOf = (idToken: string) =>
  (JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>)[
    'cognito:groups'
  ];
const accountOf = async (userId: string) =>
  (await world.scan('accounts')).find((account) => account.userId === userId);

/**
 * Holds a request of this person's that passed the session check at its read of the whole account
 * (not the session check's projection of it) while `meanwhile` runs: another admin disables or
 * demotes them in between.
 */
const heldAtAccountRead = (userId: string, meanwhile: () => Promise<void>) =>
  interleave('GetItemCommand', `"Key":{"userId":"${userId}"},"ConsistentRead":true}`, meanwhile);

/** Moves an invitation's creation and expiry this many seconds into the past. */
const backdate = async (email: string, seconds: number) => {
  const documents = localDocuments();
  const [item] = (await world.scan('invitations')).filter((invitation) => invitation.email === email);
  const back = (iso: unknown) => new Date(Date.parse(String(iso)) - seconds * 1000).toISOString();
  await documents.send(
    new UpdateCommand({
      TableName: world.stack.tables.invitations,
      Key: { email },
      UpdateExpression: 'SET createdAt = :createdAt, expiresAt = :expiresAt',
      ExpressionAttributeValues: { ':createdAt': back(item?.createdAt), ':expiresAt': back(item?.expiresAt) },
    }),
  );
  documents.destroy();
};

const fresh = async (person: Person) => signInAs(person.authenticator as SoftwareAuthenticator);

/** The client's devices, to sign in with whichever still holds a passkey the server knows. */
const clientDevices: SoftwareAuthenticator[] = [];
const deviceHolding = (credentialId: string) =>
  clientDevices.find((device) =>
    device.credentials.some((credential) => credential.id.toString('base64url') === credentialId),
  );

describe('passkeys (SPEC-2 section 3.1)', () => {
  it('adds a second passkey that signs in as the same person, with either passkey', async () => {
    const client = world.people.client;
    const { idToken } = await fresh(client);
    const before = await passkeysOf(idToken);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ name: 'Passkey', backedUp: false });
    expect(before[0]?.providerName).toBeUndefined();

    const { device, answer, options } = await addPasskey(idToken, undefined, ICLOUD_AAGUID);
    clientDevices.push(client.authenticator as SoftwareAuthenticator, device);
    // The browser is told not to make a second passkey on a device that has one.
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([before[0]?.credentialId]);
    // Any authenticator (a security key, a phone), unlike activation's platform one.
    expect(options.authenticatorSelection?.authenticatorAttachment).toBeUndefined();
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(answer.status).toBe(201);
    // Named after the authenticator's AAGUID from the maintained list.
    expect(answer.body).toMatchObject({
      name: 'iCloud Keychain (Managed)',
      providerName: 'iCloud Keychain (Managed)',
    });

    const viaNew = await signInAs(device);
    const viaOld = await fresh(client);
    for (const tokenOfEither of [viaNew.idToken, viaOld.idToken]) {
      const me = await api<{ userId: string }>('GET', '/v1/users/me', tokenOfEither);
      expect(me).toMatchObject({ status: 200, body: { userId: client.userId } });
    }
    const after = await passkeysOf(viaNew.idToken);
    expect(after).toHaveLength(2);
    // Each sign-in is recorded on the passkey it used.
    expect(after.every((passkey) => passkey.lastUsedAt !== undefined)).toBe(true);
    expect(await auditOf('passkey.added', client.userId)).toHaveLength(1);
  });

  it('renames a passkey (1 to 64 characters) and removes one, but never the only one', async () => {
    const client = world.people.client;
    const { idToken } = await fresh(client);
    const [first, second] = await passkeysOf(idToken);
    if (!first || !second) throw new Error('two passkeys expected');

    const renamed = await api<Passkey>('PATCH', `/v1/users/me/passkeys/${first.credentialId}`, idToken, {
      name: '  Work laptop  ',
    });
    expect(renamed).toMatchObject({
      status: 200,
      body: { name: 'Work laptop', credentialId: first.credentialId },
    });
    // A rename whose event cannot be written is not made: the rename and its event commit together.
    const eventFails = await refuse(
      'TransactWriteItemsCommand',
      'passkey.renamed',
      () => new Error('InternalServerError'),
      1,
    );
    try {
      const unrecorded = await api('PATCH', `/v1/users/me/passkeys/${first.credentialId}`, idToken, {
        name: 'Unrecorded name',
      });
      expect(unrecorded.status).toBe(500);
    } finally {
      eventFails.remove();
    }
    expect(eventFails.count()).toBe(1);
    expect((await passkeysOf(idToken)).find((p) => p.credentialId === first.credentialId)?.name).toBe(
      'Work laptop',
    );
    for (const name of ['', '   ', 'x'.repeat(65)]) {
      const refused = await api('PATCH', `/v1/users/me/passkeys/${first.credentialId}`, idToken, { name });
      expect(refused).toMatchObject({ status: 400, body: { message: ACCOUNT_MESSAGES.passkeyName } });
    }
    // Somebody else's passkey is not found, and stays as it was.
    const other = await fresh(world.people.other);
    const foreign = await api('PATCH', `/v1/users/me/passkeys/${first.credentialId}`, other.idToken, {
      name: 'Mine now',
    });
    expect(foreign).toMatchObject({ status: 404, body: { message: ACCOUNT_MESSAGES.passkeyNotFound } });
    // An id no passkey can have (over 1023 bytes, or not base64url) is not found either, not a server error.
    for (const id of [Buffer.alloc(1600, 7).toString('base64url'), 'not%20base64url'])
      expect(await api('PATCH', `/v1/users/me/passkeys/${id}`, idToken, { name: 'x' })).toMatchObject({
        status: 404,
        body: { message: ACCOUNT_MESSAGES.passkeyNotFound },
      });
    expect(await api('DELETE', `/v1/users/me/passkeys/${first.credentialId}`, other.idToken)).toMatchObject({
      status: 404,
    });
    expect((await passkeysOf(idToken)).find((p) => p.credentialId === first.credentialId)?.name).toBe(
      'Work laptop',
    );

    // Two removals at once: one passkey must remain.
    const [a, b] = await Promise.all([
      api('DELETE', `/v1/users/me/passkeys/${first.credentialId}`, idToken),
      api('DELETE', `/v1/users/me/passkeys/${second.credentialId}`, idToken),
    ]);
    expect([a.status, b.status].sort()).toEqual([204, 409]);
    const left = await passkeysOf(idToken);
    expect(left).toHaveLength(1);
    const only = left[0]?.credentialId ?? '';
    Object.assign(client, { authenticator: deviceHolding(only) });
    // The removed passkey no longer signs in, and the answer says the server does not know it
    // (so the SPA can tell the browser through the Signal API).
    const removed = [first, second].find((passkey) => passkey.credentialId !== only)?.credentialId ?? '';
    const refused = await (await world.http.prepareSignIn(deviceHolding(removed) as SoftwareAuthenticator))();
    expect(refused).toMatchObject({
      status: 401,
      body: { message: API_MESSAGES.signInFailed, unknownCredential: true },
    });
    expect(await api('DELETE', `/v1/users/me/passkeys/${only}`, idToken)).toMatchObject({
      status: 409,
      body: { message: ACCOUNT_MESSAGES.onlyPasskey },
    });
    const stored = (await world.scan('passkeys')).filter((item) => item.userId === client.userId);
    expect(stored.map((item) => item.credentialId)).toEqual([only]);
    expect(await auditOf('passkey.removed', client.userId)).toHaveLength(1);
    expect(await auditOf('passkey.renamed', client.userId)).toHaveLength(1);
  });

  it('refuses adding or removing with a sign-in older than 10 minutes (401), but still lists and renames', async () => {
    const { idToken } = await fresh(world.people.other);
    const [passkey] = await passkeysOf(idToken);
    // A ceremony begun in time, finished 10 minutes and 5 seconds after the sign-in.
    const options = await api<Parameters<SoftwareAuthenticator['createCredential']>[0]>(
      'POST',
      '/v1/users/me/passkeys/options',
      idToken,
    );
    const registrationResponse = new SoftwareAuthenticator(world.stack.origin).createCredential(options.body);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (PASSKEY_REAUTH_MAX_AGE_SECONDS + 5) * 1000 });
    const reauth = { status: 401, body: { message: ACCOUNT_MESSAGES.reauthRequired } };
    expect(await api('POST', '/v1/users/me/passkeys', idToken, { registrationResponse })).toMatchObject(
      reauth,
    );
    expect(await api('POST', '/v1/users/me/passkeys/options', idToken)).toMatchObject(reauth);
    expect(await api('DELETE', `/v1/users/me/passkeys/${passkey?.credentialId}`, idToken)).toMatchObject(
      reauth,
    );
    expect(await passkeysOf(idToken)).toHaveLength(1);
    const renamed = await api('PATCH', `/v1/users/me/passkeys/${passkey?.credentialId}`, idToken, {
      name: 'Phone',
    });
    expect(renamed.status).toBe(200);
  });

  it(`refuses a passkey beyond ${MAX_PASSKEYS}, before the device makes one and when one made earlier is sent`, async () => {
    const email = 'many-passkeys@example.com';
    const person = await activatedPerson(email);
    const { idToken } = await signInAs(person.authenticator);
    // Options asked while below the limit: a registration ready to send.
    const options = await api<Parameters<SoftwareAuthenticator['createCredential']>[0]>(
      'POST',
      '/v1/users/me/passkeys/options',
      idToken,
    );
    expect(options.status).toBe(200);
    const registrationResponse = new SoftwareAuthenticator(world.stack.origin).createCredential(options.body);
    // Then the account lists as many passkeys as a person may have.
    const documents = localDocuments();
    await documents.send(
      new UpdateCommand({
        TableName: world.stack.tables.accounts,
        Key: { userId: person.userId },
        UpdateExpression: 'ADD credentialIds :more',
        ExpressionAttributeValues: {
          ':more': new Set(Array.from({ length: MAX_PASSKEYS - 1 }, (_, i) => `listed-passkey-${i}`)),
        },
      }),
    );
    documents.destroy();

    const tooMany = { status: 409, body: { message: ACCOUNT_MESSAGES.tooManyPasskeys } };
    expect(await api('POST', '/v1/users/me/passkeys', idToken, { registrationResponse })).toMatchObject(
      tooMany,
    );
    expect(await api('POST', '/v1/users/me/passkeys/options', idToken)).toMatchObject(tooMany);
    expect(await passkeysOf(idToken)).toHaveLength(1);
  });

  it('refuses a registration made for another challenge, and one with no options asked', async () => {
    const { idToken } = await fresh(world.people.other);
    const device = new SoftwareAuthenticator(world.stack.origin);
    const options = await api<Parameters<SoftwareAuthenticator['createCredential']>[0]>(
      'POST',
      '/v1/users/me/passkeys/options',
      idToken,
    );
    const forged = device.createCredential(options.body, { challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' });
    expect(
      await api('POST', '/v1/users/me/passkeys', idToken, { registrationResponse: forged }),
    ).toMatchObject({
      status: 400,
      body: { message: API_MESSAGES.registrationFailed },
    });
    expect(await passkeysOf(idToken)).toHaveLength(1);

    // Someone who never asked for options has no challenge: a registration made for another
    // person's options is refused too.
    const coach = await fresh(world.people.coach);
    const borrowed = new SoftwareAuthenticator(world.stack.origin).createCredential(options.body);
    expect(
      await api('POST', '/v1/users/me/passkeys', coach.idToken, { registrationResponse: borrowed }),
    ).toMatchObject({ status: 400, body: { message: API_MESSAGES.registrationFailed } });
    expect(await passkeysOf(coach.idToken)).toHaveLength(1);
  });
});

describe('recovery (SPEC-2 section 3.2)', () => {
  /** 'Reset access' on `userId`, by the admin whose id token is `as`. */
  const issueRecovery = (userId: string, as = token.admin) =>
    api<{ activationCode: string }>('POST', `/internal/v1/admin/users/${userId}/recovery`, as);
  /** Step 1 of `/activate` with a code, as the person would send it. */
  const verifyActivation = (email: string, activationCode: string) =>
    api<{ valid: boolean; cognitoUsername: string; registrationOptions: never }>(
      'POST',
      '/v1/auth/verify-activation',
      undefined,
      { email, activationCode },
    );

  /** Rewrites the email's stored recovery code in place, as time or an older version of the code would. */
  const updateRecovery = async (email: string, expression: string, values: Record<string, unknown>) => {
    const documents = localDocuments();
    await documents.send(
      new UpdateCommand({
        TableName: world.stack.tables.authChallenges,
        Key: { pk: `recovery#${email}` },
        UpdateExpression: expression,
        ExpressionAttributeValues: values,
      }),
    );
    documents.destroy();
  };

  it('replaces every passkey, ends every session, and keeps the person, their profile, records, coach and notes', async () => {
    const client = world.people.client;
    const coach = world.people.coach;
    const old = await fresh(client);
    await api('PUT', '/v1/users/me', old.idToken, { email: client.email, preferredName: 'Casey' });
    const reading = { type: 'weight', value: 80, enteredUnit: 'kg', takenAt: new Date().toISOString() };
    expect((await api('POST', '/v1/measurements', old.idToken, reading)).status).toBe(201);
    expect(
      (
        await api('PUT', `/internal/v1/admin/users/${client.userId}/coach`, token.admin, {
          coachId: coach.userId,
        })
      ).status,
    ).toBe(200);
    const coachToken = (await fresh(coach)).idToken;
    const note = await api<{ noteId: string }>(
      'POST',
      `/v1/coach/clients/${client.userId}/notes`,
      coachToken,
      { text: 'Steady week, keep going' },
    );
    expect(note.status).toBe(201);

    const issued = await api<{ activationCode: string; expiresAt: string }>(
      'POST',
      `/internal/v1/admin/users/${client.userId}/recovery`,
      token.admin,
    );
    expect(issued.status).toBe(201);
    expect(Date.parse(issued.body.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
    // Shown once, to the admin: the table keeps only its hash, so a read of it (or of a backup) hands
    // over no account.
    const stored = (await world.scan('authChallenges')).filter(
      (item) => item.pk === `recovery#${client.email}`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]).not.toHaveProperty('activationCode');
    expect(stored[0]?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await world.scan('authChallenges'))).not.toContain(issued.body.activationCode);
    // Until the new passkey exists, the old one still signs in.
    await fresh(client);
    // The code is bound to that person: useless for any other email.
    const elsewhere = await api('POST', '/v1/auth/verify-activation', undefined, {
      email: world.people.other.email,
      activationCode: issued.body.activationCode,
    });
    expect(elsewhere.body).toEqual({ valid: false });

    const renewed = await world.http.activate(client.email, issued.body.activationCode);
    expect(renewed.userId).toBe(client.userId);

    await expect(world.http.signIn(client.authenticator as SoftwareAuthenticator)).rejects.toThrow(/401/);
    expect((await api('GET', '/v1/users/me', old.idToken)).status).toBe(401);
    await expect(world.http.refresh(old.refreshToken)).rejects.toBeInstanceOf(NotAuthorizedException);

    const me = await api<{ userId: string; preferredName: string }>('GET', '/v1/users/me', renewed.idToken);
    expect(me.body).toMatchObject({ userId: client.userId, preferredName: 'Casey' });
    const readings = await api<{ items: unknown[] }>('GET', '/v1/measurements?type=weight', renewed.idToken);
    expect(readings.body.items).toHaveLength(1);
    // The same coach, and the note they wrote before: on the person's side and on the coach's.
    const mine = await api<{ coach: { userId: string } | null; notes: { noteId: string; text: string }[] }>(
      'GET',
      '/v1/users/me/coach',
      renewed.idToken,
    );
    expect(mine.body.coach?.userId).toBe(coach.userId);
    expect(mine.body.notes.map(({ noteId, text }) => ({ noteId, text }))).toEqual([
      { noteId: note.body.noteId, text: 'Steady week, keep going' },
    ]);
    const coachSees = await api<{ notes: { noteId: string }[] }>(
      'GET',
      `/v1/coach/clients/${client.userId}/notes`,
      coachToken,
    );
    expect(coachSees.status).toBe(200);
    expect(coachSees.body.notes.map((item) => item.noteId)).toEqual([note.body.noteId]);
    expect(await passkeysOf(renewed.idToken ?? '')).toHaveLength(1);
    // Used once.
    const again = await api('POST', '/v1/auth/verify-activation', undefined, {
      email: client.email,
      activationCode: issued.body.activationCode,
    });
    expect(again.body).toEqual({ valid: false });
    expect(await auditOf('recovery.issued', client.userId)).toHaveLength(1);
    expect(await auditOf('recovery.used', client.userId)).toHaveLength(1);
    Object.assign(world.people.client, { authenticator: renewed.authenticator });
    // The tests below count the coach's clients.
    expect((await api('DELETE', `/internal/v1/admin/users/${client.userId}/coach`, token.admin)).status).toBe(
      204,
    );
  });

  it('still takes a code stored in clear before codes were hashed, once', async () => {
    const email = 'clear-code@example.com';
    const person = await activatedPerson(email);
    const issued = await issueRecovery(person.userId);
    expect(issued.status).toBe(201);
    // As a code issued before 2026-11-27 was stored: the code itself, no hash.
    await updateRecovery(email, 'SET activationCode = :code REMOVE codeHash', {
      ':code': issued.body.activationCode,
    });
    expect((await verifyActivation(email, 'ABCD2345EFGH6789')).body).toEqual({ valid: false });
    const renewed = await world.http.activate(email, issued.body.activationCode);
    expect(renewed.userId).toBe(person.userId);
    expect((await verifyActivation(email, issued.body.activationCode)).body).toEqual({ valid: false });
  });

  it('takes a recovery code up to 24 hours old and refuses it after, also at the commit of a registration begun in time', async () => {
    const email = 'aged-reset@example.com';
    const person = await activatedPerson(email);
    // SPEC-2 section 3.2: valid 24 hours.
    const DAY_SECONDS = 24 * 60 * 60;
    /** Moves the email's recovery code this many seconds into the past (its issue and its expiry). */
    const ageRecovery = (seconds: number) =>
      updateRecovery(email, 'SET expiresAt = expiresAt - :seconds, issuedAt = issuedAt - :ms', {
        ':seconds': seconds,
        ':ms': seconds * 1000,
      });
    const issued = await issueRecovery(person.userId);
    expect(issued.status).toBe(201);
    // A minute short of 24 hours: the code still opens the registration.
    await ageRecovery(DAY_SECONDS - 60);
    const begun = await verifyActivation(email, issued.body.activationCode);
    expect(begun.body).toMatchObject({ valid: true });
    // The day runs out after the registration checked the code, before it commits.
    const expiring = await interleave('TransactWriteItemsCommand', `recovery#${email}`, () =>
      ageRecovery(120),
    );
    let late: Awaited<ReturnType<typeof api>> | undefined;
    try {
      late = await api('POST', '/v1/auth/register-passkey', undefined, {
        email,
        activationCode: issued.body.activationCode,
        cognitoUsername: begun.body.cognitoUsername,
        registrationResponse: new SoftwareAuthenticator(world.stack.origin).createCredential(
          begun.body.registrationOptions,
        ),
      });
      expect(expiring.fired()).toBe(true);
    } finally {
      expiring.remove();
    }
    // Expired, not used: the registration is refused as one to start over, not as a code already used.
    expect(late).toMatchObject({ status: 400, body: { message: API_MESSAGES.registrationFailed } });
    // A day and a minute old: refused at the first step too.
    expect((await verifyActivation(email, issued.body.activationCode)).body).toEqual({ valid: false });
    // Nothing changed: the person's own passkey is still the only one, and still signs in.
    expect((await world.scan('passkeys')).filter((item) => item.userId === person.userId)).toHaveLength(1);
    expect((await signInAs(person.authenticator)).idToken).not.toBe('');
    expect(await auditOf('recovery.used', person.userId)).toEqual([]);

    // A new code, a minute short of 24 hours old, recovers the account.
    const reissued = await issueRecovery(person.userId);
    await ageRecovery(DAY_SECONDS - 60);
    const renewed = await world.http.activate(email, reissued.body.activationCode);
    expect(renewed.userId).toBe(person.userId);
    await expect(signInAs(person.authenticator)).rejects.toThrow(/401/);
  });

  it("lets an admin reset their own access (the code's issuer is the account it recovers)", async () => {
    const email = 'self-reset@example.com';
    const invite = await api<{ activationCode: string }>(
      'POST',
      '/internal/v1/admin/invitations',
      token.admin,
      {
        email,
        roles: ['admins', 'users'],
      },
    );
    const admin = await world.http.activate(email, invite.body.activationCode);
    const device = admin.authenticator;
    const issued = await issueRecovery(admin.userId, (await signInAs(device)).idToken);
    expect(issued.status).toBe(201);
    const renewed = await world.http.activate(email, issued.body.activationCode);
    expect(renewed.userId).toBe(admin.userId);
    await expect(world.http.signIn(device)).rejects.toThrow(/401/);
    const again = await signInAs(renewed.authenticator);
    expect((await api('GET', '/internal/v1/admin/users', again.idToken)).status).toBe(200);
    expect(await passkeysOf(again.idToken)).toHaveLength(1);
    expect(await auditOf('recovery.used', admin.userId)).toHaveLength(1);
    // The tests below count the admins.
    expect((await api('DELETE', `/internal/v1/admin/users/${admin.userId}`, token.admin)).status).toBe(204);
  });

  it('puts no passkey on a disabled account: no code is issued for it, and one issued before does not work, even after an enable', async () => {
    const person = { ...(await activatedPerson('frozen@example.com')), email: 'frozen@example.com' };
    const issued = await issueRecovery(person.userId);
    // Whoever holds the code has begun the registration when the admin disables the account.
    const begun = await verifyActivation(person.email, issued.body.activationCode);
    expect(begun.body).toMatchObject({ valid: true });
    expect((await api('POST', `/internal/v1/admin/users/${person.userId}/disable`, token.admin)).status).toBe(
      200,
    );
    const before = (await world.scan('passkeys')).filter((item) => item.userId === person.userId);
    const stranger = new SoftwareAuthenticator(world.stack.origin);
    const registered = await api('POST', '/v1/auth/register-passkey', undefined, {
      email: person.email,
      activationCode: issued.body.activationCode,
      cognitoUsername: begun.body.cognitoUsername,
      registrationResponse: stranger.createCredential(begun.body.registrationOptions),
    });
    expect(registered.status).toBe(400);
    expect((await world.scan('passkeys')).filter((item) => item.userId === person.userId)).toEqual(before);
    expect((await verifyActivation(person.email, issued.body.activationCode)).body).toEqual({ valid: false });
    expect(await issueRecovery(person.userId)).toMatchObject({
      status: 409,
      body: { message: ACCOUNT_MESSAGES.resetDisabled },
    });
    expect(await auditOf('recovery.used', person.userId)).toHaveLength(0);

    // Enabled again: the code issued before the disable stays void; one issued now works.
    expect((await api('POST', `/internal/v1/admin/users/${person.userId}/enable`, token.admin)).status).toBe(
      200,
    );
    expect((await verifyActivation(person.email, issued.body.activationCode)).body).toEqual({ valid: false });
    const reissued = await issueRecovery(person.userId);
    expect((await verifyActivation(person.email, reissued.body.activationCode)).body).toMatchObject({
      valid: true,
    });
  });

  it('issues no code when a disable (409) or a delete (404) commits while the code is being issued', async () => {
    const recoveryOf = async (email: string) =>
      (await world.scan('authChallenges')).filter((item) => item.pk === `recovery#${email}`);
    for (const [name, path, method, answered, refused] of [
      [
        'disabled-mid-reset',
        'disable',
        'POST',
        200,
        { status: 409, body: { message: ACCOUNT_MESSAGES.resetDisabled } },
      ],
      [
        'deleted-mid-reset',
        '',
        'DELETE',
        204,
        { status: 404, body: { message: ACCOUNT_MESSAGES.userNotFound } },
      ],
    ] as const) {
      const email = `${name}@example.com`;
      const person = await activatedPerson(email);
      const url = `/internal/v1/admin/users/${person.userId}${path && `/${path}`}`;
      // The reset read the account as active; another admin's disable (or delete) commits before it is stored.
      const race = await interleave('TransactWriteItemsCommand', 'recovery.issued', async () => {
        expect((await api(method, url, token.admin)).status).toBe(answered);
      });
      try {
        expect(await issueRecovery(person.userId), name).toMatchObject(refused);
      } finally {
        race.remove();
      }
      expect(race.fired(), name).toBe(true);
      expect(await recoveryOf(email), name).toEqual([]);
      expect(await auditOf('recovery.issued', person.userId), name).toEqual([]);
    }
  });

  it('lets exactly one of two registrations with one recovery code win', async () => {
    const person = world.people.other;
    const issued = await api<{ activationCode: string }>(
      'POST',
      `/internal/v1/admin/users/${person.userId}/recovery`,
      token.admin,
    );
    const verified = await api<{ cognitoUsername: string; registrationOptions: never }>(
      'POST',
      '/v1/auth/verify-activation',
      undefined,
      { email: person.email, activationCode: issued.body.activationCode },
    );
    const devices = [
      new SoftwareAuthenticator(world.stack.origin),
      new SoftwareAuthenticator(world.stack.origin),
    ];
    const answers = await Promise.all(
      devices.map((device) =>
        api('POST', '/v1/auth/register-passkey', undefined, {
          email: person.email,
          activationCode: issued.body.activationCode,
          cognitoUsername: verified.body.cognitoUsername,
          registrationResponse: device.createCredential(verified.body.registrationOptions),
        }),
      ),
    );
    const winners = answers.flatMap((answer, i) => (answer.status === 200 ? [devices[i]] : []));
    expect(winners).toHaveLength(1);
    const loser = answers.find((answer) => answer.status !== 200);
    expect([400, 409]).toContain(loser?.status);
    const stored = (await world.scan('passkeys')).filter((item) => item.userId === person.userId);
    expect(stored).toHaveLength(1);
    const winner = winners[0] as SoftwareAuthenticator;
    expect((await signInAs(winner)).idToken).not.toBe('');
    Object.assign(world.people.other, { authenticator: winner });
  });

  it('fails a sign-in with an old passkey that was under way when the recovery completed', async () => {
    const person = world.people.other;
    const pending = await world.http.prepareSignIn(person.authenticator as SoftwareAuthenticator);
    const issued = await api<{ activationCode: string }>(
      'POST',
      `/internal/v1/admin/users/${person.userId}/recovery`,
      token.admin,
    );
    const renewed = await world.http.activate(person.email, issued.body.activationCode);
    const late = await pending();
    expect(late).toMatchObject({ status: 401, body: { message: API_MESSAGES.signInFailed } });
    Object.assign(world.people.other, { authenticator: renewed.authenticator });
  });

  it('refuses a passkey added by a session a recovery ended while the add was under way (401)', async () => {
    const email = 'raced-add@example.com';
    const person = await activatedPerson(email);
    // Someone holding the person's freshly signed-in session starts adding a passkey of their own.
    const session = await signInAs(person.authenticator);
    const options = await api<Parameters<SoftwareAuthenticator['createCredential']>[0]>(
      'POST',
      '/v1/users/me/passkeys/options',
      session.idToken,
    );
    expect(options.status).toBe(200);
    const intruder = new SoftwareAuthenticator(world.stack.origin);
    const registrationResponse = intruder.createCredential(options.body);
    const issued = await api<{ activationCode: string }>(
      'POST',
      `/internal/v1/admin/users/${person.userId}/recovery`,
      token.admin,
    );
    // The person completes the recovery after the add passed its checks, before its transaction.
    let renewed: Awaited<ReturnType<typeof world.http.activate>> | undefined;
    const race = await interleave('TransactWriteItemsCommand', 'passkey.added', async () => {
      renewed = await world.http.activate(email, issued.body.activationCode);
    });
    try {
      const added = await api('POST', '/v1/users/me/passkeys', session.idToken, { registrationResponse });
      expect(race.fired()).toBe(true);
      expect(added).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
    } finally {
      race.remove();
    }
    await expect(signInAs(intruder)).rejects.toThrow(/sign-in failed with 401/);
    // Only the recovery's passkey is left, and no challenge the old session asked for.
    expect(await passkeysOf(renewed?.idToken ?? '')).toHaveLength(1);
    expect((await world.scan('passkeys')).filter((item) => item.userId === person.userId)).toHaveLength(1);
    expect(
      (await world.scan('authChallenges')).filter((item) => item.pk === `passkey#${person.userId}`),
    ).toEqual([]);
    expect(await auditOf('passkey.added', person.userId)).toEqual([]);
  });

  it('refuses a passkey added by a session signed out while the add was under way, not one of another session', async () => {
    const email = 'raced-signout@example.com';
    const person = await activatedPerson(email);
    const leaving = await signInAs(person.authenticator);
    const staying = await signInAs(person.authenticator);
    const options = await api<Parameters<SoftwareAuthenticator['createCredential']>[0]>(
      'POST',
      '/v1/users/me/passkeys/options',
      leaving.idToken,
    );
    const device = new SoftwareAuthenticator(world.stack.origin);
    const registrationResponse = device.createCredential(options.body);
    const race = await interleave('TransactWriteItemsCommand', 'passkey.added', async () => {
      expect((await api('POST', '/v1/users/me/sign-out', leaving.idToken, {})).status).toBe(204);
    });
    try {
      const added = await api('POST', '/v1/users/me/passkeys', leaving.idToken, { registrationResponse });
      expect(race.fired()).toBe(true);
      expect(added).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
    } finally {
      race.remove();
    }
    await expect(signInAs(device)).rejects.toThrow(/sign-in failed with 401/);
    // The person's other session still adds one.
    expect((await addPasskey(staying.idToken)).answer.status).toBe(201);
    expect(await passkeysOf(staying.idToken)).toHaveLength(2);
  });

  it('refuses a rename and a removal by a session signed out while each was under way, not by another session', async () => {
    const person = await activatedPerson('raced-passkey-edits@example.com');
    const staying = await signInAs(person.authenticator);
    expect((await addPasskey(staying.idToken, 'Laptop')).answer.status).toBe(201);
    // Names and ids: each sign-in below moves the signing passkey's last use.
    const named = async () =>
      (await passkeysOf(staying.idToken)).map(({ credentialId, name }) => ({ credentialId, name }));
    const before = await named();
    expect(before).toHaveLength(2);
    const target = before.find((passkey) => passkey.name === 'Laptop');
    if (!target) throw new Error('The added passkey is not listed');
    const path = `/v1/users/me/passkeys/${target.credentialId}`;

    // Each request passed the session check; its session is signed out before the write commits.
    const edits: [string, string, unknown][] = [
      ['passkey.renamed', 'PATCH', { name: 'Stolen laptop' }],
      ['passkey.removed', 'DELETE', undefined],
    ];
    for (const [type, method, json] of edits) {
      const leaving = await signInAs(person.authenticator);
      const race = await interleave('TransactWriteItemsCommand', type, async () => {
        expect((await api('POST', '/v1/users/me/sign-out', leaving.idToken, {})).status).toBe(204);
      });
      try {
        const answer = await api(method, path, leaving.idToken, json);
        expect(race.fired(), type).toBe(true);
        expect(answer, type).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
      } finally {
        race.remove();
      }
      // Nothing changed and nothing was recorded.
      expect(await named(), type).toEqual(before);
      expect(await auditOf(type, person.userId), type).toEqual([]);
    }

    // The person's other session still renames and removes it.
    expect((await api('PATCH', path, staying.idToken, { name: 'Old laptop' })).status).toBe(200);
    expect((await api('DELETE', path, staying.idToken)).status).toBe(204);
    expect(await passkeysOf(staying.idToken)).toHaveLength(1);
  });

  it('opens no session with a proof issued after a recovery that committed once the sign-in was checked', async () => {
    const email = 'raced-signin@example.com';
    const person = await activatedPerson(email);
    const issued = await api<{ activationCode: string }>(
      'POST',
      `/internal/v1/admin/users/${person.userId}/recovery`,
      token.admin,
    );
    // The old passkey's sign-in passed the account check and moved its counter; the recovery
    // completes (and its new second begins) before the proof is issued.
    const race = await interleave('PutItemCommand', 'signin.succeeded', async () => {
      await world.http.activate(email, issued.body.activationCode);
    });
    let verified: Awaited<ReturnType<Awaited<ReturnType<typeof world.http.prepareSignIn>>>>;
    try {
      verified = await (await world.http.prepareSignIn(person.authenticator))();
      expect(race.fired()).toBe(true);
    } finally {
      race.remove();
    }
    expect(verified.status).toBe(200);
    await expect(
      world.http.signInWithProof(verified.body.cognitoUsername, verified.body.passkeyProof),
    ).rejects.toBeInstanceOf(NotAuthorizedException);
    await expect(signInAs(person.authenticator)).rejects.toThrow(/sign-in failed with 401/);
  });
});

describe('admin actions (SPEC-2 section 3.3)', () => {
  it('disables a person at once (their valid token, their sign-in) and enables them again', async () => {
    const person = world.people.leaver;
    const before = await fresh(person);
    expect((await api('GET', '/v1/users/me', before.idToken)).status).toBe(200);
    const disabled = await api('POST', `/internal/v1/admin/users/${person.userId}/disable`, token.admin);
    expect(disabled).toMatchObject({ status: 200, body: { userId: person.userId, status: 'disabled' } });

    expect((await api('GET', '/v1/users/me', before.idToken)).status).toBe(401);
    expect((await api('GET', '/v1/measurements?type=weight', before.idToken)).status).toBe(401);
    await expect(fresh(person)).rejects.toThrow(/401/);
    await expect(world.http.refresh(before.refreshToken)).rejects.toBeInstanceOf(NotAuthorizedException);
    const users = await api<{ users: { userId: string; status: string }[] }>(
      'GET',
      '/internal/v1/admin/users',
      token.admin,
    );
    expect(users.body.users.find((user) => user.userId === person.userId)?.status).toBe('disabled');

    expect((await api('POST', `/internal/v1/admin/users/${person.userId}/enable`, token.admin)).status).toBe(
      200,
    );
    const after = await fresh(person);
    expect((await api('GET', '/v1/users/me', after.idToken)).status).toBe(200);
    // A token from before the disable stays refused.
    expect((await api('GET', '/v1/users/me', before.idToken)).status).toBe(401);
    expect(await auditOf('user.disabled', person.userId)).toHaveLength(1);
    expect(await auditOf('user.enabled', person.userId)).toHaveLength(1);
  });

  it('answers the section 3.3 refusals with their status and message, and changes nothing', async () => {
    const self = world.admin.userId;
    const refusals: [string, string, unknown, number, string][] = [
      [
        'PUT',
        `/internal/v1/admin/users/${self}/roles`,
        { roles: ['users'] },
        409,
        ACCOUNT_MESSAGES.ownAdminRole,
      ],
      ['POST', `/internal/v1/admin/users/${self}/disable`, undefined, 409, ACCOUNT_MESSAGES.selfDisable],
      ['DELETE', `/internal/v1/admin/users/${self}`, undefined, 409, ACCOUNT_MESSAGES.selfDelete],
      ['PUT', `/internal/v1/admin/users/${self}/roles`, { roles: [] }, 400, ACCOUNT_MESSAGES.atLeastOneRole],
      [
        'PUT',
        `/internal/v1/admin/users/${self}/roles`,
        { roles: ['owners'] },
        400,
        'Role must be one of admins, coaches, users',
      ],
      [
        'PUT',
        `/internal/v1/admin/users/${self}/roles`,
        { roles: ['users', 'users'] },
        400,
        ACCOUNT_MESSAGES.roleTwice,
      ],
      [
        'POST',
        '/internal/v1/admin/users/00000000-0000-4000-8000-000000000000/disable',
        undefined,
        404,
        ACCOUNT_MESSAGES.userNotFound,
      ],
    ];
    const before = await world.scan('accounts');
    for (const [method, path, json, status, message] of refusals) {
      expect(await api(method, path, token.admin, json), `${method} ${path}`).toMatchObject({
        status,
        body: { message },
      });
    }
    expect(await world.scan('accounts')).toEqual(before);
    // The admin is still an admin.
    expect((await api('GET', '/internal/v1/admin/users', token.admin)).status).toBe(200);
    // Nobody but an admin may act.
    const client = await fresh(world.people.client);
    expect(
      (await api('POST', `/internal/v1/admin/users/${world.people.leaver.userId}/disable`, client.idToken))
        .status,
    ).toBe(403);
  });

  it("ends a demoted admin's token at once (401); signed in again, they are refused as a non-admin (403)", async () => {
    const deputy = world.people.deputy;
    const before = await fresh(deputy);
    expect((await api('GET', '/internal/v1/admin/users', before.idToken)).status).toBe(200);
    const changed = await api('PUT', `/internal/v1/admin/users/${deputy.userId}/roles`, token.admin, {
      roles: ['users'],
    });
    expect(changed).toMatchObject({ status: 200, body: { userId: deputy.userId, roles: ['users'] } });
    expect((await api('GET', '/internal/v1/admin/users', before.idToken)).status).toBe(401);
    expect((await api('GET', '/v1/users/me', before.idToken)).status).toBe(401);
    // Refreshed, the old session's tokens carry the new groups but its sign-in's time, from before the
    // change: refused too (tokensValidAfter), and not only for groups that no longer match.
    const refreshed = await world.http.refresh(before.refreshToken);
    const refreshedToken = refreshed.AuthenticationResult?.IdToken ?? '';
    expect(groupsOf(refreshedToken)).toEqual(['users']);
    expect((await api('GET', '/v1/users/me', refreshedToken)).status).toBe(401);
    const after = await fresh(deputy);
    expect((await api('GET', '/internal/v1/admin/users', after.idToken)).status).toBe(403);
    expect((await api('GET', '/v1/users/me', after.idToken)).status).toBe(200);
    const [event] = await auditOf('roles.changed', deputy.userId);
    expect(event?.details).toEqual({ from: ['admins', 'users'], to: ['users'] });
  });

  it('serves a request racing a role change with the old roles or refuses it, and refuses every one after', async () => {
    const deputy = world.people.deputy;
    await api('PUT', `/internal/v1/admin/users/${deputy.userId}/roles`, token.admin, { roles: ['admins'] });
    const before = await fresh(deputy);
    const [racing, changed] = await Promise.all([
      api('GET', '/internal/v1/admin/users', before.idToken),
      api('PUT', `/internal/v1/admin/users/${deputy.userId}/roles`, token.admin, { roles: ['users'] }),
    ]);
    expect(changed.status).toBe(200);
    // Checked before the change committed (200), or after it (401): never anything in between.
    expect([200, 401]).toContain(racing.status);
    expect((await api('GET', '/internal/v1/admin/users', before.idToken)).status).toBe(401);
  });

  it('lets only one of two admins demoting each other at once succeed: never zero admins', async () => {
    const deputy = world.people.deputy;
    expect(
      (
        await api('PUT', `/internal/v1/admin/users/${deputy.userId}/roles`, token.admin, {
          roles: ['admins'],
        })
      ).status,
    ).toBe(200);
    const deputyToken = (await fresh(deputy)).idToken;
    const [mine, theirs] = await Promise.all([
      api('PUT', `/internal/v1/admin/users/${deputy.userId}/roles`, token.admin, { roles: ['users'] }),
      api('PUT', `/internal/v1/admin/users/${world.admin.userId}/roles`, deputyToken, { roles: ['users'] }),
    ]);
    expect([mine.status, theirs.status].filter((status) => status === 200)).toHaveLength(1);
    const admins = (await world.scan('accounts')).filter(
      (account) => (account.roles as string[] | undefined)?.includes('admins') && account.status === 'active',
    );
    expect(admins).toHaveLength(1);
    // Whoever is left an admin: put the original admin back in charge for the tests after this one.
    const survivor = admins[0]?.userId === world.admin.userId ? token.admin : deputyToken;
    if (survivor !== token.admin) {
      await api('PUT', `/internal/v1/admin/users/${world.admin.userId}/roles`, survivor, {
        roles: ['admins', 'users'],
      });
    }
    const signedIn = await world.http.signIn(world.admin.authenticator as SoftwareAuthenticator);
    token.admin = signedIn.idToken ?? '';
    expect((await api('GET', '/internal/v1/admin/users', token.admin)).status).toBe(200);
    await api('PUT', `/internal/v1/admin/users/${deputy.userId}/roles`, token.admin, { roles: ['users'] });
  });

  it("leaves the person's groups as the account holds them when a later role change set them first", async () => {
    const person = await activatedPerson('raced-roles@example.com');
    // Admin A makes the person a coach; admin B, reading after A's change committed, makes them a
    // coach and a client, all of it (Cognito too) before A reaches Cognito: B's read of the person's
    // coaching state happens inside A's (A's account change committed, its groups not yet set): at A's
    // second read of that state, the first being before its commit.
    let second: Awaited<ReturnType<typeof api>> | undefined;
    const race = await interleave(
      'GetItemCommand',
      `client#${person.userId}`,
      async () => {
        second = await api('PUT', `/internal/v1/admin/users/${person.userId}/roles`, token.admin, {
          roles: ['coaches', 'users'],
        });
      },
      1,
    );
    try {
      const first = await api('PUT', `/internal/v1/admin/users/${person.userId}/roles`, token.admin, {
        roles: ['coaches'],
      });
      expect(race.fired()).toBe(true);
      expect(first.status).toBe(200);
      expect(second?.status).toBe(200);
    } finally {
      race.remove();
    }
    expect((await accountOf(person.userId))?.roles).toEqual(['coaches', 'users']);
    const after = await signInAs(person.authenticator);
    expect(groupsOf(after.idToken)).toEqual(['coaches', 'users']);
    expect((await api('GET', '/v1/users/me', after.idToken)).status).toBe(200);
  });

  it('leaves the person enabled in Cognito when an enable committed after a disable set Cognito first', async () => {
    const person = await activatedPerson('raced-status@example.com');
    // Admin A disables the person; admin B enables them again, all of it (Cognito too) after A's
    // change committed and before A disables the Cognito user.
    const { cognito } = await import('../../lambdas/common/aws');
    const name = 'interleave AdminDisableUser';
    let fired = false;
    let second: Awaited<ReturnType<typeof api>> | undefined;
    const hook: InitializeMiddleware<object, MetadataBearer> = (next, context) => async (args) => {
      if (!fired && context.commandName === 'AdminDisableUserCommand') {
        fired = true;
        second = await api('POST', `/internal/v1/admin/users/${person.userId}/enable`, token.admin);
      }
      return next(args);
    };
    cognito.middlewareStack.add(hook, { step: 'initialize', name });
    try {
      const first = await api('POST', `/internal/v1/admin/users/${person.userId}/disable`, token.admin);
      expect(fired).toBe(true);
      expect(first.status).toBe(200);
      expect(second?.status).toBe(200);
    } finally {
      cognito.middlewareStack.remove(name);
    }
    expect((await accountOf(person.userId))?.status).toBe('active');
    const after = await signInAs(person.authenticator);
    expect((await api('GET', '/v1/users/me', after.idToken)).status).toBe(200);
  });

  it("shows a person an admin's action on them in Recent activity without the admin's id, address or browser", async () => {
    const person = await activatedPerson('watched@example.com');
    const changed = await api('PUT', `/internal/v1/admin/users/${person.userId}/roles`, token.admin, {
      roles: ['coaches', 'users'],
    });
    expect(changed.status).toBe(200);
    const own = await signInAs(person.authenticator);
    const activity = await api<{ events: Record<string, unknown>[] }>(
      'GET',
      '/v1/users/me/activity',
      own.idToken,
    );
    expect(activity.status).toBe(200);
    const [signedIn, rolesChanged] = activity.body.events;
    expect(signedIn?.type).toBe('signin.succeeded');
    expect(typeof signedIn?.ip).toBe('string');
    expect(typeof signedIn?.userAgent).toBe('string');
    expect(signedIn).not.toHaveProperty('byAdmin');
    expect(rolesChanged).toMatchObject({
      type: 'roles.changed',
      byAdmin: true,
      details: { to: ['coaches', 'users'] },
    });
    expect(rolesChanged).not.toHaveProperty('ip');
    expect(rolesChanged).not.toHaveProperty('userAgent');
    expect(JSON.stringify(activity.body)).not.toContain(world.admin.userId);
  });

  it('gives a disabled person no coach and a disabled coach no client, also when the disable lands during the assignment', async () => {
    const client = await activatedPerson('assign-frozen@example.com');
    const coachInvite = await api<{ activationCode: string }>(
      'POST',
      '/internal/v1/admin/invitations',
      token.admin,
      {
        email: 'assign-coach@example.com',
        roles: ['coaches'],
      },
    );
    const coach = await world.http.activate('assign-coach@example.com', coachInvite.body.activationCode);
    const assign = () =>
      api('PUT', `/internal/v1/admin/users/${client.userId}/coach`, token.admin, { coachId: coach.userId });
    const coachingOf = async () =>
      (await world.scan('coaching')).filter((item) => item.pk === `client#${client.userId}`);
    const toggle = (userId: string, action: 'disable' | 'enable') =>
      api('POST', `/internal/v1/admin/users/${userId}/${action}`, token.admin);

    // Disabled before: refused, saying so.
    expect((await toggle(client.userId, 'disable')).status).toBe(200);
    expect(await assign()).toMatchObject({
      status: 400,
      body: { message: COACHING_MESSAGES.clientDisabled },
    });
    expect((await toggle(client.userId, 'enable')).status).toBe(200);
    expect((await toggle(coach.userId, 'disable')).status).toBe(200);
    expect(await assign()).toMatchObject({ status: 400, body: { message: COACHING_MESSAGES.coachDisabled } });
    expect((await toggle(coach.userId, 'enable')).status).toBe(200);
    expect(await coachingOf()).toEqual([]);

    // Disabled (as an erase begins) after the assignment read everyone, before it commits.
    const race = await interleave('TransactWriteItemsCommand', 'coach.assigned', async () => {
      expect((await toggle(client.userId, 'disable')).status).toBe(200);
    });
    try {
      expect(await assign()).toMatchObject({
        status: 400,
        body: { message: COACHING_MESSAGES.clientDisabled },
      });
      expect(race.fired()).toBe(true);
    } finally {
      race.remove();
    }
    expect(await coachingOf()).toEqual([]);
    expect(await auditOf('coach.assigned', client.userId)).toHaveLength(0);
  });

  it('asks an admin for a sign-in within the last 10 minutes before issuing a recovery code', async () => {
    const person = await activatedPerson('stale-reset@example.com');
    const reset = (idToken: string) =>
      api('POST', `/internal/v1/admin/users/${person.userId}/recovery`, idToken);
    const recoveryItems = async () =>
      (await world.scan('authChallenges')).filter((item) => item.pk === 'recovery#stale-reset@example.com');
    const admin = await fresh(world.admin);
    const signedInAt = Date.now();
    // 11 minutes after the sign-in: refused, and nothing issued.
    vi.useFakeTimers({ toFake: ['Date'], now: signedInAt + 11 * 60 * 1000 });
    expect(await reset(admin.idToken)).toMatchObject({
      status: 401,
      body: { message: ACCOUNT_MESSAGES.reauthToReset },
    });
    vi.useRealTimers();
    expect(await recoveryItems()).toEqual([]);
    expect(await auditOf('recovery.issued', person.userId)).toEqual([]);
    // The admin's session goes on: other admin actions still work.
    expect((await api('GET', '/internal/v1/admin/users', admin.idToken)).status).toBe(200);
    // 9 minutes after the same sign-in: issued.
    vi.useFakeTimers({ toFake: ['Date'], now: signedInAt + 9 * 60 * 1000 });
    expect((await reset(admin.idToken)).status).toBe(201);
    vi.useRealTimers();
    expect(await recoveryItems()).toHaveLength(1);
    expect(await auditOf('recovery.issued', person.userId)).toHaveLength(1);
  });

  it('refuses an admin undoing their own disable or demotion with a request that was already under way', async () => {
    const deputy = world.people.deputy;
    await api('PUT', `/internal/v1/admin/users/${deputy.userId}/roles`, token.admin, { roles: ['admins'] });
    const own = (await fresh(deputy)).idToken;
    const disabling = await heldAtAccountRead(deputy.userId, async () => {
      const disabled = await api('POST', `/internal/v1/admin/users/${deputy.userId}/disable`, token.admin);
      expect(disabled.status).toBe(200);
    });
    try {
      const enabled = await api('POST', `/internal/v1/admin/users/${deputy.userId}/enable`, own);
      expect(disabling.fired()).toBe(true);
      expect(enabled.status).toBe(403);
    } finally {
      disabling.remove();
    }
    expect(await accountOf(deputy.userId)).toMatchObject({ status: 'disabled' });
    await expect(fresh(deputy)).rejects.toThrow(/sign-in failed with 401/);

    await api('POST', `/internal/v1/admin/users/${deputy.userId}/enable`, token.admin);
    const again = (await fresh(deputy)).idToken;
    const demoting = await heldAtAccountRead(deputy.userId, async () => {
      const demoted = await api('PUT', `/internal/v1/admin/users/${deputy.userId}/roles`, token.admin, {
        roles: ['users'],
      });
      expect(demoted.status).toBe(200);
    });
    try {
      const kept = await api('PUT', `/internal/v1/admin/users/${deputy.userId}/roles`, again, {
        roles: ['admins', 'users'],
      });
      expect(demoting.fired()).toBe(true);
      expect(kept.status).toBe(403);
    } finally {
      demoting.remove();
    }
    expect(await accountOf(deputy.userId)).toMatchObject({ status: 'active', roles: ['users'] });
    expect(groupsOf((await fresh(deputy)).idToken)).toEqual(['users']);
  });

  it('deletes a person and everything they hold; only the audit log keeps the event', async () => {
    const coach = world.people.coach;
    const leaver = world.people.leaver;
    const leaverToken = (await fresh(leaver)).idToken;
    await addPasskey(leaverToken, 'Second');
    const reading = { type: 'glucose', value: 99, takenAt: new Date().toISOString() };
    expect((await api('POST', '/v1/measurements', leaverToken, reading)).status).toBe(201);
    expect(
      (
        await api('POST', '/v1/logs', leaverToken, {
          kind: 'sleep',
          start: new Date(Date.now() - 8 * 3600_000).toISOString(),
          end: new Date(Date.now() - 600_000).toISOString(),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api('PUT', `/internal/v1/admin/users/${leaver.userId}/coach`, token.admin, {
          coachId: coach.userId,
        })
      ).status,
    ).toBe(200);
    const coachToken = (await fresh(coach)).idToken;
    expect(
      (await api('POST', `/v1/coach/clients/${leaver.userId}/notes`, coachToken, { text: 'Good week' }))
        .status,
    ).toBe(201);
    expect(await traces(leaver)).not.toEqual([]);

    // The coach reads nothing of the person's from the disable that starts the erase: asked for the
    // person's readings and the client list as the erase deletes its first item.
    const meanwhile: number[] = [];
    let listed: unknown;
    const erasing = await interleave('DeleteItemCommand', world.stack.tables.passkeys, async () => {
      meanwhile.push(
        (await api('GET', `/v1/coach/clients/${leaver.userId}/measurements`, coachToken)).status,
      );
      listed = (await api<{ clients: { userId: string }[] }>('GET', '/v1/coach/clients', coachToken)).body;
    });
    try {
      expect(await api('DELETE', `/internal/v1/admin/users/${leaver.userId}`, token.admin)).toMatchObject({
        status: 204,
      });
      expect(erasing.fired()).toBe(true);
    } finally {
      erasing.remove();
    }
    expect(meanwhile).toEqual([403]);
    expect(listed).toEqual({ clients: [] });
    expect(await auditOf('coach.unassigned', leaver.userId)).toMatchObject([
      { actorId: world.admin.userId, details: { coachId: coach.userId, reason: 'account-deleted' } },
    ]);
    expect(await traces(leaver)).toEqual([]);
    expect(await poolUsersWithSub(leaver.userId)).toEqual([]);
    expect((await api('GET', '/v1/users/me', leaverToken)).status).toBe(401);
    await expect(fresh(leaver)).rejects.toThrow(/401/);
    expect(await auditOf('user.deleted', leaver.userId)).toHaveLength(1);
    // The Audit Log names the admin who deleted, not the person erased: only an id is left of them.
    const deletion = await api<{ events: AuditEvent[]; people: AuditPerson[] }>(
      'GET',
      `/internal/v1/admin/audit?type=user.deleted&subjectId=${leaver.userId}`,
      token.admin,
    );
    expect(deletion.body.events.map((event) => [event.actorId, event.subjectId])).toEqual([
      [world.admin.userId, leaver.userId],
    ]);
    expect(deletion.body.people.map((person) => person.userId)).toEqual([world.admin.userId]);
    expect(JSON.stringify(deletion.body)).not.toContain(leaver.email);
    // The email may be invited again.
    expect(
      (await api('POST', '/internal/v1/admin/invitations', token.admin, { email: leaver.email })).status,
    ).toBe(201);
  });

  it('leaves nothing behind of a reading whose request was under way when the person was deleted', async () => {
    const person = await activatedPerson('late-reading@example.com');
    // The reading passed the session check; the whole erase runs before its transaction is sent.
    const erase = await interleave('TransactWriteItemsCommand', `${person.userId}#M`, async () => {
      expect((await api('DELETE', `/internal/v1/admin/users/${person.userId}`, token.admin)).status).toBe(
        204,
      );
    });
    try {
      const reading = await postReading(person.idToken);
      expect(erase.fired()).toBe(true);
      expect(reading).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
    } finally {
      erase.remove();
    }
    expect(await traces({ userId: person.userId, email: 'late-reading@example.com' })).toEqual([]);
  });

  describe('a session signed out everywhere while a write of it is under way', () => {
    const signOutEverywhere = async (idToken: string) =>
      expect((await api('POST', '/v1/users/me/sign-out', idToken, { everywhere: true })).status).toBe(204);
    const readingsOf = async (idToken: string) =>
      (await api<{ items: { measurementId: string }[] }>('GET', '/v1/measurements', idToken)).body.items;

    it('stores no reading: 401, and the new session finds none', async () => {
      const person = await activatedPerson('late-writer@example.com');
      const race = await interleave('TransactWriteItemsCommand', `${person.userId}#M`, () =>
        signOutEverywhere(person.idToken ?? ''),
      );
      try {
        const reading = await postReading(person.idToken);
        expect(race.fired()).toBe(true);
        expect(reading).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
      } finally {
        race.remove();
      }
      const again = await world.http.signIn(person.authenticator);
      expect(await readingsOf(again.idToken ?? '')).toEqual([]);
    });

    it('exports nothing: 401, and no export is recorded', async () => {
      const person = await activatedPerson('late-exporter@example.com');
      expect((await postReading(person.idToken)).status).toBe(201);
      // The export passed the session check and is reading the records when the session ends.
      const race = await interleave('QueryCommand', `${person.userId}#M`, () =>
        signOutEverywhere(person.idToken ?? ''),
      );
      try {
        const exported = await api('GET', '/v1/users/me/export?format=json', person.idToken);
        expect(race.fired()).toBe(true);
        expect(exported).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
        expect(exported.text).not.toContain('"value":70');
      } finally {
        race.remove();
      }
      expect(await auditOf('data.exported', person.userId ?? '')).toEqual([]);
    });

    it('deletes no reading: 401, and the new session still has it', async () => {
      const person = await activatedPerson('late-deleter@example.com');
      const stored = await postReading(person.idToken);
      expect(stored.status).toBe(201);
      const id = stored.body.measurementId;
      const race = await interleave('TransactWriteItemsCommand', id, () =>
        signOutEverywhere(person.idToken ?? ''),
      );
      try {
        const deleted = await api('DELETE', `/v1/measurements/${id}`, person.idToken);
        expect(race.fired()).toBe(true);
        expect(deleted).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
      } finally {
        race.remove();
      }
      const again = await world.http.signIn(person.authenticator);
      expect((await readingsOf(again.idToken ?? '')).map((reading) => reading.measurementId)).toEqual([id]);
    });
  });

  it("unassigns a deleted coach's clients, who keep their records", async () => {
    const invite = await api<{ activationCode: string }>(
      'POST',
      '/internal/v1/admin/invitations',
      token.admin,
      {
        email: 'coach2@example.com',
        roles: ['coaches'],
      },
    );
    const coach2 = await world.http.activate('coach2@example.com', invite.body.activationCode);
    const client = world.people.client;
    await api('PUT', `/internal/v1/admin/users/${client.userId}/coach`, token.admin, {
      coachId: coach2.userId,
    });
    expect((await api('DELETE', `/internal/v1/admin/users/${coach2.userId}`, token.admin)).status).toBe(204);
    const clientToken = (await fresh(client)).idToken;
    const mine = await api<{ coach: unknown }>('GET', '/v1/users/me/coach', clientToken);
    expect(mine.body.coach).toBeNull();
    expect(await traces({ userId: coach2.userId, email: 'coach2@example.com' })).toEqual([]);
  });

  it("unassigns a deleted coach's client whose first unassignment was cancelled (read again, then unassigned)", async () => {
    const email = 'coach3@example.com';
    const coach3 = await activatedPerson(email, ['coaches']);
    const client = world.people.client;
    const assigned = await api('PUT', `/internal/v1/admin/users/${client.userId}/coach`, token.admin, {
      coachId: coach3.userId,
    });
    expect(assigned.status).toBe(200);
    // The first unassignment meets a write of the client's own on their state, as DynamoDB answers it.
    const cancelled = () =>
      new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
        $metadata: {},
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
      });
    const once = await refuse('TransactWriteItemsCommand', 'coach-deleted', cancelled, 1);
    try {
      expect((await api('DELETE', `/internal/v1/admin/users/${coach3.userId}`, token.admin)).status).toBe(
        204,
      );
    } finally {
      once.remove();
    }
    expect(once.count()).toBe(1);
    const state = (await world.scan('coaching')).find((item) => item.pk === `client#${client.userId}`);
    expect(state?.coachId).toBeUndefined();
    const unassigned = (await world.scan('auditEvents')).filter(
      (event) => event.type === 'coach.unassigned' && event.subjectId === client.userId,
    );
    expect(unassigned.filter((event) => JSON.stringify(event.details).includes(coach3.userId))).toMatchObject(
      [{ details: { coachId: coach3.userId, reason: 'coach-deleted' } }],
    );
    expect(await traces({ userId: coach3.userId, email })).toEqual([]);
  });

  it("unassigns a deleted coach's client assigned a moment before, though byCoach does not list them yet", async () => {
    const email = 'coach4@example.com';
    const coach4 = await activatedPerson(email, ['coaches']);
    const client = await activatedPerson('client4@example.com');
    // byCoach as it was before the assignment (in AWS the index can lag its table): no client.
    const lagging = await staleByCoach(world.stack.tables.coaching, coach4.userId);
    try {
      const assigned = await api('PUT', `/internal/v1/admin/users/${client.userId}/coach`, token.admin, {
        coachId: coach4.userId,
      });
      expect(assigned.status).toBe(200);
      expect((await api('DELETE', `/internal/v1/admin/users/${coach4.userId}`, token.admin)).status).toBe(
        204,
      );
      expect(lagging.answered()).toBeGreaterThan(0);
    } finally {
      lagging.remove();
    }
    const state = (await world.scan('coaching')).find((item) => item.pk === `client#${client.userId}`);
    expect(state).toBeDefined();
    expect(state?.coachId).toBeUndefined();
    expect(await auditOf('coach.unassigned', client.userId)).toMatchObject([
      { details: { coachId: coach4.userId, reason: 'coach-deleted' } },
    ]);
    expect(await traces({ userId: coach4.userId, email })).toEqual([]);
  });

  it('fails a sign-in that was under way when the person was deleted', async () => {
    const invite = await api<{ activationCode: string }>(
      'POST',
      '/internal/v1/admin/invitations',
      token.admin,
      {
        email: 'midway@example.com',
      },
    );
    const person = await world.http.activate('midway@example.com', invite.body.activationCode);
    const pending = await world.http.prepareSignIn(person.authenticator);
    expect((await api('DELETE', `/internal/v1/admin/users/${person.userId}`, token.admin)).status).toBe(204);
    expect((await pending()).status).toBe(401);
    expect(await traces({ userId: person.userId, email: 'midway@example.com' })).toEqual([]);
  });
});

describe('invitations: expiry and resend (SPEC-2 section 3.3)', () => {
  const invite = (email: string) =>
    api<Invitation>('POST', '/internal/v1/admin/invitations', token.admin, { email });
  const check = (email: string, activationCode: string) =>
    api('POST', '/v1/auth/verify-activation', undefined, { email, activationCode });
  /** The 'Pending Invitations' count User Management shows. */
  const pendingCount = async () =>
    (
      await api<{ counts: { pendingInvitations: number } }>(
        'GET',
        '/internal/v1/admin/users?limit=1',
        token.admin,
      )
    ).body.counts.pendingInvitations;
  const listed = async (email: string) =>
    (
      await api<{ invitations: Invitation[] }>('GET', '/internal/v1/admin/invitations', token.admin)
    ).body.invitations?.find((invitation) => invitation.email === email);

  it('expires an invitation after 7 days, and a resend gives a new code that works while the old one does not', async () => {
    const created = await invite('late@example.com');
    // SPEC-2 section 3.3: 7 days.
    const WEEK_SECONDS = 7 * 24 * 60 * 60;
    const validFor = Date.parse(created.body.expiresAt ?? '') - Date.parse(created.body.createdAt);
    expect(Math.abs(validFor - WEEK_SECONDS * 1000)).toBeLessThan(1000);
    // A week less a minute goes by (the local user pool keeps real time, so the invitation is moved
    // back): the code still works. Two minutes more, a week and a minute: it does not.
    await backdate('late@example.com', WEEK_SECONDS - 60);
    expect((await check('late@example.com', created.body.activationCode)).body).toMatchObject({
      valid: true,
    });
    await backdate('late@example.com', 120);
    expect((await check('late@example.com', created.body.activationCode)).body).toEqual({ valid: false });
    expect((await listed('late@example.com'))?.status).toBe('expired');

    const resent = await api<Invitation>(
      'POST',
      '/internal/v1/admin/invitations/late%40example.com/resend',
      token.admin,
    );
    expect(resent).toMatchObject({ status: 200, body: { status: 'pending', email: 'late@example.com' } });
    expect(resent.body.activationCode).not.toBe(created.body.activationCode);
    expect((await check('late@example.com', created.body.activationCode)).body).toEqual({ valid: false });
    expect((await check('late@example.com', resent.body.activationCode)).body).toMatchObject({ valid: true });
    const events = (await world.scan('auditEvents')).filter((event) => event.type === 'invitation.resent');
    expect(events.map((event) => (event.details as { email: string }).email)).toContain('late@example.com');
  });

  it('changes nothing on a resend or a delete whose event cannot be written, and does it once when sent again', async () => {
    const email = 'recorded@example.com';
    const path = `/internal/v1/admin/invitations/${encodeURIComponent(email)}`;
    const created = await invite(email);
    const eventsOf = async (type: string) =>
      (await world.scan('auditEvents')).filter(
        (event) => event.type === type && (event.details as { email?: string }).email === email,
      );
    const pending = await pendingCount();
    // The audit table fails the write, as DynamoDB may answer at any time.
    const failing = (type: string) =>
      refuse('TransactWriteItemsCommand', type, () => new Error('InternalServerError'), 1);

    const resendFails = await failing('invitation.resent');
    try {
      expect((await api('POST', `${path}/resend`, token.admin)).status).toBe(500);
    } finally {
      resendFails.remove();
    }
    expect(resendFails.count()).toBe(1);
    expect((await listed(email))?.activationCode).toBe(created.body.activationCode);
    expect((await check(email, created.body.activationCode)).body).toMatchObject({ valid: true });
    const resent = await api<Invitation>('POST', `${path}/resend`, token.admin);
    expect(resent.status).toBe(200);
    expect((await listed(email))?.activationCode).toBe(resent.body.activationCode);
    expect(await eventsOf('invitation.resent')).toHaveLength(1);

    const deleteFails = await failing('invitation.deleted');
    try {
      expect((await api('DELETE', path, token.admin)).status).toBe(500);
    } finally {
      deleteFails.remove();
    }
    expect(deleteFails.count()).toBe(1);
    expect((await listed(email))?.status).toBe('pending');
    expect(await pendingCount()).toBe(pending);
    expect((await api('DELETE', path, token.admin)).status).toBe(204);
    expect(await listed(email)).toBeUndefined();
    expect(await pendingCount()).toBe(pending - 1);
    expect(await eventsOf('invitation.deleted')).toHaveLength(1);
  });

  /** The `invitation.created` events of an email. */
  const createdEvents = async (email: string) =>
    (await world.scan('auditEvents')).filter(
      (event) => event.type === 'invitation.created' && (event.details as { email?: string }).email === email,
    ) as unknown as (AuditEvent & Record<string, unknown>)[];

  it('records who invited which email with which roles, and never the activation code', async () => {
    const email = 'recorded-create@example.com';
    const created = await api<Invitation>('POST', '/internal/v1/admin/invitations', token.admin, {
      email,
      roles: ['coaches', 'users'],
    });
    expect(created.status).toBe(201);
    const events = await createdEvents(email);
    expect(events).toMatchObject([
      { type: 'invitation.created', actorId: world.admin.userId, outcome: 'success' },
    ]);
    // The invitee is nobody yet: the email is the invitation's id (ADR 042), beside the roles, and
    // that is all the event says of them.
    expect(events[0]).not.toHaveProperty('subjectId');
    expect(events[0]?.details).toEqual({ email, roles: ['coaches', 'users'] });
    expect(JSON.stringify(events)).not.toContain(created.body.activationCode);
  });

  it('keeps the first 200 characters of a longer browser name in the event', async () => {
    const email = 'long-agent@example.com';
    const userAgent = `Mozilla/5.0 (X11; Linux x86_64) ${Array.from({ length: 30 }, (_, i) => `Extension${i}/2.${i}`).join(' ')}`;
    expect(userAgent.length).toBeGreaterThan(300);
    const created = await world.http.request('POST', '/internal/v1/admin/invitations', {
      token: token.admin,
      json: { email },
      headers: { 'User-Agent': userAgent },
    });
    expect(created.status).toBe(201);
    const [event] = await createdEvents(email);
    expect(event?.userAgent).toBe(userAgent.slice(0, 200));
  });

  it("answers 503 'This was done, but it could not be recorded in the audit log.' when the event of a create fails, and sent again with its Idempotency-Key gives the same invitation, recorded once", async () => {
    const email = 'unrecorded-create@example.com';
    const key = randomUUID();
    const create = () =>
      world.http.request<Invitation & { message?: string }>('POST', '/internal/v1/admin/invitations', {
        token: token.admin,
        json: { email },
        headers: { 'Idempotency-Key': key },
      });
    const eventFails = await refuse(
      'PutItemCommand',
      'invitation.created',
      () => new Error('InternalServerError'),
      1,
    );
    let first: Awaited<ReturnType<typeof create>>;
    try {
      first = await create();
    } finally {
      eventFails.remove();
    }
    expect(eventFails.count()).toBe(1);
    expect(first).toMatchObject({ status: 503, body: { message: AUDIT_MESSAGES.unrecorded } });
    // Done: the invitation is there, pending, though nobody was shown its code.
    const made = await listed(email);
    expect(made?.status).toBe('pending');
    expect(await createdEvents(email)).toEqual([]);

    const again = await create();
    expect(again).toMatchObject({ status: 201, body: { email, status: 'pending' } });
    expect(again.body.activationCode).toBe(made?.activationCode);
    expect(await createdEvents(email)).toHaveLength(1);
    expect((await check(email, again.body.activationCode)).body).toMatchObject({ valid: true });
  });

  it('refuses the Idempotency-Key of a create sent again with other roles (422): no second invitation, no event, no count', async () => {
    const email = 'retried-roles@example.com';
    const key = randomUUID();
    const create = (roles?: string[]) =>
      world.http.request<Invitation & { message?: string }>('POST', '/internal/v1/admin/invitations', {
        token: token.admin,
        json: { email, ...(roles && { roles }) },
        headers: { 'Idempotency-Key': key },
      });
    const first = await create(['users', 'coaches']);
    expect(first).toMatchObject({ status: 201, body: { email, roles: ['users', 'coaches'] } });
    const before = {
      invitation: await listed(email),
      events: await createdEvents(email),
      pending: await pendingCount(),
    };

    for (const roles of [['users'], undefined, ['admins', 'coaches', 'users']])
      expect(await create(roles)).toMatchObject({
        status: 422,
        body: { message: API_MESSAGES.idempotencyKeyMismatch },
      });
    expect(await listed(email)).toEqual(before.invitation);
    expect(await createdEvents(email)).toEqual(before.events);
    expect(await pendingCount()).toBe(before.pending);

    // The same roles in another order are the same request: the invitation the first one made.
    const again = await create(['coaches', 'users']);
    expect(again).toMatchObject({ status: 201, body: { email, activationCode: first.body.activationCode } });
  });

  it('fails an activation still using the old code after a resend, and the new code activates', async () => {
    const created = await invite('switch@example.com');
    const verified = await api<{ cognitoUsername: string; registrationOptions: never }>(
      'POST',
      '/v1/auth/verify-activation',
      undefined,
      { email: 'switch@example.com', activationCode: created.body.activationCode },
    );
    const resent = await api<Invitation>(
      'POST',
      '/internal/v1/admin/invitations/switch%40example.com/resend',
      token.admin,
    );
    const device = new SoftwareAuthenticator(world.stack.origin);
    const late = await api('POST', '/v1/auth/register-passkey', undefined, {
      email: 'switch@example.com',
      activationCode: created.body.activationCode,
      cognitoUsername: verified.body.cognitoUsername,
      registrationResponse: device.createCredential(verified.body.registrationOptions),
    });
    expect(late).toMatchObject({ status: 400, body: { message: API_MESSAGES.registrationFailed } });
    expect((await world.scan('passkeys')).filter((item) => item.userHandle === undefined)).toEqual([]);
    const person = await world.http.activate('switch@example.com', resent.body.activationCode);
    expect((await api('GET', '/v1/users/me', person.idToken)).status).toBe(200);
  });

  it('refuses a registration whose code a resend replaced as it committed (400, not "already used")', async () => {
    const email = 'resent-midway@example.com';
    const created = await invite(email);
    const verified = await api<{ cognitoUsername: string; registrationOptions: never }>(
      'POST',
      '/v1/auth/verify-activation',
      undefined,
      { email, activationCode: created.body.activationCode },
    );
    const device = new SoftwareAuthenticator(world.stack.origin);
    // The registration read the invitation with its first code; the admin resends before it commits.
    const race = await interleave('TransactWriteItemsCommand', 'activation.completed', async () => {
      const resent = await api(
        'POST',
        `/internal/v1/admin/invitations/${encodeURIComponent(email)}/resend`,
        token.admin,
      );
      expect(resent.status).toBe(200);
    });
    try {
      const late = await api('POST', '/v1/auth/register-passkey', undefined, {
        email,
        activationCode: created.body.activationCode,
        cognitoUsername: verified.body.cognitoUsername,
        registrationResponse: device.createCredential(verified.body.registrationOptions),
      });
      expect(race.fired()).toBe(true);
      expect(late).toMatchObject({ status: 400, body: { message: API_MESSAGES.registrationFailed } });
    } finally {
      race.remove();
    }
    expect((await listed(email))?.status).toBe('pending');
    const failed = (await world.scan('auditEvents')).filter(
      (event) => event.type === 'activation.failed' && (event.details as { email?: string }).email === email,
    );
    expect(failed.map((event) => (event.details as { reason?: string }).reason)).toEqual([
      'registration-refused',
    ]);
  });

  it('refuses to resend an activated invitation (409) or one that does not exist (404)', async () => {
    expect(
      await api(
        'POST',
        `/internal/v1/admin/invitations/${encodeURIComponent(world.people.client.email)}/resend`,
        token.admin,
      ),
    ).toMatchObject({ status: 409, body: { message: ACCOUNT_MESSAGES.notResendable } });
    expect(
      await api('POST', '/internal/v1/admin/invitations/nobody%40example.com/resend', token.admin),
    ).toMatchObject({
      status: 404,
      body: { message: API_MESSAGES.invitationNotFound },
    });
  });

  it('deletes the Cognito user an activation reserved while the invitation was being deleted', async () => {
    const email = 'reserved-midway@example.com';
    const created = await invite(email);
    expect(created.status).toBe(201);
    // The delete has read the invitation (no user reserved yet); the code is checked before it commits.
    const race = await interleave('TransactWriteItemsCommand', email, async () => {
      expect((await check(email, created.body.activationCode)).body).toMatchObject({ valid: true });
    });
    try {
      const deleted = await api(
        'DELETE',
        `/internal/v1/admin/invitations/${encodeURIComponent(email)}`,
        token.admin,
      );
      expect(deleted.status).toBe(204);
    } finally {
      race.remove();
    }
    expect(race.fired()).toBe(true);
    const users = await world.http.cognito.send(
      new ListUsersCommand({ UserPoolId: LOCAL_USER_POOL_ID, Filter: `email = "${email}"` }),
    );
    expect(users.Users ?? []).toEqual([]);
    expect((await invite(email)).status).toBe(201);
  });

  describe('by an admin disabled while the request was under way', () => {
    /**
     * `request`, sent by a new admin of the test's own, is held at its transaction (the first that
     * mentions `marker`) while the first admin disables them: refused with 403.
     */
    const refusedOnceDisabled = async (
      name: string,
      marker: string,
      request: (idToken: string) => Promise<{ status: number; body: unknown }>,
    ) => {
      const acting = await activatedPerson(`admin.${name}@example.com`, ['admins']);
      const race = await interleave('TransactWriteItemsCommand', marker, async () => {
        const disabled = await api('POST', `/internal/v1/admin/users/${acting.userId}/disable`, token.admin);
        expect(disabled.status).toBe(200);
      });
      try {
        expect(await request(acting.idToken ?? '')).toMatchObject({
          status: 403,
          body: { message: API_MESSAGES.forbidden },
        });
      } finally {
        race.remove();
      }
      expect(race.fired()).toBe(true);
      return acting.userId;
    };
    const invitationEventsBy = async (actorId: string) =>
      (await world.scan('auditEvents')).filter(
        (event) => event.actorId === actorId && String(event.type).startsWith('invitation.'),
      );

    it('deletes no invitation (403): it stays pending and counted, with no event', async () => {
      const email = 'kept-from-deletion@example.com';
      const created = await invite(email);
      const before = { invitation: await listed(email), pending: await pendingCount() };
      const acting = await refusedOnceDisabled('deleting', 'invitation.deleted', (idToken) =>
        api('DELETE', `/internal/v1/admin/invitations/${encodeURIComponent(email)}`, idToken),
      );
      expect(await listed(email)).toEqual(before.invitation);
      expect(await pendingCount()).toBe(before.pending);
      expect((await check(email, created.body.activationCode)).body).toMatchObject({ valid: true });
      expect(await invitationEventsBy(acting)).toEqual([]);
    });

    it('resends no invitation (403): the code and its issuer stay, with no event', async () => {
      const email = 'kept-from-resend@example.com';
      const created = await invite(email);
      const before = await listed(email);
      const acting = await refusedOnceDisabled('resending', 'invitation.resent', (idToken) =>
        api('POST', `/internal/v1/admin/invitations/${encodeURIComponent(email)}/resend`, idToken),
      );
      expect(await listed(email)).toEqual(before);
      expect((await check(email, created.body.activationCode)).body).toMatchObject({ valid: true });
      expect(await invitationEventsBy(acting)).toEqual([]);
    });

    it('creates no invitation (403): none listed or counted, with no event', async () => {
      const email = 'never-invited@example.com';
      const pending = await pendingCount();
      const acting = await refusedOnceDisabled('inviting', email, (idToken) =>
        api('POST', '/internal/v1/admin/invitations', idToken, { email }),
      );
      expect(await listed(email)).toBeUndefined();
      expect(await pendingCount()).toBe(pending);
      expect(await invitationEventsBy(acting)).toEqual([]);
    });
  });
});

describe("the person's own rights (SPEC-2 section 3.4)", () => {
  it('deletes my account only with my email typed, erasing it as the admin delete does', async () => {
    const invite = await api<{ activationCode: string }>(
      'POST',
      '/internal/v1/admin/invitations',
      token.admin,
      {
        email: 'quitter@example.com',
      },
    );
    const person = await world.http.activate('quitter@example.com', invite.body.activationCode);
    const idToken = person.idToken ?? '';
    expect(
      (
        await api('POST', '/v1/measurements', idToken, {
          type: 'weight',
          value: 70,
          takenAt: new Date().toISOString(),
        })
      ).status,
    ).toBe(201);
    expect(
      await api('DELETE', '/v1/users/me', idToken, { confirmEmail: 'someone@example.com' }),
    ).toMatchObject({
      status: 400,
      body: { message: ACCOUNT_MESSAGES.confirmEmail },
    });
    expect(await traces({ userId: person.userId, email: 'quitter@example.com' })).not.toEqual([]);
    expect(
      await api('DELETE', '/v1/users/me', idToken, { confirmEmail: 'Quitter@Example.com' }),
    ).toMatchObject({
      status: 204,
    });
    expect(await traces({ userId: person.userId, email: 'quitter@example.com' })).toEqual([]);
    expect(await poolUsersWithSub(person.userId)).toEqual([]);
    expect((await api('GET', '/v1/users/me', idToken)).status).toBe(401);
    expect(await auditOf('account.deleted', person.userId)).toHaveLength(1);
    // Recorded with the disable that starts the erase, so an erase cut short leaves a trace too.
    expect(await auditOf('user.disabled', person.userId)).toMatchObject([
      { actorId: person.userId, details: { reason: 'deleting' } },
    ]);
  });

  it('erases nothing for a session signed out while the delete was under way; another session still can', async () => {
    const email = 'raced-quitter@example.com';
    const person = await activatedPerson(email);
    const staying = await signInAs(person.authenticator);
    const leaving = await signInAs(person.authenticator);
    // The delete passed the session check and read the account; the session is signed out before the
    // disable that begins the erase commits.
    const race = await interleave('TransactWriteItemsCommand', 'deleting', async () => {
      expect((await api('POST', '/v1/users/me/sign-out', leaving.idToken, {})).status).toBe(204);
    });
    try {
      const answer = await api('DELETE', '/v1/users/me', leaving.idToken, { confirmEmail: email });
      expect(race.fired()).toBe(true);
      expect(answer).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
    } finally {
      race.remove();
    }
    expect(await accountOf(person.userId)).toMatchObject({ status: 'active' });
    expect((await accountOf(person.userId))?.['erasing']).toBeUndefined();
    expect(await auditOf('user.disabled', person.userId)).toEqual([]);
    expect((await api('GET', '/v1/users/me', staying.idToken)).status).toBe(200);

    expect((await api('DELETE', '/v1/users/me', staying.idToken, { confirmEmail: email })).status).toBe(204);
    expect(await traces({ userId: person.userId, email })).toEqual([]);
  });

  it('asks for a sign-in within the last 10 minutes before erasing, and erases nothing before', async () => {
    const person = await activatedPerson('stale-quitter@example.com');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (PASSKEY_REAUTH_MAX_AGE_SECONDS + 5) * 1000 });
    expect(
      await api('DELETE', '/v1/users/me', person.idToken, { confirmEmail: 'stale-quitter@example.com' }),
    ).toMatchObject({ status: 401, body: { message: ACCOUNT_MESSAGES.reauthToDelete } });
    vi.useRealTimers();
    expect(await accountOf(person.userId)).toMatchObject({ status: 'active' });
    expect((await api('GET', '/v1/users/me', person.idToken)).status).toBe(200);
    const fresh = await signInAs(person.authenticator);
    expect(
      await api('DELETE', '/v1/users/me', fresh.idToken, { confirmEmail: 'stale-quitter@example.com' }),
    ).toMatchObject({ status: 204 });
  });

  it('refuses to erase an account an admin disabled while the request was under way', async () => {
    const person = await activatedPerson('disabled-quitter@example.com');
    const race = await heldAtAccountRead(person.userId, async () => {
      const disabled = await api('POST', `/internal/v1/admin/users/${person.userId}/disable`, token.admin);
      expect(disabled.status).toBe(200);
    });
    try {
      const deleted = await api('DELETE', '/v1/users/me', person.idToken, {
        confirmEmail: 'disabled-quitter@example.com',
      });
      expect(race.fired()).toBe(true);
      expect(deleted).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
    } finally {
      race.remove();
    }
    expect(await accountOf(person.userId)).toMatchObject({ status: 'disabled' });
    expect(await poolUsersWithSub(person.userId)).toHaveLength(1);
    expect(await auditOf('account.deleted', person.userId)).toEqual([]);
  });

  it('refuses the last admin deleting their own account (409)', async () => {
    expect(
      await api('DELETE', '/v1/users/me', token.admin, { confirmEmail: world.admin.email }),
    ).toMatchObject({ status: 409, body: { message: ACCOUNT_MESSAGES.lastAdmin } });
    expect((await api('GET', '/internal/v1/admin/users', token.admin)).status).toBe(200);
  });
});
