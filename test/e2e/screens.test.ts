/**
 * axe-core and screenshots of the five screens issue 4 names (/signin, /activate, the dashboard,
 * Profile, User Management) at 1280x800 and 390x844. Independent of the journeys: its admin and a
 * pending invitation come from `npm run invite` against the same running stack.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { expectNoSeriousViolations, saveScreenshot } from './support/audit';
import { DESKTOP, launchChromium, openDeviceForTest, PHONE, TABLETS, type Viewport } from './support/browser';
import type { OnboardingDetails } from './support/people';
import {
  activateFromLink,
  completeOnboarding,
  heading,
  onboardingDialog,
  openUserManagement,
  waitForPath,
  inviteFromCli,
} from './support/ui';

const VIEWPORTS: readonly Viewport[] = [DESKTOP, PHONE];
const origin = inject('origin');

const SCREENS_ADMIN = 'screens.admin@example.com';
const SCREENS_ADMIN_DETAILS: OnboardingDetails = {
  preferredName: 'Sam',
  familyName: 'Rivera',
  dateOfBirth: '1982-03-14',
  height: { cm: 178 },
};

let browser: Browser;
let adminLink: string;
let pendingLink: string;

beforeAll(async () => {
  adminLink = inviteFromCli(SCREENS_ADMIN, 'admins');
  pendingLink = inviteFromCli('new.client@example.com', 'users');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * Every button of User Management's rows is in sight without scrolling the table sideways (decision
 * 045): it ends within the table's region and the screen. The admin's own row has the most buttons.
 */
const expectRowButtonsInSight = async (page: Page, viewport: Viewport) => {
  const users = page.getByRole('region', { name: 'Users', exact: true });
  const shown = (await users.boundingBox())!;
  for (const email of [SCREENS_ADMIN, 'new.client@example.com']) {
    const buttons = await page.getByRole('row').filter({ hasText: email }).getByRole('button').all();
    expect(buttons.length).toBeGreaterThan(0);
    for (const button of buttons) {
      const box = await button.boundingBox();
      expect(box, await button.innerText()).not.toBeNull();
      expect(box!.x + box!.width, `${await button.innerText()} at ${viewport.width} px`).toBeLessThanOrEqual(
        Math.min(viewport.width, shown.x + shown.width),
      );
    }
  }
};

/** Waits for the screen to settle, runs axe, and saves the screenshot at this viewport. */
const audit = async (page: Page, screen: string, viewport: Viewport) => {
  await expectNoSeriousViolations(page, `${screen} at ${viewport.width}x${viewport.height}`);
  await saveScreenshot(page, screen, viewport);
};

describe('accessibility and screenshots', () => {
  test('/signin and /activate have no serious or critical axe violation at both sizes', async () => {
    const { page } = await openDeviceForTest(browser, origin);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto('/signin');
      await heading(page, 'Welcome back').waitFor();
      await page.getByRole('button', { name: 'Sign In with Passkey', exact: true }).waitFor();
      await audit(page, 'signin', viewport);

      await page.goto(pendingLink);
      await heading(page, 'Activate Your Account').waitFor();
      await expect
        .poll(() => page.getByLabel('Activation code', { exact: true }).inputValue())
        .toBe(new URL(pendingLink).searchParams.get('code'));
      await audit(page, 'activate', viewport);
    }
  });

  test('the dashboard, Profile and User Management have no serious or critical axe violation at both sizes', async () => {
    const { page } = await openDeviceForTest(browser, origin);
    await activateFromLink(page, adminLink, SCREENS_ADMIN, {
      onPasskeyStep: () => expectNoSeriousViolations(page, 'activation step 2'),
    });
    await onboardingDialog(page).waitFor();
    await expectNoSeriousViolations(page, 'the onboarding modal');
    await completeOnboarding(page, SCREENS_ADMIN_DETAILS);

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto('/dashboard');
      await heading(page, `Welcome back, ${SCREENS_ADMIN_DETAILS.preferredName}!`).waitFor();
      await page.getByRole('heading', { level: 2, name: 'My Health', exact: true }).waitFor();
      await audit(page, 'dashboard', viewport);

      await page.goto('/dashboard/profile');
      await heading(page, 'Profile').waitFor();
      await page.getByRole('button', { name: 'Edit Profile', exact: true }).waitFor();
      await audit(page, 'profile', viewport);

      await page.goto('/dashboard/users');
      await waitForPath(page, '/dashboard/users');
      await openUserManagement(page);
      const row = page.getByRole('row').filter({ hasText: 'new.client@example.com' });
      await row.waitFor();
      await audit(page, 'user-management', viewport);
      await expectRowButtonsInSight(page, viewport);
    }
    // And between the two: a tablet upright (no navigation beside the page) and a 1,024 px screen
    // (with it), where the seven columns do not fit and each person is a card.
    for (const viewport of TABLETS) {
      await page.setViewportSize(viewport);
      await expectRowButtonsInSight(page, viewport);
      await saveScreenshot(page, 'user-management', viewport);
    }

    // The states the screenshots do not show: Profile in edit mode, the invite modal, the drawer.
    await page.setViewportSize(DESKTOP);
    await page.goto('/dashboard/profile');
    await page.getByRole('button', { name: 'Edit Profile', exact: true }).click();
    await page.getByRole('form', { name: 'Edit profile' }).waitFor();
    await expectNoSeriousViolations(page, 'Profile in edit mode');

    await page.goto('/dashboard/users');
    await openUserManagement(page);
    await page.getByRole('button', { name: '+ Invite User', exact: true }).click();
    const invite = page.getByRole('dialog', { name: 'Invite User' });
    await invite.waitFor();
    await expectNoSeriousViolations(page, 'the invite modal');
    await invite.getByRole('button', { name: 'Cancel', exact: true }).click();
    await invite.waitFor({ state: 'hidden' });

    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Open menu', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation menu' });
    await drawer.waitFor();
    await expectNoSeriousViolations(page, 'the navigation drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });
});
