/**
 * `npm start` as a developer runs it: its printed lines, its clean shutdown, its failures, and
 * data that survives a restart until `--reset`; and a stop at any moment of its start-up that leaves
 * no process of its tree behind (docs/decisions/053-start-and-stop.md).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';
import { LOCAL_CLIENT_ID, stackFilePath, type LocalStackFile } from '../../infra/local/stack';
import { expireInvitation } from '../fixtures/aws-env';
import { codeFromLink, createHttpClient } from '../fixtures/http-client';
import { API_MESSAGES } from '../../shared/messages';
import { runInvite, runNpmStart, type RunningStart } from '../fixtures/npm-start';
import { canSeeProcesses, trackProcessTree, type ProcessTree } from '../fixtures/process-tree';

let dataDir: string;
let port: number;
const env = () => ({
  PORT: String(port),
  LOCAL_DATA_DIR: dataDir,
  BOOTSTRAP_ADMIN_EMAIL: 'boss@example.com',
});

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'npm-start-'));
  port = await freePort();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const portIsFree = (p: number) =>
  new Promise<boolean>((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(p, '127.0.0.1', () => probe.close(() => done(true)));
  });

describe('npm start', () => {
  it('prints the admin link and Ready, keeps data across a restart, and --reset empties it', async () => {
    const first = runNpmStart(['--reset'], env());
    const lines = await first.ready;
    const links = lines.filter((line) => line.startsWith('Admin activation link: '));
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(
      new RegExp(
        `^Admin activation link: http://localhost:${port}/activate\\?code=[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$`,
      ),
    );
    expect(lines.at(-1)).toBe(`Ready on http://localhost:${port}`);

    const http = createHttpClient(`http://localhost:${port}`, LOCAL_CLIENT_ID);
    const admin = await http.activate(
      'boss@example.com',
      codeFromLink(links[0]?.replace('Admin activation link: ', '') ?? ''),
    );
    const profile = await http.request('PUT', '/v1/users/me', {
      token: admin.idToken,
      json: { preferredName: 'Boss' },
    });
    expect(profile.status).toBe(200);

    // npm run invite talks to the running stack and prints a working link.
    const invited = runInvite(['--email', 'Coach2@Example.com', '--role', 'coaches'], env());
    expect(invited.status, invited.stderr).toBe(0);
    const link = /^Activation link: (\S+)$/m.exec(invited.stdout)?.[1] ?? '';
    expect(link).toMatch(new RegExp(`^http://localhost:${port}/activate\\?code=`));
    const coach = await http.activate('coach2@example.com', codeFromLink(link));
    const claims = JSON.parse(
      Buffer.from(coach.idToken.split('.')[1] ?? '', 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(claims['cognito:groups']).toEqual(['coaches']);
    const duplicate = runInvite(['--email', 'boss@example.com'], env());
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr.trim()).toBe(API_MESSAGES.accountExists);

    // An expired invitation is renewed with a new code (nobody may be there to resend it), for the
    // roles it was made with only.
    expect(runInvite(['--email', 'week@example.com'], env()).status).toBe(0);
    const stack = JSON.parse(await readFile(stackFilePath(dataDir), 'utf8')) as LocalStackFile;
    await expireInvitation(stack.tables.invitations, 'week@example.com', stack.dynamoDbEndpoint);
    const otherRoles = runInvite(['--email', 'week@example.com', '--role', 'admins'], env());
    expect(otherRoles.status).toBe(1);
    expect(otherRoles.stderr).toMatch(/^The expired invitation for week@example.com is for users: /);
    const renewed = runInvite(['--email', 'week@example.com'], env());
    expect(renewed.status, renewed.stderr).toBe(0);
    expect(renewed.stdout).toMatch(/^Invitation renewed for week@example.com \(users\)/);
    const renewedLink = /^Activation link: (\S+)$/m.exec(renewed.stdout)?.[1] ?? '';
    await http.activate('week@example.com', codeFromLink(renewedLink));
    http.close();
    expect(await first.stop('SIGINT')).toBe(0);
    expect(await portIsFree(port)).toBe(true);
    // DynamoDB Local (a Java child started with this data folder) is gone too.
    expect(spawnSync('pgrep', ['-f', dataDir]).status).toBe(1);

    const second = runNpmStart([], env());
    const again = await second.ready;
    expect(again.some((line) => line.startsWith('Admin activation link:'))).toBe(false);
    const http2 = createHttpClient(`http://localhost:${port}`, LOCAL_CLIENT_ID);
    const tokens = await http2.signIn(admin.authenticator);
    const me = await http2.request<{ preferredName: string }>('GET', '/v1/users/me', {
      token: tokens.idToken,
    });
    expect(me.body.preferredName).toBe('Boss');
    http2.close();
    expect(await second.stop()).toBe(0);

    const third = runNpmStart(['--reset'], env());
    const reset = await third.ready;
    expect(reset.some((line) => line.startsWith('Admin activation link:'))).toBe(true);
    const http3 = createHttpClient(`http://localhost:${port}`, LOCAL_CLIENT_ID);
    await expect(http3.signIn(admin.authenticator)).rejects.toThrow(/401/);
    http3.close();
    expect(await third.stop()).toBe(0);

    const stopped = runInvite(['--email', 'late@example.com'], env());
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toMatch(/^The local stack is not running/);
  }, 120_000);

  it('says in one line that the port is in use, and exits 1', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((done) => blocker.listen(port, '127.0.0.1', () => done()));
    try {
      const run = runNpmStart([], env());
      expect(await run.exited).toBe(1);
      const errors = run.lines.filter((line) => line.trim() !== '');
      expect(errors).toEqual([expect.stringContaining(`Port ${port} is in use`)]);
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  }, 30_000);

  it('says in one line that this Java cannot keep DynamoDB Local on loopback, and exits 1 (ADR 062)', async () => {
    // A Java 17 without the compiler module (some JRE builds): `-version` answers, `-m jdk.compiler/…`
    // fails as such a Java does. Its version is its own, so no launcher built for another Java is used.
    const javaDir = await mkdtemp(join(tmpdir(), 'java-no-compiler-'));
    try {
      await writeFile(
        join(javaDir, 'java'),
        [
          '#!/bin/sh',
          'if [ "$1" = "-version" ]; then echo \'openjdk version "17.0.99-no-compiler"\' >&2; exit 0; fi',
          'echo "Error occurred during initialization of boot layer" >&2',
          'echo "java.lang.module.FindException: Module jdk.compiler not found" >&2',
          'exit 1',
        ].join('\n'),
        { mode: 0o755 },
      );
      const run = runNpmStart([], { ...env(), PATH: `${javaDir}:${process.env.PATH ?? ''}` });
      expect(await run.exited).toBe(1);
      expect(run.lines.filter((line) => line.trim() !== '')).toEqual([
        expect.stringMatching(
          /^Could not start the local stack: This Java has no compiler module \(jdk\.compiler\)/,
        ),
      ]);
      expect(await portIsFree(port)).toBe(true);
    } finally {
      await rm(javaDir, { recursive: true, force: true });
    }
  }, 30_000);

  it('says in one line that Java is missing, and exits 1', async () => {
    const run = runNpmStart([], { ...env(), PATH: '/nonexistent' });
    const code = await run.exited;
    expect(code).toBe(1);
    expect(run.lines.filter((line) => line.trim() !== '')).toEqual([
      expect.stringMatching(/^Java 17\+ is required/),
    ]);
  }, 30_000);
});

/** Every process of a run must be gone this long after the signal at the latest (the measure). */
const GONE_WITHIN_MS = 15_000;

