/**
 * `npm start`: the whole product on http://localhost:3000 with no AWS account.
 *   npm start                 Vite dev server for the SPA (hot reload), data under .local/
 *   npm start -- --prod       serve the production build of the SPA (built first)
 *   npm start -- --reset      start with empty data
 * Environment: PORT (3000), BOOTSTRAP_ADMIN_EMAIL (admin@example.com), LOCAL_DATA_DIR (.local).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_REGION } from '../shared/constants';

// The SDK warns that Node 20 support ends in 2027; the deployed Lambdas run Node 22.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const repositoryRoot = resolve(import.meta.dirname, '..');

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const main = async () => {
  const { values } = parseArgs({
    options: { reset: { type: 'boolean', default: false }, prod: { type: 'boolean', default: false } },
    strict: true,
  });
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    fail(`PORT must be a port number, not "${process.env.PORT}".`);

  const { checkJava, JavaMissingError } = await import('../infra/local/dynamodb-local');
  try {
    checkJava();
  } catch (error) {
    if (error instanceof JavaMissingError) fail(error.message);
    throw error;
  }

  const { LOCAL_CLIENT_ID, LOCAL_USER_POOL_ID, startLocalStack } = await import('../infra/local/stack');
  if (values.prod) {
    const { localWebEnvironment } = await import('../infra/local/spa');
    const build = spawnSync(
      'npx',
      ['vite', 'build', '--config', 'web/vite.config.ts', '--configLoader', 'runner', '--logLevel', 'warn'],
      {
        cwd: repositoryRoot,
        stdio: 'inherit',
        env: { ...process.env, ...localWebEnvironment(LOCAL_USER_POOL_ID, LOCAL_CLIENT_ID, DEFAULT_REGION) },
      },
    );
    if (build.status !== 0) fail('The SPA build failed: see the lines above.');
  }

  const started = Date.now();
  const stack = await startLocalStack({
    repositoryRoot,
    port,
    dataDir: resolve(repositoryRoot, process.env.LOCAL_DATA_DIR ?? '.local'),
    reset: values.reset,
    web: values.prod ? 'dist' : 'vite',
    bootstrapAdminEmail: process.env.BOOTSTRAP_ADMIN_EMAIL ?? 'admin@example.com',
  }).catch((error: unknown) =>
    fail(`Could not start the local stack: ${error instanceof Error ? error.message : String(error)}`),
  );

  if (stack.adminActivationLink) console.log(`Admin activation link: ${stack.adminActivationLink}`);
  console.log(`Ready on ${stack.origin}`);
  if (process.env.LOCAL_TIMING) console.log(`Started in ${Date.now() - started} ms`);

  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    stack.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
};

main().catch((error: unknown) =>
  fail(`Could not start the local stack: ${error instanceof Error ? error.message : String(error)}`),
);
