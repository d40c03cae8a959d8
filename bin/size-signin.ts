/**
 * The /signin JavaScript weight as a browser sees it (issue 12, docs/decisions/056-signin-weight.md):
 * web/dist served on 127.0.0.1 (a static server with the SPA fallback and the production headers,
 * no compression), `/signin` opened in Debian's Chromium on a phone-sized screen, and every JavaScript
 * response recorded (the entry script, each modulepreload, each dynamic import) until the page is
 * idle: the load event, no request in flight for QUIET_MS, and an idle callback after that. Each file
 * is gzipped here at level 9 (CloudFront does not publish its gzip level; 9 is the most any server
 * gets out of gzip, so the figure is what a phone downloads at best, never flattered by a lower level).
 *
 * Then the pointer moves onto "Sign In with Passkey" (the intent the page prefetches on) and what that
 * fetches is recorded the same way. Every answer is recorded (the document and the stylesheet too);
 * the budget counts the JavaScript.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { localSpaHeaders } from '../infra/local/security-headers';
import { CONTENT_TYPES } from '../infra/local/spa';
import { MESSAGES } from '../shared/messages';
import { CHROMIUM_ARGS, chromiumPath } from '../test/fixtures/chromium';

/** No request starts or ends for this long: the page has settled. */
const QUIET_MS = 1_000;
/** A page that never settles is a failure of its own. */
const SETTLE_TIMEOUT_MS = 30_000;
export const GZIP_LEVEL = 9;

export interface Fetched {
  /** The path the browser fetched, e.g. /assets/index-abc.js. */
  path: string;
  kind: 'script' | 'stylesheet' | 'document' | 'other';
  raw: number;
  gzip: number;
}

export interface SignInLoad {
  /** Everything fetched until the page was idle, in the order the answers started. */
  firstLoad: Fetched[];
  /** What moving the pointer onto the sign-in button fetched beyond that. */
  onIntent: Fetched[];
}

const kindOf = (resourceType: string, path: string, contentType: string): Fetched['kind'] => {
  if (resourceType === 'script' || /javascript/.test(contentType) || path.endsWith('.js')) return 'script';
  if (resourceType === 'stylesheet' || path.endsWith('.css')) return 'stylesheet';
  if (resourceType === 'document') return 'document';
  return 'other';
};

/** web/dist on 127.0.0.1, unknown paths answered with index.html as CloudFront does. */
const serveDist = async (dist: string): Promise<{ origin: string; server: Server }> => {
  const root = normalize(dist);
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    const candidate = normalize(join(root, decodeURIComponent(pathname)));
    const inside = candidate.startsWith(root + sep);
    const file =
      inside && existsSync(candidate) && statSync(candidate).isFile() ? candidate : join(root, 'index.html');
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      ...localSpaHeaders(),
    });
    res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, server };
};

/** Counts requests in flight and when the last one started or ended. */
const watchNetwork = (page: Page) => {
  let inFlight = 0;
  let lastActivity = Date.now();
  const started = () => {
    inFlight += 1;
    lastActivity = Date.now();
  };
  const ended = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    /** Resolves once nothing has been in flight for QUIET_MS, then after the page's next idle callback. */
    settled: async (path: string) => {
      const deadline = Date.now() + SETTLE_TIMEOUT_MS;
      for (;;) {
        if (inFlight === 0 && Date.now() - lastActivity >= QUIET_MS) {
          await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
          // The idle callback may itself have started something (a prefetch on idle): wait again.
          if (inFlight === 0 && Date.now() - lastActivity >= QUIET_MS) return;
        }
        if (Date.now() > deadline) throw new Error(`${path} did not settle within ${SETTLE_TIMEOUT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
};

/** A public page to measure: its path, the button that shows it is ready, and whether to record intent on it. */
export interface PublicPage {
  readonly path: string;
  readonly ready: string;
  /** Move the pointer onto the `ready` button after the first load and record what that fetches. */
  readonly intent: boolean;
}

export const SIGNIN_PAGE: PublicPage = { path: '/signin', ready: MESSAGES.signInWithPasskey, intent: true };
/** Step 1 of /activate, as an invitation's link opens it (docs/decisions/060-activate-alone.md). */
export const ACTIVATE_PAGE: PublicPage = { path: '/activate', ready: 'Verify Code', intent: false };

export const measureSignInLoad = (dist: string): Promise<SignInLoad> => measurePageLoad(dist, SIGNIN_PAGE);

export const measurePageLoad = async (dist: string, target: PublicPage): Promise<SignInLoad> => {
  const { origin, server } = await serveDist(dist);
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      locale: 'en-US',
    });
    const page = await context.newPage();
    const network = watchNetwork(page);
    const seen = new Map<string, Promise<Fetched>>();
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (seen.has(pathname)) return;
      const kind = kindOf(
        response.request().resourceType(),
        pathname,
        response.headers()['content-type'] ?? '',
      );
      seen.set(
        pathname,
        response.body().then((bytes) => ({
          path: pathname,
          kind,
          raw: bytes.length,
          gzip: gzipSync(bytes, { level: GZIP_LEVEL }).length,
        })),
      );
    });

    await page.goto(`${origin}${target.path}`, { waitUntil: 'load' });
    const button = page.getByRole('button', { name: target.ready });
    await button.waitFor({ state: 'visible' });
    await network.settled(target.path);
    const firstLoad = await Promise.all(seen.values());
    if (!target.intent) {
      await context.close();
      return { firstLoad, onIntent: [] };
    }

    await button.hover();
    await network.settled(target.path);
    const onIntent = (await Promise.all(seen.values())).slice(firstLoad.length);
    await context.close();
    return { firstLoad, onIntent };
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
};
