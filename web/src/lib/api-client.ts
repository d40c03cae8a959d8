/**
 * The one way the SPA calls the product API (SPEC sections 7 and 8): JSON both ways, the id
 * token as a bearer, error text from the answer, and every answer checked against a shared schema.
 */
import { IDEMPOTENCY_KEY_HEADER } from '../../../shared/constants';
import { API_MESSAGES, apiErrorFallback, GATEWAY_MESSAGES, MESSAGES } from '../../../shared/messages';
import type { WireSchema } from '../../../shared/schemas';
import { getWebConfig } from '../config/web-config';
import { ApiError, isAlreadyGone } from './api-error';
import { createAnswered } from './idempotency';
import { loadAuth } from './auth/load-auth';
import { reportSessionEnded } from './auth/session-ended';

/** The answer did not have the shape the contract promises. */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  constructor() {
    super('The server sent an unexpected answer. Please try again.');
  }
}

/** Marks what `fetch` itself threw: the request had left, and may have reached the server. */
const SENT = Symbol('sent');

/**
 * Whether a failed call may have changed what the server holds, or met a change someone else made: it
 * answered (a refusal, or a 5xx that may come after the commit), its answer could not be read, or the
 * network failed once the request had left. Not a failure before anything was sent (a request body
 * the schema refused, a device prompt cancelled, no session, a token refresh offline): nothing is
 * worth reading again after those.
 */
export const mayHaveReachedServer = (error: unknown): boolean =>
  (error instanceof ApiError && error.message !== MESSAGES.noIdToken) ||
  error instanceof UnexpectedResponseError ||
  (typeof error === 'object' && error !== null && SENT in error);

/**
 * A mutation's `onSettled` reading again what its change may have altered: after it is done, or after a
 * failure that may have reached the server (`mayHaveReachedServer`); not after one before anything
 * was sent.
 */
export const readAgainIfSent = <Read>(error: unknown, read: () => Read): Read | undefined =>
  error === null || mayHaveReachedServer(error) ? read() : undefined;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * API Gateway gives up on a Lambda after 29 s (its 504), so an answer not begun after 30 s is not
 * coming: a half-open connection would otherwise hold a dialog on 'Saving...' until the page is
 * reloaded, what was typed lost with it (docs/decisions/023-retry-only-retryable-failures.md).
 */
export const ANSWER_TIMEOUT_MS = 30_000;

/**
 * `fetch`, given up with a 'TimeoutError' (`isNetworkFailure`, so retried once and worded by the
 * screen) when its answer has not begun within `ANSWER_TIMEOUT_MS`, or when `signal` aborts. The
 * body is read without the limit (an export may take longer to arrive). A rejection keeps its type
 * and wording, which the screens go by, and is marked as sent: it may have reached the server.
 */
export const fetchAnswer = async (
  url: string,
  init: RequestInit,
  signal?: AbortSignal,
): Promise<Response> => {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('The server did not answer in time.', 'TimeoutError')),
    ANSWER_TIMEOUT_MS,
  );
  const follow = () => controller.abort(signal?.reason);
  if (signal?.aborted) follow();
  signal?.addEventListener('abort', follow);
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } catch (caught) {
    // Some engines reject an aborted fetch with their own AbortError, not the reason given: the
    // timeout is still a timeout.
    const error: unknown =
      controller.signal.aborted && !signal?.aborted ? (controller.signal.reason as unknown) : caught;
    if (typeof error === 'object' && error !== null) Object.defineProperty(error, SENT, { value: true });
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', follow);
  }
};

interface RequestOptions<Output> {
  method?: Method;
  body?: unknown;
  /** Validates the answer; omit only for answers without a body (204). */
  schema?: WireSchema<Output>;
  /** Send the id token (default true); the /v1/auth/* calls are public. */
  auth?: boolean;
  /** Whether a refused session signs the person out (default true); sign-out itself must not. */
  reportEndedSession?: boolean;
  /** Sent as `Idempotency-Key`: the same create sent again stores nothing new (idempotencyKeyFor). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** A failed answer: its text as SPEC section 8 says, and its other JSON fields. */
const failureOf = async (
  response: Response,
): Promise<{ message: string; fields: Record<string, unknown> }> => {
  const body = await response.text().catch(() => '');
  if (!body.trim()) return { message: apiErrorFallback(response.status, response.statusText), fields: {} };
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      const { message, ...fields } = parsed as Record<string, unknown> & { message: string };
      if (message) return { message, fields };
    }
  } catch {
    // not JSON: the raw text is the message
  }
  return { message: body, fields: {} };
};

/**
 * The gateway or the session check refused the token: the session is over (not a passkey route's
 * re-sign-in). Amplify refreshes a token before it expires, so an expired one means the session could
 * not be kept.
 */
export const endsSession = (status: number, message: string): boolean =>
  status === 401 && (message === API_MESSAGES.unauthorized || message === GATEWAY_MESSAGES.tokenExpired);

/** Error text as SPEC section 8 says: JSON `message`, else the raw body, else status and text. */
export const errorText = async (response: Response): Promise<string> => (await failureOf(response)).message;

export function apiRequest<Output>(
  path: string,
  options: RequestOptions<Output> & { schema: WireSchema<Output> },
): Promise<Output>;
export function apiRequest(
  path: string,
  options?: RequestOptions<never> & { schema?: undefined },
): Promise<void>;
export async function apiRequest<Output>(
  path: string,
  {
    method = 'GET',
    body,
    schema,
    auth = true,
    reportEndedSession = true,
    signal,
    idempotencyKey,
  }: RequestOptions<Output> = {},
): Promise<Output | undefined> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (idempotencyKey !== undefined) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey;
  if (auth) {
    const token = await (await loadAuth()).getIdToken();
    if (!token) {
      // No stored tokens: signed out in another tab (Amplify's cookies are shared), so this one is too.
      if (reportEndedSession) reportSessionEnded();
      throw new ApiError(401, MESSAGES.noIdToken);
    }
    headers.Authorization = `Bearer ${token}`;
  }
  const response = await fetchAnswer(
    `${getWebConfig().apiBaseUrl}${path}`,
    { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) },
    signal,
  );
  // Done or refused, the server said what became of the create; a 5xx may have come after the write.
  if (idempotencyKey !== undefined && response.status < 500) createAnswered(idempotencyKey);
  if (!response.ok) {
    const { message, fields } = await failureOf(response);
    // The session check refused the token: the session is over (not a passkey route's re-sign-in).
    if (auth && reportEndedSession && endsSession(response.status, message)) reportSessionEnded();
    throw new ApiError(response.status, message, fields);
  }
  if (response.status === 204 || !schema) return undefined;
  const data: unknown = await response.json().catch(() => {
    throw new UnexpectedResponseError();
  });
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new UnexpectedResponseError();
  return parsed.data;
}

/**
 * A DELETE (204) whose 404 is done too: the thing is gone, whether an earlier try of this delete
 * removed it (its answer lost, then retried: SPEC section 9) or another tab or admin did.
 */
export const deleteResource = async (path: string): Promise<void> => {
  try {
    await apiRequest(path, { method: 'DELETE' });
  } catch (error) {
    if (!isAlreadyGone(error)) throw error;
  }
};

/**
 * Validates a request body before it leaves the browser; throws the first schema message, which
 * is the SPEC's wording for that field.
 */
export const validateRequest = <Output>(schema: WireSchema<Output>, body: unknown): Output => {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Invalid request');
  return parsed.data;
};
