/**
 * Issue 8's journey, as a client with imperial units: logs glucose in mmol/L (fasting), weight in lb,
 * waist in in, blood pressure, a meal, an activity and a night's sleep from Health Overview; the tiles
 * show them in imperial units; Metrics draws the glucose chart with its target band and marks the
 * reading outside it; an entry is deleted through the confirm prompt; the export downloads. axe and
 * screenshots cover the new screens and dialogs at 1280x800 and 390x844.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { expectNoSeriousViolations, saveScreenshot } from './support/audit';
import { DESKTOP, launchChromium, openDeviceForTest, PHONE, type Passkey } from './support/browser';
import {
  activateFromLink,
  completeOnboarding,
  heading,
  openFromSidebar,
  signInWithPasskey,
  localInput,
  inviteFromCli,
} from './support/ui';

const origin = inject('origin');
const EMAIL = 'imperial.client@example.com';
let browser: Browser;
let link: string;
let passkey: Passkey | undefined;

beforeAll(async () => {
  link = inviteFromCli(EMAIL, 'users');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** `datetime-local` text for a moment a few minutes ago, in the page's zone (UTC in these tests). */

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });
const openDialog = async (page: Page, button: string) => {
  await page.getByRole('button', { name: button, exact: true }).click();
  const opened = dialog(page, button);
  await opened.waitFor();
  return opened;
};
const save = async (page: Page, opened: Locator) => {
  await opened.getByRole('button', { name: 'Save', exact: true }).click();
  await opened.waitFor({ state: 'hidden' });
  await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Entry saved');
};
const tile = (page: Page, title: string) =>
  page.locator('.metric-tile').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

const logMeasurement = async (
  page: Page,
  fill: (opened: Locator) => Promise<void>,
  minutesAgo: number,
  audit?: string,
) => {
  const opened = await openDialog(page, 'Log Measurement');
  await fill(opened);
  await opened.getByLabel('Date and time', { exact: true }).fill(localInput(minutesAgo));
  if (audit) await auditScreen(page, audit);
  await save(page, opened);
};

/** Nothing wider than the screen: no sideways scrolling at 390 px. */
const expectNoHorizontalScroll = async (page: Page) => {
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);
};

const auditScreen = async (page: Page, screen: string) => {
  await expectNoSeriousViolations(page, screen);
  await saveScreenshot(page, screen, page.viewportSize() ?? DESKTOP);
};

/**
 * Pixels of a chart's canvas: `band`, painted in the band's colour (translucent green), and `painted`,
 * painted at all (axes, series; above 0 once the chart is drawn).
 */
const pixelsOf = (chart: Locator) =>
  chart.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const context = canvas.getContext('2d');
    if (!context) return { band: -1, painted: -1 };
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let band = 0;
    let painted = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r = 0, g = 0, b = 0, a = 0] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 0) painted += 1;
      if (a > 20 && a < 60 && Math.abs(r - 22) < 12 && Math.abs(g - 101) < 12 && Math.abs(b - 52) < 12)
        band += 1;
    }
    return { band, painted };
  });
const bandPixels = async (chart: Locator) => (await pixelsOf(chart)).band;
const paintedPixels = async (chart: Locator) => (await pixelsOf(chart)).painted;

