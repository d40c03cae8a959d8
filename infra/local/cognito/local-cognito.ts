/**
 * The local stand-in for the product's Cognito user pool. `createLocalCognito` gives a request
 * handler to mount inside the product's one Node server (same origin as the SPA, so no CORS);
 * `startLocalCognitoServer` runs it alone on 127.0.0.1 for tests and tools.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Action, ActionRequest } from './actions/action';
import { adminGroupActions } from './actions/admin-groups';
import { adminUserActions } from './actions/admin-users';
import { authFlowActions } from './actions/auth-flows';
import { userTokenActions } from './actions/user-tokens';
import type { LocalCognitoOptions } from './config';
import { CognitoError, internalError, serialization, unknownOperation } from './errors';
import { createPool, type Pool } from './pool';
import {
  hasJsonContentType,
  isCognitoPreflight,
  parseJsonObject,
  readBody,
  requestPath,
  sendError,
  sendJson,
  sendPreflight,
  targetAction,
} from './protocol';
import { verifySignature, type AwsCredentials } from './sigv4';

export type {
  PoolTriggers,
  LocalCognitoOptions,
  PersistenceOption,
  RefreshTokenRotation,
  TriggerHandler,
} from './config';
export type { AwsCredentials } from './sigv4';

/** The service name admin calls are signed for, as in the credential scope `…/<region>/cognito-idp/aws4_request`. */
const SIGNING_SERVICE = 'cognito-idp';

export interface LocalCognito {
  /** Answers the request and resolves true when it is a Cognito call or the JWKS; false leaves it to the host. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** `${publicUrl}/${userPoolId}`: the `iss` of every token and the base of the JWKS URL. */
  readonly issuer: string;
  /** Path of the JWKS on this handler, `/<userPoolId>/.well-known/jwks.json` under publicUrl's path. */
  readonly jwksPath: string;
  /** The key pair admin calls must be signed with: the option's, or the one drawn for this pool. */
  readonly credentials: AwsCredentials;
  /** Waits for pending writes; afterwards every call is refused. */
  close(): Promise<void>;
}

const ACTIONS: Readonly<Record<string, Action>> = {
  ...authFlowActions,
  ...userTokenActions,
  ...adminUserActions,
  ...adminGroupActions,
};

const sdkVersionOf = (req: IncomingMessage): string => {
  const agent = `${String(req.headers['x-amz-user-agent'] ?? '')} ${String(req.headers['user-agent'] ?? '')}`;
  const match = /aws-sdk-js\/([\w.-]+)/.exec(agent);
  return match ? `aws-sdk-js-${match[1]}` : 'aws-sdk-unknown-unknown';
};

export const createLocalCognito = (options: LocalCognitoOptions): LocalCognito => {
  const pool = createPool(options);
  const { config } = pool;
  // Amplify posts to the exact URL it was given; accept it with or without a trailing slash.
  const base = config.endpointPath.replace(/\/+$/, '');
  const endpointPaths = new Set(base === '' ? ['/'] : [base, `${base}/`]);
  let closed = false;

  const call = async (req: IncomingMessage, actionName: string): Promise<object> => {
    const body = await readBody(req);
    if (closed) throw internalError('The local Cognito endpoint is closed.');
    const action = Object.hasOwn(ACTIONS, actionName) ? ACTIONS[actionName] : undefined;
    if (!action) throw unknownOperation(`Operation ${actionName} is not supported by the local user pool.`);
    if (action.signed) {
      // Admin calls carry IAM credentials in AWS: the SigV4 signature must match the pool's key pair.
      verifySignature(
        { method: req.method ?? '', url: req.url ?? '/', headers: req.headers, body },
        {
          credentials: config.credentials,
          region: config.region,
          service: SIGNING_SERVICE,
          nowMs: pool.nowMs(),
        },
      );
    }
    if (!hasJsonContentType(req)) throw serialization('Content-Type must be application/x-amz-json-1.1.');
    const request: ActionRequest = { body: parseJsonObject(body), awsSdkVersion: sdkVersionOf(req) };
    return action.run(pool, request);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = requestPath(req);
    if (path === config.jwksPath && (req.method === 'GET' || req.method === 'HEAD')) {
      sendJson(
        res,
        200,
        { keys: [pool.key.jwk] },
        { 'content-type': 'application/json', 'cache-control': 'max-age=300' },
      );
      return true;
    }
    if (!endpointPaths.has(path)) return false;
    if (req.method === 'OPTIONS' && isCognitoPreflight(req)) {
      sendPreflight(res);
      return true;
    }
    const actionName = req.method === 'POST' ? targetAction(req) : undefined;
    if (actionName === undefined) return false;
    try {
      sendJson(res, 200, await call(req, actionName));
    } catch (error) {
      sendError(res, asCognitoError(pool, actionName, error));
    }
    return true;
  };

  return {
    handle,
    issuer: config.issuer,
    jwksPath: config.jwksPath,
    credentials: config.credentials,
    close: async () => {
      closed = true;
      pool.sessions.clear();
      await pool.flush();
    },
  };
};

/** Known failures pass through; anything else is logged (never the request body) and hidden. */
const asCognitoError = (pool: Pool, actionName: string, error: unknown): CognitoError => {
  if (error instanceof CognitoError) return error;
  pool.config.logger.error(`[local-cognito] ${actionName} failed:`, error);
  return internalError();
};

export interface LocalCognitoServer {
  /** Endpoint URL for the SDK's `endpoint` or Amplify's `userPoolEndpoint`. */
  readonly url: string;
  readonly issuer: string;
  readonly jwksUri: string;
  /** The key pair admin calls must be signed with. */
  readonly credentials: AwsCredentials;
  stop(): Promise<void>;
}

export type LocalCognitoServerOptions = Omit<LocalCognitoOptions, 'publicUrl'> & {
  /** Default: the URL the server listens on. */
  readonly publicUrl?: string;
  /** Default 0: any free port. */
  readonly port?: number;
};

/** Listens on 127.0.0.1 only: a development pool must not be reachable from the network. */
export const startLocalCognitoServer = async (
  options: LocalCognitoServerOptions,
): Promise<LocalCognitoServer> => {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  let cognito: LocalCognito;
  try {
    cognito = createLocalCognito({ ...options, publicUrl: options.publicUrl ?? origin });
  } catch (error) {
    server.close();
    throw error;
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    cognito.handle(req, res).then(
      (handled) => {
        if (!handled) sendJson(res, 404, { message: 'Not Found' }, { 'content-type': 'application/json' });
      },
      (error: unknown) => {
        options.logger?.error('[local-cognito] request failed:', error);
        if (!res.headersSent) sendError(res, internalError());
      },
    );
  });

  const endpointPath = options.endpointPath ?? '/';
  return {
    url: origin + (endpointPath === '/' ? '' : endpointPath),
    issuer: cognito.issuer,
    jwksUri: origin + cognito.jwksPath,
    credentials: cognito.credentials,
    stop: async () => {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      // The SDK keeps connections alive; without this, close() would wait for them to time out.
      server.closeAllConnections();
      await closing;
      await cognito.close();
    },
  };
};
