/**
 * The one HTTP wrapper every API handler goes through: media type and size checks, JSON parsing,
 * validation with the shared schemas, caller identity from the authorizer's verified claims,
 * and typed errors mapped to `{message}` answers. Nothing else ever reaches the caller: no stack traces.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import {
  IDEMPOTENCY_KEY_HEADER,
  isUuid,
  LAMBDA_RESPONSE_MAX_BYTES,
  MAX_REQUEST_BODY_BYTES,
  type RoleGroup,
} from '../../shared/constants';
import { API_ANSWER_HEADERS } from '../../shared/api-headers';
import { API_MESSAGES, GATEWAY_MESSAGES, repeatedQueryParameter } from '../../shared/messages';
import { roleGroupsFromClaim } from '../../shared/roles';
import type { WireSchema } from '../../shared/schemas';
import type { AuthLevel } from '../routes';
import {
  BadRequest,
  Forbidden,
  HttpError,
  PayloadTooLarge,
  Unauthorized,
  UnknownCredential,
  UnsupportedMediaType,
} from './errors';
import { logger } from './logger';
import { sha256Hex } from './secrets';
import { userPoolClientId } from './env';
import { sessionIsValid } from './session';
import { sourcePosition } from './source-position';

/** The signed-in caller, from the id token that API Gateway's authorizer verified. */
export interface Caller {
  readonly sub: string;
  readonly username: string;
  readonly email: string;
  readonly groups: RoleGroup[];
  /** Epoch seconds the id token was issued. */
  readonly issuedAt: number;
  /** Epoch seconds of the sign-in the token descends from (kept across refreshes). */
  readonly authTime: number;
  /** The session (`origin_jti`): one sign-in and every token refreshed from it. */
  readonly originJti: string;
}

export interface RequestContext<Body, C extends Caller | null = Caller | null, Query = undefined> {
  readonly body: Body;
  readonly query: Query;
  readonly caller: C;
  readonly pathParameters: Record<string, string>;
  readonly event: APIGatewayProxyEvent;
}

export interface HttpResult {
  readonly statusCode: number;
  readonly body?: unknown;
  /** Extra answer headers (a download's Content-Disposition, a media type other than JSON). */
  readonly headers?: Record<string, string>;
}

export const ok = (body: unknown): HttpResult => ({ statusCode: 200, body });
export const created = (body: unknown): HttpResult => ({ statusCode: 201, body });
export const noContent = (): HttpResult => ({ statusCode: 204 });

interface HandlerOptions<A extends AuthLevel, Body, Query> {
  readonly auth: A;
  /** Request body schema; routes without one ignore the body. */
  readonly body?: WireSchema<Body>;
  /** Query string schema; routes without one ignore the query string. */
  readonly query?: WireSchema<Query>;
  /**
   * The handler only reads the caller's own items and changes nothing anywhere (no write, no audit
   * event), so it runs alongside the session check, and its answer is released only once the check has
   * passed: a refused token gets the same 401 and nothing of what was read (docs/decisions/058-admin-lists-at-scale.md).
   */
  readonly ownReadOnly?: A extends 'user' ? true : never;
}
type Caller_<A extends AuthLevel> = A extends 'public' ? Caller | null : Caller;

const header = (event: APIGatewayProxyEvent, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  const entry = Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === wanted);
  return entry?.[1] ?? undefined;
};

/**
 * The create's idempotency key, when the client sent one: a UUID, lowercase, by which the same create
 * sent again finds what the first one stored (a health record's id, an invitation's or a note's key;
 * ADR 061). 400 otherwise.
 */
export const idempotencyKeyOf = (event: APIGatewayProxyEvent): string | undefined => {
  const key = header(event, IDEMPOTENCY_KEY_HEADER);
  if (key === undefined) return undefined;
  const normalised = key.trim().toLowerCase();
  if (!isUuid(normalised)) throw new BadRequest(API_MESSAGES.invalidIdempotencyKey);
  return normalised;
};

/** A value as JSON with every object's keys in one order, so that the same request is the same text. */
const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
};

/**
 * The fingerprint of a create's validated body (SHA-256 of its canonical JSON), kept beside its
 * idempotency key: the key sent again with another body is refused (422), not answered with what the
 * first body stored (ADR 061).
 */
