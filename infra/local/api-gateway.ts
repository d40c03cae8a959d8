/**
 * The local stand-in for API Gateway: routes the API paths of the route manifest to the very handler
 * modules the CDK stack deploys, verifies the id token as the Cognito authorizer does (aws-jwt-verify
 * against the local JWKS), and builds the REST API proxy event with the claims as API Gateway
 * delivers them (strings; a list flattened to `[a b]`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { JwtExpiredError } from 'aws-jwt-verify/error';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { ROUTES, type RouteDefinition } from '../../lambdas/routes';
import { API_FUNCTION_TIMEOUT_SECONDS, LAMBDA_RESPONSE_MAX_BYTES } from '../../shared/constants';
import { GATEWAY_MESSAGES } from '../../shared/messages';
import { AUTHORIZER_CACHE_MINUTES } from '../../shared/session-policy';
import { localJwksFetcher } from './cognito/jwks-fetcher';

type ApiHandler = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

export interface LocalApiGatewayOptions {
  readonly repositoryRoot: string;
  readonly issuer: string;
  readonly jwksUri: string;
  /** Largest request body read into memory; API Gateway's own limit is 10 MB. */
  readonly maxBodyBytes?: number;
  /** How long a handler may run before the answer is API Gateway's 502. @default API_FUNCTION_TIMEOUT_SECONDS */
  readonly functionTimeoutMs?: number;
}

interface CompiledRoute {
  readonly route: RouteDefinition;
  readonly pattern: RegExp;
  readonly parameterNames: string[];
}

const compile = (route: RouteDefinition): CompiledRoute => {
  const parameterNames: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
    parameterNames.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), parameterNames };
};

/** `exp` and `iat` as API Gateway's Cognito authorizer writes them: `Fri Jul 29 17:52:53 UTC 2016`. */
const asAuthorizerDate = (epochSeconds: number): string => {
  const [weekday, day, month, year, time] = new Date(epochSeconds * 1000).toUTCString().split(' ');
  return `${weekday?.slice(0, 3)} ${month} ${day} ${time} UTC ${year}`;
};

/**
 * API Gateway hands every claim to the Lambda as a string; lists become `[a b]`, and `exp` and `iat`
 * become dates (while `auth_time` stays a number of seconds).
 */
export const claimsAsApiGatewayDelivers = (payload: JwtPayload): Record<string, string> =>
  Object.fromEntries(
    Object.entries(payload).map(([key, value]) => [
      key,
      (key === 'exp' || key === 'iat') && typeof value === 'number'
        ? asAuthorizerDate(value)
        : Array.isArray(value)
          ? `[${value.map(String).join(' ')}]`
          : typeof value === 'string'
            ? value
            : JSON.stringify(value),
    ]),
  );

/** Tokens whose verified claims are kept; past it, the oldest goes first. */
/** The API's stages: every route's path starts with one (`/v1/...`, `/internal/v1/...`). */
const API_PATH = /^\/(v1|internal)(\/|$)/;

const AUTHORIZER_CACHE_ENTRIES = 10_000;

/**
 * The Cognito authorizer's result cache, as the stage configures it (`AUTHORIZER_CACHE_MINUTES`): the
 * claims of a token whose signature, issuer and expiry were checked, by the exact token, until the cache
 * time or the token's `exp`, whichever comes first. Any other string, a tampered token among them, is
 * verified afresh.
 */
const authorizerCache = () => {
  const entries = new Map<string, { readonly claims: Record<string, string>; readonly until: number }>();
  return {
    get: (token: string): Record<string, string> | undefined => {
      const entry = entries.get(token);
      if (entry && Date.now() < entry.until) return entry.claims;
      entries.delete(token);
      return undefined;
    },
    set: (token: string, payload: JwtPayload, claims: Record<string, string>): void => {
      if (typeof payload.exp !== 'number') return;
      if (entries.size >= AUTHORIZER_CACHE_ENTRIES) entries.delete(entries.keys().next().value ?? '');
      entries.set(token, {
        claims,
        until: Math.min(Date.now() + AUTHORIZER_CACHE_MINUTES * 60_000, payload.exp * 1000),
      });
    },
  };
};

