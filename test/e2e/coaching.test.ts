/**
 * Issue 9's journey, one browser context per person: an admin invites a coach and a client and
 * assigns the coach; the client logs two fasting glucose readings, one above target; the coach sees
 * the client in My Clients with Pending Reviews 1, opens the detail, sees the reading marked 'Above
 * target' and writes a note; Pending Reviews drops to 0; the client reads the note on My Coach; the
 * admin finds the coach's read in Audit Log. axe and screenshots cover the new screens at both sizes.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { auditBothSizes } from './support/audit';
import { DESKTOP, launchChromium, openDeviceForTest, TABLETS } from './support/browser';
import {
  activateFromLink,
  completeOnboarding,
  detailValue,
  heading,
  inviteAndCopyLink,
  openFromSidebar,
  openUserManagement,
  localInput,
  inviteFromCli,
} from './support/ui';

const origin = inject('origin');
const ADMIN = 'coaching.admin@example.com';
const COACH = 'cora.coach@example.com';
const CLIENT = 'cal.client@example.com';
const NOTE = 'Your fasting glucose was above target this morning. Let us look at your evening meals.';
let browser: Browser;
let adminLink: string;

beforeAll(async () => {
  adminLink = inviteFromCli(ADMIN, 'admins');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const logGlucose = async (page: Page, mgdl: string, minutesAgo: number) => {
  await page.getByRole('button', { name: 'Log Measurement', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Log Measurement' });
  await dialog.getByLabel('Measurement', { exact: true }).selectOption('glucose');
  await dialog.getByLabel('Unit', { exact: true }).selectOption('mg/dL');
  await dialog.getByLabel('Blood glucose (mg/dL)', { exact: true }).fill(mgdl);
  await dialog.getByLabel('Glucose context', { exact: true }).selectOption('fasting');
  await dialog.getByLabel('Date and time', { exact: true }).fill(localInput(minutesAgo));
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
};

describe('coaching in the browser', () => {
  test('admin assigns a coach; the coach reviews a reading above target and writes a note; the client reads it; the admin sees the read', async () => {
    const admin = (await openDeviceForTest(browser, origin, { clipboard: true })).page;
    await activateFromLink(admin, adminLink, ADMIN);
    await completeOnboarding(admin, {
      preferredName: 'Ada',
      familyName: 'Admin',
      dateOfBirth: '1975-01-15',
      height: { cm: 170 },
    });
    await openUserManagement(admin);
    const coachLink = await inviteAndCopyLink(admin, COACH, 'coach');
    const clientLink = await inviteAndCopyLink(admin, CLIENT, 'user');

    const coach = (await openDeviceForTest(browser, origin)).page;
    await activateFromLink(coach, coachLink, COACH);
    await completeOnboarding(coach, {
      preferredName: 'Cora',
      familyName: 'Coach',
      dateOfBirth: '1985-06-01',
      height: { cm: 168 },
    });
    const client = (await openDeviceForTest(browser, origin)).page;
    await activateFromLink(client, clientLink, CLIENT);
    await completeOnboarding(client, {
      preferredName: 'Cal',
      familyName: 'Client',
      dateOfBirth: '1970-09-09',
      height: { cm: 181 },
    });

    // The admin assigns Cora to Cal.
    await admin.reload();
    await openUserManagement(admin);
    await admin.getByRole('button', { name: `Assign coach for ${CLIENT}`, exact: true }).click();
    const assign = admin.getByRole('dialog', { name: 'Assign coach' });
    await assign.getByRole('radio', { name: /Cora Coach/ }).check();
    await auditBothSizes(admin, 'assign-coach-dialog');
    await assign.getByRole('button', { name: 'Assign', exact: true }).click();
    await assign.waitFor({ state: 'hidden' });
    await expect
      .poll(() => admin.getByRole('row').filter({ hasText: CLIENT }).innerText())
      .toContain('Cora Coach');

    // The client logs two fasting readings: 92 mg/dL (in target) and 140 mg/dL (above).
    await openFromSidebar(client, 'My Health', 'Health Overview');
    await logGlucose(client, '92', 60);
    await logGlucose(client, '140', 10);

    // The coach sees Cal with Pending Reviews 1 and opens the detail.
    await openFromSidebar(coach, 'My Clients');
    await expect.poll(() => detailValue(coach, 'Active Clients').innerText()).toBe('1');
    await expect.poll(() => detailValue(coach, 'Pending Reviews').innerText()).toBe('1');
    const row = coach.getByRole('row').filter({ hasText: CLIENT });
    await row.getByText('Pending review', { exact: true }).waitFor();
    await auditBothSizes(coach, 'my-clients');
    await row.getByRole('link', { name: 'Cal Client', exact: true }).click();
    await heading(coach, 'Cal Client').waitFor();
    // Recent Entries marks the reading, as on Metrics.
    await coach.locator('.entry').filter({ hasText: 'Above target' }).first().waitFor();
    // Read-only: no delete, no log buttons.
    expect(await coach.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    // The page opens at its top: the focus it takes does not slide it under the header.
    expect(await coach.evaluate(() => window.scrollY)).toBe(0);
    await auditBothSizes(coach, 'client-detail');

    await coach.getByLabel('Note', { exact: true }).fill(NOTE);
    await coach.getByRole('button', { name: 'Save note', exact: true }).click();
    await coach.getByRole('list', { name: 'Notes, newest first' }).getByText(NOTE, { exact: true }).waitFor();
    // A page opened from the sidebar starts at its top, however far down the last one was.
    const scrollY = () => coach.evaluate(() => window.scrollY);
    const left = await scrollY();
    expect(left).toBeGreaterThan(0);
    await openFromSidebar(coach, 'Profile');
    await coach.getByRole('list', { name: 'Passkeys' }).waitFor();
    await coach.getByRole('list', { name: 'Recent activity, newest first' }).waitFor();
    const bottom = await coach.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(bottom).toBeGreaterThan(left);
    expect(await scrollY()).toBe(0);
    // Back finds a page where it was left (one whose data is still at hand: a client's records are
    // not kept once their page is left, so theirs is drawn anew).
    await coach.evaluate((y) => window.scrollTo(0, y), bottom);
    await openFromSidebar(coach, 'My Clients');
    await coach.goBack();
    await heading(coach, 'Profile').waitFor();
    await expect.poll(scrollY).toBe(bottom);

    await openFromSidebar(coach, 'My Clients');
    await expect.poll(() => detailValue(coach, 'Pending Reviews').innerText()).toBe('0');

    // The client reads the note on My Coach.
    await openFromSidebar(client, 'My Coach');
    await client.getByText(COACH, { exact: true }).waitFor();
    await client.getByText(NOTE, { exact: true }).waitFor();
    await auditBothSizes(client, 'my-coach');

    // The admin finds the coach's read in Audit Log.
    await openFromSidebar(admin, 'Audit Log');
    const events = admin.getByRole('region', { name: 'Audit events' });
    await events.getByText("Coach read a client's data", { exact: true }).first().waitFor();
    // Nothing to scroll sideways to: at 1,280 px its columns fit beside the navigation; on a tablet,
    // upright or on its side, each event is a card (decision 045).
    for (const viewport of [...TABLETS, DESKTOP]) {
      await admin.setViewportSize(viewport);
      expect(await events.evaluate((region) => region.scrollWidth - region.clientWidth)).toBe(0);
    }
    await auditBothSizes(admin, 'audit-log');

    // The client's own Recent activity on Profile: their activation, not their coach's reads.
    await openFromSidebar(client, 'Profile');
    const activity = client.getByRole('list', { name: 'Recent activity, newest first' });
    await activity.getByText('Activation completed', { exact: true }).waitFor();
    expect(await activity.getByText("Coach read a client's data", { exact: true }).count()).toBe(0);
    await auditBothSizes(client, 'profile-recent-activity');
  });
});
