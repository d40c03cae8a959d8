/**
 * Before a budget script's second chance (`bin/measure-infra.ts`'s cold imports, `bin/lighthouse.ts`'s
 * performance): waits, at most `QUIET_WAIT_MS`, until the 1-minute load average is under the number of
 * cores, so that the second round does not meet the same burst of other work as the first. The budget
 * itself does not change.
 */
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a second chance waits, at most, for the machine to quieten. */
const QUIET_WAIT_MS = 30_000;

/** Waits for quiet; answers how long it waited and the load average it found, for the log. */
export async function waitForQuiet(): Promise<string> {
  const started = Date.now();
  while (loadavg()[0]! >= availableParallelism() && Date.now() - started < QUIET_WAIT_MS) await sleep(1_000);
  return (
    `after ${((Date.now() - started) / 1000).toFixed(0)} s, ` +
    `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`
  );
}
