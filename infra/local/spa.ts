/**
 * Serves the SPA from the local stack's own origin: either through Vite in middleware mode (instant
 * start, hot reload: the default of `npm start`) or as the production build in web/dist (`--prod`,
 * what the browser tests use). Unknown paths fall back to index.html, as CloudFront does.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

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

/** The same security headers the CloudFront response-headers policy sets in the cloud. */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
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
        ...SECURITY_HEADERS,
      });
      if (req.method === 'HEAD') return void res.end();
      createReadStream(file).pipe(res);
    },
    close: async () => undefined,
  };
};

const serveVite = async (webRoot: string, httpServer: Server): Promise<LocalWeb> => {
  const { createServer } = await import('vite');
  const vite = await createServer({
    configFile: join(webRoot, 'vite.config.ts'),
    configLoader: 'runner',
    root: webRoot,
    appType: 'spa',
    logLevel: 'warn',
    server: { middlewareMode: true, ws: { server: httpServer } },
  });
  return {
    handle: (req, res) =>
      new Promise((resolve) => {
        vite.middlewares(req, res, () => {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('Not found');
          resolve();
        });
        res.once('finish', () => resolve());
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
