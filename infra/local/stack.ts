/**
 * The whole product on one origin, with no AWS account: DynamoDB Local, the Cognito-compatible
 * endpoint running the real triggers, the API routed to the real handlers, and the SPA. Only the
 * managed services are swapped; the product code is the code the cloud runs.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { backfillDirectory, type BackfillResult } from '../../lambdas/common/directory-backfill';
import { DEFAULT_REGION, ROLE_GROUPS, WEBAUTHN_RP_NAME } from '../../shared/constants';
import { createLocalApiGateway } from './api-gateway';
import { ensureBootstrapAdmin } from './bootstrap';
import { createLocalCognito, type AwsCredentials } from './cognito/local-cognito';
import { generateCredentials } from './cognito/sigv4';
import { startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local';
import { PRODUCT_TRIGGERS } from './product-triggers';
import { startSchedules } from './schedules';
import { PRODUCT_SESSION_OPTIONS } from './session-options';
import { createTables, tableEnvironment, type TableNames } from './tables';
import { createLocalWeb, localWebEnvironment, type LocalWeb, type WebMode } from './spa';
import { LOCAL_BASE_HEADERS, setHeaders } from './security-headers';

export const LOCAL_USER_POOL_ID = `${DEFAULT_REGION}_localpool`;
export const LOCAL_CLIENT_ID = 'localwebclient';
export const COGNITO_PATH = '/cognito';

export interface LocalStackOptions {
  readonly repositoryRoot: string;
  readonly port: number;
  /** Folder for DynamoDB Local and the user pool; in memory when absent. */
  readonly dataDir?: string;
  /** Empty the data folder first. */
  readonly reset?: boolean;
  readonly web: WebMode;
  readonly bootstrapAdminEmail: string;
  /** More app clients of the pool (tests mint tokens with another audience with one). */
  readonly additionalClientIds?: readonly string[];
  /**
   * Run the scheduled functions (FinishErases) on their schedule, as the stage does. Default true;
   * tests that run them themselves turn it off, so no run can start in the middle of one.
   */
  readonly schedules?: boolean;
  /**
   * Calls the start off (docs/decisions/053): it stops at its next step and rejects, having stopped
   * what it started, DynamoDB Local at once. A stack returned after the abort is the caller's to stop.
   */
  readonly signal?: AbortSignal;
  /** Told each step of the start-up as it begins (`npm start` prints them with LOCAL_START_TRACE=1). */
  readonly onPhase?: (phase: string) => void;
}

export interface LocalStack {
  readonly origin: string;
  /** Set while no admin exists: the link that activates the bootstrap admin. */
  readonly adminActivationLink?: string;
  readonly tables: TableNames;
  /** The run's IAM key pair: what admin tools (and tests) sign Cognito admin calls with. */
  readonly credentials: AwsCredentials;
  /** What this start placed in the user directory from a data folder of an earlier version. */
  readonly directoryBackfill: BackfillResult;
  stop(): Promise<void>;
}

/**
 * Drawn once per process, i.e. per `npm start` run; never `local`/`local`. Per process rather than
 * per start: the in-process Lambdas' SDK clients keep the credentials they first read.
 */
const RUN_CREDENTIALS = generateCredentials();

/** What `npm run invite` needs to reach a running local stack. */
export interface LocalStackFile {
  readonly origin: string;
  readonly dynamoDbEndpoint: string;
  readonly cognitoEndpoint: string;
  readonly userPoolId: string;
  readonly tables: TableNames;
  /** Signs page cursors; drawn anew on every start (a cursor is only good for the pages it continues). */
  readonly cursorSigningKey: string;
  /** The key pair Cognito admin calls are signed with (decision 052); hence the file is mode 0600. */
  readonly credentials: AwsCredentials;
}
export const stackFilePath = (dataDir: string) => join(dataDir, 'stack.json');

export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
}

const listen = (server: Server, port: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new PortInUseError(
              `Port ${port} is in use: stop what uses it, or start on another port with PORT=${port + 1} npm start.`,
            )
          : error,
      );
    server.once('error', onError);
    // Loopback only: this stack has no real authentication at its edges and must not be reachable from the network.
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });

/** Points the in-process Lambdas at the local services, as their deployed environment points them at AWS. */
export const lambdaEnvironment = (stack: LocalStackFile): Record<string, string> => ({
  AWS_REGION: DEFAULT_REGION,
  // The run's key pair, as the cloud hands a Lambda its role's credentials; never the shell's own.
  AWS_ACCESS_KEY_ID: stack.credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: stack.credentials.secretAccessKey,
  AWS_SESSION_TOKEN: '',
  AWS_ENDPOINT_URL_DYNAMODB: stack.dynamoDbEndpoint,
  AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: stack.cognitoEndpoint,
  USER_POOL_ID: stack.userPoolId,
  USER_POOL_CLIENT_ID: LOCAL_CLIENT_ID,
  WEBAUTHN_RP_ID: 'localhost',
  WEBAUTHN_RP_NAME,
  WEBAUTHN_ORIGINS: stack.origin,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  CURSOR_SIGNING_KEY: stack.cursorSigningKey,
  // Same origin: the API sends no Access-Control-Allow-Origin locally, whatever the shell holds (decision 051).
  CORS_ALLOW_ORIGIN: '',
  ...tableEnvironment(stack.tables),
});

/** The answer to a request for another host name than the local origin's. */
export const MISDIRECTED = 'This server answers only for its own origin.';

/** Whether a request's Host header names the local origin (`localhost:<port>`), in any case. */
export const hostIsLocal = (host: string | undefined, port: number): boolean =>
  host?.toLowerCase() === `localhost:${port}`;