export const requestFingerprint = (body: unknown): string => sha256Hex(JSON.stringify(canonical(body)));

/**
 * Path parameters that are UUIDs: read in either case, as the lowercase ids are stored (RFC 9562 has a
 * UUID's hex digits case-insensitive on input). A credential id is base64url, whose case is meaning.
 */
const UUID_PATH_PARAMETERS: ReadonlySet<string> = new Set(['userId', 'measurementId', 'logId']);

const rawBody = (event: APIGatewayProxyEvent): string => {
  if (event.body === null || event.body === undefined) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
};

const validate = <Output>(schema: WireSchema<Output>, input: unknown): Output => {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
    throw new BadRequest(issues[0]?.message ?? API_MESSAGES.invalidRequest, issues);
  }
  return result.data;
};

/**
 * The query string, each parameter once. API Gateway hands a handler the last of a parameter sent twice
 * (`?type=glucose&type=weight` would read weights, and a coach's read be audited as such): refused.
 */
const queryOf = (event: APIGatewayProxyEvent): Record<string, string | undefined> => {
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {}))
    if (values && values.length > 1) throw new BadRequest(repeatedQueryParameter(name));
  return event.queryStringParameters ?? {};
};

const parseBody = <Body>(event: APIGatewayProxyEvent, schema: WireSchema<Body>): Body => {
  const text = rawBody(event);
  if (Buffer.byteLength(text, 'utf8') > MAX_REQUEST_BODY_BYTES)
    throw new PayloadTooLarge(API_MESSAGES.payloadTooLarge);
  const mediaType = header(event, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') throw new UnsupportedMediaType(API_MESSAGES.unsupportedMediaType);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BadRequest(API_MESSAGES.invalidJson);
  }
  return validate(schema, json);
};

/**
 * A time claim in seconds. API Gateway's Cognito authorizer delivers `auth_time` as a number in a
 * string and `iat` and `exp` as dates (`Fri Jul 29 17:52:53 UTC 2016`); a token carries numbers.
 */
export const claimSeconds = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.floor(value) : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : Math.floor(parsed / 1000);
};

/**
 * What the log says of an unexpected error: its name and where it was thrown (file, line, column, in
 * our sources when it was thrown in a bundle: `sourcePosition`),
 * never its message, which a library may have built from the request (a challenge, a number, a part
 * of the body); an AWS service's answer keeps its message, which names resources and permissions.
 */
const loggableError = (error: unknown): Record<string, string | undefined> => {
  if (!(error instanceof Error)) return { errorName: typeof error };
  // The stack begins with the name and the message (which may span lines); the frames follow it.
  const stack = error.stack ?? '';
  const header = error.message ? `${error.name}: ${error.message}` : error.name;
  const frames = stack.startsWith(header) ? stack.slice(header.length) : '';
  const thrownAt = /^\s+at (?:.*?\()?([^()\s]+:\d+:\d+)\)?$/m.exec(frames);
  return {
    errorName: error.name,
    errorAt: thrownAt?.[1] && sourcePosition(thrownAt[1]),
    ...('$metadata' in error && { errorMessage: error.message }),
  };
};

/** API Gateway delivers claims as strings; a group list may arrive as `[admins users]` or `admins,users`. */
const callerFrom = (event: APIGatewayProxyEvent): Caller | null => {
  const claims: Record<string, unknown> | undefined = (
    event.requestContext?.authorizer as { claims?: Record<string, unknown> } | null
  )?.claims;
  if (!claims || claims.token_use !== 'id' || typeof claims.sub !== 'string') return null;
  // The authorizer checked signature, issuer and expiry, but accepts any app client of the pool.
  if (claims.aud !== userPoolClientId()) return null;
  // The stage's authorizer keeps a verified token's result for minutes (`resultsCacheTtl`); whether it
  // looks at `exp` again when it answers from that cache, AWS does not say: an expired token ends here.
  const expiresAt = claimSeconds(claims.exp);
  if (expiresAt === undefined || expiresAt * 1000 <= Date.now())
    throw new Unauthorized(GATEWAY_MESSAGES.tokenExpired);
  const issuedAt = claimSeconds(claims.iat);
  const authTime = claimSeconds(claims.auth_time);
  // Cognito puts `origin_jti` in every token of a client with revocation on; one without it could not
  // be signed out, so it is not accepted.
  const originJti = typeof claims.origin_jti === 'string' ? claims.origin_jti : '';
  if (issuedAt === undefined || authTime === undefined || originJti === '') return null;
  return {
    sub: claims.sub,
    username: typeof claims['cognito:username'] === 'string' ? claims['cognito:username'] : claims.sub,
    email: typeof claims.email === 'string' ? claims.email : '',
    groups: roleGroupsFromClaim(claims['cognito:groups']),
    issuedAt,
    authTime,
    originJti,
  };
};

