import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ACCOUNT_MESSAGES } from '../../../../shared/account';
import { API_MESSAGES, GATEWAY_MESSAGES, MESSAGES } from '../../../../shared/messages';
import { onSessionEnded } from '../../../../web/src/lib/auth/session-ended';
import {
  ANSWER_TIMEOUT_MS,
  apiRequest,
  mayHaveReachedServer,
  UnexpectedResponseError,
  validateRequest,
} from '../../../../web/src/lib/api-client';
import { ApiError, isRetryableError } from '../../../../web/src/lib/api-error';
import { errorMessage, isNetworkFailure } from '../../../../web/src/lib/errors';
import { forgetUnansweredCreates, idempotencyKeyFor } from '../../../../web/src/lib/idempotency';
import * as cognito from '../support/cognito-mock';
import { fakeApi, json } from '../support/fake-api';

vi.mock('../../../../web/src/lib/auth/cognito', () => import('../support/cognito-mock'));

const itemSchema = z.object({ id: z.string() });

describe('apiRequest', () => {
  beforeEach(() => {
    cognito.getIdToken.mockResolvedValue('id-token-1');
  });

  it('calls the configured API with JSON and the id token as a bearer', async () => {
    const api = fakeApi({ 'POST /v1/things': { id: 'a' } });
    const answer = await apiRequest('/v1/things', {
      method: 'POST',
      body: { name: 'x' },
      schema: itemSchema,
    });
    expect(answer).toEqual({ id: 'a' });
    expect(api.calls[0]).toMatchObject({
      method: 'POST',
      path: '/v1/things',
      body: { name: 'x' },
      headers: { authorization: 'Bearer id-token-1', 'content-type': 'application/json' },
    });
    expect(vi.mocked(fetch).mock.calls[0]?.[0]).toBe('https://api.test/v1/things');
  });

  it('refuses to call without an id token, and reports the session over (signed out in another tab)', async () => {
    const ended = vi.fn();
    const stop = onSessionEnded(ended);
    cognito.getIdToken.mockResolvedValue(undefined);
    const api = fakeApi({});
    await expect(apiRequest('/v1/users/me', { schema: itemSchema })).rejects.toThrow(MESSAGES.noIdToken);
    expect(api.calls).toHaveLength(0);
    expect(ended).toHaveBeenCalledTimes(1);
    // Signing out itself must not report it again (it would loop).
    await expect(
      apiRequest('/v1/users/me/sign-out', { method: 'POST', body: {}, reportEndedSession: false }),
    ).rejects.toThrow(MESSAGES.noIdToken);
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
  });

  it('tells a failure that may have reached the server from one before anything was sent', async () => {
    const failureOf = (call: () => Promise<unknown>) =>
      call().then(
        () => undefined,
        (error: unknown) => error,
      );
    const post = () => apiRequest('/v1/things', { method: 'POST', body: {}, schema: itemSchema });
    fakeApi({ 'POST /v1/things': json({ message: 'Internal server error' }, 500) });
    expect(mayHaveReachedServer(await failureOf(post))).toBe(true);
    fakeApi({ 'POST /v1/things': json({ unexpected: true }) });
    expect(mayHaveReachedServer(await failureOf(post))).toBe(true);
    // The network failed once the request had left.
    vi.mocked(fetch).mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(mayHaveReachedServer(await failureOf(post))).toBe(true);

    // Never sent: the token refresh offline (Amplify's NetworkError), no session, a refused body.
    const offline = Object.assign(new Error('Network error'), { name: 'NetworkError' });
    cognito.getIdToken.mockRejectedValueOnce(offline);
    expect(mayHaveReachedServer(await failureOf(post))).toBe(false);
    cognito.getIdToken.mockResolvedValueOnce(undefined);
    expect(mayHaveReachedServer(await failureOf(post))).toBe(false);
    const refused = await failureOf(async () => validateRequest(itemSchema, { id: 1 }));
    expect(mayHaveReachedServer(refused)).toBe(false);
    expect(mayHaveReachedServer(new TypeError('x is undefined'))).toBe(false);
  });

  it('skips the token for public calls', async () => {
    cognito.getIdToken.mockResolvedValue(undefined);
    const api = fakeApi({ 'POST /v1/auth/initiate-signin': { id: 'b' } });
    await apiRequest('/v1/auth/initiate-signin', {
      method: 'POST',
      body: {},
      auth: false,
      schema: itemSchema,
    });
    expect(api.calls[0]?.headers.authorization).toBeUndefined();
  });

  it("reports the session over when the API refuses the token, but not for a passkey route's re-sign-in", async () => {
    const ended = vi.fn();
    const stop = onSessionEnded(ended);
    fakeApi({
      'GET /v1/users/me': json({ message: API_MESSAGES.unauthorized }, 401),
      'POST /v1/users/me/passkeys/options': json({ message: ACCOUNT_MESSAGES.reauthRequired }, 401),
      'POST /v1/auth/verify-webauthn': json({ message: API_MESSAGES.unauthorized }, 401),
    });
    await expect(apiRequest('/v1/users/me/passkeys/options', { method: 'POST' })).rejects.toEqual(
      new ApiError(401, ACCOUNT_MESSAGES.reauthRequired),
    );
    await expect(apiRequest('/v1/auth/verify-webauthn', { method: 'POST', auth: false })).rejects.toThrow();
    expect(ended).not.toHaveBeenCalled();
    await expect(apiRequest('/v1/users/me', { schema: itemSchema })).rejects.toEqual(
      new ApiError(401, API_MESSAGES.unauthorized),
    );
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
  });

  it('reports the session over when the gateway refuses an expired token with its own message', async () => {
    const ended = vi.fn();
    const stop = onSessionEnded(ended);
    fakeApi({ 'GET /v1/users/me': json({ message: GATEWAY_MESSAGES.tokenExpired }, 401) });
    await expect(apiRequest('/v1/users/me', { schema: itemSchema })).rejects.toEqual(
      new ApiError(401, GATEWAY_MESSAGES.tokenExpired),
    );
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
  });

  it('uses the JSON message of a failed answer', async () => {
    fakeApi({ 'GET /x': json({ message: 'Not found' }, 404) });
    await expect(apiRequest('/x', { schema: itemSchema })).rejects.toEqual(new ApiError(404, 'Not found'));
  });

  it('uses the raw body when the failure is not JSON with a message', async () => {
    fakeApi({
      'GET /x': new Response('upstream timed out', { status: 504 }),
      'GET /y': json({ error: 'no' }, 400),
    });
    await expect(apiRequest('/x', { schema: itemSchema })).rejects.toThrow('upstream timed out');
    await expect(apiRequest('/y', { schema: itemSchema })).rejects.toThrow('{"error":"no"}');
  });

  it('falls back to the status line for an empty failure', async () => {
    fakeApi({ 'GET /x': new Response(null, { status: 502, statusText: 'Bad Gateway' }) });
    await expect(apiRequest('/x', { schema: itemSchema })).rejects.toThrow('API error: 502 Bad Gateway');
  });

  it('answers nothing for 204', async () => {
    fakeApi({ 'DELETE /x': new Response(null, { status: 204 }) });
    await expect(apiRequest('/x', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('rejects an answer that does not match the schema', async () => {
    fakeApi({ 'GET /x': { id: 42 } });
    await expect(apiRequest('/x', { schema: itemSchema })).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});

describe('a create without an answer', () => {
  beforeEach(() => {
    cognito.getIdToken.mockResolvedValue('id-token-1');
  });

  it.each([
    [201, 'done', true],
    [400, 'refused', true],
    [503, 'perhaps stored, its answer lost', false],
  ])('after a %i (%s), Save pressed again is a new create: %s', async (status, _, newKey) => {
    fakeApi({ 'POST /v1/logs': json(status < 300 ? { id: 'a' } : { message: 'x' }, status) });
    const body = { kind: 'meal', description: 'Soup' };
    const key = idempotencyKeyFor({ ...body });
    await apiRequest('/v1/logs', { method: 'POST', body, schema: itemSchema, idempotencyKey: key }).catch(
      () => undefined,
    );
    expect(idempotencyKeyFor({ ...body }) !== key).toBe(newKey);
    forgetUnansweredCreates();
  });
});

describe('an answer that does not come', () => {
  /** A fetch that never answers, and rejects as browsers do when its signal aborts. */
  const stalled = () =>
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init?: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            // As browsers do: the signal's reason (a DOMException, or what the caller aborted with).
            const stop = () => reject(init?.signal?.reason as Error);
            if (init?.signal?.aborted) stop();
            init?.signal?.addEventListener('abort', stop);
          }),
      ),
    );

  beforeEach(() => {
    cognito.getIdToken.mockResolvedValue('id-token-1');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is given up after 30 s (API Gateway gives up at 29), as a sent, retryable network failure', async () => {
    stalled();
    const request = apiRequest('/v1/measurements', { method: 'POST', body: {}, schema: itemSchema });
    const failed = expect(request).rejects.toMatchObject({ name: 'TimeoutError' });
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS - 1);
    expect(vi.mocked(fetch).mock.calls[0]?.[1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await failed;
    const error: unknown = await request.catch((caught: unknown) => caught);
    expect(ANSWER_TIMEOUT_MS).toBe(30_000);
    expect(isNetworkFailure(error)).toBe(true);
    expect(isRetryableError(error)).toBe(true);
    expect(mayHaveReachedServer(error)).toBe(true);
    // Worded by the screen, not by the browser.
    expect(errorMessage(error, 'Could not save the entry. Please try again.')).toBe(
      'Could not save the entry. Please try again.',
    );
  });

  it('is a timeout still when the engine rejects the aborted fetch with its own AbortError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init?: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
          }),
      ),
    );
    const request = apiRequest('/v1/things', { schema: itemSchema });
    const failed = expect(request).rejects.toMatchObject({ name: 'TimeoutError' });
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS);
    await failed;
  });

  it('leaves an answer that began in time alone, and still stops when its caller aborts', async () => {
    fakeApi({ 'GET /v1/things': { id: 'a' } });
    await expect(apiRequest('/v1/things', { schema: itemSchema })).resolves.toEqual({ id: 'a' });
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS * 2);
    expect(vi.mocked(fetch).mock.calls[0]?.[1]?.signal?.aborted).toBe(false);

    stalled();
    const caller = new AbortController();
    const request = apiRequest('/v1/things', { schema: itemSchema, signal: caller.signal });
    const failed = expect(request).rejects.toThrow('stopped');
    caller.abort(new Error('stopped'));
    await failed;
  });
});

describe('isRetryableError', () => {
  it.each([429, 500, 502, 503, 504])('retries status %i', (status) => {
    expect(isRetryableError(new ApiError(status, 'x'))).toBe(true);
  });

  it.each([400, 401, 403, 404, 409])('does not retry status %i', (status) => {
    expect(isRetryableError(new ApiError(status, 'x'))).toBe(false);
  });

  it("retries network failures only: fetch's TypeError, and Amplify's NetworkError of a refresh that could not be made", () => {
    expect(isRetryableError(new TypeError('Failed to fetch'))).toBe(true);
    const offline = Object.assign(new Error('A network error has occurred.'), { name: 'NetworkError' });
    expect(isRetryableError(offline)).toBe(true);
    expect(isRetryableError(new Error('boom'))).toBe(false);
  });
});
