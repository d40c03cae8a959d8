/**
 * `npm run bench` (issue 12): the lists at 1,000 and at 10,000 people on the local stack (DynamoDB
 * Local, the real handlers, loopback only): the admin's first page of people, a search by email
 * prefix, the first page of pending invitations, a coach's client list and GET /v1/measurements, with
 * the DynamoDB and Cognito calls one request makes. Fails when, at 10,000 people, the first page or the
 * search takes 150 ms or more (median), is more than 20% slower than at 1,000, or makes other calls
 * than at 1,000, or when any list calls Cognito's ListUsers.
 *
 * Each size is its own stack (`bin/bench-admin-lists-stack.ts`, which says how it seeds), started side
 * by side, and the two are timed interleaved: block by block, each request at one size then at the
 * other, in turns, after a warm-up. DynamoDB Local is a JVM that keeps getting faster for thousands of
 * requests and the machine is shared, so sizes timed one after the other compare two different
 * machines (docs/decisions/059-wrapper-ratio-measured-warm.md); interleaved, both meet the same moment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { hardLimit, ms, summarize } from './bench-support';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';
const { LOCAL_CLIENT_ID } = await import('../infra/local/stack');
const { createHttpClient } = await import('../test/fixtures/http-client');

const SIZES = (process.env.SIZES ?? '1000,10000').split(',').map(Number);
const CLIENTS = 50;
/** Blocks of every request at every size before timing, then timed blocks; requests per block. */
const WARM_BLOCKS = Number(process.env.WARM_BLOCKS ?? 40);
const BLOCKS = Number(process.env.BLOCKS ?? 20);
const BLOCK = Number(process.env.BLOCK ?? 5);
const BUDGET_MS = 150;
const FLAT = 1.2;
const HARD_LIMIT_MS = 12 * 60_000;
const root = resolve(import.meta.dirname, '..');
hardLimit(HARD_LIMIT_MS);

const REQUESTS = [
  { name: 'Admin list, first page (50)', path: '/internal/v1/admin/users?limit=50', as: 'admin' },
  {
    name: 'Admin search by email prefix',
    path: '/internal/v1/admin/users?q=person0004&limit=50',
    as: 'admin',
  },
  {
    name: 'Pending invitations, first page',
    path: '/internal/v1/admin/invitations?status=pending&limit=50',
    as: 'admin',
  },
  { name: `Coach client list (${CLIENTS} clients)`, path: '/v1/coach/clients', as: 'coach' },
  { name: 'GET /v1/measurements (first page)', path: '/v1/measurements', as: 'logger' },
] as const;

interface Ready {
  origin: string;
  tokens: Record<(typeof REQUESTS)[number]['as'], string>;
  calls: Record<string, string>;
  seededPeople: number;
  seededPending: number;
  seconds: number;
}

/** Starts one size's stack and waits for its `READY` line. */
const startSize = async (size: number): Promise<{ child: ChildProcess; ready: Ready }> => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(root, 'bin/bench-admin-lists-stack.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        BENCH_SIZE: String(size),
        BENCH_CLIENTS: String(CLIENTS),
        BENCH_REQUESTS: JSON.stringify(REQUESTS),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`The ${size} stack exited (${String(code)}) before it was ready`);
  });
  const lines = createInterface({ input: child.stdout });
  const readyLine = (async () => {
    for await (const line of lines) {
      if (line.startsWith('READY ')) return JSON.parse(line.slice('READY '.length)) as Ready;
      console.log(`[${size}] ${line}`);
    }
    throw new Error(`The ${size} stack closed its output before it was ready`);
  })();
  try {
    return { child, ready: await Promise.race([readyLine, exited]) };
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
};

const stopSize = async (child: ChildProcess) => {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.stdin?.end();
  child.kill('SIGTERM');
  await exited;
};

const children: ChildProcess[] = [];
const clients: { close(): void }[] = [];
const failures: string[] = [];
try {
  const started = await Promise.all(
    SIZES.map(async (size) => {
      const side = await startSize(size);
      children.push(side.child);
      console.log(
        `Seeded ${size} people and invitations (${side.ready.seededPeople} bulk people, ${side.ready.seededPending} pending) in ${side.ready.seconds.toFixed(1)} s`,
      );
      const http = createHttpClient(side.ready.origin, LOCAL_CLIENT_ID);
      clients.push(http);
      return { size, ...side, http };
    }),
  );

  const times = new Map<string, number[]>();
  for (let block = 0; block < WARM_BLOCKS + BLOCKS; block += 1) {
    for (const request of REQUESTS) {
      // Each size goes first in turn.
      const order = block % 2 === 0 ? started : [...started].reverse();
      for (const side of order) {
        for (let i = 0; i < BLOCK; i += 1) {
          const begun = performance.now();
          const answer = await side.http.request('GET', request.path, {
            token: side.ready.tokens[request.as],
          });
          const took = performance.now() - begun;
          if (answer.status !== 200) throw new Error(`GET ${request.path} at ${side.size}: ${answer.status}`);
          if (block < WARM_BLOCKS) continue;
          const key = `${request.name}@${side.size}`;
          const kept = times.get(key) ?? [];
          kept.push(took);
          times.set(key, kept);
        }
      }
    }
  }

  console.log(
    `\n| Request | People | Median | Min | Max | Calls per request (DynamoDB, Cognito) |\n|---|---:|---:|---:|---:|---|`,
  );
  const timing = (name: string, size: number) => summarize(times.get(`${name}@${size}`) ?? []);
  for (const side of started)
    for (const { name } of REQUESTS) {
      const { median, min, max } = timing(name, side.size);
      console.log(
        `| ${name} | ${side.size.toLocaleString('en-US')} | ${ms(median)} | ${ms(min)} | ${ms(max)} | ${side.ready.calls[name]} |`,
      );
      if ((side.ready.calls[name] ?? '').includes('ListUsers'))
        failures.push(`${name} at ${side.size} calls Cognito's ListUsers`);
    }

  const small = started.find((side) => side.size === Math.min(...SIZES));
  const large = started.find((side) => side.size === Math.max(...SIZES));
  if (small && large && small !== large)
    for (const { name } of REQUESTS.slice(0, 2)) {
      const [a, b] = [timing(name, small.size).median, timing(name, large.size).median];
      const ratio = b / a;
      console.log(`${name}: ${ms(b)} at ${large.size} vs ${ms(a)} at ${small.size}: x${ratio.toFixed(2)}`);
      if (b >= BUDGET_MS) failures.push(`${name} at ${large.size}: median ${ms(b)} >= ${BUDGET_MS} ms`);
      if (ratio > FLAT)
        failures.push(
          `${name}: x${ratio.toFixed(2)} slower at ${large.size} than at ${small.size} (> ${FLAT})`,
        );
      if (small.ready.calls[name] !== large.ready.calls[name])
        failures.push(`${name}: calls differ (${small.ready.calls[name]} vs ${large.ready.calls[name]})`);
    }
  if (failures.length > 0) {
    console.error(`\nAdmin list budgets not met:\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  }
} finally {
  for (const client of clients) client.close();
  await Promise.all(children.map(stopSize));
}
