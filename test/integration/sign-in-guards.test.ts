/**
 * Two guards of the sign-in chain, each on its own, on the local stack (DynamoDB Local, the local
 * Cognito endpoint, the real handlers) with software passkeys:
 * - The signature counter (docs/decisions/001-passkey-chain.md). A copy of a passkey (same key, its own
 *   counter) that is behind the stored counter is refused: 401, no proof, `signin.failed` in the audit
 *   log with the reason `counter-not-advanced` (not a bad signature), the stored counter where it was;
 *   the original signs in after it. An authenticator that always reports 0 (a 0/0 counter means "not
 *   supported" in WebAuthn) signs in again and again, its single-use session being the guard against a
 *   replay.
 * - The counter's write (`advanceCounter`) refuses by itself a counter that does not move forward, or
 *   that moved meanwhile.
 * - The session check (lambdas/common/session.ts). A token is refused at its next request when only the
 *   account's roles changed, or only its status, the tokensValidAfter and everything else as they were;
 *   written back, the same token is served again; a write that changes nothing leaves it served.
 */
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../shared/audit';
import { API_MESSAGES } from '../../shared/messages';
import { localDocuments } from '../fixtures/aws-env';
import { startPeople, type People, type Person } from '../fixtures/health-people';
import {
  SoftwareAuthenticator,
  type CeremonyOptions,
  type StoredCredential,
} from '../fixtures/software-authenticator';

type Key = 'cloned' | 'synced' | 'demoted' | 'promoted' | 'disabled' | 'steady';
let world: People<Key>;
let documents: DynamoDBDocumentClient;

beforeAll(async () => {
  world = await startPeople<Key>({
    cloned: { email: 'cloned@example.com' },
    synced: { email: 'synced@example.com' },
    demoted: { email: 'demoted@example.com', roles: ['coaches', 'users'] },
    promoted: { email: 'promoted@example.com' },
    disabled: { email: 'disabled@example.com' },
    steady: { email: 'steady@example.com' },
  });
  documents = localDocuments();
}, 120_000);
afterAll(async () => {
  documents?.destroy();
  await world?.stop();
});

interface VerifyAnswer {
  readonly userId?: string;
  readonly cognitoUsername?: string;
  readonly passkeyProof?: string;
  readonly message?: string;
}

const authenticatorOf = (person: Person): SoftwareAuthenticator => {
  if (!person.authenticator) throw new Error(`${person.email} has no passkey`);
  return person.authenticator;
};

const credentialOf = (person: Person): StoredCredential => {
  const credential = authenticatorOf(person).credentials[0];
  if (!credential) throw new Error(`${person.email} has no credential`);
  return credential;
};

/** initiate-signin, the device's assertion (with `options`), verify-webauthn: the answer and the assertion. */
const signInWith = async (
  device: SoftwareAuthenticator,
  options: CeremonyOptions & { readonly credential?: StoredCredential } = {},
) => {
  const started = await world.http.request<{
    sessionId: string;
    authenticationOptions: PublicKeyCredentialRequestOptionsJSON;
  }>('POST', '/v1/auth/initiate-signin', { json: {} });
  const body = {
    sessionId: started.body.sessionId,
    authenticationResponse: device.getAssertion(started.body.authenticationOptions, options),
  };
  const answer = await world.http.request<VerifyAnswer>('POST', '/v1/auth/verify-webauthn', { json: body });
  return { body, answer };
};

const verifyAgain = (body: unknown) =>
  world.http.request<VerifyAnswer>('POST', '/v1/auth/verify-webauthn', { json: body });

const storedPasskey = async (credential: StoredCredential) =>
  (await world.scan('passkeys')).find((item) => item['credentialId'] === credential.id.toString('base64url'));

/** The person's audit events, oldest first. */
const auditOf = async (userId: string) =>
  ((await world.scan('auditEvents')) as unknown as (AuditEvent & { sk: string })[])
    .filter((event) => event.subjectId === userId)
    .sort((a, b) => a.sk.localeCompare(b.sk));

