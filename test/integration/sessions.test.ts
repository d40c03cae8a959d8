/**
 * Sessions that end (issue 11, docs/decisions/048-sessions-that-end.md), on the local stack with
 * software passkeys: signing one session out ends every token of that session at once while the
 * person's other sessions keep working; signing out everywhere ends them all.
 */
import {
  GetTokensFromRefreshTokenCommand,
  NotAuthorizedException,
  RefreshTokenReuseException,
  RevokeTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_MESSAGES } from '../../shared/messages';
import {
  ID_TOKEN_VALIDITY_MINUTES,
  REFRESH_TOKEN_GRACE_SECONDS,
  REFRESH_TOKEN_VALIDITY_DAYS,
} from '../../shared/session-policy';
import { LOCAL_CLIENT_ID } from '../../infra/local/stack';
import { startPeople, type People } from '../fixtures/health-people';
import { interleave } from '../fixtures/interleave';
import type { SoftwareAuthenticator } from '../fixtures/software-authenticator';

type Key = 'client' | 'roamer';
let world: People<Key>;

beforeAll(async () => {
  world = await startPeople<Key>({
    client: { email: 'client@example.com' },
    roamer: { email: 'roamer@example.com' },
  });
}, 120_000);
afterAll(() => world?.stop());
afterEach(() => {
  vi.useRealTimers();
});

interface Session {
  readonly idToken: string;
  readonly refreshToken: string;
}

const signIn = async (authenticator: SoftwareAuthenticator | undefined): Promise<Session> => {
  if (!authenticator) throw new Error('the person has no passkey');
  const tokens = await world.http.signIn(authenticator);
  return { idToken: tokens.idToken ?? '', refreshToken: tokens.refreshToken ?? '' };
};

const refreshed = (refreshToken: string) =>
  world.http.cognito.send(
    new GetTokensFromRefreshTokenCommand({ ClientId: LOCAL_CLIENT_ID, RefreshToken: refreshToken }),
  );

const getMe = (idToken: string) => world.http.request('GET', '/v1/users/me', { token: idToken });
const putMe = (idToken: string, preferredName: string) =>
  world.http.request('PUT', '/v1/users/me', { token: idToken, json: { preferredName } });
const signOut = (idToken: string, json: unknown = {}) =>
  world.http.request('POST', '/v1/users/me/sign-out', { token: idToken, json });

const claimsOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

const refused = { status: 401, body: { message: API_MESSAGES.unauthorized } };