interface StopAt {
  /** `node`: the command `npm start` runs, as measure:start spawns it; `npm`: `npm start` itself. */
  readonly via: 'node' | 'npm';
  /** The start of the line (stdout or stderr) on which the signal goes. */
  readonly at: string;
  readonly signal: NodeJS.Signals;
  /** `child`: the spawned process only (measure:start, kill); `group`: its process group (a terminal's Ctrl-C). */
  readonly to: 'child' | 'group';
}

interface Stopped {
  readonly lines: string[];
  readonly code: number | null;
  readonly tree: ProcessTree;
  /** Processes of the tree still alive GONE_WITHIN_MS after the signal, as `pid command`. */
  readonly survivors: string[];
}

const ranDynamoDbLocal = (tree: ProcessTree) =>
  tree.members.some((member) => member.command.includes('DynamoDBLocal.jar'));

/** Looks until the tree holds DynamoDB Local's JVM (or a second passes: then the test's check fails). */
const seeDynamoDbLocal = (tree: ProcessTree) => {
  const deadline = Date.now() + 1000;
  do tree.scan();
  while (!ranDynamoDbLocal(tree) && Date.now() < deadline);
};

/**
 * Starts `npm start -- --reset` on a fresh port and data folder with LOCAL_START_TRACE=1, sends the
 * signal synchronously from the 'data' handler that reads the `at` line, and watches the whole tree
 * from outside (/proc: descendants, and any process naming the data folder) until it is gone.
 */
