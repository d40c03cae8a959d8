/**
 * Issue 12: `npm start -- --prod` serves the production build as CloudFront does
 * (docs/decisions/057-lighthouse-and-serving.md): br or gzip by the browser's Accept-Encoding and
 * q-values, `Vary: Accept-Encoding`, nothing compressed that is compressed already or too small to
 * gain, a year and `immutable` for the hashed assets, `no-cache` for the HTML of every route, five
 * minutes for other files, ETags, and the security headers of decision 051 on every answer.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProdWeb, type ProdWeb } from '../fixtures/prod-web';
import { CACHE_CONTROL } from '../../bin/deploy';
import { localSpaHeaders } from '../../infra/local/security-headers';
import { DIST_CACHE_CONTROL, MIN_COMPRESSED_BYTES, negotiateEncoding } from '../../infra/local/spa';

/** Text that compresses well, `bytes` long. */
const text = (bytes: number, seed: string) =>
  `${seed} `.repeat(Math.ceil(bytes / (seed.length + 1))).slice(0, bytes);

const FILES: Record<string, Buffer> = {
  'index.html': Buffer.from(
    `<!doctype html><html><head><script type="module" src="/assets/app-AbC123.js"></script></head><body><div id="root"></div>${text(4000, '<p>shell</p>')}</body></html>`,
  ),
  'assets/app-AbC123.js': Buffer.from(text(50_000, 'export const value = "application";')),
  'assets/index-XyZ789.css': Buffer.from(text(8000, '.auth-card { display: grid; }')),
  'assets/tiny-Q1w2E3.js': Buffer.from('export {};'),
  // Already compressed: sent as it is, whatever the browser accepts.
  'assets/logo-R4t5Y6.png': Buffer.from(text(5000, 'not really a png, but served as one')),
  'favicon.svg': Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${text(2000, '<g/>')}</svg>`),
  '.vite/manifest.json': Buffer.from(text(2000, '{"not":"served"}')),
};

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A raw HTTP request (fetch would negotiate and decode by itself). */
const get = (origin: string, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Promise<Answer>((resolve, reject) => {
    const call = request(`${origin}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    call.on('error', reject);
    call.end();
  });

const decode = (answer: Answer): Buffer => {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body);
  if (coding === 'gzip') return gunzipSync(answer.body);
  expect(coding).toBeUndefined();
  return answer.body;
};

describe('negotiateEncoding', () => {
  const both = ['br', 'gzip'] as const;
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', 'br'],
    ['gzip;q=0.5', 'gzip'],
    ['GZIP; Q=0.7, BR; Q=0.2', 'gzip'],
    ['identity', 'identity'],
    ['identity;q=1, br;q=0.9', 'identity'],
    ['*', 'br'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['br;q=0, *;q=0.3', 'gzip'],
    ['deflate, zstd', 'identity'],
    ['br;q=abc, gzip', 'gzip'],
  ])('%j gets %s', (header, expected) => {
    expect(negotiateEncoding(header, both)).toBe(expected);
  });

  it('offers only the codings the file has', () => {
    expect(negotiateEncoding('br, gzip', [])).toBe('identity');
    expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip');
  });
});