export const startLocalStack = async (options: LocalStackOptions): Promise<LocalStack> => {
  // WebAuthn accepts http only on the host name localhost (not 127.0.0.1).
  const origin = `http://localhost:${options.port}`;
  const server = createServer();
  await listen(server, options.port);

  const stoppers: (() => Promise<void>)[] = [
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  ];
  const stop = async () => {
    for (const stopper of stoppers.reverse()) await stopper().catch(() => undefined);
  };

  try {
    if (options.dataDir && options.reset) await rm(options.dataDir, { recursive: true, force: true });
    const dynamoDir = options.dataDir ? join(options.dataDir, 'dynamodb') : undefined;
    if (dynamoDir) {
      // DynamoDB Local's files hold activation codes, health records and audit events: the owner's only.
      await mkdir(dynamoDir, { recursive: true, mode: 0o700 });
      await chmod(dynamoDir, 0o700);
    }

    const web = options.web;
    Object.assign(process.env, localWebEnvironment(LOCAL_USER_POOL_ID, LOCAL_CLIENT_ID, DEFAULT_REGION));
    // Both settle before we go on: a part that starts while the other fails is stopped with the rest.
    const [dynamoStart, webStart] = await Promise.allSettled([
      startDynamoDbLocal({
        dbPath: dynamoDir,
        signal: options.signal,
        onSpawn: () => options.onPhase?.('dynamodb-local-spawned'),
      }).then((dynamo) => {
        options.onPhase?.('dynamodb-local-answered');
        return dynamo;
      }),
      createLocalWeb(web, join(options.repositoryRoot, 'web'), server),
    ]);
    if (dynamoStart.status === 'fulfilled') stoppers.push(() => dynamoStart.value.stop());
    if (webStart.status === 'fulfilled') stoppers.push(() => webStart.value.close());
    if (dynamoStart.status === 'rejected') throw dynamoStart.reason;
    if (webStart.status === 'rejected') throw webStart.reason;
    const [dynamo, localWeb]: [DynamoDbLocal, LocalWeb] = [dynamoStart.value, webStart.value];
    options.signal?.throwIfAborted();

    const client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: DEFAULT_REGION,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    options.onPhase?.('creating-tables');
    const tables = await createTables(client, 'local');
    client.destroy();
    options.signal?.throwIfAborted();
    options.onPhase?.('starting-cognito-and-api');
    const file: LocalStackFile = {
      origin,
      dynamoDbEndpoint: dynamo.endpoint,
      cognitoEndpoint: `${origin}${COGNITO_PATH}`,
      userPoolId: LOCAL_USER_POOL_ID,
      tables,
      cursorSigningKey: randomBytes(32).toString('hex'),
      // Copies: the AWS SDK writes a `$source` mark into a credentials object it is handed.
      credentials: { ...RUN_CREDENTIALS },
    };
    Object.assign(process.env, lambdaEnvironment(file));
    // A data folder of 0.6.0 holds people the list indexes do not know yet: placed before any request.
    const directoryBackfill = await backfillDirectory();
    options.signal?.throwIfAborted();

    const cognito = createLocalCognito({
      region: DEFAULT_REGION,
      userPoolId: LOCAL_USER_POOL_ID,
      clientId: LOCAL_CLIENT_ID,
      additionalClientIds: options.additionalClientIds ?? [],
      publicUrl: origin,
      endpointPath: COGNITO_PATH,
      groups: ROLE_GROUPS,
      triggers: PRODUCT_TRIGGERS,
      ...PRODUCT_SESSION_OPTIONS,
      credentials: file.credentials,
      persistence: options.dataDir
        ? { kind: 'directory', path: join(options.dataDir, 'cognito') }
        : { kind: 'memory' },
    });
    stoppers.push(() => cognito.close());
    const api = createLocalApiGateway({
      repositoryRoot: options.repositoryRoot,
      issuer: cognito.issuer,
      jwksUri: `${origin}${cognito.jwksPath}`,
    });

    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      // Every answer: JSON no page may render or frame; the SPA sends the production headers instead.
      setHeaders(res, LOCAL_BASE_HEADERS);
      // Only this origin's Host (issue 11): a page on another name that resolves here (DNS
      // rebinding) reaches neither the API, the Cognito endpoint nor the SPA.
      if (!hostIsLocal(req.headers.host, options.port)) {
        res.writeHead(421, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ message: MISDIRECTED }));
        return;
      }
      const route = async () => {
        if (await cognito.handle(req, res)) return;
        if (await api.handle(req, res)) return;
        await localWeb.handle(req, res);
      };
      route().catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Internal server error' }));
      });
    });

    // Every part answers before we say Ready: the JWKS through the same origin the browser uses.
    const jwks = await fetch(`${origin}${cognito.jwksPath}`);
    if (!jwks.ok) throw new Error(`The local Cognito endpoint did not answer (${jwks.status}).`);

    if (options.dataDir) {
      // It holds the run's secret key: readable by this user only, and created fresh (`wx`) so a
      // file left by an older run cannot keep wider permissions.
      await rm(stackFilePath(options.dataDir), { force: true });
      await writeFile(stackFilePath(options.dataDir), `${JSON.stringify(file, null, 2)}\n`, {
        mode: 0o600,
        flag: 'wx',
      });
      stoppers.push(() => rm(stackFilePath(options.dataDir ?? ''), { force: true }));
    }

    const adminActivationLink = await ensureBootstrapAdmin(options.bootstrapAdminEmail, origin);
    // FinishErases and any other scheduled function, on the stage's schedule.
    if (options.schedules ?? true) stoppers.push(startSchedules(options.repositoryRoot));
    return {
      origin,
      adminActivationLink,
      tables,
      credentials: { ...file.credentials },
      directoryBackfill,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
