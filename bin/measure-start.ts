/**
 * `npm run measure:start`: how long `npm start` takes from launch to its `Ready on` line, on this
 * machine, over a few runs (fresh data each time). Fails when the median is over the 10 s budget,
 * or when any process of a run's tree (node, DynamoDB Local's JVM, ...) is still alive 15 s after the
 * SIGTERM it gets the instant `Ready` is printed (docs/decisions/053-start-and-stop.md).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../infra/local/dynamodb-local';
import { canSeeProcesses, trackProcessTree, type TreeMember } from '../test/fixtures/process-tree';
import { median } from './median';

const BUDGET_MS = 10_000;
const GONE_WITHIN_MS = 15_000;
const RUNS = Number(process.env.RUNS ?? 3);
const root = resolve(import.meta.dirname, '..');

interface Run {
  readonly readyMs: number;
  /** From the SIGTERM until no process of the tree was alive; undefined when some still were. */
  readonly goneMs?: number;
  readonly left: readonly TreeMember[];
}

const once = async (): Promise<Run> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'measure-start-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts', '--reset'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), LOCAL_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Seen from outside: the spawned process, all it starts, and any process naming this run's data folder.
  const tree = canSeeProcesses ? trackProcessTree(child.pid ?? -1, [dataDir]) : undefined;
  const stopWatching = tree?.watch();
  let signalledAt = 0;
  const stop = () => {
    if (signalledAt !== 0) return;
    child.kill('SIGTERM');
    signalledAt = Date.now();
    tree?.scan();
  };
  try {
    const readyMs = await new Promise<number>((done, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (!chunk.toString().includes('Ready on ')) return;
        const ms = performance.now() - started;
        // The instant Ready is printed, from this very handler: the moment a JVM was once left behind.
        stop();
        done(ms);
      });
      child.once('exit', (code) => fail(new Error(`npm start exited with ${code} before Ready`)));
    });
    const left = (await tree?.waitUntilGone(signalledAt + GONE_WITHIN_MS)) ?? [];
    return { readyMs, goneMs: left.length === 0 ? Date.now() - signalledAt : undefined, left };
  } finally {
    stop();
    stopWatching?.();
    // Nothing of this run outlives the measurement, whatever went wrong.
    tree?.killAll('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
};

const runs: Run[] = [];
for (let run = 0; run < RUNS; run += 1) runs.push(await once());
const times = runs.map((run) => run.readyMs);
const middle = median(times);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `npm start to Ready: ${times.map(seconds).join(', ')}; median ${seconds(middle)} (budget ${BUDGET_MS / 1000} s)`,
);
const left = runs.flatMap((run) => run.left);
if (!canSeeProcesses) console.log('Stop not checked: it is seen through /proc, which this system lacks.');
else if (left.length === 0)
  console.log(
    `Every process gone after SIGTERM at Ready: ${runs.map((run) => seconds(run.goneMs ?? 0)).join(', ')} (limit ${GONE_WITHIN_MS / 1000} s)`,
  );
else {
  console.error(`Still alive ${GONE_WITHIN_MS / 1000} s after SIGTERM at Ready (killed now):`);
  for (const member of left) console.error(`  ${member.pid} ${member.command}`);
}
if (middle > BUDGET_MS || left.length > 0) process.exit(1);