describe('the signature counter', () => {
  it('refuses a copy of a passkey whose counter is behind (or reports 0): 401, no proof, the reason logged, the counter kept', async () => {
    const person = world.people.cloned;
    const original = authenticatorOf(person);
    // The copy: the same credential id and private key, a counter of its own (0, as at registration).
    const copy = new SoftwareAuthenticator(world.stack.origin);
    copy.credentials.push({ ...credentialOf(person) });

    for (let i = 0; i < 2; i += 1) {
      const { answer } = await signInWith(original);
      expect(answer.status).toBe(200);
      expect(answer.body.passkeyProof).toBeTruthy();
    }
    const stored = await storedPasskey(credentialOf(person));
    expect(stored?.['counter']).toBe(2);
    const logged = (await auditOf(person.userId)).length;

    // Counter 1 (behind 2), then 2 (equal is not ahead), then 0 (a copy claiming to count nothing).
    const attempts: CeremonyOptions[] = [{}, {}, { zeroCounter: true }];
    for (const options of attempts) {
      const { answer } = await signInWith(copy, options);
      expect(answer).toMatchObject({ status: 401, body: { message: API_MESSAGES.signInFailed } });
      expect(answer.body.passkeyProof).toBeUndefined();
      expect(answer.body.cognitoUsername).toBeUndefined();
    }
    expect(copy.credentials[0]?.counter).toBe(2);
    // Nothing of the credential moved: not the counter, not lastUsedAt.
    expect(await storedPasskey(credentialOf(person))).toEqual(stored);
    // Each is logged as what it is, a valid signature from a counter that did not move forward, not as
    // an assertion that failed to verify: an admin reading the log can tell a copied key from a bad one.
    expect((await auditOf(person.userId)).slice(logged)).toMatchObject(
      attempts.map(() => ({
        type: 'signin.failed',
        outcome: 'failure',
        actorId: person.userId,
        subjectId: person.userId,
        details: { reason: 'counter-not-advanced' },
      })),
    );

    // The original, ahead of the stored counter, still signs in and moves it on.
    const { answer } = await signInWith(original);
    expect(answer.status).toBe(200);
    expect((await storedPasskey(credentialOf(person)))?.['counter']).toBe(3);
  });

  it('signs in again and again with an authenticator that always reports 0; its session stays single-use', async () => {
    const person = world.people.synced;
    const device = authenticatorOf(person);
    const logged = (await auditOf(person.userId)).length;
    let last: Awaited<ReturnType<typeof signInWith>> | undefined;
    for (let i = 0; i < 3; i += 1) {
      last = await signInWith(device, { zeroCounter: true });
      expect(last.answer).toMatchObject({
        status: 200,
        body: { userId: person.userId, cognitoUsername: expect.any(String) as string },
      });
      expect(last.answer.body.passkeyProof).toBeTruthy();
    }
    // The proof brings real tokens that the API serves.
    const tokens = await world.http.signInWithProof(
      last?.answer.body.cognitoUsername ?? '',
      last?.answer.body.passkeyProof ?? '',
    );
    expect((await world.http.request('GET', '/v1/users/me', { token: tokens.idToken })).status).toBe(200);
    expect((await storedPasskey(credentialOf(person)))?.['counter']).toBe(0);
    expect((await auditOf(person.userId)).slice(logged)).toMatchObject([
      { type: 'signin.succeeded', subjectId: person.userId },
      { type: 'signin.succeeded', subjectId: person.userId },
      { type: 'signin.succeeded', subjectId: person.userId },
    ]);

    // With no counter to compare, a replayed assertion meets its spent session.
    expect(await verifyAgain(last?.body)).toMatchObject({
      status: 401,
      body: { message: API_MESSAGES.sessionExpired },
    });
  });
});

