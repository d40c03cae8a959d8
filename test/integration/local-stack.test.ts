/**
 * Issue 3's contract over HTTP only: the local stack as `npm start` runs it (on free ports, with its
 * own data folder), the admin flows, the profile, authorization on every route, bad input, restarts.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect, createServer as createTcpServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  AdminAddUserToGroupCommand,
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
  DeleteUserCommand,
  GetUserCommand,
  GlobalSignOutCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';
import {
  LOCAL_CLIENT_ID,
  LOCAL_USER_POOL_ID,
  MISDIRECTED,
  stackFilePath,
  startLocalStack,
  type LocalStack,
  type LocalStackFile,
} from '../../infra/local/stack';
import { ROUTES } from '../../lambdas/routes';
import { API_MESSAGES, GATEWAY_MESSAGES, VALIDATION } from '../../shared/messages';
import { codeFromLink, createHttpClient } from '../fixtures/http-client';
import { canSeeSockets, isLoopback, listeningAddresses } from '../fixtures/listening';

const repositoryRoot = resolve(import.meta.dirname, '../..');
const ADMIN_EMAIL = 'admin@example.com';
const OTHER_CLIENT_ID = 'anotherappclient';

let dataDir: string;
let port: number;
let stack: LocalStack;
let http: ReturnType<typeof createHttpClient>;

const start = async (reset = false) => {
  stack = await startLocalStack({
    repositoryRoot,
    port,
    dataDir,
    reset,
    web: 'none',
    bootstrapAdminEmail: ADMIN_EMAIL,
    additionalClientIds: [OTHER_CLIENT_ID],
  });
  http = createHttpClient(stack.origin, LOCAL_CLIENT_ID);
};
const stop = async () => {
  http.close();
  await stack.stop();
};

let admin: Awaited<ReturnType<typeof http.activate>>;
let coach: Awaited<ReturnType<typeof http.activate>>;
let user: Awaited<ReturnType<typeof http.activate>>;
let coachCode: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'local-stack-'));
  port = await freePort();
  await start();
}, 60_000);

afterAll(async () => {
  await stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a fresh local stack', () => {
  it('offers the bootstrap admin activation link and activates the admin over HTTP', async () => {
    expect(stack.adminActivationLink).toMatch(
      new RegExp(
        `^http://localhost:${port}/activate\\?code=[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$`,
      ),
    );
    admin = await http.activate(ADMIN_EMAIL, codeFromLink(stack.adminActivationLink ?? ''));
    expect(admin.idToken).toBeTruthy();
  });

  it('lets the admin invite a coach and a user, and list both pending and activated', async () => {
    const coachInvite = await http.request<{ activationCode: string; status: string; roles: string[] }>(
      'POST',
      '/internal/v1/admin/invitations',
      { token: admin.idToken, json: { email: 'Coach@Example.com', roles: ['coaches'] } },
    );
    expect(coachInvite.status).toBe(201);
    expect(coachInvite.body).toMatchObject({
      email: 'coach@example.com',
      status: 'pending',
      roles: ['coaches'],
    });
    expect(coachInvite.body.activationCode).toMatch(/^[A-Z0-9]{16}$/);
    coachCode = coachInvite.body.activationCode;

    const userInvite = await http.request<{ activationCode: string; roles: string[] }>(
      'POST',
      '/internal/v1/admin/invitations',
      {
        token: admin.idToken,
        json: { email: 'user@example.com' },
      },
    );
    expect(userInvite.status).toBe(201);
    expect(userInvite.body.roles).toEqual(['users']);

    const again = await http.request('POST', '/internal/v1/admin/invitations', {
      token: admin.idToken,
      json: { email: 'user@example.com' },
    });
    expect(again).toMatchObject({ status: 409, body: { message: API_MESSAGES.invitationExists } });
    const existingAccount = await http.request('POST', '/internal/v1/admin/invitations', {
      token: admin.idToken,
      json: { email: ADMIN_EMAIL },
    });
    expect(existingAccount.status).toBe(409);

    coach = await http.activate('coach@example.com', coachInvite.body.activationCode);
    user = await http.activate('user@example.com', userInvite.body.activationCode);

    const invitations = await http.request<{ invitations: { email: string; status: string }[] }>(
      'GET',
      '/internal/v1/admin/invitations',
      { token: admin.idToken },
    );
    expect(invitations.status).toBe(200);
    // Newest first.
    expect(invitations.body.invitations.map((i) => [i.email, i.status])).toEqual([
      ['user@example.com', 'activated'],
      ['coach@example.com', 'activated'],
      [ADMIN_EMAIL, 'activated'],
    ]);

    const pending = await http.request('POST', '/internal/v1/admin/invitations', {
      token: admin.idToken,
      json: { email: 'later@example.com' },
    });
    expect(pending.status).toBe(201);
    const users = await http.request<{ users: { email: string; roles: string[]; userId: string }[] }>(
      'GET',
      '/internal/v1/admin/users',
      { token: admin.idToken },
    );
    expect(users.status).toBe(200);
    // Newest first.
    expect(users.body.users.map((u) => [u.email, u.roles])).toEqual([
      ['user@example.com', ['users']],
      ['coach@example.com', ['coaches']],
      [ADMIN_EMAIL, ['admins']],
    ]);
    const all = await http.request<{ invitations: { email: string; status: string }[] }>(
      'GET',
      '/internal/v1/admin/invitations',
      {
        token: admin.idToken,
      },
    );
    expect(all.body.invitations.filter((i) => i.status === 'pending').map((i) => i.email)).toEqual([
      'later@example.com',
    ]);
  });

  it('deletes a pending invitation (204, gone) and refuses to delete an activated one (409)', async () => {
    const deleted = await http.request(
      'DELETE',
      `/internal/v1/admin/invitations/${encodeURIComponent('later@example.com')}`,
      {
        token: admin.idToken,
      },
    );
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const list = await http.request<{ invitations: { email: string }[] }>(
      'GET',
      '/internal/v1/admin/invitations',
      {
        token: admin.idToken,
      },
    );
    expect(list.body.invitations.map((i) => i.email)).not.toContain('later@example.com');

    const activated = await http.request(
      'DELETE',
      `/internal/v1/admin/invitations/${encodeURIComponent('coach@example.com')}`,
      {
        token: admin.idToken,
      },
    );
    expect(activated).toMatchObject({ status: 409, body: { message: API_MESSAGES.invitationActivated } });
    const missing = await http.request(
      'DELETE',
      `/internal/v1/admin/invitations/${encodeURIComponent('nobody@example.com')}`,
      {
        token: admin.idToken,
      },
    );
    expect(missing.status).toBe(404);
  });

  it('keeps a half-done activation out of the user list, and deleting its invitation lets the email be invited again', async () => {
    const email = 'halfway@example.com';
    const invite = () =>
      http.request<{ activationCode: string }>('POST', '/internal/v1/admin/invitations', {
        token: admin.idToken,
        json: { email },
      });
    const first = await invite();
    expect(first.status).toBe(201);
    // The invitee checks the code (which reserves a Cognito user) but never creates a passkey.
    const checked = await http.request<{ valid: boolean }>('POST', '/v1/auth/verify-activation', {
      json: { email, activationCode: first.body.activationCode },
    });
    expect(checked.body.valid).toBe(true);

    const users = await http.request<{ users: { email: string }[] }>('GET', '/internal/v1/admin/users', {
      token: admin.idToken,
    });
    expect(users.body.users.map((u) => u.email)).not.toContain(email);

    const deleted = await http.request(
      'DELETE',
      `/internal/v1/admin/invitations/${encodeURIComponent(email)}`,
      {
        token: admin.idToken,
      },
    );
    expect(deleted.status).toBe(204);
    const again = await invite();
    expect(again.status, again.text).toBe(201);
    await http.request('DELETE', `/internal/v1/admin/invitations/${encodeURIComponent(email)}`, {
      token: admin.idToken,
    });
  });

  it('reads and updates the user profile', async () => {
    const me = await http.request<{
      userId: string;
      email: string;
      metadata: { onboardingCompleted: boolean };
    }>('GET', '/v1/users/me', {
      token: user.idToken,
    });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      userId: user.userId,
      email: 'user@example.com',
      metadata: { onboardingCompleted: false },
    });

    const update = {
      email: 'user@example.com',
      preferredName: 'Sam',
      familyName: 'Rivera',
      dateOfBirth: '1990-04-12',
      heightCm: 172.7,
      sexAssignedAtBirth: 'female',
      measurementSystem: 'imperial',
      metadata: { onboardingCompleted: true },
    };
    const updated = await http.request<Record<string, unknown>>('PUT', '/v1/users/me', {
      token: user.idToken,
      json: update,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ ...update, userId: user.userId });
    expect(updated.body.updatedAt).not.toBe(updated.body.createdAt);
    const reread = await http.request('GET', '/v1/users/me', { token: user.idToken });
    expect(reread.body).toEqual(updated.body);

    const names = await http.request<{
      users: { email: string; preferredName?: string; familyName?: string }[];
    }>('GET', '/internal/v1/admin/users', { token: admin.idToken });
    expect(names.body.users.find((u) => u.email === 'user@example.com')).toMatchObject({
      preferredName: 'Sam',
      familyName: 'Rivera',
    });
  });

  it('signs a user in again with the passkey', async () => {
    const tokens = await http.signIn(user.authenticator);
    expect((await http.request('GET', '/v1/users/me', { token: tokens.idToken })).status).toBe(200);
  });
});

describe('authorization', () => {
  const adminRoutes = ROUTES.filter((route) => route.auth === 'admin');
  const concretePath = (path: string) => path.replace('{email}', encodeURIComponent('someone@example.com'));

  /** What an admin sees of every account and invitation: roles, status, coach. */
  const adminView = async () => [
    (await http.request('GET', '/internal/v1/admin/users', { token: admin.idToken })).text,
    (await http.request('GET', '/internal/v1/admin/invitations', { token: admin.idToken })).text,
  ];

  const PENDING = 'pending-target@example.com';

  /** A request each admin route would carry out for an admin: a real person, a real pending invitation. */
  const attempt = (route: (typeof adminRoutes)[number], target: string) => ({
    path: route.path.replace('{userId}', target).replace('{email}', encodeURIComponent(PENDING)),
    json: {
      CreateInvitation: { email: 'mallory@example.com', roles: ['admins'] },
      ChangeRoles: { roles: ['users', 'coaches', 'admins'] },
      AssignCoach: { coachId: coach.userId },
    }[route.id],
  });

  it('answers 403 on every admin route to a coach and to a user, and changes nothing', async () => {
    expect(adminRoutes.map((route) => route.id).sort()).toEqual([
      'AssignCoach',
      'ChangeRoles',
      'CreateInvitation',
      'DeleteInvitation',
      'DeleteUser',
      'DisableUser',
      'EnableUser',
      'ListAudit',
      'ListInvitations',
      'ListUsers',
      'ResendInvitation',
      'ResetAccess',
      'UnassignCoach',
    ]);
    const invited = await http.request('POST', '/internal/v1/admin/invitations', {
      token: admin.idToken,
      json: { email: PENDING },
    });
    expect(invited.status).toBe(201);
    const before = await adminView();
    for (const caller of [coach, user]) {
      // Their own account (making themselves an admin) and the admin's (disabling, deleting them).
      for (const target of [caller.userId, admin.userId]) {
        for (const route of adminRoutes) {
          const { path, json } = attempt(route, target);
          const answer = await http.request(route.method, path, { token: caller.idToken, json });
          expect(answer, `${route.method} ${path}`).toMatchObject({
            status: 403,
            body: { message: API_MESSAGES.forbidden },
          });
          expect(answer.text, `${route.method} ${path}`).not.toContain('activationCode');
        }
      }
    }
    expect(await adminView()).toEqual(before);
    // Both still signed in with the roles they had, and the admin too.
    expect((await http.request('GET', '/v1/users/me', { token: user.idToken })).status).toBe(200);
    expect((await http.request('GET', '/v1/coach/clients', { token: coach.idToken })).status).toBe(200);
    expect((await http.request('GET', '/internal/v1/admin/users', { token: admin.idToken })).status).toBe(
      200,
    );
    const deleted = await http.request(
      'DELETE',
      `/internal/v1/admin/invitations/${encodeURIComponent(PENDING)}`,
      {
        token: admin.idToken,
      },
    );
    expect(deleted.status).toBe(204);
  });

  it("refuses a person Cognito's own user API with their access token: no self-delete around the erase (ADR 063)", async () => {
    const own = await http.signIn(user.authenticator);
    for (const call of [
      () => http.cognito.send(new DeleteUserCommand({ AccessToken: own.accessToken })),
      () => http.cognito.send(new GetUserCommand({ AccessToken: own.accessToken })),
      () => http.cognito.send(new GlobalSignOutCommand({ AccessToken: own.accessToken })),
    ]) {
      await expect(call()).rejects.toThrow('Access Token does not have required scopes');
    }
    // Still there, signed in, and still in the product.
    expect((await http.request('GET', '/v1/users/me', { token: own.idToken })).status).toBe(200);
    // A refresh runs the trigger too: the new access token is as narrow.
    const refreshed = await http.refresh(own.refreshToken);
    await expect(
      http.cognito.send(new DeleteUserCommand({ AccessToken: refreshed.AuthenticationResult?.AccessToken })),
    ).rejects.toThrow('Access Token does not have required scopes');
    expect((await http.request('GET', '/v1/users/me', { token: own.idToken })).status).toBe(200);
  });

  it('answers 401 on every authenticated route without a valid id token', async () => {
    const [header, payload, signature] = user.idToken.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const tampered = [
      header,
      Buffer.from(JSON.stringify({ ...claims, 'cognito:groups': ['admins'] })).toString('base64url'),
      signature,
    ].join('.');
    const badTokens = {
      missing: undefined,
      tampered,
      'access token': user.accessToken,
      garbage: 'not.a.token',
    };
    for (const route of ROUTES.filter((r) => r.auth !== 'public')) {
      for (const [label, token] of Object.entries(badTokens)) {
        const answer = await http.request(route.method, concretePath(route.path), {
          token,
          json: route.method === 'GET' ? undefined : {},
        });
        expect(answer.status, `${label}: ${route.method} ${route.path}`).toBe(401);
      }
    }
  });

  it("answers 401 to an id token minted for another app client's audience", async () => {
    // API Gateway's Cognito authorizer (and so the local gateway) lets any client of the pool through:
    // the handler itself must refuse the audience.
    const other = createHttpClient(stack.origin, OTHER_CLIENT_ID);
    try {
      const tokens = await other.signIn(user.authenticator);
      const claims = JSON.parse(Buffer.from(tokens.idToken.split('.')[1] ?? '', 'base64url').toString()) as {
        aud: string;
      };
      expect(claims.aud).toBe(OTHER_CLIENT_ID);
      for (const route of ROUTES.filter((r) => r.auth !== 'public')) {
        const answer = await http.request(route.method, concretePath(route.path), {
          token: tokens.idToken,
          json: route.method === 'GET' ? undefined : {},
        });
        expect(answer.status, `${route.method} ${route.path}`).toBe(401);
      }
    } finally {
      other.close();
    }
  });

  it('answers 401 to an expired id token, even one the gateway verified and keeps', async () => {
    // Verified now, so the gateway keeps its claims (as the Cognito authorizer caches them): not past `exp`.
    expect((await http.request('GET', '/v1/users/me', { token: user.idToken })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 3600 * 1000 });
    try {
      // With the Cognito authorizer's own message for it.
      expect(await http.request('GET', '/v1/users/me', { token: user.idToken })).toMatchObject({
        status: 401,
        body: { message: GATEWAY_MESSAGES.tokenExpired },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers API Gateway's 403 to a path or method of the API it has no route for, never the app's page", async () => {
    for (const [method, path] of [
      ['DELETE', '/v1/measurementz/abc'],
      ['GET', '/internal/v1/nope'],
      ['GET', '/v1'],
      ['POST', '/v1/users/me'],
      // `/options` is its own resource, which has no PATCH: not the rename of a passkey named "options".
      ['PATCH', '/v1/users/me/passkeys/options'],
    ] as const) {
      const answer = await http.request(method, path, {
        token: user.idToken,
        ...(method !== 'GET' && { json: { name: 'x' } }),
      });
      expect(answer, `${method} ${path}`).toMatchObject({
        status: 403,
        body: { message: GATEWAY_MESSAGES.noRoute },
      });
    }
  });
});

describe('bad input changes nothing', () => {
  const snapshot = async () => [
    (await http.request('GET', '/internal/v1/admin/invitations', { token: admin.idToken })).text,
    (await http.request('GET', '/internal/v1/admin/users', { token: admin.idToken })).text,
    (await http.request('GET', '/v1/users/me', { token: user.idToken })).text,
  ];

  /** The actions that take no body (SPEC-2 section 3): they ignore one. */
  const NO_BODY = new Set(['PasskeyOptions', 'ResetAccess', 'DisableUser', 'EnableUser', 'ResendInvitation']);
  const bodyRoutes = ROUTES.filter(
    (route) =>
      (route.method !== 'GET' && route.method !== 'DELETE' && !NO_BODY.has(route.id)) ||
      route.id === 'DeleteMe',
  );
  const tokenFor = (auth: string) =>
    auth === 'public' ? undefined : auth === 'coach' ? coach.idToken : admin.idToken;

  it.each([
    ['malformed JSON', { raw: '{"email":' }, 400, API_MESSAGES.invalidJson],
    [
      'a wrong content type',
      { raw: 'email=a@b.co', contentType: 'application/x-www-form-urlencoded' },
      415,
      API_MESSAGES.unsupportedMediaType,
    ],
    [
      'a body over 32 KB',
      { raw: JSON.stringify({ email: `${'a'.repeat(33 * 1024)}@b.co` }) },
      413,
      API_MESSAGES.payloadTooLarge,
    ],
  ])('%s gets a clear 4xx on every route with a body', async (_, options, status, message) => {
    const before = await snapshot();
    for (const route of bodyRoutes) {
      const answer = await http.request(route.method, route.path, {
        token: tokenFor(route.auth),
        ...options,
      });
      expect(answer, `${route.method} ${route.path}`).toMatchObject({ status, body: { message } });
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['an out-of-range height', { heightCm: 300.1 }, VALIDATION.heightRange],
    ['an unknown key', { roles: ['admins'] }, 'Unrecognized key: "roles"'],
    ['a userId', { userId: '6f1c2a52-94f1-4c1e-9a61-2f3f7d0b8c11' }, 'Unrecognized key: "userId"'],
    ['a 300-character name', { name: 'a'.repeat(300) }, VALIDATION.nameTooLong],
    ['an invalid email', { email: 'not-an-email' }, VALIDATION.invalidEmail],
    ['an email change', { email: 'other@example.com' }, API_MESSAGES.emailChange],
    [
      'a date of birth in a later year',
      { dateOfBirth: `${new Date().getUTCFullYear() + 1}-01-01` },
      VALIDATION.invalidDateOfBirth,
    ],
    [
      'a date of birth 122 years back',
      { dateOfBirth: `${new Date().getUTCFullYear() - 122}-12-31` },
      VALIDATION.invalidDateOfBirth,
    ],
  ])('PUT /v1/users/me with %s is a 400 with its message', async (_, body, message) => {
    const before = await snapshot();
    const answer = await http.request('PUT', '/v1/users/me', { token: user.idToken, json: body });
    expect(answer).toMatchObject({ status: 400, body: { message } });
    expect(await snapshot()).toEqual(before);
  });

  it('rejects __proto__ in a profile update', async () => {
    const before = await snapshot();
    const answer = await http.request('PUT', '/v1/users/me', {
      token: user.idToken,
      raw: '{"__proto__":{"isAdmin":true}}',
    });
    expect(answer.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['an invalid email', { email: 'nope' }, VALIDATION.invalidEmail],
    ['an unknown role', { email: 'new@example.com', roles: ['root'] }, VALIDATION.invalidRole],
    [
      'an unknown key',
      { email: 'new@example.com', activationCode: 'ABCDEFGH2345WXYZ' },
      'Unrecognized key: "activationCode"',
    ],
  ])('POST /internal/v1/admin/invitations with %s is a 400', async (_, body, message) => {
    const before = await snapshot();
    const answer = await http.request('POST', '/internal/v1/admin/invitations', {
      token: admin.idToken,
      json: body,
    });
    expect(answer).toMatchObject({ status: 400, body: { message } });
    expect(await snapshot()).toEqual(before);
  });

  it('rejects bad auth requests with their messages', async () => {
    const before = await snapshot();
    const verify = await http.request('POST', '/v1/auth/verify-activation', {
      json: { email: 'nope', activationCode: 'x' },
    });
    expect(verify).toMatchObject({ status: 400, body: { message: VALIDATION.invalidEmail } });
    const code = await http.request('POST', '/v1/auth/verify-activation', {
      json: { email: 'a@b.co', activationCode: 'short' },
    });
    expect(code).toMatchObject({ status: 400, body: { message: VALIDATION.registrationCode } });
    const signin = await http.request('POST', '/v1/auth/initiate-signin', { json: { username: 'admin' } });
    expect(signin.status).toBe(400);
    const webauthn = await http.request('POST', '/v1/auth/verify-webauthn', { json: { sessionId: 'x' } });
    expect(webauthn.status).toBe(400);
    const register = await http.request('POST', '/v1/auth/register-passkey', {
      json: { email: 'a@b.co', activationCode: coachCode },
    });
    expect(register.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe('only its own origin (issue 11)', () => {
  /** A raw request with the Host header a page on another name (DNS rebinding) would send. */
  const withHost = (host: string, method: string, path: string, body?: string) =>
    new Promise<{ status: number; body: string }>((resolvePromise, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: { host, ...(body !== undefined && { 'content-type': 'application/x-amz-json-1.1' }) },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolvePromise({ status: response.statusCode ?? 0, body: text }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  const listUsers = JSON.stringify({ UserPoolId: 'us-west-2_localpool' });

  it('answers 421 to the API, the Cognito endpoint and the SPA for any other Host, and changes nothing', async () => {
    for (const host of [
      'rebind.attacker.example',
      `rebind.attacker.example:${port}`,
      `127.0.0.1:${port}`,
      `localhost:${port + 1}`,
    ]) {
      const api = await withHost(host, 'GET', '/v1/users/me');
      expect(api, host).toMatchObject({ status: 421 });
      expect(JSON.parse(api.body)).toEqual({ message: MISDIRECTED });
      expect((await withHost(host, 'POST', '/cognito/', listUsers)).status, host).toBe(421);
      expect((await withHost(host, 'GET', '/'))?.status, host).toBe(421);
    }
    // Its own Host still reaches each part: the API (401 without a token) and the JWKS.
    expect((await withHost(`localhost:${port}`, 'GET', '/v1/users/me')).status).toBe(401);
    expect((await withHost(`LOCALHOST:${port}`, 'GET', '/v1/users/me')).status).toBe(401);
  });
});

describe("Cognito admin calls need the run's key pair (issue 11, decision 052)", () => {
  const cognitoAs = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
    new CognitoIdentityProviderClient({
      endpoint: `${stack.origin}/cognito`,
      region: 'us-west-2',
      credentials,
      maxAttempts: 1,
    });
  const groupsOf = async (client: CognitoIdentityProviderClient, Username: string) =>
    (
      await client.send(new AdminListGroupsForUserCommand({ UserPoolId: LOCAL_USER_POOL_ID, Username }))
    ).Groups?.map((group) => group.GroupName);

  it("refuses AdminAddUserToGroup signed with the old fixed 'local'/'local', and the groups stay", async () => {
    const run = cognitoAs(stack.credentials);
    const old = cognitoAs({ accessKeyId: 'local', secretAccessKey: 'local' });
    try {
      expect(await groupsOf(run, user.cognitoUsername)).toEqual(['users']);

      await expect(
        old.send(
          new AdminAddUserToGroupCommand({
            UserPoolId: LOCAL_USER_POOL_ID,
            Username: user.cognitoUsername,
            GroupName: 'admins',
          }),
        ),
      ).rejects.toMatchObject({
        name: 'UnrecognizedClientException',
        message: 'The security token included in the request is invalid.',
        $metadata: { httpStatusCode: 400 },
      });

      expect(await groupsOf(run, user.cognitoUsername)).toEqual(['users']);
      const users = await http.request<{ users: { email: string; roles: string[] }[] }>(
        'GET',
        '/internal/v1/admin/users',
        { token: admin.idToken },
      );
      expect(users.body.users.find((u) => u.email === 'user@example.com')?.roles).toEqual(['users']);
    } finally {
      run.destroy();
      old.destroy();
    }
  });

  it("hands the run's key pair to the Lambdas and to `npm run invite` in an owner-only stack file", async () => {
    expect(stack.credentials.accessKeyId).not.toBe('local');
    expect(process.env.AWS_ACCESS_KEY_ID).toBe(stack.credentials.accessKeyId);
    expect(process.env.AWS_SECRET_ACCESS_KEY).toBe(stack.credentials.secretAccessKey);
    const path = stackFilePath(dataDir);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const file = JSON.parse(await readFile(path, 'utf8')) as LocalStackFile;
    expect(file.credentials).toEqual({
      accessKeyId: stack.credentials.accessKeyId,
      secretAccessKey: stack.credentials.secretAccessKey,
    });
  });
});

describe.skipIf(!canSeeSockets)('nothing of it can be reached from the network', () => {
  /** Resolves with the connection's error code, or 'connected'. */
  const tryConnect = (host: string, toPort: number) =>
    new Promise<string>((done) => {
      const socket = connect({ host, port: toPort });
      socket.setTimeout(2000, () =>
        socket.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
      );
      socket.once('connect', () => {
        socket.destroy();
        done('connected');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    });

  it('sees a server on every interface for what it is (the check below can fail)', async () => {
    const everywhere = createTcpServer();
    await new Promise<void>((done) => everywhere.listen(0, done));
    const address = everywhere.address();
    const seen = typeof address === 'object' && address ? listeningAddresses(address.port) : [];
    await new Promise((done) => everywhere.close(done));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((listened) => !isLoopback(listened))).not.toEqual([]);
  });

  it('listens on the loopback address only: the site, the API, Cognito and DynamoDB Local, which checks no credentials', async () => {
    const file = JSON.parse(await readFile(stackFilePath(dataDir), 'utf8')) as LocalStackFile;
    const dynamoPort = Number(new URL(file.dynamoDbEndpoint).port);
    for (const listened of [port, dynamoPort]) {
      const addresses = listeningAddresses(listened);
      expect(addresses.length).toBeGreaterThan(0);
      expect(addresses.filter((address) => !isLoopback(address))).toEqual([]);
    }
    // Dialled on this machine's other addresses (when it has any), both ports refuse.
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((info) => info !== undefined && !info.internal && info.family === 'IPv4')
      .map((info) => info?.address ?? '');
    for (const host of external)
      for (const listened of [port, dynamoPort])
        expect(await tryConnect(host, listened)).toBe('ECONNREFUSED');
    expect(await tryConnect('127.0.0.1', dynamoPort)).toBe('connected');
  });

  it("keeps DynamoDB Local's files (codes, health records, audit events) to their owner", async () => {
    expect((await stat(join(dataDir, 'dynamodb'))).mode & 0o777).toBe(0o700);
  });
});