describe('signing out one session', () => {
  it("ends that session's tokens at once, a refreshed one too, while another session keeps working", async () => {
    const { authenticator } = world.people.client;
    const laptop = await signIn(authenticator);
    const phone = await signIn(authenticator);
    // A token refreshed from the laptop's sign-in belongs to the same session.
    const laptopLater = (await refreshed(laptop.refreshToken)).AuthenticationResult?.IdToken ?? '';
    expect(claimsOf(laptopLater)['origin_jti']).toBe(claimsOf(laptop.idToken)['origin_jti']);
    expect((await getMe(laptop.idToken)).status).toBe(200);
    expect((await getMe(laptopLater)).status).toBe(200);

    // What the SPA's Sign Out does: the API first, then Amplify's RevokeToken.
    expect((await signOut(laptop.idToken)).status).toBe(204);
    await world.http.cognito.send(
      new RevokeTokenCommand({ ClientId: LOCAL_CLIENT_ID, Token: laptop.refreshToken }),
    );

    expect(await getMe(laptop.idToken)).toMatchObject(refused);
    expect(await getMe(laptopLater)).toMatchObject(refused);
    expect(await putMe(laptop.idToken, 'Mallory')).toMatchObject(refused);
    await expect(refreshed(laptop.refreshToken)).rejects.toBeInstanceOf(NotAuthorizedException);

    expect((await getMe(phone.idToken)).status).toBe(200);
    expect((await putMe(phone.idToken, 'Casey')).status).toBe(200);
    expect((await getMe(phone.idToken)).body).toMatchObject({ preferredName: 'Casey' });
    // A new sign-in is a new session.
    expect((await getMe((await signIn(authenticator)).idToken)).status).toBe(200);
  });

  it('remembers the signed-out session on the account only as long as it could mint a token', async () => {
    const session = await signIn(world.people.client.authenticator);
    const claims = claimsOf(session.idToken);
    expect((await signOut(session.idToken)).status).toBe(204);
    const account = (await world.scan('accounts')).find(
      (item) => item['userId'] === world.people.client.userId,
    );
    const entries = [...((account?.['signedOutSessions'] as Set<string> | undefined) ?? [])];
    const until =
      Number(claims['auth_time']) + REFRESH_TOKEN_VALIDITY_DAYS * 86_400 + ID_TOKEN_VALIDITY_MINUTES * 60;
    expect(entries).toContain(`${String(claims['origin_jti'])} ${until}`);
    // Nothing of the token itself is kept.
    expect(JSON.stringify(entries)).not.toContain(session.idToken.split('.')[2] ?? '');
  });

  it('keeps the profile as it was when its update was under way as the session was signed out (401)', async () => {
    const { authenticator, userId, email } = world.people.client;
    const leaving = await signIn(authenticator);
    const profileOf = async () => (await world.scan('profiles')).find((item) => item['userId'] === userId);
    const before = await profileOf();
    // The update passed the session check and reads the profile (the email is sent, as onboarding
    // sends it) when this session is signed out; its write comes after.
    const race = await interleave(
      'GetItemCommand',
      `"TableName":"${world.stack.tables.profiles}","Key":{"userId":"${userId}"}`,
      async () => {
        expect((await signOut(leaving.idToken)).status).toBe(204);
      },
    );
    try {
      const updated = await world.http.request('PUT', '/v1/users/me', {
        token: leaving.idToken,
        json: { email, preferredName: 'Mallory' },
      });
      expect(race.fired()).toBe(true);
      expect(updated).toMatchObject(refused);
    } finally {
      race.remove();
    }
    expect(await profileOf()).toEqual(before);
  });

  it('refuses a sign-out body it does not know, and changes nothing', async () => {
    const session = await signIn(world.people.client.authenticator);
    expect((await signOut(session.idToken, { everywhere: 'yes' })).status).toBe(400);
    expect((await signOut(session.idToken, { session: 'someone-else' })).status).toBe(400);
    expect((await getMe(session.idToken)).status).toBe(200);
  });
});

describe('signing out everywhere', () => {
  it('ends every earlier token of the person, on every device; a new sign-in works', async () => {
    const { authenticator } = world.people.roamer;
    const laptop = await signIn(authenticator);
    const phone = await signIn(authenticator);
    const clientSession = await signIn(world.people.client.authenticator);

    expect((await signOut(phone.idToken, { everywhere: true })).status).toBe(204);

    for (const session of [laptop, phone]) {
      expect(await getMe(session.idToken)).toMatchObject(refused);
      expect(await putMe(session.idToken, 'Mallory')).toMatchObject(refused);
      await expect(refreshed(session.refreshToken)).rejects.toBeInstanceOf(NotAuthorizedException);
    }
    // Someone else is not signed out.
    expect((await getMe(clientSession.idToken)).status).toBe(200);
    const fresh = await signIn(authenticator);
    expect((await getMe(fresh.idToken)).status).toBe(200);
  });
});

describe('refresh-token rotation', () => {
  it('answers a new refresh token on every refresh; the old one works for the grace period, then gets nothing', async () => {
    const session = await signIn(world.people.client.authenticator);
    const first = (await refreshed(session.refreshToken)).AuthenticationResult;
    const rotated = first?.RefreshToken ?? '';
    expect(rotated).not.toBe('');
    expect(rotated).not.toBe(session.refreshToken);
    expect(claimsOf(first?.IdToken ?? '')['origin_jti']).toBe(claimsOf(session.idToken)['origin_jti']);

    // A client that lost the answer may retry within the grace period.
    const retried = (await refreshed(session.refreshToken)).AuthenticationResult;
    expect(retried?.IdToken).toBeTruthy();

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (REFRESH_TOKEN_GRACE_SECONDS + 1) * 1000 });
    await expect(refreshed(session.refreshToken)).rejects.toBeInstanceOf(RefreshTokenReuseException);
    // The token it was rotated into carries on, and its id token is served.
    const next = (await refreshed(rotated)).AuthenticationResult;
    expect(next?.RefreshToken).toBeTruthy();
    expect((await getMe(next?.IdToken ?? '')).status).toBe(200);
  });
});
