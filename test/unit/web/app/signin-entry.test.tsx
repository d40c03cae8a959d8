import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../../shared/messages';
import * as loading from '../../../../web/src/app/load-app';
import type * as LoadApp from '../../../../web/src/app/load-app';
import { SignInEntry } from '../../../../web/src/app/signin-entry';
import { loadPage } from '../../../../web/src/lib/browser';
import * as cognito from '../support/cognito-mock';
import {
  authenticationOptions,
  authenticationResponse,
  COGNITO_USERNAME,
  completeProfile,
  PASSKEY_PROOF,
  passkeyProof,
  sessionUser,
  USER_ID,
} from '../support/factories';
import { failure, fakeApi } from '../support/fake-api';
import * as passkey from '../support/passkey-mock';

vi.mock('../../../../web/src/lib/auth/cognito', () => import('../support/cognito-mock'));
vi.mock('../../../../web/src/lib/passkey', () => import('../support/passkey-mock'));
vi.mock('../../../../web/src/lib/browser', () => ({ reloadPage: vi.fn(), loadPage: vi.fn() }));
// Under Node, 'react-router/dom' resolves to the CommonJS build and 'react-router' to the ES one: two
// copies, two router contexts. The app's DOM RouterProvider differs only by flushSync, which nothing uses.
vi.mock('react-router/dom', async () => ({ RouterProvider: (await import('react-router')).RouterProvider }));

/** The real app loader, or a failed fetch (a deploy replaced the chunk, the network dropped). */
const appFetch = vi.hoisted(() => ({ fails: false }));
vi.mock('../../../../web/src/app/load-app', async (importOriginal) => {
  const actual = await importOriginal<typeof LoadApp>();
  const loadApp = vi.fn(() =>
    appFetch.fails
      ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
      : actual.loadApp(),
  );
  return { loadApp, preloadApp: vi.fn(() => void loadApp().catch(() => undefined)) };
});

const signInButton = () => screen.findByRole('button', { name: MESSAGES.signInWithPasskey });

/** The first load of /signin without a session, as main.tsx renders it; `show` hands the root over. */
const openSignIn = () => {
  window.history.replaceState(null, '', '/signin');
  const user = userEvent.setup();
  const show = (app: ReactElement) => view.rerender(app);
  const view = render(<SignInEntry show={show} />);
  return { user };
};

describe('/signin on a first load without a session (app/signin-entry.tsx)', () => {
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    appFetch.fails = false;
    cognito.givenSession(null);
    api = fakeApi({
      'POST /v1/auth/initiate-signin': {
        sessionId: 'session-1',
        authenticationOptions: authenticationOptions(),
      },
      'POST /v1/auth/verify-webauthn': passkeyProof(),
      'GET /v1/users/me': completeProfile(),
    });
    passkey.getPasskeyAssertion.mockResolvedValue(authenticationResponse());
    cognito.signInWithPasskeyProof.mockImplementation(() => {
      cognito.givenSession(sessionUser(['user']));
      return Promise.resolve(sessionUser(['user']));
    });
  });
  afterEach(() => {
    window.history.replaceState(null, '', '/');
  });

  // First in the file: Amplify is fetched (and configured) once per page, and so once per file here.
  it('shows the page without the app or Amplify until the person shows intent', async () => {
    openSignIn();
    await signInButton();
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeInTheDocument();
    expect(loading.loadApp).not.toHaveBeenCalled();
    expect(cognito.configureAuth).not.toHaveBeenCalled();
    expect(cognito.getSessionUser).not.toHaveBeenCalled();
  });

  it('fetches Amplify (configured), its sign-in calls and the app on intent, without signing in', async () => {
    const { user } = openSignIn();
    await user.hover(await signInButton());
    await waitFor(() => expect(loading.preloadApp).toHaveBeenCalled());
    expect(cognito.configureAuth).toHaveBeenCalledWith(
      expect.objectContaining({ userPoolClientId: 'test-client-id' }),
    );
    expect(cognito.preloadSignIn).toHaveBeenCalled();
    expect(api.callsTo('POST', '/v1/auth/initiate-signin')).toHaveLength(0);
    expect(window.location.pathname).toBe('/signin');
  });

  it('signs in, then hands over to the app, which starts on /dashboard with the new session', async () => {
    const { user } = openSignIn();
    await user.click(await signInButton());

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, Casey!' }),
    ).toBeInTheDocument();
    expect(window.location.pathname).toBe('/dashboard');
    expect(cognito.signInWithPasskeyProof).toHaveBeenCalledTimes(1);
    expect(cognito.signInWithPasskeyProof).toHaveBeenCalledWith(COGNITO_USERNAME, PASSKEY_PROOF, USER_ID);
    expect(api.callsTo('POST', '/v1/auth/verify-webauthn')[0]?.body).toEqual({
      sessionId: 'session-1',
      authenticationResponse: authenticationResponse(),
    });
  });

  it("shows the server's message and stays, the button ready again", async () => {
    api.set(
      'POST /v1/auth/verify-webauthn',
      failure(401, 'Passkey sign-in could not be verified. Please try again.'),
    );
    const { user } = openSignIn();
    await user.click(await signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Passkey sign-in could not be verified. Please try again.',
    );
    expect(cognito.signInWithPasskeyProof).not.toHaveBeenCalled();
    expect(window.location.pathname).toBe('/signin');
    expect(screen.getByRole('button', { name: MESSAGES.signInWithPasskey })).toBeEnabled();
  });

  it('shows the Cognito step failure, with the SPEC text when it carries no message', async () => {
    cognito.signInWithPasskeyProof.mockRejectedValue(new Error(''));
    const { user } = openSignIn();
    await user.click(await signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.passkeySignInFailed);
    expect(window.location.pathname).toBe('/signin');
  });

  it('opens /activate in the app', async () => {
    const { user } = openSignIn();
    await user.click(screen.getByRole('button', { name: 'Activate Your Account' }));
    expect(await screen.findByRole('heading', { name: 'Activate Your Account' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/activate');
  });

  it('loads the next page in full when the app cannot be fetched, the session already stored', async () => {
    appFetch.fails = true;
    const { user } = openSignIn();
    await user.click(await signInButton());
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/dashboard', { replace: true }));
    expect(cognito.signInWithPasskeyProof).toHaveBeenCalledTimes(1);
  });
});
