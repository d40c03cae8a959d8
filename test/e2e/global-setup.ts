/**
 * One local stack for the whole browser run, started the way a developer starts it
 * (`npm start -- --prod --reset`) on a free port with a throw-away data folder. The tests get its
 * origin, the printed admin activation link and the data folder (for `npm run invite`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../infra/local/dynamodb-local';
import { runNpmStart } from '../fixtures/npm-start';
import { BOOTSTRAP_ADMIN_EMAIL } from './support/people';

declare module 'vitest' {
  export interface ProvidedContext {
    origin: string;
    adminActivationLink: string;
    localDataDir: string;
  }
}

const STARTUP_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'e2e-local-'));
  const port = await freePort();
  const started = Date.now();
  const start = runNpmStart(['--prod', '--reset'], {
    PORT: String(port),
    LOCAL_DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_EMAIL,
  });

  const teardown = async () => {
    const stopped = start.stop('SIGTERM');
    await within(stopped, STOP_TIMEOUT_MS, 'Stopping npm start').catch(async (error: unknown) => {
      console.error(String(error), '- killing it');
      await start.stop('SIGKILL');
    });
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    const lines = await within(start.ready, STARTUP_TIMEOUT_MS, 'npm start -- --prod --reset');
    const origin = lines.find((line) => line.startsWith('Ready on '))?.slice('Ready on '.length);
    const link = lines
      .find((line) => line.startsWith('Admin activation link: '))
      ?.slice('Admin activation link: '.length);
    if (!origin || !link) throw new Error(`npm start printed no origin or admin link:\n${lines.join('\n')}`);
    console.log(`e2e: local stack on ${origin} (build and start ${Date.now() - started} ms)`);
    project.provide('origin', origin);
    project.provide('adminActivationLink', link);
    project.provide('localDataDir', dataDir);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