const readBody = (req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** Whether a proxy result is over Lambda's limit; only an answer of over a sixth of it can be. */
const overLambdaLimit = (result: APIGatewayProxyResult): boolean =>
  (result.body?.length ?? 0) > LAMBDA_RESPONSE_MAX_BYTES / 6 &&
  Buffer.byteLength(JSON.stringify(result)) > LAMBDA_RESPONSE_MAX_BYTES;

const send = (
  res: ServerResponse,
  statusCode: number,
  headers: Record<string, string>,
  body: string,
): void => {
  res.writeHead(statusCode, headers);
  res.end(body);
};

export interface ProxyEventInput {
  readonly method: string;
  /** The resource path with its `{parameters}`, as API Gateway names the route. */
  readonly resource: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string | null;
  readonly query?: Record<string, string> | null;
  /** Every value of each parameter, as API Gateway gives them beside the last one. */
  readonly multiValueQuery?: Record<string, string[]> | null;
  readonly pathParameters?: Record<string, string> | null;
  /** The verified claims, as the Cognito authorizer hands them over; absent on public routes. */
  readonly claims?: Record<string, string>;
  readonly sourceIp?: string;
  readonly resourceId?: string;
}

/** A REST API (v1) Lambda proxy event, as API Gateway builds it. */
export const proxyEvent = (input: ProxyEventInput): APIGatewayProxyEvent => ({
  resource: input.resource,
  path: input.path,
  httpMethod: input.method,
  headers: input.headers,
  multiValueHeaders: {},
  queryStringParameters: input.query ?? null,
  multiValueQueryStringParameters: input.multiValueQuery ?? null,
  pathParameters: input.pathParameters ?? null,
  stageVariables: null,
  isBase64Encoded: false,
  body: input.body,
  requestContext: {
    accountId: '000000000000',
    apiId: 'local',
    authorizer: input.claims ? { claims: input.claims } : null,
    httpMethod: input.method,
    identity: {
      sourceIp: input.sourceIp ?? '127.0.0.1',
    } as APIGatewayProxyEvent['requestContext']['identity'],
    path: input.path,
    protocol: 'HTTP/1.1',
    requestId: crypto.randomUUID(),
    requestTimeEpoch: Date.now(),
    resourceId: input.resourceId ?? 'local',
    resourcePath: input.resource,
    stage: 'local',
  },
});

export const createLocalApiGateway = (options: LocalApiGatewayOptions) => {
  const routes = ROUTES.map(compile);
  const verifier = JwtRsaVerifier.create(
    {
      issuer: options.issuer,
      // API Gateway's Cognito authorizer accepts any app client of the pool; the Lambda checks `aud`.
      audience: null,
      jwksUri: options.jwksUri,
      customJwtCheck: ({ payload }) => {
        if (payload.token_use !== 'id') throw new Error('not an id token');
      },
    },
    { jwksCache: new SimpleJwksCache({ fetcher: localJwksFetcher }) },
  );
  const verified = authorizerCache();
  const handlers = new Map<string, Promise<ApiHandler>>();
  const load = (route: RouteDefinition): Promise<ApiHandler> => {
    let handler = handlers.get(route.entry);
    if (!handler) {
      const url = pathToFileURL(join(options.repositoryRoot, route.entry)).href;
      handler = import(url).then((module: { handler: ApiHandler }) => module.handler);
      handlers.set(route.entry, handler);
    }
    return handler;
  };

  /**
   * The routes of the one resource API Gateway picks for a path: among those that match, the most
   * specific (a literal segment before a `{parameter}`: `/passkeys/options` before
   * `/passkeys/{credentialId}`). Its methods are the only ones the path has.
   */
  const resourceOf = (path: string) => {
    const matching = routes.flatMap((compiled) => {
      const match = compiled.pattern.exec(path);
      return match ? [{ compiled, values: match.slice(1) }] : [];
    });
    const parameters = (candidate: (typeof matching)[number]) => candidate.compiled.parameterNames.length;
    const fewest = Math.min(...matching.map(parameters));
    return matching.filter((candidate) => parameters(candidate) === fewest);
  };

  /** True when the request was an API path (answered here), false to let another part serve it. */
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const candidates = resourceOf(url.pathname);
    // Everything under the API's stages is the API's, as on its own host in the cloud: a path with no
    // route is API Gateway's 403, never the app's page.
    if (candidates.length === 0 && !API_PATH.test(url.pathname)) return false;
    const json = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    const found = candidates.find(({ compiled }) => compiled.route.method === req.method);
    if (!found) {
      send(res, 403, json, JSON.stringify({ message: GATEWAY_MESSAGES.noRoute }));
      return true;
    }
    const { route, parameterNames } = found.compiled;

    let claims: Record<string, string> | undefined;
    if (route.auth !== 'public') {
      const token =
        /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? req.headers.authorization ?? '';
      claims = verified.get(token);
      if (!claims) {
        try {
          const payload = await verifier.verify(token);
          claims = Object.freeze(claimsAsApiGatewayDelivers(payload));
          verified.set(token, payload, claims);
        } catch (error) {
          // As the Cognito authorizer answers: its own message for a token past `exp`.
          const message = error instanceof JwtExpiredError ? GATEWAY_MESSAGES.tokenExpired : 'Unauthorized';
          send(res, 401, json, JSON.stringify({ message }));
          return true;
        }
      }
    }

    const body = await readBody(req, options.maxBodyBytes ?? 10 * 1024 * 1024);
    if (body === 'too-large') {
      send(res, 413, json, JSON.stringify({ message: 'Request Too Long' }));
      return true;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([key, value]) => [
        key,
        Array.isArray(value) ? value.join(',') : (value ?? ''),
      ]),
    );
    const pathParameters = Object.fromEntries(parameterNames.map((name, i) => [name, found.values[i] ?? '']));
    const event = proxyEvent({
      method: route.method,
      resource: route.path,
      path: url.pathname,
      headers,
      query: url.search ? Object.fromEntries(url.searchParams) : null,
      multiValueQuery: url.search
        ? Object.fromEntries(
            [...new Set(url.searchParams.keys())].map((name) => [name, url.searchParams.getAll(name)]),
          )
        : null,
      pathParameters: parameterNames.length > 0 ? pathParameters : null,
      body: body.length > 0 ? body.toString('utf8') : null,
      claims,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      resourceId: route.id,
    });
    // In the stage Lambda stops a function at its timeout; here the handler cannot be stopped (it runs
    // in this process), but its answer is not waited for past it, and is never sent.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<undefined>((resolve) => {
      timer = setTimeout(
        () => resolve(undefined),
        options.functionTimeoutMs ?? API_FUNCTION_TIMEOUT_SECONDS * 1000,
      );
    });
    const result = await Promise.race([
      load(route)
        .then((handler) => handler(event))
        .catch(() => undefined),
      timedOut,
    ]).finally(() => clearTimeout(timer));
    // A Lambda that throws, runs out of time, or answers more than Lambda carries, surfaces as API
    // Gateway's 502.
    if (!result || overLambdaLimit(result)) {
      send(res, 502, json, JSON.stringify({ message: 'Internal server error' }));
      return true;
    }
    const responseHeaders = Object.fromEntries(
      Object.entries(result.headers ?? {}).map(([key, value]) => [key, String(value)]),
    );
    send(res, result.statusCode, responseHeaders, result.body);
    return true;
  };

  return { handle };
};
