/**
 * Real user steps through the SPA: roles, accessible names and the texts SPEC words letter for
 * letter. Every wait is for something the person would see (a heading, a URL, a text), never a
 * fixed delay.
 */
import type { Locator, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { runInvite } from '../../fixtures/npm-start';
import { ROLE_LABELS, type OnboardingDetails, type Role } from './people';

const POLL = { timeout: 15_000, interval: 100 } as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exactly = (text: string) => new RegExp(`^${escapeRegExp(text)}$`);

/** Waits until the address bar shows this path (query and hash ignored). */
export const waitForPath = (page: Page, pathname: string) =>
  page.waitForURL((url) => url.pathname === pathname);

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** The h1 of the screen, by its exact text. */
export const heading = (page: Page, text: string) =>
  page.getByRole('heading', { level: 1, name: text, exact: true });

export const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });

/** The labels of the sidebar's navigation links, in order. */
export const sidebarItems = async (page: Page): Promise<string[]> => {
  const links = sidebar(page).getByRole('navigation', { name: 'Main' }).getByRole('link');
  return (await links.allInnerTexts()).map((text) => text.trim());
};

export const expectSidebarItems = async (page: Page, expected: readonly string[]) => {
  await sidebar(page).getByRole('navigation', { name: 'Main' }).getByRole('link').first().waitFor();
  await expect.poll(() => sidebarItems(page), POLL).toEqual(expected);
};

/** The value next to a label in a description list (profile details, stat cards). */
export const detailValue = (scope: Locator | Page, label: string) =>
  scope
    .locator('dt')
    .filter({ hasText: exactly(label) })
    .locator('xpath=following-sibling::dd[1]');

/** /signin: 'Sign In with Passkey', then the dashboard. */
export const signInWithPasskey = async (page: Page) => {
  if (pathOf(page) !== '/signin') await page.goto('/signin');
  await heading(page, 'Welcome back').waitFor();
  await page.getByRole('button', { name: 'Sign In with Passkey', exact: true }).click();
  await waitForPath(page, '/dashboard');
  await page.getByRole('heading', { level: 1, name: /^Welcome back, .+!$/ }).waitFor();
};

/** The footer's Sign Out: lands on /signin. */
export const signOut = async (page: Page) => {
  await sidebar(page).getByRole('button', { name: 'Sign Out', exact: true }).click();
  await waitForPath(page, '/signin');
  await heading(page, 'Welcome back').waitFor();
};

/** Both activation steps from an activation link: the code is pre-filled from ?code=. */
export const activateFromLink = async (
  page: Page,
  link: string,
  email: string,
  steps: { onCodeStep?: () => Promise<unknown>; onPasskeyStep?: () => Promise<unknown> } = {},
) => {
  const code = new URL(link).searchParams.get('code');
  await page.goto(link);
  await heading(page, 'Activate Your Account').waitFor();
  const codeField = page.getByLabel('Activation code', { exact: true });
  await expect.poll(() => codeField.inputValue(), POLL).toBe(code);
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await steps.onCodeStep?.();
  await page.getByRole('button', { name: 'Verify Code', exact: true }).click();
  await page.getByRole('heading', { name: 'Set Up Your Passkey', exact: true }).waitFor();
  await steps.onPasskeyStep?.();
  await page.getByRole('button', { name: 'Create Passkey', exact: true }).click();
  await waitForPath(page, '/dashboard');
};

export const onboardingDialog = (page: Page) => page.getByRole('dialog', { name: 'Complete Your Profile' });