const stopDuringStart = async ({ via, at, signal, to }: StopAt): Promise<Stopped> => {
  const runDir = await mkdtemp(join(tmpdir(), 'npm-start-stop-'));
  const runPort = await freePort();
  let signalledAt = 0;
  let onSignalled: () => void = () => undefined;
  const signalled = new Promise<void>((done) => (onSignalled = done));
  const holder: { run?: RunningStart; tree?: ProcessTree } = {};
  const run = runNpmStart(
    ['--reset'],
    { PORT: String(runPort), LOCAL_DATA_DIR: runDir, LOCAL_START_TRACE: '1' },
    {
      via,
      onLine: (line) => {
        const pid = holder.run?.child.pid;
        if (signalledAt !== 0 || !line.startsWith(at) || pid === undefined) return;
        // Seen from outside before the signal: stopped at once, the JVM can be gone (and reaped)
        // before a look after the signal reaches its /proc entry, and the run would seem to have
        // started none. It is spawned when the line is printed; the look takes milliseconds.
        if (holder.tree) seeDynamoDbLocal(holder.tree);
        if (to === 'group') process.kill(-pid, signal);
        else holder.run?.child.kill(signal);
        signalledAt = Date.now();
        holder.tree?.scan();
        onSignalled();
      },
    },
  );
  holder.run = run;
  const tree = trackProcessTree(run.child.pid ?? -1, [runDir]);
  holder.tree = tree;
  const stopWatching = tree.watch();
  try {
    // Bounded, so that a run that never reaches its line still ends in the cleanup below.
    const tooLong = new Promise<void>((done) => setTimeout(done, 40_000).unref());
    await Promise.race([signalled, run.exited, tooLong]);
    if (signalledAt === 0) throw new Error(`No "${at}" line from npm start:\n${run.lines.join('\n')}`);
    const left = await tree.waitUntilGone(signalledAt + GONE_WITHIN_MS);
    return {
      lines: run.lines,
      code: left.length === 0 ? await run.exited : null,
      tree,
      survivors: left.map((member) => `${member.pid} ${member.command}`),
    };
  } finally {
    stopWatching();
    // A failed run leaves nothing behind either: what is still alive of this run's tree is killed.
    tree.killAll('SIGKILL');
    await rm(runDir, { recursive: true, force: true });
  }
};

// The tree is seen through /proc (Linux).
describe.skipIf(!canSeeProcesses)('npm start stopped during its start-up', () => {
  it('SIGTERM before DynamoDB Local answers: everything stops and it exits 0', async () => {
    const stopped = await stopDuringStart({
      via: 'node',
      at: '[start] dynamodb-local-spawned',
      signal: 'SIGTERM',
      to: 'child',
    });
    expect(stopped.survivors).toEqual([]);
    // The signal came while DynamoDB Local was starting (the step had not moved on).
    expect(stopped.lines).toContain('[start] stop (SIGTERM) during dynamodb-local-spawned');
    expect(ranDynamoDbLocal(stopped.tree)).toBe(true);
    expect(stopped.code).toBe(0);
  }, 60_000);

  it('SIGTERM while the tables are created: everything stops and it exits 0', async () => {
    const stopped = await stopDuringStart({
      via: 'node',
      at: '[start] creating-tables',
      signal: 'SIGTERM',
      to: 'child',
    });
    expect(stopped.survivors).toEqual([]);
    expect(stopped.lines).toContain('[start] stop (SIGTERM) during creating-tables');
    expect(ranDynamoDbLocal(stopped.tree)).toBe(true);
    expect(stopped.code).toBe(0);
  }, 60_000);

  it('SIGTERM the instant Ready is printed (as measure:start sends it): everything stops and it exits 0', async () => {
    const stopped = await stopDuringStart({ via: 'node', at: 'Ready on ', signal: 'SIGTERM', to: 'child' });
    expect(stopped.survivors).toEqual([]);
    expect(stopped.lines).toContain('[start] stop (SIGTERM) during ready');
    expect(ranDynamoDbLocal(stopped.tree)).toBe(true);
    expect(stopped.code).toBe(0);
  }, 60_000);

  it('Ctrl-C (SIGINT to the process group of `npm start`) while the tables are created: nothing is left', async () => {
    const stopped = await stopDuringStart({
      via: 'npm',
      at: '[start] creating-tables',
      signal: 'SIGINT',
      to: 'group',
    });
    expect(stopped.survivors).toEqual([]);
    expect(stopped.lines).toContain('[start] stop (SIGINT) during creating-tables');
    // npm, its shell, node and the JVM.
    expect(stopped.tree.members.length).toBeGreaterThanOrEqual(4);
    expect(ranDynamoDbLocal(stopped.tree)).toBe(true);
  }, 60_000);

  it('SIGTERM to npm the instant Ready is printed: npm does not pass it on, node sees its parent go and stops', async () => {
    const stopped = await stopDuringStart({ via: 'npm', at: 'Ready on ', signal: 'SIGTERM', to: 'child' });
    expect(stopped.survivors).toEqual([]);
    expect(stopped.lines).toContain('[start] stop (parent exited) during ready');
    expect(ranDynamoDbLocal(stopped.tree)).toBe(true);
  }, 60_000);
});
