/**
 * The CSP violation detector of the browser tests (issue 11, docs/decisions/051). The journeys run
 * against `npm start -- --prod`, which sends the production policy (infra/security-headers.ts), and
 * every browser context they open (openDevice) is watched two ways:
 *
 * - an init script, which runs in every frame before the page's own scripts and is itself exempt
 *   from the policy, listens for `securitypolicyviolation` and reports each one to the test process
 *   through a context binding as it happens (so a navigation or a closed page loses nothing);
 * - Chromium's own console report of a violation ("... violates the following Content Security
 *   Policy directive ...", "Refused to ... Content Security Policy"), which also covers what no
 *   script of the page can observe.
 *
 * test/e2e/support/csp-setup.ts fails every test after which any violation was recorded, or a context
 * was opened without the detector.
 */
import type { Browser, BrowserContext } from 'playwright-core';

export interface CspViolation {
  /** How it was seen: the page's `securitypolicyviolation` event, or Chromium's console report. */
  readonly via: 'event' | 'console';
  /** The document (or frame) it happened in. */
  readonly url: string;
  /** The effective directive (`script-src-elem`, `connect-src`, ...); events only. */
  readonly directive?: string;
  /** What was blocked: a URL, or `inline`, `eval`, `data`; events only. */
  readonly blocked?: string;
  /** Where: `file:line:column`; events only. */
  readonly location?: string;
  /** The first characters of a blocked inline script or style; events only. */
  readonly sample?: string;
  /** Chromium's console message; console only. */
  readonly message?: string;
}

type ReportedEvent = Pick<CspViolation, 'directive' | 'blocked' | 'location' | 'sample'> & { url: string };

const BINDING = '__e2eReportCspViolation';

const recorded: CspViolation[] = [];
const watched = new WeakSet<BrowserContext>();
const browsers = new Set<Browser>();

/** In the page, before anything else runs. */
const listenForViolations = (binding: string) => {
  addEventListener(
    'securitypolicyviolation',
    (event) => {
      const report = (window as unknown as Record<string, (violation: ReportedEvent) => Promise<void>>)[
        binding
      ];
      void report?.({
        url: event.documentURI,
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        location: `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
        sample: event.sample,
      });
    },
    { capture: true },
  );
};

/** Chromium's console wording of a CSP violation, old and new. */
const CONSOLE_REPORT = /Content[- ]Security[- ]Policy/i;

/** Records every violation in `context` from now on: call it before the context opens a page. */
export const watchCsp = async (context: BrowserContext): Promise<void> => {
  if (watched.has(context)) return;
  await context.exposeBinding(BINDING, (source, violation: ReportedEvent) => {
    recorded.push({ via: 'event', ...violation, url: violation.url || source.frame.url() });
  });
  await context.addInitScript(listenForViolations, BINDING);
  context.on('console', (message) => {
    if (message.type() === 'error' && CONSOLE_REPORT.test(message.text()))
      recorded.push({ via: 'console', url: message.page()?.url() ?? '', message: message.text() });
  });
  watched.add(context);
};

/** A browser whose contexts must all be watched (launchChromium registers each one). */
export const registerBrowser = (browser: Browser): void => {
  browsers.add(browser);
  browser.once('disconnected', () => browsers.delete(browser));
};

const openContexts = () => [...browsers].flatMap((browser) => browser.contexts());

/**
 * Lets every open page finish delivering what it has seen: one task turn in each page, then one
 * round trip, after which its binding calls and console messages have reached this process.
 */
export const flushCspReports = async (): Promise<void> => {
  const pages = openContexts().flatMap((context) => context.pages());
  await Promise.all(
    pages.map((page) =>
      page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0))).catch(() => undefined),
    ),
  );
};

/** What was recorded since the last call, which starts afresh. */
export const takeCspViolations = (): CspViolation[] => recorded.splice(0, recorded.length);

/** Contexts of a registered browser opened without `watchCsp`: their violations would go unseen. */
export const unwatchedContexts = (): number =>
  openContexts().filter((context) => !watched.has(context)).length;

const describeViolation = (violation: CspViolation): string =>
  violation.via === 'event'
    ? `${violation.directive} blocked ${violation.blocked} in ${violation.url} at ${violation.location}${violation.sample ? ` (${violation.sample})` : ''}`
    : `console: ${violation.message} (${violation.url})`;

/** The verdict the tests get: throws, naming each violation, unless there is none. */
export const assertNoCspViolations = (violations: readonly CspViolation[], unwatched = 0): void => {
  const problems = [
    // The page's own reports first (directive, what, where), then Chromium's words for them.
    ...violations.filter(({ via }) => via === 'event').map(describeViolation),
    ...violations.filter(({ via }) => via === 'console').map(describeViolation),
    ...(unwatched > 0
      ? [`${unwatched} browser context(s) opened without the CSP detector (use openDevice)`]
      : []),
  ];
  if (problems.length > 0)
    throw new Error(`Content-Security-Policy violations:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
};

/** What every test ends with (csp-setup.ts): flush, take, and fail on anything. */
export const checkCsp = async (): Promise<void> => {
  await flushCspReports();
  assertNoCspViolations(takeCspViolations(), unwatchedContexts());
};