/** Fills the onboarding modal and saves it; it closes on success. */
export const completeOnboarding = async (page: Page, details: OnboardingDetails) => {
  const dialog = onboardingDialog(page);
  await dialog.waitFor();
  await dialog.getByLabel('Preferred name', { exact: true }).fill(details.preferredName);
  await dialog.getByLabel('Family name', { exact: true }).fill(details.familyName);
  await dialog.getByLabel('Date of birth', { exact: true }).fill(details.dateOfBirth);
  if ('cm' in details.height) {
    await dialog.getByRole('radio', { name: 'Metric (cm, kg)' }).check();
    await dialog.getByLabel('Height (cm)', { exact: true }).fill(String(details.height.cm));
  } else {
    await dialog.getByRole('radio', { name: 'Imperial (ft, in, lb)' }).check();
    await dialog.getByLabel('Feet', { exact: true }).fill(String(details.height.feet));
    await dialog.getByLabel('Inches', { exact: true }).fill(String(details.height.inches));
  }
  await dialog.getByRole('button', { name: 'Save and Continue', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await heading(page, `Welcome back, ${details.preferredName}!`).waitFor();
};

/** Opens a sidebar item and waits for its page heading. */
export const openFromSidebar = async (page: Page, item: string, pageHeading = item) => {
  await sidebar(page).getByRole('link', { name: item, exact: true }).click();
  await heading(page, pageHeading).waitFor();
};

/** User Management, loaded (the stat cards show once both lists have arrived). */
export const openUserManagement = async (page: Page) => {
  if (pathOf(page) !== '/dashboard/users') await openFromSidebar(page, 'User Management');
  await heading(page, 'User Management').waitFor();
  await page.getByRole('tablist', { name: 'Filter users' }).waitFor();
};

export interface UserCounts {
  total: number;
  pending: number;
  activated: number;
}

const readCounts = async (page: Page) => ({
  total: Number(await detailValue(page, 'Total Users').innerText()),
  pending: Number(await detailValue(page, 'Pending Invitations').innerText()),
  activated: Number(await detailValue(page, 'Active Users').innerText()),
  tabs: (await page.getByRole('tab').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()),
});

const tabLabels = (counts: UserCounts) => [
  `All Users (${counts.total})`,
  `Pending Invitations (${counts.pending})`,
  `Activated (${counts.activated})`,
];

/** The stat cards of User Management, after checking the tab counts agree with them. */
export const readUserCounts = async (page: Page): Promise<UserCounts> => {
  await page.getByRole('tablist', { name: 'Filter users' }).waitFor();
  const { tabs, ...counts } = await readCounts(page);
  expect(tabs).toEqual(tabLabels(counts));
  return counts;
};

/** Waits until the stat cards and the tab counts show these numbers. */
export const expectUserCounts = async (page: Page, counts: UserCounts) => {
  await expect.poll(() => readCounts(page), POLL).toEqual({ ...counts, tabs: tabLabels(counts) });
};

/** The User Management table row whose Email cell is exactly this address. */
export const userRowLocator = (page: Page, email: string) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: email, exact: true }) });

/** The cells of that row, once it shows: Email, Name, Status, Roles, Coach, Created, Actions. */
export const userRow = async (page: Page, email: string): Promise<string[]> => {
  const row = userRowLocator(page, email);
  await row.waitFor();
  return (await row.getByRole('cell').allInnerTexts()).map((text) => text.trim());
};

const LINK_SHAPE = /^http:\/\/localhost:\d+\/activate\?code=[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/;

/**
 * 'Copy Link' in a dialog that shows a new code (an invitation's, a recovery code): answers the
 * link as the clipboard holds it, after checking it is the one the dialog shows, with its code.
 * The context needs clipboard permissions (openDevice's `clipboard` option).
 */
export const copyActivationLink = async (
  page: Page,
  dialog: Locator,
  { confirmationClears = false } = {},
): Promise<string> => {
  await dialog.getByRole('button', { name: 'Copy Link', exact: true }).click();
  const confirmation = dialog.getByText('Activation link copied to clipboard!', { exact: true });
  await confirmation.waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(LINK_SHAPE);
  expect(copied.startsWith(`${new URL(page.url()).origin}/activate?code=`)).toBe(true);
  const shown = detailValue(dialog, 'Activation link');
  expect(await shown.innerText()).toBe(copied);
  const code = await detailValue(dialog, 'Activation code').innerText();
  expect(copied.endsWith(`?code=${code}`)).toBe(true);
  // SPEC: the confirmation clears after 3 seconds (waited for, with margin, only when asked).
  if (confirmationClears) await confirmation.waitFor({ state: 'detached', timeout: 6_000 });
  return copied;
};

/**
 * '+ Invite User', email and role, 'Create Invitation', then 'Copy Link' (copyActivationLink) and
 * 'Done': answers the link as the clipboard holds it.
 */
export const inviteAndCopyLink = async (
  page: Page,
  email: string,
  role: Role,
  { confirmationClears = false } = {},
): Promise<string> => {
  await page.getByRole('button', { name: '+ Invite User', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite User' });
  await dialog.getByLabel('Email address', { exact: true }).fill(email);
  const defaultRole = dialog.getByRole('radio', { name: /^User\b/ });
  expect(await defaultRole.isChecked(), 'the role defaults to User').toBe(true);
  await dialog.getByRole('radio', { name: new RegExp(`^${ROLE_LABELS[role]}\\b`) }).check();
  await dialog.getByRole('button', { name: 'Create Invitation', exact: true }).click();
  await dialog.getByText(`Invitation created for ${email}.`, { exact: true }).waitFor();
  const copied = await copyActivationLink(page, dialog, { confirmationClears });
  await dialog.getByRole('button', { name: 'Done', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  return copied;
};

/** A `datetime-local` input's value for this many minutes ago (UTC, as the browser's zone is UTC). */
export const localInput = (minutesAgo: number): string =>
  new Date(Date.now() - minutesAgo * 60_000).toISOString().slice(0, 16);

/** `npm run invite -- --email ... --role ...` against the running stack; answers the printed link. */
export const inviteFromCli = (email: string, role: 'admins' | 'coaches' | 'users'): string => {
  const result = runInvite(['--email', email, '--role', role], { LOCAL_DATA_DIR: inject('localDataDir') });
  expect(result.status, result.stderr).toBe(0);
  const link = /^Activation link: (\S+)$/m.exec(result.stdout)?.[1];
  if (!link) throw new Error(`npm run invite printed no link:\n${result.stdout}`);
  return link;
};
