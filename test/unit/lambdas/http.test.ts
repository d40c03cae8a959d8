import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Conflict } from '../../../lambdas/common/errors';
import { claimSeconds, httpHandler, noContent, ok } from '../../../lambdas/common/http';
import { sessionIsValid } from '../../../lambdas/common/session';
import { API_MESSAGES, GATEWAY_MESSAGES } from '../../../shared/messages';
import { call } from '../../fixtures/api-events';

// The session check reads the account from DynamoDB; its own tests run against DynamoDB Local
// (test/integration/account-lifecycle.test.ts). Here it answers what each test says.
vi.mock('../../../lambdas/common/session', () => ({ sessionIsValid: vi.fn(() => Promise.resolve(true)) }));

const echo = httpHandler(
  { auth: 'public', body: z.strictObject({ name: z.string().min(1, 'Name is required') }) },
  async ({ body }) => ok({ hello: body.name }),
);
const mine = httpHandler({ auth: 'user' }, async ({ caller }) =>
  ok({ sub: caller.sub, groups: caller.groups }),
);
const adminOnly = httpHandler({ auth: 'admin' }, async () => noContent());
const CLIENT_ID = 'app-client';
const idClaims = {
  sub: '6f1c2a52-94f1-4c1e-9a61-2f3f7d0b8c11',
  token_use: 'id',
  email: 'a@b.co',
  aud: CLIENT_ID,
  // As API Gateway's Cognito authorizer delivers them: `iat` as a date, `auth_time` as seconds.
  iat: 'Mon Nov 23 10:00:05 UTC 2026',
  auth_time: '1795255200',
  origin_jti: '5a0f0f38-8a34-4c2b-9d43-1d1c9b1e7f20',
  // Valid for the run; as seconds (the authorizer's date shape is read the same way, as `iat` shows).
  exp: String(Math.floor(Date.now() / 1000) + 900),
};