describe('the --prod server', () => {
  let prod: ProdWeb | undefined;
  let origin: string;

  beforeAll(async () => {
    prod = await startProdWeb(FILES);
    origin = prod.origin;
  });

  afterAll(() => prod?.stop());

  const COMPRESSIBLE = ['/', '/signin', '/assets/app-AbC123.js', '/assets/index-XyZ789.css', '/favicon.svg'];
  const fileOf = (path: string) =>
    FILES[path.startsWith('/assets/') || path === '/favicon.svg' ? path.slice(1) : 'index.html'];

  it('sends br when the browser accepts it, else gzip, else the file as it is; the bytes decode to the file', async () => {
    for (const path of COMPRESSIBLE) {
      for (const [accept, coding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip, deflate', 'gzip'],
        ['br;q=0.1, gzip;q=0.9', 'gzip'],
        ['identity', undefined],
        [undefined, undefined],
      ] as const) {
        const answer = await get(origin, path, accept ? { 'accept-encoding': accept } : {});
        expect(answer.status, path).toBe(200);
        expect(answer.headers['content-encoding'], `${path} ${accept}`).toBe(coding);
        expect(answer.headers.vary, path).toBe('Accept-Encoding');
        expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
        expect(decode(answer).equals(fileOf(path) ?? Buffer.alloc(0)), `${path} ${accept}`).toBe(true);
        if (coding) expect(answer.body.length).toBeLessThan((fileOf(path) ?? []).length / 2);
      }
    }
  });

  it('never compresses what is compressed already or too small to gain, and says it does not vary', async () => {
    expect(FILES['assets/tiny-Q1w2E3.js']?.length).toBeLessThan(MIN_COMPRESSED_BYTES);
    for (const path of ['/assets/logo-R4t5Y6.png', '/assets/tiny-Q1w2E3.js']) {
      const answer = await get(origin, path, { 'accept-encoding': 'br, gzip' });
      expect(answer.headers['content-encoding'], path).toBeUndefined();
      expect(answer.headers.vary, path).toBeUndefined();
      expect(answer.body.equals(FILES[path.slice(1)] ?? Buffer.alloc(0))).toBe(true);
    }
    expect((await get(origin, '/assets/logo-R4t5Y6.png')).headers['content-type']).toBe('image/png');
  });

  it('caches hashed assets for a year, revalidates the HTML of every route, other files five minutes, as deploy stores them', async () => {
    expect(DIST_CACHE_CONTROL).toEqual(CACHE_CONTROL);
    const cacheOf = async (path: string) => (await get(origin, path)).headers['cache-control'];
    for (const path of ['/assets/app-AbC123.js', '/assets/index-XyZ789.css', '/assets/logo-R4t5Y6.png'])
      expect(await cacheOf(path), path).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/index.html', '/signin', '/activate?code=ABCD', '/dashboard/users'])
      expect(await cacheOf(path), path).toBe('no-cache');
    expect(await cacheOf('/favicon.svg')).toBe('public, max-age=300');
  });

  it('answers a path that is no file with index.html, an asset that is gone included, never cached as one', async () => {
    for (const path of ['/assets/gone-000000.js', '/.vite/manifest.json', '/%E0%A4%A', '/../package.json']) {
      const answer = await get(origin, path, { 'accept-encoding': 'gzip' });
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control'], path).toBe('no-cache');
      expect(decode(answer).equals(FILES['index.html'] ?? Buffer.alloc(0)), path).toBe(true);
    }
  });

  it('gives each representation its own ETag and answers a matching If-None-Match with 304', async () => {
    const br = await get(origin, '/assets/app-AbC123.js', { 'accept-encoding': 'br' });
    const gzip = await get(origin, '/assets/app-AbC123.js', { 'accept-encoding': 'gzip' });
    const plain = await get(origin, '/assets/app-AbC123.js');
    const tags = [br, gzip, plain].map((answer) => answer.headers.etag);
    expect(new Set(tags).size).toBe(3);
    const again = await get(origin, '/assets/app-AbC123.js', {
      'accept-encoding': 'br',
      'if-none-match': `"other", ${br.headers.etag}`,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A tag of another representation is no match.
    expect(
      (await get(origin, '/assets/app-AbC123.js', { 'if-none-match': String(br.headers.etag) })).status,
    ).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await get(origin, '/signin', { 'accept-encoding': 'br' }, 'HEAD');
    const full = await get(origin, '/signin', { 'accept-encoding': 'br' });
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.headers['content-encoding']).toBe('br');
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    'refuses %s with 403 as CloudFront does (GET and HEAD only), the app not sent, the headers kept',
    async (method) => {
      for (const path of ['/signin', '/assets/app-AbC123.js']) {
        const answer = await get(origin, path, { 'accept-encoding': 'br' }, method);
        expect(answer.status).toBe(403);
        expect(answer.headers['content-encoding']).toBeUndefined();
        expect(answer.body.toString()).toBe('This site answers GET and HEAD only.');
        expect(answer.headers['content-security-policy']).toBe(localSpaHeaders()['content-security-policy']);
      }
    },
  );

  it('keeps every security header of decision 051 exactly, compressed or not, 304 included', async () => {
    const expected = localSpaHeaders();
    const answers = [
      await get(origin, '/signin', { 'accept-encoding': 'br' }),
      await get(origin, '/assets/app-AbC123.js', { 'accept-encoding': 'gzip' }),
      await get(origin, '/assets/logo-R4t5Y6.png'),
    ];
    answers.push(
      await get(origin, '/assets/app-AbC123.js', { 'if-none-match': String(answers[2]?.headers.etag) }),
    );
    answers.push(
      await get(origin, '/assets/logo-R4t5Y6.png', { 'if-none-match': String(answers[2]?.headers.etag) }),
    );
    for (const answer of answers) {
      expect(Object.fromEntries(Object.keys(expected).map((name) => [name, answer.headers[name]]))).toEqual(
        expected,
      );
      expect(answer.headers['strict-transport-security']).toBeUndefined();
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
    expect(answers.at(-1)?.status).toBe(304);
  });
});
