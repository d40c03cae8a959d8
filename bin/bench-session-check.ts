/**
 * `npm run bench` (third part): what the session check (one consistent GetItem on the caller's
 * account, `lambdas/common/session.ts`) adds to an authenticated call. GET /v1/users/me is called
 * 1,000 times (after 2 warm-up calls) through the local stack (the gateway's JWT check, the wrapper,
 * the handler, DynamoDB Local; loopback only), in two fresh processes of one run: one as the product
 * runs, one with the session check replaced by a stand-in that lets every token through
 * (bin/bench/without-session-check.ts). Prints both medians and the difference.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { hardLimit, ms, startBenchStack, timeRuns, type Timing } from './bench-support';

const CALLS = Number(process.env.CALLS ?? 1000);
const HARD_LIMIT_MS = 6 * 60_000;
const root = resolve(import.meta.dirname, '..');
hardLimit(HARD_LIMIT_MS);

const measure = async (): Promise<Timing<number>> => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.LOG_LEVEL ??= 'warn';
  const { http, admin, stop } = await startBenchStack(root);
  try {
    return await timeRuns(CALLS, async () => {
      const answer = await http.request('GET', '/v1/users/me', { token: admin.idToken });
      if (answer.status !== 200) throw new Error(`GET /v1/users/me answered ${answer.status}`);
      return answer.status;
    });
  } finally {
    await stop();
  }
};

if (process.argv[2] === 'child') {
  const timing = await measure();
  // Which session check the handlers ran: the product's reads the account, the stand-in does not.
  const { sessionIsValid } = await import('../lambdas/common/session');
  const checked = sessionIsValid.toString().includes('getAccountGate');
  const { median, min, max } = timing;
  process.stdout.write(`${JSON.stringify({ median, min, max, checked })}\n`);
  process.exit(0);
}

const run = (withoutCheck: boolean): Timing<number> => {
  const args = [
    '--import',
    'tsx',
    ...(withoutCheck ? ['--import', './bin/bench/without-session-check.ts'] : []),
    'bin/bench-session-check.ts',
    'child',
  ];
  const child = spawnSync(process.execPath, args, {
    cwd: root,
    encoding: 'utf8',
    timeout: HARD_LIMIT_MS / 2,
  });
  if (child.status !== 0) throw new Error(`benchmark child failed:\n${child.stderr}`);
  const line = child.stdout.trim().split('\n').at(-1) ?? '{}';
  const result = JSON.parse(line) as Omit<Timing<number>, 'last'> & { checked: boolean };
  if (result.checked === withoutCheck) throw new Error('the session check was not what this run needed');
  return { ...result, last: 0 };
};

const without = run(true);
const withCheck = run(false);
console.log(`GET /v1/users/me, ${CALLS} calls each, local stack (median, min to max):`);
console.log(`  without the session check  ${ms(without.median)}  (${ms(without.min)} to ${ms(without.max)})`);
console.log(
  `  with the session check     ${ms(withCheck.median)}  (${ms(withCheck.min)} to ${ms(withCheck.max)})`,
);
console.log(`  the check adds             ${ms(withCheck.median - without.median)} per call (median)`);
