/**
 * `npm start`: the whole product on http://localhost:3000 with no AWS account.
 *   npm start                 Vite dev server for the SPA (hot reload), data under .local/
 *   npm start -- --prod       serve the production build of the SPA (built first)
 *   npm start -- --reset      start with empty data
 * Environment: PORT (3000), BOOTSTRAP_ADMIN_EMAIL (admin@example.com), LOCAL_DATA_DIR (.local),
 * LOCAL_START_TRACE=1 (each start-up step, and the stop, on stderr as `[start] ...`).
 *
 * Stopping (docs/decisions/053-start-and-stop.md): SIGINT or SIGTERM at any moment, the
 * instant `Ready` is printed included, stops what has started, and what is still starting as soon as
 * it has, then exits 0 (1 when the stop fails or takes over 10 s). So does the end of the process that
 * started this one (npm killed with SIGTERM does not pass the signal on).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { LocalStack } from '../infra/local/stack';
import { DEFAULT_REGION } from '../shared/constants';

// First, before anything is spawned: how we stop. Everything started below takes this signal.
const stopRequest = new AbortController();
const STOP_TIMEOUT_MS = 10_000;

const trace =
  process.env.LOCAL_START_TRACE === '1'
    ? (line: string) => console.error(`[start] ${line}`)
    : () => undefined;
let phase = 'loading';
const enter = (next: string) => {
  phase = next;
  trace(next);
};

const requestStop = (reason: string) => {
  if (stopRequest.signal.aborted) return;
  trace(`stop (${reason}) during ${phase}`);
  stopRequest.abort(new Error(`Stopped (${reason})`));
  setTimeout(() => {
    console.error(`Stopping took over ${STOP_TIMEOUT_MS / 1000} s: exiting anyway.`);
    process.exit(1);
  }, STOP_TIMEOUT_MS);
};
// Not SIGHUP: a handler would override `nohup npm start`; a closed terminal hangs up the JVM too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => requestStop(signal));
// `npm start` runs us under `sh -c`; npm killed with SIGTERM takes that shell with it without passing
// the signal on, and we are left to init. We notice within half a second and stop as if signalled.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) requestStop('parent exited');
}, 500).unref();
const stopRequested = new Promise<void>((done) =>
  stopRequest.signal.addEventListener('abort', () => done(), { once: true }),
);

// The SDK warns that Node 20 support ends in 2027; the deployed Lambdas run Node 22.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const repositoryRoot = resolve(import.meta.dirname, '..');

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

/** `vite build` of the SPA with the local configuration, as a child that the stop kills; its exit code. */
const buildWeb = (env: Record<string, string>): Promise<number | null> =>
  new Promise((done, reject) => {
    const vitePackage = createRequire(import.meta.url).resolve('vite/package.json');
    const { bin } = JSON.parse(readFileSync(vitePackage, 'utf8')) as { bin: { vite: string } };
    stopRequest.signal.throwIfAborted();
    const build = spawn(
      process.execPath,
      [
        join(dirname(vitePackage), bin.vite),
        'build',
        '--config',
        'web/vite.config.ts',
        '--configLoader',
        'runner',
        '--logLevel',
        'warn',
      ],
      { cwd: repositoryRoot, stdio: 'inherit', env: { ...process.env, ...env } },
    );
    const kill = () => build.kill('SIGTERM');
    stopRequest.signal.addEventListener('abort', kill, { once: true });
    build.once('error', reject);
    build.once('exit', (code) => {
      stopRequest.signal.removeEventListener('abort', kill);
      done(code);
    });
  });

/** Starts the stack; rejects, having stopped what it started, when the stop comes first. */
const start = async (): Promise<{ stack: LocalStack; started: number }> => {
  const { values } = parseArgs({
    options: { reset: { type: 'boolean', default: false }, prod: { type: 'boolean', default: false } },
    strict: true,
  });
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    fail(`PORT must be a port number, not "${process.env.PORT}".`);

  enter('checking-java');
  const { checkJava, JavaMissingError } = await import('../infra/local/dynamodb-local');
  try {
    checkJava();
  } catch (error) {
    if (error instanceof JavaMissingError) fail(error.message);
    throw error;
  }

  const { LOCAL_CLIENT_ID, LOCAL_USER_POOL_ID, startLocalStack } = await import('../infra/local/stack');
  if (values.prod) {
    enter('building-web');
    const { localWebEnvironment } = await import('../infra/local/spa');
    const code = await buildWeb(localWebEnvironment(LOCAL_USER_POOL_ID, LOCAL_CLIENT_ID, DEFAULT_REGION));
    stopRequest.signal.throwIfAborted();
    if (code !== 0) fail('The SPA build failed: see the lines above.');
  }

  stopRequest.signal.throwIfAborted();
  enter('starting-stack');
  const started = Date.now();
  const stack = await startLocalStack({
    repositoryRoot,
    port,
    dataDir: resolve(repositoryRoot, process.env.LOCAL_DATA_DIR ?? '.local'),
    reset: values.reset,
    web: values.prod ? 'dist' : 'vite',
    bootstrapAdminEmail: process.env.BOOTSTRAP_ADMIN_EMAIL ?? 'admin@example.com',
    signal: stopRequest.signal,
    onPhase: enter,
  });
  return { stack, started };
};

const main = async () => {
  const running = await start().catch((error: unknown) => {
    // A start called off by the stop has stopped what it started; any error on the way is its echo.
    if (stopRequest.signal.aborted) return undefined;
    return fail(`Could not start the local stack: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (running && !stopRequest.signal.aborted) {
    const { stack, started } = running;
    const { accounts, invitations } = stack.directoryBackfill;
    if (accounts + invitations > 0)
      console.log(
        `Listed ${accounts} account(s) and ${invitations} invitation(s) kept from an earlier version in User Management.`,
      );
    if (stack.adminActivationLink) console.log(`Admin activation link: ${stack.adminActivationLink}`);
    console.log(`Ready on ${stack.origin}`);
    if (process.env.LOCAL_TIMING) console.log(`Started in ${Date.now() - started} ms`);
    enter('ready');
  }

  await stopRequested;
  const stopped = await (running?.stack.stop() ?? Promise.resolve()).then(
    () => true,
    () => false,
  );
  trace(stopped ? 'stopped' : 'stop failed');
  process.exit(stopped ? 0 : 1);
};

main().catch((error: unknown) =>
  fail(`Could not start the local stack: ${error instanceof Error ? error.message : String(error)}`),
);
