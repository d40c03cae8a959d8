/**
 * `npm run measure:start`: how long `npm start` takes from launch to its `Ready on` line, on this
 * machine, over a few runs (fresh data each time). Fails when the median is over the 10 s budget.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../infra/local/dynamodb-local';

const BUDGET_MS = 10_000;
const RUNS = Number(process.env.RUNS ?? 3);
const root = resolve(import.meta.dirname, '..');

const once = async (): Promise<number> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'measure-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts', '--reset'], {
    cwd: root,
    env: { ...process.env, PORT: String(await freePort()), LOCAL_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    return await new Promise<number>((done, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready on ')) done(performance.now() - started);
      });
      child.once('exit', (code) => fail(new Error(`npm start exited with ${code} before Ready`)));
    });
  } finally {
    await new Promise((done) => {
      child.once('exit', done);
      child.kill('SIGTERM');
    });
    await rm(dataDir, { recursive: true, force: true });
  }
};

const times: number[] = [];
for (let run = 0; run < RUNS; run += 1) times.push(await once());
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
console.log(
  `npm start to Ready: ${times.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')}; median ${(median / 1000).toFixed(2)} s (budget ${BUDGET_MS / 1000} s)`,
);
if (median > BUDGET_MS) process.exit(1);
