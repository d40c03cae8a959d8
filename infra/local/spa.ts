/**
 * Serves the SPA from the local stack's own origin: either through Vite in middleware mode (instant
 * start, hot reload: the default of `npm start`) or as the production build in web/dist (`--prod`,
 * what the browser tests use). Unknown paths fall back to index.html, as CloudFront does. Every answer
 * carries the production security headers (./security-headers.ts, docs/decisions/051). The
 * production build is served compressed and cached as CloudFront serves it (docs/decisions/057).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { devDocumentHeaders, localSpaHeaders, setHeaders } from './security-headers';

export type WebMode = 'vite' | 'dist' | 'none';

export interface LocalWeb {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/** The SPA's build-time configuration for the local stack: same-origin paths, so any PORT works. */
export const localWebEnvironment = (
  userPoolId: string,
  clientId: string,
  region: string,
): Record<string, string> => ({
  VITE_USER_POOL_ID: userPoolId,
  VITE_USER_POOL_CLIENT_ID: clientId,
  VITE_AWS_REGION: region,
  VITE_API_BASE_URL: '/',
  VITE_COGNITO_ENDPOINT: '/cognito',
});

/** The media type of each kind of file the build holds (also the /signin weight script's). */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Encodings the `--prod` server offers besides identity, in the order it prefers them. */
export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number] | 'identity';

/**
 * The representation to send for an `Accept-Encoding` header (RFC 9110 section 12.5.3), among
 * `available` (identity is always available): the highest q-value wins, ties go to the earlier of
 * br, gzip, identity. `*` stands for every coding the header does not name; identity is acceptable
 * unless refused by name or by `*;q=0`, and comes last when unnamed. No header means identity, as
 * CloudFront reads it. When every representation is refused, identity is sent all the same (the
 * alternative is a 406).
 */
export const negotiateEncoding = (header: string | undefined, available: readonly Encoding[]): Encoding => {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => /^q\s*=/.test(param));
    const weight = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1).trim());
    weights.set(name, Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0);
  }
  // Identity unnamed stays acceptable, after anything the header names.
  const weightOf = (coding: Encoding): number =>
    weights.get(coding) ?? weights.get('*') ?? (coding === 'identity' ? Number.MIN_VALUE : 0);
  let best: Encoding = 'identity';
  let bestWeight = 0;
  for (const coding of [...ENCODINGS, 'identity'] as const) {
    if (coding !== 'identity' && !available.includes(coding)) continue;
    const weight = weightOf(coding);
    if (weight > bestWeight) [best, bestWeight] = [coding, weight];
  }
  return best;
};

/**
 * Types worth compressing: text, and the two image types that are text or uncompressed. PNG,
 * WOFF2 and the like are compressed already, and are sent as they are.
 */
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.webmanifest',
  '.ico',
  '.map',
]);
/** CloudFront compresses objects of 1,000 bytes up to 10,000,000 bytes; so does this server. */
export const MIN_COMPRESSED_BYTES = 1000;

/**
 * Cache-Control per kind of file, as `npm run deploy` stores them on the S3 objects that CloudFront
 * passes on (bin/deploy.ts CACHE_CONTROL): content-hashed assets for a year, the entry HTML (index.html,
 * so every client-side route) revalidated on every load, anything else five minutes.
 */
export const DIST_CACHE_CONTROL = {
  hashed: 'public, max-age=31536000, immutable',
  entry: 'no-cache',
  other: 'public, max-age=300',
} as const;

/** Build output that is not served, as `npm run deploy` does not upload it (Vite's manifest). */
const NOT_SERVED = '.vite/';

interface DistFile {
  readonly type: string;
  readonly cacheControl: string;
  readonly identity: Buffer;
  /** Content hash: the ETag of each representation, with its coding appended. */
  readonly hash: string;
  /** Compressed once, in the background from the start; awaited by the first answer that needs it. */
  readonly encoded: Promise<Partial<Record<Encoding, Buffer>>>;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** br at its best quality and gzip at level 9, each kept only when smaller than the file. */
const compress = async (body: Buffer): Promise<Partial<Record<Encoding, Buffer>>> => {
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipped(body, { level: 9 }),
  ]);
  return Object.fromEntries(
    (
      [
        ['br', br],
        ['gzip', gz],
      ] as const
    ).filter(([, encoded]) => encoded.length < body.length),
  );
};