beforeEach(() => {
  vi.stubEnv('USER_POOL_CLIENT_ID', CLIENT_ID);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the HTTP wrapper', () => {
  it('parses and validates a JSON body and answers JSON that is never cached', async () => {
    const answer = await call(echo, { body: { name: 'Ada' } });
    expect(answer).toMatchObject({ status: 200, body: { hello: 'Ada' } });
    expect(answer.headers['Cache-Control']).toBe('no-store');
    expect(answer.headers['Content-Type']).toBe('application/json');
    // Nothing in it may run, load, be sniffed as HTML or be framed: the local server's headers too.
    expect(answer.headers).toMatchObject({
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    });
  });

  it("lets the app's origin, and only it, read a download's file name across origins", async () => {
    const download = httpHandler({ auth: 'public' }, async () => ({
      statusCode: 200,
      body: { a: 1 },
      headers: { 'Content-Disposition': 'attachment; filename="health-records-2026-11-26.json"' },
    }));
    const local = await call(download, {});
    expect(local.headers['Access-Control-Allow-Origin']).toBeUndefined();
    expect(local.headers['Access-Control-Expose-Headers']).toBeUndefined();
    vi.stubEnv('CORS_ALLOW_ORIGIN', 'https://app.example.com');
    const cloud = await call(download, {});
    expect(cloud.headers['Access-Control-Allow-Origin']).toBe('https://app.example.com');
    expect(cloud.headers['Access-Control-Expose-Headers']).toBe('Content-Disposition');
    expect(
      (await call(echo, { body: { name: 'Ada' } })).headers['Access-Control-Expose-Headers'],
    ).toBeUndefined();
  });

  it('answers 415 for a body that is not declared JSON', async () => {
    const answer = await call(echo, { rawBody: 'name=Ada', headers: { 'content-type': 'text/plain' } });
    expect(answer).toMatchObject({ status: 415, body: { message: API_MESSAGES.unsupportedMediaType } });
  });

  it('accepts a JSON media type with parameters, in any header case', async () => {
    const answer = await call(echo, {
      body: { name: 'Ada' },
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(answer.status).toBe(200);
  });

  it('answers 413 over 32 KB, before parsing', async () => {
    const answer = await call(echo, { rawBody: JSON.stringify({ name: 'a'.repeat(33 * 1024) }) });
    expect(answer).toMatchObject({ status: 413, body: { message: API_MESSAGES.payloadTooLarge } });
  });

  it('answers 400 for malformed JSON', async () => {
    const answer = await call(echo, { rawBody: '{"name":' });
    expect(answer).toMatchObject({ status: 400, body: { message: API_MESSAGES.invalidJson } });
  });

  it('answers 400 with the schema message and the issues', async () => {
    const answer = await call(echo, { body: { name: '' } });
    expect(answer).toMatchObject({
      status: 400,
      body: { message: 'Name is required', issues: [{ path: 'name', message: 'Name is required' }] },
    });
  });

  it('answers 400 for unknown keys', async () => {
    const answer = await call(echo, { rawBody: '{"name":"Ada","__proto__":{"admin":true}}' });
    expect(answer.status).toBe(400);
  });

  it('answers 401 to an authenticated route without verified id-token claims', async () => {
    expect((await call(mine, { method: 'GET' })).status).toBe(401);
    expect((await call(mine, { method: 'GET', claims: { ...idClaims, token_use: 'access' } })).status).toBe(
      401,
    );
  });

  it("answers 401 to another app client's id token, which the authorizer would let through", async () => {
    expect((await call(mine, { method: 'GET', claims: { ...idClaims, aud: 'another-client' } })).status).toBe(
      401,
    );
  });

  it('reads the time claims in both shapes the authorizer and a token use', () => {
    expect(claimSeconds('Fri Jul 29 17:52:53 UTC 2016')).toBe(1469814773);
    expect(claimSeconds('1469814773')).toBe(1469814773);
    expect(claimSeconds(1469814773)).toBe(1469814773);
    expect(claimSeconds('yesterday')).toBeUndefined();
    expect(claimSeconds(undefined)).toBeUndefined();
  });

  it('answers 401 to a token past its expiry (or with none), which a cached authorizer result could let through', async () => {
    const { exp: _exp, ...noExp } = idClaims;
    const past = { ...idClaims, exp: String(Math.floor(Date.now() / 1000) - 1) };
    for (const claims of [noExp, past])
      expect(await call(mine, { method: 'GET', claims })).toMatchObject({
        status: 401,
        body: { message: GATEWAY_MESSAGES.tokenExpired },
      });
    expect((await call(mine, { method: 'GET', claims: idClaims })).status).toBe(200);
  });

  it('answers 401 when the token has no issue or sign-in time, or no session it could be signed out of', async () => {
    const { iat: _iat, ...noIat } = idClaims;
    const { auth_time: _authTime, ...noAuthTime } = idClaims;
    const { origin_jti: _originJti, ...noOriginJti } = idClaims;
    expect((await call(mine, { method: 'GET', claims: noIat })).status).toBe(401);
    expect((await call(mine, { method: 'GET', claims: noAuthTime })).status).toBe(401);
    expect((await call(mine, { method: 'GET', claims: noOriginJti })).status).toBe(401);
    expect((await call(mine, { method: 'GET', claims: idClaims })).status).toBe(200);
  });

  it("asks the session check about the caller's sign-in, and answers 401 when it says no", async () => {
    vi.mocked(sessionIsValid).mockClear();
    const claims = { ...idClaims, 'cognito:groups': '[users]' };
    expect((await call(mine, { method: 'GET', claims })).status).toBe(200);
    expect(sessionIsValid).toHaveBeenCalledWith(
      expect.objectContaining({
        sub: idClaims.sub,
        groups: ['users'],
        authTime: 1795255200,
        originJti: idClaims.origin_jti,
      }),
    );
    vi.mocked(sessionIsValid).mockResolvedValueOnce(false);
    expect(await call(mine, { method: 'GET', claims })).toMatchObject({
      status: 401,
      body: { message: API_MESSAGES.unauthorized },
    });
    vi.mocked(sessionIsValid).mockResolvedValueOnce(false);
    expect(
      (await call(adminOnly, { method: 'GET', claims: { ...idClaims, 'cognito:groups': '[admins]' } }))
        .status,
    ).toBe(401);
  });

  it('runs an own-read handler alongside the session check, and releases nothing of it when the check says no', async () => {
    let release: (valid: boolean) => void = () => undefined;
    const started: string[] = [];
    const ownRead = (answer: () => Promise<ReturnType<typeof ok>>) =>
      httpHandler({ auth: 'user', ownReadOnly: true }, async () => {
        started.push('handler');
        return answer();
      });
    const profile = ownRead(async () => ok({ secret: 'the profile' }));
    const claims = { ...idClaims, 'cognito:groups': '[users]' };

    vi.mocked(sessionIsValid).mockImplementationOnce(
      () => new Promise<boolean>((resolve) => (release = resolve)),
    );
    const pending = call(profile, { method: 'GET', claims });
    await vi.waitFor(() => expect(started).toEqual(['handler']));
    release(false);
    const refused = await pending;
    expect(refused).toMatchObject({ status: 401, body: { message: API_MESSAGES.unauthorized } });
    expect(JSON.stringify(refused.body)).not.toContain('the profile');

    // A handler failing meanwhile does not change the answer to a refused session either.
    vi.mocked(sessionIsValid).mockResolvedValueOnce(false);
    const failing = ownRead(async () => {
      throw new Conflict('nothing to see');
    });
    expect((await call(failing, { method: 'GET', claims })).status).toBe(401);
    // Accepted: the handler's answer.
    expect(await call(profile, { method: 'GET', claims })).toMatchObject({
      status: 200,
      body: { secret: 'the profile' },
    });
    // Without claims nothing runs at all.
    started.length = 0;
    expect((await call(profile, { method: 'GET' })).status).toBe(401);
    expect(started).toEqual([]);
  });

  it('reads groups in the shape API Gateway delivers them', async () => {
    const answer = await call(mine, {
      method: 'GET',
      claims: { ...idClaims, 'cognito:groups': '[users coaches]' },
    });
    expect(answer.body).toEqual({ sub: idClaims.sub, groups: ['coaches', 'users'] });
  });

  it('answers 403 to an admin route for a caller outside admins, 204 inside', async () => {
    expect(
      (await call(adminOnly, { method: 'GET', claims: { ...idClaims, 'cognito:groups': 'users' } })).status,
    ).toBe(403);
    const answer = await call(adminOnly, {
      method: 'GET',
      claims: { ...idClaims, 'cognito:groups': '[admins]' },
    });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
  });

  it('maps typed errors to their status and hides everything else behind a 500', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const conflict = httpHandler({ auth: 'public' }, () => Promise.reject(new Conflict('Taken')));
    const crash = httpHandler({ auth: 'public' }, () => Promise.reject(new Error('secret detail at line 3')));
    expect(await call(conflict, {})).toMatchObject({ status: 409, body: { message: 'Taken' } });
    const answer = await call(crash, {});
    expect(answer).toMatchObject({ status: 500, body: { message: API_MESSAGES.internal } });
    expect(JSON.stringify(answer.body)).not.toContain('secret detail');
    stderr.mockRestore();
  });

  it("logs an unexpected error's name and where it was thrown, not its message (a library may quote the request in it)", async () => {
    vi.stubEnv('LOG_LEVEL', 'error');
    const lines: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    // A message that looks like a frame ("at 2026-11-26T08:15:00") is not taken for the place.
    const challenge = 'q8Zt0-expected-challenge';
    const crash = httpHandler({ auth: 'public' }, () =>
      Promise.reject(
        new TypeError(
          `Unexpected authentication response challenge, expected "${challenge}" at 2026-11-26T08:15:00Z\n    at (x:1:2)`,
        ),
      ),
    );
    expect((await call(crash, {})).status).toBe(500);
    const logged = JSON.parse(lines.at(-1) ?? '{}') as Record<string, unknown>;
    expect(logged).toMatchObject({ level: 'error', message: 'request failed', errorName: 'TypeError' });
    expect(logged.errorAt).toMatch(/http\.test\.ts:\d+:\d+$/);
    expect(lines.join('')).not.toContain(challenge);

    // An AWS service's answer keeps its message: it names the resource or permission, for the operator.
    const denied = Object.assign(new Error('User is not authorized to perform: dynamodb:GetItem'), {
      name: 'AccessDeniedException',
      $metadata: { httpStatusCode: 400 },
    });
    const service = httpHandler({ auth: 'public' }, () => Promise.reject(denied));
    expect((await call(service, {})).status).toBe(500);
    expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({
      errorName: 'AccessDeniedException',
      errorMessage: 'User is not authorized to perform: dynamodb:GetItem',
    });
    stderr.mockRestore();
  });
});
