/**
 * Issue 11: the browser journeys run under the production Content-Security-Policy (the stack of
 * global-setup.ts is `npm start -- --prod`, serving the headers of infra/security-headers.ts), and a
 * violation fails them. The detector (support/csp.ts) records violations committed under the real
 * served policy, its check refuses them by name, and the check every test ends with
 * (support/csp-setup.ts) fails a test that commits one, for that reason alone.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCAL_BASE_HEADERS } from '../../infra/local/security-headers';
import { securityHeaders } from '../../infra/security-headers';
import { launchChromium, openDeviceForTest } from './support/browser';
import { assertNoCspViolations, flushCspReports, takeCspViolations, unwatchedContexts } from './support/csp';
import { heading } from './support/ui';

const origin = inject('origin');
/** An origin the policy does not name. */
const ELSEWHERE = 'https://elsewhere.example/';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** On /signin under the served policy: an injected inline script and style, and a call elsewhere. */
const commitViolations = async (page: Page) => {
  await page.goto('/signin');
  await heading(page, 'Welcome back').waitFor();
  await page.evaluate(async (elsewhere) => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.head.append(script);
    const style = document.createElement('style');
    style.textContent = 'body { display: none; }';
    document.head.append(style);
    await fetch(elsewhere).catch(() => undefined);
  }, ELSEWHERE);
};

const headersNamed = (response: Response, names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, response.headers.get(name)]));

describe('the policy the journeys run under', () => {
  it('is the production definition on the page and every script and stylesheet it loads, HSTS aside', async () => {
    const production = securityHeaders([]);
    const page = await fetch(`${origin}/signin`);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
      ([, path]) => path,
    );
    expect(assets.length).toBeGreaterThan(1);

    for (const response of [page, ...(await Promise.all(assets.map((path) => fetch(`${origin}${path}`))))]) {
      expect(headersNamed(response, Object.keys(production)), response.url).toEqual({
        ...production,
        // Plain http://localhost: browsers ignore HSTS there, and the local server leaves it out.
        'strict-transport-security': null,
      });
    }

    const api = await fetch(`${origin}/v1/users/me`);
    expect(api.status).toBe(401);
    expect(headersNamed(api, Object.keys(LOCAL_BASE_HEADERS))).toEqual(LOCAL_BASE_HEADERS);
    expect([...api.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('records a violation the page commits, and the check every test ends with fails on it', async () => {
    const { page } = await openDeviceForTest(browser, origin);
    await page.goto('/signin');
    await heading(page, 'Welcome back').waitFor();
    await flushCspReports();
    // The app itself commits none.
    expect(takeCspViolations()).toEqual([]);

    await commitViolations(page);

    // The served policy blocked all three...
    expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();
    expect(await page.locator('body').isVisible()).toBe(true);
    // ...and the detector saw each one, through the page's event and through Chromium's console.
    await flushCspReports();
    const violations = takeCspViolations();
    const events = violations
      .filter((violation) => violation.via === 'event')
      .map(({ directive, blocked, url }) => ({ directive, blocked, url }));
    expect(events).toEqual([
      { directive: 'script-src-elem', blocked: 'inline', url: `${origin}/signin` },
      { directive: 'style-src-elem', blocked: 'inline', url: `${origin}/signin` },
      { directive: 'connect-src', blocked: ELSEWHERE, url: `${origin}/signin` },
    ]);
    const reported = violations.filter((violation) => violation.via === 'console').map((v) => v.message);
    expect(reported).toEqual(
      expect.arrayContaining([
        expect.stringContaining("Content Security Policy directive 'script-src 'self''"),
        expect.stringContaining("Content Security Policy directive 'style-src 'self''"),
        expect.stringContaining(`Connecting to '${ELSEWHERE}' violates`),
      ]),
    );

    // The verdict csp-setup.ts gives every test: these would fail it, each named.
    expect(() => assertNoCspViolations(violations)).toThrowError(
      /script-src-elem blocked inline[\s\S]*style-src-elem blocked inline[\s\S]*connect-src blocked https:\/\/elsewhere\.example\//,
    );
    expect(() => assertNoCspViolations([])).not.toThrow();
    // Taken above: this test's own check finds nothing left.
    expect(takeCspViolations()).toEqual([]);
  });

  /** What the next test reads: how far the failing test got, and why it failed. */
  let failingTestCompleted = false;
  let failingTestErrors: readonly { message?: string }[] = [];

  // Marked to fail: it passes only if it fails. It leaves its violations to the check every test
  // ends with; the next test proves that check, not anything else, is what failed it.
  it.fails('a test that commits a violation fails', async ({ onTestFailed }) => {
    onTestFailed(({ task }) => {
      failingTestErrors = task.result?.errors ?? [];
    });
    const { page } = await openDeviceForTest(browser, origin);
    await commitViolations(page);
    failingTestCompleted = true;
  });

  it('failed it for its violations alone, after its own steps all passed', () => {
    expect(failingTestCompleted).toBe(true);
    expect(failingTestErrors).toHaveLength(1);
    expect(failingTestErrors[0]?.message).toMatch(
      /^Content-Security-Policy violations:\n {2}- script-src-elem blocked inline in .+\/signin[\s\S]*style-src-elem blocked inline[\s\S]*connect-src blocked https:\/\/elsewhere\.example\//,
    );
  });

  it('refuses a context opened without the detector', async () => {
    const context = await browser.newContext();
    try {
      expect(unwatchedContexts()).toBe(1);
      expect(() => assertNoCspViolations([], unwatchedContexts())).toThrowError(
        /1 browser context\(s\) opened without the CSP detector/,
      );
    } finally {
      await context.close();
    }
  });
});