describe('health records in the browser', () => {
  test('an imperial client logs every kind of entry from Health Overview and sees the tiles in lb and in', async () => {
    const device = await openDeviceForTest(browser, origin);
    const { page } = device;
    await activateFromLink(page, link, EMAIL);
    await completeOnboarding(page, {
      preferredName: 'Imani',
      familyName: 'Perial',
      dateOfBirth: '1979-04-02',
      height: { feet: 5, inches: 9 },
    });
    await openFromSidebar(page, 'My Health', 'Health Overview');
    for (const title of ['Blood Glucose', 'Weight', 'Waist Circumference', 'Blood Pressure'])
      await tile(page, title).getByText('No entries yet', { exact: true }).waitFor();
    // The empty 'Entry saved' region is already in the accessibility tree (not display: none), so the
    // message put in it is read out as it arrives.
    const savedStatus = page.locator('p.save-status');
    expect(await savedStatus.textContent()).toBe('');
    expect(await page.getByRole('status').and(savedStatus).count()).toBe(1);

    await logMeasurement(
      page,
      async (opened) => {
        await opened.getByLabel('Measurement', { exact: true }).selectOption('glucose');
        await opened.getByLabel('Unit', { exact: true }).selectOption('mmol/L');
        await opened.getByLabel('Blood glucose (mmol/L)', { exact: true }).fill('5.5');
        await opened.getByLabel('Glucose context', { exact: true }).selectOption('fasting');
      },
      60,
      'log-measurement-dialog',
    );
    // A second fasting reading above the 70-100 mg/dL target: 6.5 mmol/L is 117 mg/dL.
    await logMeasurement(
      page,
      async (opened) => {
        await opened.getByLabel('Measurement', { exact: true }).selectOption('glucose');
        await opened.getByLabel('Unit', { exact: true }).selectOption('mmol/L');
        await opened.getByLabel('Blood glucose (mmol/L)', { exact: true }).fill('6.5');
        await opened.getByLabel('Glucose context', { exact: true }).selectOption('fasting');
      },
      5,
    );
    await logMeasurement(
      page,
      async (opened) => {
        await opened.getByLabel('Measurement', { exact: true }).selectOption('weight');
        await opened.getByLabel('Weight (lb)', { exact: true }).fill('154');
      },
      50,
    );
    await logMeasurement(
      page,
      async (opened) => {
        await opened.getByLabel('Measurement', { exact: true }).selectOption('waist');
        await opened.getByLabel('Waist circumference (in)', { exact: true }).fill('34');
      },
      40,
    );
    await logMeasurement(
      page,
      async (opened) => {
        await opened.getByLabel('Measurement', { exact: true }).selectOption('blood_pressure');
        await opened.getByLabel('Systolic (mmHg)', { exact: true }).fill('128');
        await opened.getByLabel('Diastolic (mmHg)', { exact: true }).fill('82');
      },
      30,
    );

    // The server's bound, shown in the dialog; nothing saved.
    const refused = await openDialog(page, 'Log Measurement');
    await refused.getByLabel('Measurement', { exact: true }).selectOption('weight');
    await refused.getByLabel('Weight (lb)', { exact: true }).fill('900');
    await refused.getByRole('button', { name: 'Save', exact: true }).click();
    await refused.getByText('Weight must be between 20 and 400 kg').first().waitFor();
    await refused.getByRole('button', { name: 'Cancel', exact: true }).click();

    const meal = await openDialog(page, 'Log Meal');
    await meal.getByLabel('Description', { exact: true }).fill('Greek yogurt and walnuts');
    await meal.getByLabel('Carbs (g)', { exact: true }).fill('18');
    await meal.getByLabel('Time', { exact: true }).fill(localInput(120));
    await auditScreen(page, 'log-meal-dialog');
    await save(page, meal);

    const activity = await openDialog(page, 'Log Activity');
    await activity.getByLabel('Activity', { exact: true }).fill('Brisk walk');
    await activity.getByLabel('Minutes', { exact: true }).fill('40');
    await activity.getByLabel('Intensity', { exact: true }).selectOption('moderate');
    await activity.getByLabel('Start time', { exact: true }).fill(localInput(180));
    await save(page, activity);

    const sleep = await openDialog(page, 'Log Sleep');
    await sleep.getByLabel('Sleep start', { exact: true }).fill(localInput(16 * 60));
    await sleep.getByLabel('Sleep end', { exact: true }).fill(localInput(8 * 60));
    await sleep.getByLabel('Quality', { exact: true }).selectOption('4');
    await save(page, sleep);

    // Imperial tiles: the newest glucose (117 mg/dL), 154.0 lb, 34.0 in, 128/82 mmHg.
    await expect
      .poll(() => tile(page, 'Blood Glucose').locator('.metric-tile__value').innerText())
      .toMatch(/^117\s+mg\/dL$/);
    await expect
      .poll(() => tile(page, 'Weight').locator('.metric-tile__value').innerText())
      .toMatch(/^154\.0\s+lb$/);
    await expect
      .poll(() => tile(page, 'Waist Circumference').locator('.metric-tile__value').innerText())
      .toMatch(/^34\.0\s+in$/);
    await expect
      .poll(() => tile(page, 'Blood Pressure').locator('.metric-tile__value').innerText())
      .toMatch(/^128\/82\s+mmHg$/);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await heading(page, 'Health Overview').waitFor();
      await expectNoHorizontalScroll(page);
      await auditScreen(page, 'health-overview');
    }
    // On a phone the dialog fits the screen, and its Save button is in reach.
    const onPhone = await openDialog(page, 'Log Measurement');
    await onPhone.getByLabel('Measurement', { exact: true }).selectOption('blood_pressure');
    await expectNoHorizontalScroll(page);
    await onPhone.getByRole('button', { name: 'Save', exact: true }).scrollIntoViewIfNeeded();
    expect(await onPhone.getByRole('button', { name: 'Save', exact: true }).isVisible()).toBe(true);
    await auditScreen(page, 'log-measurement-dialog');
    await onPhone.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.setViewportSize(DESKTOP);
    passkey = await device.passkey();
  });

  test('Metrics draws the glucose band, marks the reading above it, deletes an entry after the prompt, and exports', async () => {
    const { page } = await openDeviceForTest(browser, origin, { passkey });
    await signInWithPasskey(page);
    await openFromSidebar(page, 'My Metrics', 'Metrics & Analytics');

    const glucose = page.getByRole('figure', { name: /^Blood glucose/ });
    await glucose.waitFor();
    await glucose.getByText('Shaded band: target 70-100 mg/dL, fasting readings.').waitFor();
    await expect.poll(() => bandPixels(glucose), { timeout: 10_000 }).toBeGreaterThan(500);
    // Weight has no target: no band is painted on its chart.
    const weight = page.getByRole('figure', { name: /^Weight/ });
    await weight.locator('canvas').first().waitFor();
    await expect.poll(() => paintedPixels(weight), { timeout: 10_000 }).toBeGreaterThan(500);
    expect(await bandPixels(weight)).toBe(0);

    // The table alternative carries the mark, and Recent Entries too.
    await glucose.getByText(/^Show as table/).click();
    const rows = glucose.getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(1).innerText()).toMatch(/117\s+mg\/dL\s+Fasting\s+Above target/);
    expect(await rows.nth(2).innerText()).toMatch(/99\s+mg\/dL\s+Fasting\s+In target/);
    const entries = page.locator('.entry');
    await expect.poll(() => entries.count()).toBe(8);
    await entries.filter({ hasText: 'Above target' }).first().waitFor();
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => window.scrollTo(0, 0));
      await heading(page, 'Metrics & Analytics').waitFor();
      await expectNoHorizontalScroll(page);
      // The period's frame closes after its last option, not at the page's edge with nothing in it.
      const frame = await page.locator('.segmented').boundingBox();
      const last = await page.getByRole('radio', { name: '90 days' }).boundingBox();
      if (!frame || !last) throw new Error('The period switch or its last option is not on the page');
      expect(frame.x + frame.width - (last.x + last.width)).toBeLessThan(8);
      await auditScreen(page, 'metrics');
    }
    await page.setViewportSize(DESKTOP);

    // Delete the meal: the SPEC prompt, then it is gone from the list.
    const prompts: string[] = [];
    page.once('dialog', (prompt) => {
      prompts.push(prompt.message());
      void prompt.accept();
    });
    const mealEntry = entries.filter({ hasText: 'Greek yogurt and walnuts' });
    await mealEntry.getByRole('button', { name: /^Delete/ }).click();
    await mealEntry.waitFor({ state: 'detached' });
    expect(prompts).toEqual(['Delete this entry?']);
    await expect.poll(() => entries.count()).toBe(7);

    // The export downloads: JSON with the entries, FHIR as a Bundle.
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON', exact: true }).click(),
    ]);
    expect(json.suggestedFilename()).toMatch(/^health-records-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await readFile((await json.path()) ?? '', 'utf8')) as {
      measurements: unknown[];
      logs: { kind: string }[];
    };
    expect(exported.measurements).toHaveLength(5);
    expect(exported.logs.map((log) => log.kind).sort()).toEqual(['activity', 'sleep']);
    const [fhir] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download FHIR', exact: true }).click(),
    ]);
    expect(fhir.suggestedFilename()).toMatch(/\.fhir\.json$/);
    const bundle = JSON.parse(await readFile((await fhir.path()) ?? '', 'utf8')) as {
      resourceType: string;
      type: string;
    };
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
  });
});
