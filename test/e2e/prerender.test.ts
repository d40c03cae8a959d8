/**
 * Issue 12: /signin and step 1 of /activate are painted from the HTML before the application's
 * JavaScript has run, and the app takes over in place (web/prerender,
 * docs/decisions/057-lighthouse-and-serving.md). Under the production CSP, as every journey.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, openDeviceForTest, PHONE } from './support/browser';
import { heading } from './support/ui';

const origin = inject('origin');
/** Every script of the build but the hand-off: the application's JavaScript. */
const APP_SCRIPTS = /\/assets\/(?!hand-off-)[^/]+\.js$/;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const SCREENS = [
  { path: '/signin', title: 'Welcome back', button: 'Sign In with Passkey' },
  { path: '/activate?code=ABCD-EFGH-JKLM-NPQR', title: 'Activate Your Account', button: 'Verify Code' },
] as const;

const boxOf = async (page: Page, title: string) => {
  const box = await heading(page, title).boundingBox();
  if (!box) throw new Error(`No box for ${title}`);
  return box;
};
const prerendered = (page: Page) => page.locator('[data-prerendered]');

describe('the prerendered public screens', () => {
  it('are painted without the application JavaScript, inert, each on its own path only', async () => {
    const { page } = await openDeviceForTest(browser, origin, { viewport: PHONE });
    const blocked: string[] = [];
    await page.route(APP_SCRIPTS, (route) => {
      blocked.push(route.request().url());
      return route.abort();
    });
    for (const screen of SCREENS) {
      await page.goto(screen.path);
      await expect.poll(() => heading(page, screen.title).isVisible()).toBe(true);
      await expect.poll(() => page.getByRole('button', { name: screen.button }).isVisible()).toBe(true);
      // One screen in the document, the one of this path; nothing in it takes input yet.
      expect(await prerendered(page).count()).toBe(1);
      expect(await prerendered(page).getAttribute('inert')).toBe('');
      expect(await page.locator('#root').isHidden()).toBe(true);
    }
    for (const path of ['/dashboard', '/unauthorized', '/activate?step=passkey']) {
      await page.goto(path);
      await page.waitForLoadState('domcontentloaded');
      expect(await prerendered(page).count(), path).toBe(0);
      expect(await page.locator('h1').count(), path).toBe(0);
    }
    expect(blocked.length).toBeGreaterThan(0);
  });

  it('hand over to the app in place: one heading, at the same spot, and the screen works', async () => {
    const { page } = await openDeviceForTest(browser, origin, { viewport: PHONE });
    const before = new Map<string, { x: number; y: number; width: number; height: number }>();
    await page.route(APP_SCRIPTS, (route) => route.abort());
    for (const screen of SCREENS) {
      await page.goto(screen.path);
      await expect.poll(() => heading(page, screen.title).isVisible()).toBe(true);
      before.set(screen.path, await boxOf(page, screen.title));
    }
    await page.unroute(APP_SCRIPTS);

    for (const screen of SCREENS) {
      await page.goto(screen.path);
      await expect.poll(() => prerendered(page).count()).toBe(0);
      await heading(page, screen.title).waitFor();
      expect(await page.locator('h1').count()).toBe(1);
      expect(await page.locator('#root h1').textContent()).toBe(screen.title);
      expect(await boxOf(page, screen.title)).toEqual(before.get(screen.path));
      await expect.poll(() => page.getByRole('button', { name: screen.button }).isEnabled()).toBe(true);
    }
    // The app's own screen takes input: the activation code from the link is in its field.
    expect(await page.getByLabel('Activation code').inputValue()).toBe('ABCD-EFGH-JKLM-NPQR');
  });
});
