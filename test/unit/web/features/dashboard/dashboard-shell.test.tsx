import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_VERSION } from '../../../../../shared/constants';
import { MESSAGES } from '../../../../../shared/messages';
import * as cognito from '../../support/cognito-mock';
import { completeProfile, sessionUser } from '../../support/factories';
import { failure, fakeApi } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const sidebarLinks = () =>
  within(
    within(screen.getByRole('complementary', { name: 'Sidebar' })).getByRole('navigation', { name: 'Main' }),
  )
    .getAllByRole('link')
    .map((link) => link.textContent);

const openShell = async (
  roles: Parameters<typeof sessionUser>[0],
  path = '/dashboard/health',
  title = 'Health Overview',
) => {
  cognito.givenSession(sessionUser(roles));
  const app = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: title });
  return app;
};

describe('dashboard shell', () => {
  beforeEach(() => {
    fakeApi({ 'GET /v1/users/me': completeProfile() });
  });

  it.each([
    [['user'], ['My Health', 'My Metrics', 'Profile', 'My Coach'], 'User Dashboard'],
    [['coach'], ['My Clients', 'Assessments', 'My Health', 'My Metrics', 'Profile'], 'Coach Dashboard'],
    [
      ['admin'],
      [
        'User Management',
        'System Settings',
        'Audit Log',
        'Assessments',
        'My Health',
        'My Metrics',
        'Profile',
      ],
      'Admin Dashboard',
    ],
    [
      ['admin', 'coach', 'user'],
      [
        'User Management',
        'System Settings',
        'Audit Log',
        'My Clients',
        'Assessments',
        'My Health',
        'My Metrics',
        'Profile',
        'My Coach',
      ],
      'Admin Dashboard',
    ],
    [
      ['coach', 'user'],
      ['My Clients', 'Assessments', 'My Health', 'My Metrics', 'Profile', 'My Coach'],
      'Coach Dashboard',
    ],
  ] as const)('for roles %j shows %j and the title %s', async (roles, items, title) => {
    await openShell([...roles]);
    expect(sidebarLinks()).toEqual(items);
    expect(within(screen.getByRole('banner')).getByText(title)).toBeInTheDocument();
  });

  it('gives a new page the focus, named by its title, and leaves it where it is on the first page', async () => {
    const app = await openShell(['user']);
    // The first page is the browser's: nothing is moved.
    expect(document.body).toHaveFocus();
    const sidebar = within(screen.getByRole('complementary', { name: 'Sidebar' }));
    await app.user.click(sidebar.getByRole('link', { name: 'Profile' }));
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    await waitFor(() => expect(screen.getByRole('main', { name: 'Profile' })).toHaveFocus());
  });

  it('marks the current page in the sidebar', async () => {
    await openShell(['user']);
    const nav = within(screen.getByRole('complementary', { name: 'Sidebar' }));
    expect(nav.getByRole('link', { name: 'My Health' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Profile' })).not.toHaveAttribute('aria-current');
  });

  it('shows the email, the version and Sign Out in the footer', async () => {
    await openShell(['user']);
    const sidebar = within(screen.getByRole('complementary', { name: 'Sidebar' }));
    expect(sidebar.getByText('casey@example.com')).toBeInTheDocument();
    expect(sidebar.getByText(`Version ${APP_VERSION}`)).toBeInTheDocument();
    expect(APP_VERSION).toBe('0.6.0');
    expect(sidebar.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
  });

  it('signs out to /signin, asking the API to end the session before the tokens are dropped', async () => {
    // Noted here, asserted after the click: an assertion failing inside the route would only make the
    // request fail, which the sign-out takes in its stride.
    let tokensDroppedFirst: boolean | undefined;
    const api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      'POST /v1/users/me/sign-out': () => {
        tokensDroppedFirst = cognito.signOut.mock.calls.length > 0;
        return new Response(null, { status: 204 });
      },
    });
    const app = await openShell(['user']);
    await app.user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey })).toBeInTheDocument();
    expect(app.location().pathname).toBe('/signin');
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
    // The id token was still there to sign the request with.
    expect(tokensDroppedFirst).toBe(false);
    const [signOut] = api.callsTo('POST', '/v1/users/me/sign-out');
    expect(signOut?.body).toEqual({});
    expect(signOut?.headers.authorization).toBe('Bearer test-id-token');
  });

  it('signs out locally even when the server sign-out fails', async () => {
    fakeApi({
      'GET /v1/users/me': completeProfile(),
      'POST /v1/users/me/sign-out': failure(503, 'Service Unavailable'),
    });
    const app = await openShell(['user']);
    cognito.signOut.mockRejectedValue(new Error(MESSAGES.networkError));
    await app.user.click(screen.getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey })).toBeInTheDocument();
  });

  it('forgets cached data on sign-out', async () => {
    const app = await openShell(['user'], '/dashboard/profile', 'Profile');
    await screen.findByText('Personal Information');
    expect(app.queryClient.getQueryCache().getAll().length).toBeGreaterThan(0);
    await app.user.click(screen.getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(app.queryClient.getQueryCache().getAll()).toHaveLength(0);
  });
});