const listFiles = async (folder: string): Promise<string[]> =>
  (await readdir(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'));

/**
 * The production build, read into memory once at start (a rebuild while it runs changes nothing
 * served: restart to serve it), answered as CloudFront answers it: compressed with br or gzip when
 * the browser accepts it (`Vary: Accept-Encoding`), cached per kind of file, `ETag`s with
 * `If-None-Match`, every path that is no file answered with index.html.
 */
const serveDist = async (folder: string): Promise<LocalWeb> => {
  const files = new Map<string, DistFile>();
  for (const path of await listFiles(folder)) {
    if (path.startsWith(NOT_SERVED)) continue;
    const identity = await readFile(join(folder, path));
    const extension = extname(path);
    const compressible = COMPRESSIBLE.has(extension) && identity.length >= MIN_COMPRESSED_BYTES;
    const encoded = compressible ? compress(identity) : Promise.resolve({});
    // A failure surfaces in the answer that awaits it, not as an unhandled rejection at start.
    encoded.catch(() => undefined);
    files.set(`/${path}`, {
      type: CONTENT_TYPES[extension] ?? 'application/octet-stream',
      cacheControl: path.startsWith('assets/')
        ? DIST_CACHE_CONTROL.hashed
        : path === 'index.html'
          ? DIST_CACHE_CONTROL.entry
          : DIST_CACHE_CONTROL.other,
      identity,
      hash: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
      encoded,
    });
  }
  const index = files.get('/index.html');
  if (!index) throw new Error(`${folder} has no index.html: build it first.`);

  const fileFor = (pathname: string): DistFile => {
    try {
      return files.get(decodeURIComponent(pathname)) ?? index;
    } catch {
      return index;
    }
  };

  return {
    handle: async (req, res) => {
      // CloudFront allows GET and HEAD only (`spa-site.ts`) and refuses any other method with 403.
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', ...localSpaHeaders() });
        return void res.end('This site answers GET and HEAD only.');
      }
      const { pathname } = new URL(req.url ?? '/', 'http://localhost');
      const file = fileFor(pathname);
      const encoded = await file.encoded;
      const available = Object.keys(encoded) as Encoding[];
      const coding = negotiateEncoding(req.headers['accept-encoding'], available);
      const body = encoded[coding] ?? file.identity;
      const etag = `"${file.hash}${coding === 'identity' ? '' : `-${coding}`}"`;
      const headers: Record<string, string> = {
        'content-type': file.type,
        'cache-control': file.cacheControl,
        etag,
        ...(available.length > 0 && { vary: 'Accept-Encoding' }),
        ...(coding !== 'identity' && { 'content-encoding': coding }),
        ...localSpaHeaders(),
      };
      const matches = (req.headers['if-none-match'] ?? '')
        .split(',')
        .some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*');
      if (matches) {
        res.writeHead(304, headers);
        return void res.end();
      }
      res.writeHead(200, { ...headers, 'content-length': String(body.length) });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
    close: async () => undefined,
  };
};

/**
 * What Vite writes where the nonce goes (`html.cspNonce`): every `<script>`, `<style>` and stylesheet
 * link of the HTML, and the `csp-nonce` meta its client reads for the `<style>` elements it injects.
 * Each HTML answer replaces it with a fresh nonce and names that one in its CSP.
 */
const NONCE_PLACEHOLDER = 'local-dev-csp-nonce';

const notFound = (res: ServerResponse) => {
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('Not found');
};

const serveVite = async (webRoot: string, httpServer: Server): Promise<LocalWeb> => {
  const { createServer } = await import('vite');
  const vite = await createServer({
    configFile: join(webRoot, 'vite.config.ts'),
    configLoader: 'runner',
    root: webRoot,
    // 'custom': Vite serves modules and public files, the HTML is ours (below), so that each
    // answer carries its own nonce.
    appType: 'custom',
    html: { cspNonce: NONCE_PLACEHOLDER },
    logLevel: 'warn',
    server: {
      middlewareMode: true,
      ws: { server: httpServer },
      // No CORS: Vite would grant any localhost origin (its default); the page shares this origin.
      cors: false,
      // Files Vite may serve by path (`/@fs/...`): the SPA, the shared code it imports and the
      // packages, never the rest of the repository. Vite's default is the whole workspace, which holds
      // `.local/`: the local pool's signing key and the run's key pair (decision 052) for any program
      // that asked this server. Vite's own deny list (`.env`, keys, `.git`) still applies.
      fs: {
        strict: true,
        allow: [webRoot, join(webRoot, '..', 'shared'), join(webRoot, '..', 'node_modules')],
      },
    },
  });
  const template = join(webRoot, 'index.html');

  /** index.html as Vite transforms it (client, React refresh preamble), for every path Vite has no file for. */
  const serveIndex = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return notFound(res);
    const nonce = randomBytes(16).toString('base64');
    const html = (await vite.transformIndexHtml(req.url ?? '/', await readFile(template, 'utf8'))).replaceAll(
      NONCE_PLACEHOLDER,
      nonce,
    );
    res.writeHead(200, {
      'content-type': CONTENT_TYPES['.html'] ?? 'text/html',
      'cache-control': 'no-cache',
      ...devDocumentHeaders(nonce),
    });
    res.end(req.method === 'HEAD' ? undefined : html);
  };

  return {
    handle: (req, res) =>
      new Promise((resolve, reject) => {
        // Modules, styles and public files: the production headers, as in --prod.
        setHeaders(res, localSpaHeaders());
        res.once('finish', () => resolve());
        res.once('close', () => resolve());
        vite.middlewares(req, res, () => {
          serveIndex(req, res).then(resolve, reject);
        });
      }),
    close: () => vite.close(),
  };
};

export const createLocalWeb = async (
  mode: WebMode,
  webRoot: string,
  httpServer: Server,
): Promise<LocalWeb> => {
  if (mode === 'vite') return serveVite(webRoot, httpServer);
  if (mode === 'dist') {
    const index = await stat(join(webRoot, 'dist', 'index.html')).catch(() => undefined);
    if (!index) throw new Error('web/dist is missing: build it first (npm start -- --prod builds it).');
    return serveDist(join(webRoot, 'dist'));
  }
  return {
    handle: async (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('The SPA is not served by this stack.');
    },
    close: async () => undefined,
  };
};
