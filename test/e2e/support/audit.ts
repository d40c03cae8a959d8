/** axe-core checks (WCAG 2.0/2.1 A and AA) and the screenshots of the screens issue 4 names. */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DESKTOP, PHONE, TABLETS, type Viewport } from './browser';

export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../../test-results/screenshots');

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

interface Finding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe on what the page shows now; fails on any serious or critical violation, listing them. */
export const expectNoSeriousViolations = async (page: Page, screen: string): Promise<Finding[]> => {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const findings = results.violations.map((violation): Finding => ({
    id: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
  const minor = findings.filter((finding) => !BLOCKING.has(finding.impact));
  if (minor.length > 0) console.warn(`axe on ${screen}: minor or moderate findings`, minor);
  const blocking = findings.filter((finding) => BLOCKING.has(finding.impact));
  expect(blocking, `axe found serious or critical violations on ${screen}`).toEqual([]);
  return findings;
};

/** test-results/screenshots/<screen>-<width>x<height>.png, exactly the viewport. */
export const saveScreenshot = async (page: Page, screen: string, viewport: Viewport): Promise<string> => {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = resolve(SCREENSHOT_DIR, `${screen}-${viewport.width}x${viewport.height}.png`);
  // Fonts and lazy chunks settle before the picture, and the caret does not blink into it.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  return path;
};

/** The page has nothing to scroll sideways to at its current size. */
const expectNoSidewaysScroll = (page: Page) =>
  expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);

/** axe, a screenshot, and no sideways scroll, at the page's current size; `settle` first brings the part shown into view. */
export const auditScreen = async (page: Page, screen: string, settle?: () => Promise<unknown>) => {
  await settle?.();
  await expectNoSeriousViolations(page, screen);
  await saveScreenshot(page, screen, page.viewportSize() ?? DESKTOP);
  await expectNoSidewaysScroll(page);
};

/**
 * The same screen at 1280x800 and 390x844, then back at 1280x800; between them, at the two tablet sizes,
 * only that the page does not scroll sideways.
 */
export const auditBothSizes = async (page: Page, screen: string, settle?: () => Promise<unknown>) => {
  await auditScreen(page, screen, settle);
  await page.setViewportSize(PHONE);
  await auditScreen(page, screen, settle);
  for (const viewport of TABLETS) {
    await page.setViewportSize(viewport);
    await settle?.();
    await expectNoSidewaysScroll(page);
  }
  await page.setViewportSize(DESKTOP);
};