describe('the counter write', () => {
  it('moves the counter forward only, by itself, whatever the verification let through', async () => {
    const { advanceCounter } = await import('../../lambdas/common/repositories/passkeys');
    const person = world.people.cloned;
    expect((await signInWith(authenticatorOf(person))).answer.status).toBe(200);
    const credential = credentialOf(person);
    const id = credential.id.toString('base64url');
    const stored = await storedPasskey(credential);
    const counter = Number(stored?.['counter']);
    expect(counter).toBeGreaterThan(0);
    const usedAt = new Date().toISOString();
    // Behind, equal, and 0 after a non-zero counter: a clone's values, refused by the write itself.
    for (const to of [counter - 1, counter, 0])
      expect(await advanceCounter(id, counter, to, usedAt, false), `to ${to}`).toBe(false);
    // Ahead, but from a value another sign-in has moved on from meanwhile.
    expect(await advanceCounter(id, counter - 1, counter + 5, usedAt, false)).toBe(false);
    expect(await storedPasskey(credential)).toEqual(stored);

    expect(await advanceCounter(id, counter, counter + 1, usedAt, Boolean(stored?.['backedUp']))).toBe(true);
    expect(await storedPasskey(credential)).toEqual({ ...stored, counter: counter + 1, lastUsedAt: usedAt });
    // An authenticator that counts nothing stays at 0.
    const synced = credentialOf(world.people.synced);
    const syncedStored = await storedPasskey(synced);
    expect(syncedStored?.['counter']).toBe(0);
    expect(
      await advanceCounter(
        synced.id.toString('base64url'),
        0,
        0,
        usedAt,
        Boolean(syncedStored?.['backedUp']),
      ),
    ).toBe(true);
  });
});

describe('the session check', () => {
  const accountOf = async (userId: string) =>
    (
      await documents.send(
        new GetCommand({ TableName: world.stack.tables.accounts, Key: { userId }, ConsistentRead: true }),
      )
    ).Item as Record<string, unknown>;

  /**
   * Sets exactly the given attributes of the account item in DynamoDB Local, nothing else (not
   * tokensValidAfter, not updatedAt, not the directory's attributes): it simulates a write that set
   * only that attribute, so that only one clause of the session check can tell.
   */
  const setOnly = async (userId: string, attributes: Record<string, unknown>) => {
    const names = Object.keys(attributes);
    await documents.send(
      new UpdateCommand({
        TableName: world.stack.tables.accounts,
        Key: { userId },
        UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, attributes[name]])),
        ConditionExpression: 'attribute_exists(userId)',
      }),
    );
  };

  const getMe = (idToken: string) => world.http.request('GET', '/v1/users/me', { token: idToken });
  const signedIn = async (person: Person) => (await world.http.signIn(authenticatorOf(person))).idToken ?? '';

  it.each([
    ['a role taken away', 'demoted', ['users']],
    ['a role given', 'promoted', ['coaches', 'users']],
  ] as const)(
    'refuses the token (401) once only the roles changed (%s); the roles written back, it is served again',
    async (_, key, roles) => {
      const person = world.people[key];
      const idToken = await signedIn(person);
      expect((await getMe(idToken)).status).toBe(200);
      const before = await accountOf(person.userId);

      await setOnly(person.userId, { roles: [...roles] });
      const after = await accountOf(person.userId);
      expect(after).toEqual({ ...before, roles });
      expect(await getMe(idToken)).toMatchObject({
        status: 401,
        body: { message: API_MESSAGES.unauthorized },
      });

      await setOnly(person.userId, { roles: before['roles'] });
      expect(await accountOf(person.userId)).toEqual(before);
      expect((await getMe(idToken)).status).toBe(200);
    },
  );

  it('refuses the token (401) once only the status changed to disabled; active again, it is served again', async () => {
    const person = world.people.disabled;
    const idToken = await signedIn(person);
    expect((await getMe(idToken)).status).toBe(200);
    const before = await accountOf(person.userId);
    expect(before['status']).toBe('active');

    await setOnly(person.userId, { status: 'disabled' });
    expect(await accountOf(person.userId)).toEqual({ ...before, status: 'disabled' });
    expect(await getMe(idToken)).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });

    await setOnly(person.userId, { status: 'active' });
    expect(await accountOf(person.userId)).toEqual(before);
    expect((await getMe(idToken)).status).toBe(200);
  });

  it('serves the token after a write that sets the roles and the status to what they were', async () => {
    const person = world.people.steady;
    const idToken = await signedIn(person);
    const before = await accountOf(person.userId);
    await setOnly(person.userId, { roles: before['roles'], status: before['status'] });
    expect(await accountOf(person.userId)).toEqual(before);
    expect(await getMe(idToken)).toMatchObject({ status: 200, body: { userId: person.userId } });
  });
});