const authorize = async (level: AuthLevel, caller: Caller | null): Promise<void> => {
  if (level === 'public') return;
  if (!caller) throw new Unauthorized();
  // A token of a disabled, deleted or reset person, or one with roles that changed, ends here.
  if (!(await sessionIsValid(caller))) throw new Unauthorized();
  if (level === 'admin' && !caller.groups.includes('admins')) throw new Forbidden(API_MESSAGES.forbidden);
  if (level === 'coach' && !caller.groups.includes('coaches')) throw new Forbidden(API_MESSAGES.forbidden);
};

const respond = (
  statusCode: number,
  body?: unknown,
  extra: Record<string, string> = {},
): APIGatewayProxyResult => {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...API_ANSWER_HEADERS };
  const allowOrigin = process.env.CORS_ALLOW_ORIGIN;
  if (allowOrigin) {
    headers['Access-Control-Allow-Origin'] = allowOrigin;
    // Across origins a page reads only the CORS-safelisted headers: a download's name must be exposed.
    if ('Content-Disposition' in extra) headers['Access-Control-Expose-Headers'] = 'Content-Disposition';
  }
  if (body === undefined) return { statusCode, headers: { ...headers, ...extra }, body: '' };
  headers['Content-Type'] = 'application/json';
  return { statusCode, headers: { ...headers, ...extra }, body: JSON.stringify(body) };
};

/**
 * Whether a handler's answer fits in what a Lambda may answer (the proxy result as this module builds
 * it, serialized). Over it, API Gateway would answer 502 and the answer would be lost: a handler that
 * records what it answers checks first.
 */
export const fitsOneAnswer = (result: HttpResult): boolean =>
  Buffer.byteLength(JSON.stringify(respond(result.statusCode, result.body, result.headers))) <=
  LAMBDA_RESPONSE_MAX_BYTES;

export const httpHandler =
  <A extends AuthLevel, Body = undefined, Query = undefined>(
    options: HandlerOptions<A, Body, Query>,
    handle: (context: RequestContext<Body, Caller_<A>, Query>) => Promise<HttpResult>,
  ) =>
  async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const route = `${event.httpMethod} ${event.resource}`;
    try {
      const caller = options.auth === 'public' ? null : callerFrom(event);
      // Settled at once, so that a refusal met while an own-read handler still runs is not unhandled.
      const refusal = authorize(options.auth, caller).then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      const checked = async () => {
        const refused = await refusal;
        if (refused) throw refused.error;
      };
      if (!options.ownReadOnly || !caller) await checked();
      const run = async () => {
        const body = (options.body ? parseBody(event, options.body) : undefined) as Body;
        const query = (options.query ? validate(options.query, queryOf(event)) : undefined) as Query;
        const pathParameters = Object.fromEntries(
          Object.entries(event.pathParameters ?? {})
            .filter((entry): entry is [string, string] => entry[1] !== undefined)
            .map(([name, value]) => [name, UUID_PATH_PARAMETERS.has(name) ? value.toLowerCase() : value]),
        );
        return handle({ body, query, caller: caller as Caller_<A>, pathParameters, event });
      };
      const handled = run().then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      // Whatever the handler met, a refused session answers as refused.
      await checked();
      const outcome = await handled;
      if ('error' in outcome) throw outcome.error;
      const result = outcome.value;
      return respond(result.statusCode, result.body, result.headers);
    } catch (error) {
      if (error instanceof HttpError) {
        logger.info('request rejected', { route, statusCode: error.statusCode, reason: error.message });
        return respond(error.statusCode, {
          message: error.message,
          ...(error.details !== undefined && { issues: error.details }),
          ...(error instanceof UnknownCredential && error.fields),
        });
      }
      logger.error('request failed', { route, ...loggableError(error) });
      return respond(500, { message: API_MESSAGES.internal });
    }
  };