describe('mobile navigation drawer', () => {
  beforeEach(() => {
    fakeApi({ 'GET /v1/users/me': completeProfile() });
  });

  const openDrawer = async () => {
    const app = await openShell(['user']);
    const menu = screen.getByRole('button', { name: 'Open menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await app.user.click(menu);
    const drawer = screen.getByRole('dialog', { name: 'Navigation menu' });
    return { app, menu, drawer };
  };

  it('opens as a modal dialog with the navigation and locks page scroll', async () => {
    const { menu, drawer } = await openDrawer();
    expect(drawer).toHaveAttribute('aria-modal', 'true');
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(within(drawer).getByRole('link', { name: 'Profile' })).toBeInTheDocument();
    expect(document.body.style.overflow).toBe('hidden');
    expect(drawer).toContainElement(document.activeElement as HTMLElement);
  });

  it('closes on Escape, unlocks scroll and gives focus back to the menu button', async () => {
    const { app, menu } = await openDrawer();
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Navigation menu' })).not.toBeInTheDocument();
    expect(document.body.style.overflow).toBe('');
    expect(menu).toHaveFocus();
  });

  it('closes on a backdrop click', async () => {
    const { app, menu } = await openDrawer();
    await app.user.click(screen.getByTestId('drawer-backdrop'));
    expect(screen.queryByRole('dialog', { name: 'Navigation menu' })).not.toBeInTheDocument();
    expect(menu).toHaveFocus();
  });

  it('closes with its close button', async () => {
    const { app, menu } = await openDrawer();
    await app.user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('dialog', { name: 'Navigation menu' })).not.toBeInTheDocument();
    expect(menu).toHaveFocus();
  });

  it('closes when a link changes the route, and focus returns to the menu button (SPEC)', async () => {
    const { app, drawer, menu } = await openDrawer();
    await app.user.click(within(drawer).getByRole('link', { name: 'Profile' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Navigation menu' })).not.toBeInTheDocument();
    // The router commits a navigation as a transition, whose effect clean-ups (the scroll lock's
    // and the focus trap's) React runs after the commit that removed the drawer: wait for them.
    await waitFor(() => expect(document.body.style.overflow).toBe(''));
    await waitFor(() => expect(menu).toHaveFocus());
  });

  it('keeps Tab and Shift+Tab inside the drawer', async () => {
    const { app, drawer } = await openDrawer();
    const focusables = Array.from(drawer.querySelectorAll<HTMLElement>('a[href], button'));
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    expect(first).toHaveFocus();
    await app.user.tab({ shift: true });
    expect(last).toHaveFocus();
    await app.user.tab();
    expect(first).toHaveFocus();
  });
});
