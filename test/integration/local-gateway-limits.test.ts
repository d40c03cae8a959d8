/**
 * The local API gateway answers as the cloud does when a function's answer is more than Lambda can
 * carry (6 MB, the proxy result serialized): API Gateway's 502, never the answer itself. The gateway
 * here loads a stand-in for one public route's handler, which answers a body of the size a request
 * asks for, from a repository root of its own.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalApiGateway } from '../../infra/local/api-gateway';
import { LAMBDA_RESPONSE_MAX_BYTES } from '../../shared/constants';
import { ROUTES } from '../../lambdas/routes';

const route = ROUTES.find((candidate) => candidate.id === 'InitiateSignin')!;
/**
 * How long the sleeping function runs, far past the gateway's timeout below (500 ms): its answer can
 * only be the timeout's 502 while it still runs, however slow the machine.
 */
const SLEEP_MS = 10_000;
/** What the sleeping function shares with the test (it runs in this process): whether it is done. */
interface Sleeper {
  finished: boolean;
  wake: () => void;
}
const sleeper = () => (globalThis as { sleeper?: Sleeper }).sleeper;
/**
 * Answers `{ "fill": "xxx…" }` with as many characters as the request's body says, or throws; on
 * `sleep`, answers only after SLEEP_MS (or when woken).
 */
const STAND_IN = `export const handler = async (event) => {
  if (event.body === 'sleep') {
    const sleeper = (globalThis.sleeper = { finished: false, wake: () => undefined });
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, ${SLEEP_MS});
      sleeper.wake = () => { clearTimeout(timer); resolve(); };
    });
    sleeper.finished = true;
  }
  const size = event.body === 'sleep' ? 2 : Number(event.body);
  if (!Number.isFinite(size)) throw new Error('no size');
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fill: 'x'.repeat(size) }) };
};
`;

let root: string;
let server: Server;
let base: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'local-gateway-limits-'));
  // Plain JavaScript, in the file the gateway loads for the route.
  const entry = join(root, route.entry);
  mkdirSync(dirname(entry), { recursive: true });
  writeFileSync(entry, STAND_IN);
  const api = createLocalApiGateway({
    repositoryRoot: root,
    issuer: 'http://127.0.0.1:1/local',
    jwksUri: 'http://127.0.0.1:1/local/.well-known/jwks.json',
    // Short, for the test below; the stage's is API_FUNCTION_TIMEOUT_SECONDS.
    functionTimeoutMs: 500,
  });
  server = createServer((req, res) => {
    void api.handle(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  sleeper()?.wake();
  await new Promise((closed) => server.close(closed));
  rmSync(root, { recursive: true, force: true });
});

const ask = (size: number | string) =>
  fetch(`${base}${route.path}`, { method: route.method, body: String(size) });

describe("a function's answer over Lambda's 6 MB", () => {
  it("is API Gateway's 502, while an answer just under it goes through whole", async () => {
    // The serialized proxy result adds the status, the headers and the body's quotes and escapes.
    const under = await ask(LAMBDA_RESPONSE_MAX_BYTES - 1024);
    expect(under.status).toBe(200);
    expect(((await under.json()) as { fill: string }).fill).toHaveLength(LAMBDA_RESPONSE_MAX_BYTES - 1024);

    // The body alone under 6 MB, the serialized result over it: the result is what counts.
    const over = await ask(LAMBDA_RESPONSE_MAX_BYTES - 20);
    expect(over.status).toBe(502);
    expect(await over.json()).toEqual({ message: 'Internal server error' });
  });

  it('is the same 502 as a function that throws', async () => {
    const thrown = await ask('not a size');
    expect(thrown.status).toBe(502);
    expect(await thrown.json()).toEqual({ message: 'Internal server error' });
  });
});

describe('a function that runs past its timeout', () => {
  it("is API Gateway's 502 when the time is up, its late answer never sent", async () => {
    const late = await fetch(`${base}${route.path}`, { method: 'POST', body: 'sleep' });
    // Answered while the function still runs: cut off at the timeout, not waited for.
    expect(sleeper()?.finished).toBe(false);
    expect(late.status).toBe(502);
    expect(await late.json()).toEqual({ message: 'Internal server error' });
    sleeper()?.wake();
    // Within its time, the same function answers.
    const inTime = await fetch(`${base}${route.path}`, { method: 'POST', body: '3' });
    expect(inTime.status).toBe(200);
  });
});
