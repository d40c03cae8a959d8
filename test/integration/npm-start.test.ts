/**
 * `npm start` as a developer runs it: its printed lines, its clean shutdown, its failures, and
 * data that survives a restart until `--reset`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';
import { LOCAL_CLIENT_ID } from '../../infra/local/stack';
import { codeFromLink, createHttpClient } from '../fixtures/http-client';
import { API_MESSAGES } from '../../shared/messages';
import { runInvite, runNpmStart } from '../fixtures/npm-start';

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

  it('says in one line that Java is missing, and exits 1', async () => {
    const run = runNpmStart([], { ...env(), PATH: '/nonexistent' });
    const code = await run.exited;
    expect(code).toBe(1);
    expect(run.lines.filter((line) => line.trim() !== '')).toEqual([
      expect.stringMatching(/^Java 17\+ is required/),
    ]);
  }, 30_000);
});
