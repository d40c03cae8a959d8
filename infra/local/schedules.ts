/**
 * The stage's scheduled functions (SCHEDULED in lambdas/routes.ts) under `npm start`: each handler is
 * run in this process every `everyMinutes`, as EventBridge runs it in the stage, one run at a time.
 * The returned stop clears the timers and waits for a run under way.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCHEDULED } from '../../lambdas/routes';

export const startSchedules = (
  repositoryRoot: string,
  logger: Pick<Console, 'error'> = console,
): (() => Promise<void>) => {
  const running = new Set<Promise<void>>();
  const timers = Object.values(SCHEDULED).map((definition) => {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      const run: Promise<void> = import(pathToFileURL(join(repositoryRoot, definition.entry)).href)
        .then(async (module: { handler: () => Promise<unknown> }) => {
          await module.handler();
        })
        // The handler logs what it could not do; this says only that the run failed.
        .catch((error: unknown) => {
          logger.error(`[local] ${definition.id} failed: ${error instanceof Error ? error.name : 'error'}`);
        })
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    }, definition.everyMinutes * 60_000);
    // A schedule never keeps the process alive on its own.
    timer.unref();
    return timer;
  });
  return async () => {
    for (const timer of timers) clearInterval(timer);
    await Promise.all(running);
  };
};
