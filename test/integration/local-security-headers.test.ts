/**
 * Issue 11: the local server sends the production security headers (infra/security-headers.ts, the
 * definition CloudFront's policy is built from) on the SPA, the dev server's only addition is a
 * per-answer nonce in the document's script-src and style-src, every other answer is locked down,
 * and nothing grants another origin anything (docs/decisions/051). The dev server runs in the whole
 * stack; the `--prod` server over a small build of its own (the browser journeys run the real one).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProdWeb, type ProdWeb } from '../fixtures/prod-web';
import { freePort } from '../../infra/local/dynamodb-local';
import { LOCAL_BASE_HEADERS } from '../../infra/local/security-headers';
import { COGNITO_PATH, startLocalStack, type LocalStack } from '../../infra/local/stack';
import { contentSecurityPolicy, cspDirectives, securityHeaders } from '../../infra/security-headers';

const repositoryRoot = resolve(import.meta.dirname, '../..');
const ELSEWHERE = 'http://localhost:5173';

/** The production definition with the page's own origin as its only connect-src. */
const PRODUCTION = securityHeaders([]);
/** What the local server sends on the SPA: the definition, without HSTS (plain http). */
const EXPECTED_SPA = { ...PRODUCTION, 'strict-transport-security': null };

const securityHeadersOf = (response: Response) =>
  Object.fromEntries(Object.keys(PRODUCTION).map((name) => [name, response.headers.get(name)]));
const baseHeadersOf = (response: Response) =>
  Object.fromEntries(Object.keys(LOCAL_BASE_HEADERS).map((name) => [name, response.headers.get(name)]));
const corsHeadersOf = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

/** Splits a policy into directives, and the nonce sources apart from the rest. */
const parsePolicy = (policy: string) => {
  const nonces = new Set<string>();
  const directives = policy.split('; ').map((directive) => {
    const [name = '', ...sources] = directive.split(' ');
    const [withNonce, without] = [
      sources.filter((source) => source.startsWith("'nonce-")),
      sources.filter((source) => !source.startsWith("'nonce-")),
    ];
    for (const source of withNonce) nonces.add(`${name} ${source}`);
    return [name, without] as const;
  });
  return { directives, nonces: [...nonces] };
};

describe('the dev server (npm start)', () => {
  let dataDir: string;
  let stack: LocalStack;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'local-headers-'));
    stack = await startLocalStack({
      repositoryRoot,
      port: await freePort(),
      dataDir,
      web: 'vite',
      bootstrapAdminEmail: 'admin@example.com',
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const get = (path: string, init: RequestInit = {}) => fetch(`${stack.origin}${path}`, init);

  it('sends the production headers on the HTML, its CSP adding only a fresh nonce to script-src and style-src', async () => {
    const nonces: string[] = [];
    for (const path of ['/', '/signin', '/dashboard/users']) {
      const response = await get(path);
      const html = await response.text();
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);

      const policy = response.headers.get('content-security-policy') ?? '';
      const { directives, nonces: added } = parsePolicy(policy);
      expect(directives).toEqual(cspDirectives([]));
      const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? '';
      expect(added).toEqual([`script-src 'nonce-${nonce}'`, `style-src 'nonce-${nonce}'`]);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      nonces.push(nonce);
      expect(securityHeadersOf(response)).toEqual({ ...EXPECTED_SPA, 'content-security-policy': policy });

      // The React refresh preamble (inline), Vite's client and the entry all carry it, and the
      // client finds it in the meta for the styles it injects.
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThanOrEqual(3);
      for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
      expect(html).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it("serves by path only the SPA, the shared code and the packages: not the data folder's keys, not the rest of the repository", async () => {
    // npm start keeps its data in the repository (`.local/`): the pool's signing key, the run's key pair.
    const local = join(repositoryRoot, '.local');
    await mkdir(local, { recursive: true });
    const secret = join(local, `vite-fs-probe-${process.pid}.json`);
    await writeFile(secret, '{"privateKey":"probe"}', { mode: 0o600 });
    try {
      for (const path of [
        secret,
        join(repositoryRoot, 'package.json'),
        join(repositoryRoot, 'lambdas', 'routes.ts'),
      ]) {
        const response = await get(`/@fs${path}`);
        expect(await response.text(), path).not.toContain('privateKey');
        expect(response.status, path).toBe(403);
      }
      for (const path of [
        join(repositoryRoot, 'shared', 'constants.ts'),
        join(repositoryRoot, 'web', 'src', 'main.tsx'),
      ])
        expect((await get(`/@fs${path}`)).status, path).toBe(200);
    } finally {
      await rm(secret, { force: true });
    }
  });

  it('sends exactly the production headers on modules and public files, and grants no other origin', async () => {
    for (const path of ['/src/main.tsx', '/@vite/client', '/favicon.svg']) {
      const response = await get(path, { headers: { origin: ELSEWHERE } });
      await response.arrayBuffer();
      expect(response.status, path).toBe(200);
      expect(securityHeadersOf(response), path).toEqual(EXPECTED_SPA);
      expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy([]));
      expect(corsHeadersOf(response), path).toEqual([]);
    }
  });

  it('locks down API answers and sends no CORS header; a cross-origin preflight is not granted', async () => {
    const answers = [
      await get('/v1/users/me', { headers: { origin: ELSEWHERE } }),
      await get('/v1/auth/initiate-signin', {
        method: 'POST',
        headers: { origin: ELSEWHERE, 'content-type': 'application/json' },
        body: '{}',
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 200]);
    const preflight = await get('/v1/auth/initiate-signin', {
      method: 'OPTIONS',
      headers: {
        origin: ELSEWHERE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(403);
    for (const answer of [...answers, preflight]) {
      await answer.arrayBuffer();
      expect(baseHeadersOf(answer)).toEqual(LOCAL_BASE_HEADERS);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(corsHeadersOf(answer)).toEqual([]);
    }
  });

  it('locks down Cognito answers and sends no CORS header; a cross-origin preflight is not granted', async () => {
    const call = await get(`${COGNITO_PATH}/`, {
      method: 'POST',
      headers: {
        origin: ELSEWHERE,
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
      },
      body: '{}',
    });
    const preflight = await get(`${COGNITO_PATH}/`, {
      method: 'OPTIONS',
      headers: {
        origin: ELSEWHERE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-amz-target,x-amz-user-agent',
      },
    });
    expect([call.status, preflight.status]).toEqual([400, 403]);
    for (const answer of [call, preflight]) {
      await answer.arrayBuffer();
      expect(baseHeadersOf(answer)).toEqual(LOCAL_BASE_HEADERS);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(corsHeadersOf(answer)).toEqual([]);
    }
  });
});

describe('the --prod server', () => {
  let prod: ProdWeb | undefined;
  let origin: string;

  beforeAll(async () => {
    prod = await startProdWeb({
      'index.html': '<!doctype html><script type="module" src="/assets/app.js"></script>',
      'assets/app.js': 'export {};',
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
    origin = prod.origin;
  });

  afterAll(() => prod?.stop());

  it('sends exactly the production headers on the HTML, a client route and an asset', async () => {
    for (const path of ['/', '/dashboard/users', '/assets/app.js', '/favicon.svg']) {
      const response = await fetch(`${origin}${path}`, { headers: { origin: ELSEWHERE } });
      await response.arrayBuffer();
      expect(response.status, path).toBe(200);
      expect(securityHeadersOf(response), path).toEqual(EXPECTED_SPA);
      expect(corsHeadersOf(response), path).toEqual([]);
    }
  });
});
