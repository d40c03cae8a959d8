/**
 * Serves the SPA from the local stack's own origin: either through Vite in middleware mode (instant
 * start, hot reload: the default of `npm start`) or as the production build in web/dist (`--prod`,
 * what the browser tests use). Unknown paths fall back to index.html, as CloudFront does. Every answer
 * carries the production security headers (./security-headers.ts, docs/decisions/051).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
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

const TYPES: Record<string, string> = {
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

const serveDist = (folder: string): LocalWeb => {
  const root = normalize(folder);
  const fileFor = async (pathname: string): Promise<string | undefined> => {
    const candidate = normalize(join(root, decodeURIComponent(pathname)));
    if (!candidate.startsWith(root + sep) && candidate !== root) return undefined;
    const info = await stat(candidate).catch(() => undefined);
    return info?.isFile() ? candidate : undefined;
  };
  return {
    handle: async (req, res) => {
      const { pathname } = new URL(req.url ?? '/', 'http://localhost');
      const file = (await fileFor(pathname)) ?? join(root, 'index.html');
      const immutable = pathname.startsWith('/assets/');
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        ...localSpaHeaders(),
      });
      if (req.method === 'HEAD') return void res.end();
      createReadStream(file).pipe(res);
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
    // No CORS: Vite would grant any localhost origin (its default); the page shares this origin.
    server: { middlewareMode: true, ws: { server: httpServer }, cors: false },
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
      'content-type': TYPES['.html'] ?? 'text/html',
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
