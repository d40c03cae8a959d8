import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminGetUserCommand,
  GetTokensFromRefreshTokenCommand,
  RevokeTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  startLocalCognitoServer,
  type LocalCognitoServer,
  type LocalCognitoServerOptions,
} from '../../../infra/local/cognito/local-cognito';
import {
  CLIENT_ID,
  REGION,
  TEST_CREDENTIALS,
  USER_POOL_ID,
  createTestTriggers,
  createUser,
  match,
  sdkClient,
  signIn,
  silentLogger,
  verifiers,
} from './cognito-harness';

const tempDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'local-cognito-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

const start = async (dir: string, port = 0, options: Partial<LocalCognitoServerOptions> = {}) => {
  const server = await startLocalCognitoServer({
    region: REGION,
    userPoolId: USER_POOL_ID,
    clientId: CLIENT_ID,
    groups: ['admins', 'users'],
    triggers: createTestTriggers().triggers,
    persistence: { kind: 'directory', path: dir },
    logger: silentLogger,
    credentials: TEST_CREDENTIALS,
    port,
    ...options,
  });
  const client = sdkClient(server.url);
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    client.destroy();
    await server.stop();
  };
  onTestFinished(stop);
  return { server, client, stop };
};

const portOf = (server: LocalCognitoServer): number => Number(new URL(server.url).port);

describe('directory persistence', () => {
  it('keeps users, groups, refresh tokens and the signing key across a restart', async () => {
    const dir = await tempDir();
    const before = await start(dir);
    const user = await createUser(before.client, { groups: ['admins'] });
    const tokens = await signIn(before.client, user.username);
    await before.stop();

    const after = await start(dir, portOf(before.server));

    const found = await after.client.send(
      new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username }),
    );
    expect(found.UserAttributes).toContainEqual({ Name: 'sub', Value: user.sub });
    const { id } = verifiers(after.server.issuer, after.server.jwksUri);
    expect(after.server.issuer).toBe(before.server.issuer);
    await expect(id.verify(tokens.IdToken)).resolves.toMatchObject({
      sub: user.sub,
      'cognito:groups': ['admins'],
    });
    const refreshed = await after.client.send(
      new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: tokens.RefreshToken }),
    );
    expect(refreshed.AuthenticationResult?.IdToken).toEqual(match.string);
  });

  it('keeps a revocation across a restart', async () => {
    const dir = await tempDir();
    const before = await start(dir);
    const user = await createUser(before.client);
    const tokens = await signIn(before.client, user.username);
    await before.client.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: tokens.RefreshToken }));
    await before.stop();

    const after = await start(dir, portOf(before.server));

    await expect(
      after.client.send(
        new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: tokens.RefreshToken }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
  });

  it('keeps a rotation across a restart: the rotated token, the grace period of the old one, the family', async () => {
    const dir = await tempDir();
    const clock = { now: Date.now() };
    const options = {
      now: () => clock.now,
      refreshTokenRotation: { enabled: true, retryGracePeriodSeconds: 10 },
    };
    const before = await start(dir, 0, options);
    const user = await createUser(before.client);
    const tokens = await signIn(before.client, user.username);
    const refresh = (client: typeof before.client, RefreshToken: string) =>
      client.send(new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken }));
    const rotated =
      (await refresh(before.client, tokens.RefreshToken)).AuthenticationResult?.RefreshToken ?? '';
    await before.stop();
    const stored = JSON.parse(await readFile(join(dir, 'refresh-tokens.json'), 'utf8')) as {
      items: { originJti: string; expiresAt: number; rotatedAt?: number }[];
    };
    expect(stored.items).toHaveLength(2);
    expect(new Set(stored.items.map((item) => `${item.originJti} ${item.expiresAt}`)).size).toBe(1);
    expect(stored.items.filter((item) => item.rotatedAt !== undefined)).toHaveLength(1);

    const after = await start(dir, portOf(before.server), options);

    // The old token is still within its grace period, counted from its use before the restart.
    clock.now += 5_000;
    await expect(refresh(after.client, tokens.RefreshToken)).resolves.toBeDefined();
    clock.now += 5_000;
    await expect(refresh(after.client, tokens.RefreshToken)).rejects.toMatchObject({
      name: 'RefreshTokenReuseException',
    });
    const next = await refresh(after.client, rotated);
    expect(next.AuthenticationResult?.RefreshToken).toEqual(match.string);
    // The family survived too: revoking with the first token ends the latest one.
    await after.client.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: tokens.RefreshToken }));
    await expect(refresh(after.client, next.AuthenticationResult?.RefreshToken ?? '')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Refresh Token has been revoked',
    });
  });

  it('stores refresh tokens only as hashes, in owner-only files, with no temporary files left', async () => {
    const dir = await tempDir();
    const pool = await start(dir);
    const user = await createUser(pool.client);
    const tokens = await signIn(pool.client, user.username);
    await pool.stop();

    const files = (await readdir(dir)).sort();
    const contents = await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')));

    expect(files).toEqual([
      'groups.json',
      'refresh-tokens.json',
      'revocations.json',
      'signing-key.json',
      'users.json',
    ]);
    expect(contents.some((text) => text.includes(tokens.RefreshToken))).toBe(false);
    expect((await stat(join(dir, 'signing-key.json'))).mode & 0o777).toBe(0o600);
  });

  it('refuses to start on a corrupted state file', async () => {
    const dir = await tempDir();
    const pool = await start(dir);
    await createUser(pool.client);
    await pool.stop();
    await writeFile(join(dir, 'users.json'), '{"version":1,"items":[{}]}');

    await expect(start(dir)).rejects.toThrow(/users\.json/);
  });
});

describe('memory persistence', () => {
  it('starts empty after a restart', async () => {
    const first = await startLocalCognitoServer({
      region: REGION,
      userPoolId: USER_POOL_ID,
      clientId: CLIENT_ID,
      logger: silentLogger,
      credentials: TEST_CREDENTIALS,
    });
    const client = sdkClient(first.url);
    onTestFinished(() => client.destroy());
    const user = await createUser(client);
    await first.stop();
    const second = await startLocalCognitoServer({
      region: REGION,
      userPoolId: USER_POOL_ID,
      clientId: CLIENT_ID,
      logger: silentLogger,
      credentials: TEST_CREDENTIALS,
    });
    const secondClient = sdkClient(second.url);
    onTestFinished(async () => {
      secondClient.destroy();
      await second.stop();
    });

    await expect(
      secondClient.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username })),
    ).rejects.toMatchObject({ name: 'UserNotFoundException' });
  });
});
