import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../../shared/messages';
import * as cognito from '../support/cognito-mock';
import { completeProfile, sessionUser } from '../support/factories';
import { deferred, failure, fakeApi } from '../support/fake-api';
import { givenPasskeySignInAs } from '../support/sign-in';
import { renderApp } from '../support/render-app';
import { directoryRoutes } from '../support/user-management';

vi.mock('../../../../web/src/lib/auth/cognito', () => import('../support/cognito-mock'));
vi.mock('../../../../web/src/lib/passkey', () => import('../support/passkey-mock'));

/**
 * Waits until the session read a focus/visibility recheck started (the one after `calls` earlier
 * reads) has been answered and the app has acted on the answer: that read's promise settles, then a
 * task boundary lets every callback queued behind it (the provider's handler, React's render) run.
 */
const recheckSettled = async (calls: number): Promise<void> => {
  await waitFor(() => expect(cognito.getSessionUser.mock.calls.length).toBeGreaterThan(calls));
  await act(async () => {
    await cognito.getSessionUser.mock.results[calls]?.value;
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
};

/** What /signin says when the session ended without the person signing out (ADR 048). */
const ENDED = 'Your session has ended. Please sign in again.';

describe('routes and guards', () => {
  let api: ReturnType<typeof fakeApi>;
  beforeEach(() => {
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      ...directoryRoutes({ users: () => [], invitations: () => [] }),
    });
  });

  it('shows Loading... while the session is being resolved', async () => {
    cognito.getSessionUser.mockReturnValue(new Promise(() => undefined));
    renderApp('/dashboard');
    expect(await screen.findByRole('status')).toHaveTextContent(MESSAGES.loading);
  });

  it('sends a signed-out visitor from a dashboard page to /signin', async () => {
    cognito.givenSession(null);
    const app = renderApp('/dashboard/profile');
    expect(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey })).toBeInTheDocument();
    expect(app.location().pathname).toBe('/signin');
  });

  it.each(['/', '/no-such-page', '/dashboard/nope'])('redirects %s to /dashboard', async (path) => {
    cognito.givenSession(sessionUser(['user']));
    const app = renderApp(path);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, Casey!' }),
    ).toBeInTheDocument();
    expect(app.location().pathname).toBe('/dashboard');
  });

  it('sends a signed-in visitor of /signin to the dashboard', async () => {
    cognito.givenSession(sessionUser(['user']));
    const app = renderApp('/signin');
    await waitFor(() => expect(app.location().pathname).toBe('/dashboard'));
  });

  it.each([
    ['/dashboard/users', ['user', 'coach'] as const],
    ['/dashboard/settings', ['coach'] as const],
    ['/dashboard/clients', ['user', 'admin'] as const],
    ['/dashboard/assessments', ['user'] as const],
    ['/dashboard/coach', ['admin', 'coach'] as const],
    ['/dashboard/audit', ['user', 'coach'] as const],
    ['/dashboard/clients/11111111-1111-4111-8111-111111111111', ['user', 'admin'] as const],
  ])('sends someone without the role from %s to Access Denied', async (path, roles) => {
    cognito.givenSession(sessionUser([...roles]));
    const app = renderApp(path);
    expect(await screen.findByRole('heading', { name: MESSAGES.accessDenied })).toBeInTheDocument();
    expect(app.location().pathname).toBe('/unauthorized');
  });

  it.each([
    ['/dashboard/users', ['admin'] as const, 'User Management'],
    ['/dashboard/settings', ['admin'] as const, 'System Settings'],
    ['/dashboard/clients', ['coach'] as const, 'My Clients'],
    ['/dashboard/assessments', ['coach'] as const, 'Assessments'],
    ['/dashboard/assessments', ['admin'] as const, 'Assessments'],
    ['/dashboard/coach', ['user'] as const, 'My Coach'],
    ['/dashboard/audit', ['admin'] as const, 'Audit Log'],
    ['/dashboard/health', ['coach'] as const, 'Health Overview'],
    ['/dashboard/metrics', ['admin'] as const, 'Metrics & Analytics'],
    ['/dashboard/profile', ['user'] as const, 'Profile'],
  ])('lets the right role into %s', async (path, roles, title) => {
    cognito.givenSession(sessionUser([...roles]));
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
  });

  it('offers a way back to the dashboard from Access Denied', async () => {
    cognito.givenSession(sessionUser(['user']));
    const app = renderApp('/unauthorized');
    await app.user.click(await screen.findByRole('button', { name: 'Go to Dashboard' }));
    await waitFor(() => expect(app.location().pathname).toBe('/dashboard'));
  });

  it('signs out when Cognito refuses to refresh the session', async () => {
    cognito.givenSession(sessionUser(['user']));
    const app = renderApp('/dashboard/health');
    await screen.findByRole('heading', { level: 1, name: 'Health Overview' });
    act(() => cognito.revokeSession());
    expect(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey })).toBeInTheDocument();
    expect(app.location().pathname).toBe('/signin');
    expect(screen.getByRole('status')).toHaveTextContent(ENDED);
  });

  it('signs out when the stored tokens are gone (signed out in another tab)', async () => {
    cognito.givenSession(sessionUser(['user']));
    const app = renderApp('/dashboard/health');
    await screen.findByRole('heading', { level: 1, name: 'Health Overview' });
    // Amplify's cookies are shared by every tab: signing out in another one leaves this one no token.
    cognito.getIdToken.mockResolvedValue(undefined);
    await act(() => app.queryClient.invalidateQueries());
    expect(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey })).toBeInTheDocument();
    expect(app.location().pathname).toBe('/signin');
    expect(screen.getByRole('status')).toHaveTextContent(ENDED);
  });

  it.each([
    ['someone else signed in', sessionUser(['user'], { userId: '22222222-2222-4222-8222-222222222222' })],
    ['nobody is signed in', null],
  ])(
    "drops the previous person's screen and data when the tab shows again and %s in another tab",
    async (_, next) => {
      cognito.givenSession(sessionUser(['user']));
      const app = renderApp('/dashboard/health');
      await screen.findByRole('heading', { level: 1, name: 'Health Overview' });
      expect(app.queryClient.getQueryCache().getAll().length).toBeGreaterThan(0);
      const profileCalls = cognito.getSessionUser.mock.calls.length;

      // Another tab changed the shared session: this one learns of it when it is seen again.
      cognito.getSessionUser.mockResolvedValue(next);
      cognito.getIdToken.mockResolvedValue(next ? 'id-token-of-someone-else' : undefined);
      act(() => {
        document.dispatchEvent(new Event('visibilitychange'));
      });

      expect(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey })).toBeInTheDocument();
      expect(app.location().pathname).toBe('/signin');
      expect(screen.getByRole('status')).toHaveTextContent(ENDED);
      expect(cognito.getSessionUser.mock.calls.length).toBeGreaterThan(profileCalls);
      expect(app.queryClient.getQueryCache().getAll()).toEqual([]);
    },
  );

  it("keeps the screen when the session cannot be read while this app's cookies are still there (offline)", async () => {
    cognito.givenSession(sessionUser(['user']));
    const app = renderApp('/dashboard/health');
    await screen.findByRole('heading', { level: 1, name: 'Health Overview' });
    const cookie = 'CognitoIdentityServiceProvider.test-client-id.LastAuthUser';
    document.cookie = `${cookie}=someone; path=/`;
    try {
      const calls = cognito.getSessionUser.mock.calls.length;
      cognito.getSessionUser.mockResolvedValue(null);
      act(() => {
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await recheckSettled(calls);
      expect(app.location().pathname).toBe('/dashboard/health');
      expect(screen.getByRole('heading', { level: 1, name: 'Health Overview' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: MESSAGES.signInWithPasskey })).not.toBeInTheDocument();
    } finally {
      document.cookie = `${cookie}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
    }
  });

  it('keeps the same person signed in when the window regains focus', async () => {
    cognito.givenSession(sessionUser(['user']));
    const app = renderApp('/dashboard/health');
    await screen.findByRole('heading', { level: 1, name: 'Health Overview' });
    const calls = cognito.getSessionUser.mock.calls.length;
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await recheckSettled(calls);
    expect(app.location().pathname).toBe('/dashboard/health');
    expect(screen.getByRole('heading', { level: 1, name: 'Health Overview' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MESSAGES.signInWithPasskey })).not.toBeInTheDocument();
    expect(app.queryClient.getQueryCache().getAll().length).toBeGreaterThan(0);
  });

  it('checks the session on focus: another person signed in elsewhere ends this screen', async () => {
    cognito.givenSession(sessionUser(['user']));
    const app = renderApp('/dashboard/health');
    await screen.findByRole('heading', { level: 1, name: 'Health Overview' });
    cognito.getSessionUser.mockResolvedValue(
      sessionUser(['user'], { userId: '22222222-2222-4222-8222-222222222222' }),
    );
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(app.queryClient.getQueryCache().getAll()).toEqual([]);
  });
  describe('when the API refuses the session mid-page', () => {
    /** On Metrics, the next read is refused (401): the person was disabled, reset or signed out elsewhere. */
    const refusedOnMetrics = async () => {
      cognito.givenSession(sessionUser(['user']));
      const app = renderApp('/dashboard/metrics');
      await screen.findByRole('heading', { level: 1, name: 'Metrics & Analytics' });
      api.set('GET /v1/measurements', failure(401, 'Unauthorized'));
      await act(() => app.queryClient.invalidateQueries());
      await waitFor(() => expect(app.location().pathname).toBe('/signin'));
      return app;
    };
    const signInAs = async (
      app: Awaited<ReturnType<typeof refusedOnMetrics>>,
      who: ReturnType<typeof sessionUser>,
    ) => {
      api.set('GET /v1/measurements', { items: [] });
      givenPasskeySignInAs(api, who);
      await app.user.click(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey }));
      await waitFor(() => expect(app.location().pathname).not.toBe('/signin'));
      // Every navigation the sign-in set off has run.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return app.location().pathname;
    };

    it('says on /signin that the session ended, and brings the same person back to the page', async () => {
      const app = await refusedOnMetrics();
      expect(await screen.findByRole('status')).toHaveTextContent(ENDED);
      expect(cognito.signOut).toHaveBeenCalledTimes(1);
      expect(await signInAs(app, sessionUser(['user']))).toBe('/dashboard/metrics');
    });

    it('takes them to the dashboard, not Access Denied, when their new roles do not open the page', async () => {
      // An admin on User Management whose admin role was taken away meanwhile.
      cognito.givenSession(sessionUser(['admin', 'user']));
      const app = renderApp('/dashboard/users');
      await screen.findByRole('heading', { level: 1, name: 'User Management' });
      for (const route of Object.keys(directoryRoutes({ users: () => [], invitations: () => [] })))
        api.set(route, failure(401, 'Unauthorized'));
      await act(() => app.queryClient.invalidateQueries());
      await waitFor(() => expect(app.location().pathname).toBe('/signin'));
      expect(await signInAs(app, sessionUser(['user']))).toBe('/dashboard');
    });

    it('takes someone else who signs in to the dashboard', async () => {
      const app = await refusedOnMetrics();
      const other = sessionUser(['user'], { userId: '22222222-2222-4222-8222-222222222222' });
      expect(await signInAs(app, other)).toBe('/dashboard');
    });

    it('says nothing of it when a read under way is refused by their own sign-out', async () => {
      cognito.givenSession(sessionUser(['user']));
      const app = renderApp('/dashboard/metrics');
      await screen.findByRole('heading', { level: 1, name: 'Metrics & Analytics' });
      const read = deferred<Response>();
      const signOut = deferred<Response>();
      api.set('GET /v1/measurements', () => read.promise);
      api.set('POST /v1/users/me/sign-out', () => signOut.promise);
      void app.queryClient.invalidateQueries();
      await waitFor(() => expect(api.callsTo('GET', '/v1/measurements').length).toBeGreaterThan(1));
      await app.user.click(screen.getByRole('button', { name: 'Sign Out' }));
      await waitFor(() => expect(api.callsTo('POST', '/v1/users/me/sign-out')).toHaveLength(1));
      // The server ends the session, and the read sent with it is refused before the sign-out answers.
      await act(async () => {
        read.resolve(failure(401, 'Unauthorized'));
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      signOut.resolve(new Response(null, { status: 204 }));
      expect(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey })).toBeInTheDocument();
      expect(screen.queryByText(ENDED)).not.toBeInTheDocument();
      expect(app.location().pathname).toBe('/signin');
    });

    it('says nothing of it after a sign-out of their own, or once signed in again', async () => {
      const app = await refusedOnMetrics();
      await signInAs(app, sessionUser(['user']));
      await app.user.click(screen.getByRole('button', { name: 'Sign Out' }));
      await waitFor(() => expect(app.location().pathname).toBe('/signin'));
      // The page is shown (its chunk may still be loading when the location changes).
      expect(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey })).toBeInTheDocument();
      expect(screen.queryByText(ENDED)).not.toBeInTheDocument();
    });
  });
});
