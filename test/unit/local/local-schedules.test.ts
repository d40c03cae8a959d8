/**
 * `npm start` runs the stage's scheduled functions in its own process (infra/local/schedules.ts), as
 * EventBridge runs them in the stage: every `everyMinutes`, one run at a time, a failed run logged by
 * its error's name only, and none left running once the stack stops. The handler is a stand-in
 * written at the scheduled entry's path under a temporary root; the handler itself is tested against
 * DynamoDB Local (test/integration/admin-lists.test.ts).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SCHEDULED } from '../../../lambdas/routes';
import { startSchedules } from '../../../infra/local/schedules';

interface StandIn {
  /** What each run of the stand-in handler does. */
  run: () => Promise<void>;
  /** How many runs began. */
  began: number;
  /** Called when a run begins. */
  onBegin?: () => void;
}

declare global {
  var __scheduledStandIn: StandIn | undefined;
}

const { finishErases } = SCHEDULED;
const EVERY = finishErases.everyMinutes * 60_000;

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'local-schedules-'));
  const entry = join(root, finishErases.entry);
  await mkdir(dirname(entry), { recursive: true });
  await writeFile(
    entry,
    [
      'export const handler = async () => {',
      '  const standIn = globalThis.__scheduledStandIn;',
      '  standIn.began += 1;',
      '  standIn.onBegin?.();',
      '  await standIn.run();',
      '};',
    ].join('\n'),
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

let standIn: StandIn;
let stops: (() => Promise<void>)[];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  standIn = { run: () => Promise.resolve(), began: 0 };
  globalThis.__scheduledStandIn = standIn;
  stops = [];
});

afterEach(async () => {
  for (const stop of stops) await stop();
  vi.useRealTimers();
  globalThis.__scheduledStandIn = undefined;
});

const start = (logger: Pick<Console, 'error'> = { error: vi.fn() }) => {
  const stop = startSchedules(root, logger);
  stops.push(stop);
  return stop;
};

/** Resolves when the next run of the stand-in begins (its module is imported in between). */
const nextBegin = (): Promise<void> =>
  new Promise((resolve) => {
    standIn.onBegin = resolve;
  });

const deferred = () => {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('the local schedules of npm start', () => {
  it(`runs nothing in the first ${finishErases.everyMinutes} minutes`, async () => {
    const stop = start();
    await vi.advanceTimersByTimeAsync(EVERY - 1);
    // A run begun in that time would be awaited here.
    await stop();
    expect(standIn.began).toBe(0);
  });

  it(`runs FinishErases every ${finishErases.everyMinutes} minutes`, async () => {
    start();
    const first = nextBegin();
    await vi.advanceTimersByTimeAsync(EVERY);
    await first;
    expect(standIn.began).toBe(1);

    const second = nextBegin();
    await vi.advanceTimersByTimeAsync(EVERY);
    await second;
    expect(standIn.began).toBe(2);
  });

  it('starts no run while the one before is still under way', async () => {
    const stop = start();
    const slow = deferred();
    standIn.run = () => slow.promise;

    const first = nextBegin();
    await vi.advanceTimersByTimeAsync(EVERY);
    await first;
    // Two more intervals pass while the first run holds on.
    await vi.advanceTimersByTimeAsync(2 * EVERY);
    standIn.run = () => Promise.resolve();
    slow.resolve();

    const next = nextBegin();
    await vi.advanceTimersByTimeAsync(EVERY);
    await next;
    // Whatever began is over once the stop resolves: the first run and the one after it, no more.
    await stop();
    expect(standIn.began).toBe(2);
  });

  it('logs a failed run by its error name alone, and runs again at the next interval', async () => {
    const logger = { error: vi.fn() };
    start(logger);
    standIn.run = () => Promise.reject(new RangeError('reading 7.2 mmol/L for person 42'));

    const first = nextBegin();
    await vi.advanceTimersByTimeAsync(EVERY);
    await first;
    await vi.waitUntil(() => logger.error.mock.calls.length > 0, { interval: 5 });
    expect(logger.error.mock.calls).toEqual([['[local] FinishErases failed: RangeError']]);

    standIn.run = () => Promise.resolve();
    const second = nextBegin();
    await vi.advanceTimersByTimeAsync(EVERY);
    await second;
    expect(standIn.began).toBe(2);
  });

  it('stops only once the run under way has ended, and starts none after', async () => {
    const stop = start();
    const slow = deferred();
    let ended = false;
    standIn.run = () => slow.promise.then(() => void (ended = true));

    const first = nextBegin();
    await vi.advanceTimersByTimeAsync(EVERY);
    await first;

    let stopped = false;
    const stopping = stop().then(() => void (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);

    slow.resolve();
    await stopping;
    expect(ended).toBe(true);

    await vi.advanceTimersByTimeAsync(3 * EVERY);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(standIn.began).toBe(1);
  });
});
