import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../../shared/messages';
import * as loading from '../../../../web/src/app/load-app';
import type * as LoadApp from '../../../../web/src/app/load-app';
import { PublicEntry } from '../../../../web/src/app/public-entry';
import { loadPage } from '../../../../web/src/lib/browser';
import * as cognito from '../support/cognito-mock';
import {
  authenticationOptions,
  authenticationResponse,
  COGNITO_USERNAME,
  completeProfile,
  PASSKEY_PROOF,
  passkeyProof,
  registrationOptions,
  registrationResponse,
  sessionUser,
  USER_ID,
} from '../support/factories';
import { failure, fakeApi } from '../support/fake-api';
import * as passkey from '../support/passkey-mock';
import { expectNotBusy } from '../support/busy';

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

/** A first load without a session, as main.tsx renders it; `show` hands the root over. */
const openAlone = (path: string) => {
  window.history.replaceState(null, '', path);
  const user = userEvent.setup();
  const show = (app: ReactElement) => view.rerender(app);
  const view = render(<PublicEntry show={show} />);
  return { user };
};
const openSignIn = () => openAlone('/signin');

describe('/signin and /activate on a first load without a session (app/public-entry.tsx)', () => {
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
      'POST /v1/auth/verify-activation': {
        valid: true,
        cognitoUsername: COGNITO_USERNAME,
        registrationOptions: registrationOptions(),
      },
      'POST /v1/auth/register-passkey': passkeyProof(),
      'GET /v1/users/me': completeProfile(),
    });
    passkey.createPasskey.mockResolvedValue(registrationResponse());
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

  it('shows /activate without the app or Amplify, its code taken from the link and then from the address', async () => {
    openAlone('/activate?code=abcd2345efgh6789');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Activate Your Account' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Activation code')).toHaveValue('ABCD-2345-EFGH-6789');
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(window.location.pathname).toBe('/activate');
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
    expectNotBusy(screen.getByRole('button', { name: MESSAGES.signInWithPasskey }));
  });

  it('shows the Cognito step failure, with the SPEC text when it carries no message', async () => {
    cognito.signInWithPasskeyProof.mockRejectedValue(new Error(''));
    const { user } = openSignIn();
    await user.click(await signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.passkeySignInFailed);
    expect(window.location.pathname).toBe('/signin');
  });

  it('opens /activate and goes back to /signin without the app, Back included', async () => {
    const { user } = openSignIn();
    await user.click(screen.getByRole('button', { name: 'Activate Your Account' }));
    expect(await screen.findByRole('heading', { name: 'Activate Your Account' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/activate');

    window.history.back();
    expect(await signInButton()).toBeInTheDocument();
    expect(window.location.pathname).toBe('/signin');

    await user.click(screen.getByRole('button', { name: 'Activate Your Account' }));
    await user.click(await screen.findByRole('link', { name: 'Sign In' }));
    expect(await signInButton()).toBeInTheDocument();
    expect(window.location.pathname).toBe('/signin');
    expect(loading.loadApp).not.toHaveBeenCalled();
  });

  const verifyCode = async (user: ReturnType<typeof userEvent.setup>) => {
    await user.type(await screen.findByLabelText('Email address'), 'Casey@Example.com');
    await user.type(screen.getByLabelText('Activation code'), 'abcd-2345-efgh-6789');
    await user.click(screen.getByRole('button', { name: 'Verify Code' }));
    return screen.findByRole('button', { name: MESSAGES.createPasskey });
  };

  it('verifies the code, then on step 2 fetches Amplify and the app ahead, and Back returns to step 1', async () => {
    const { user } = openAlone('/activate');
    await verifyCode(user);
    expect(window.location.search).toBe('?step=passkey');
    await waitFor(() => expect(loading.preloadApp).toHaveBeenCalled());
    expect(cognito.preloadSignIn).toHaveBeenCalled();
    expect(cognito.signInWithPasskeyProof).not.toHaveBeenCalled();

    window.history.back();
    expect(await screen.findByRole('button', { name: 'Verify Code' })).toBeInTheDocument();
    expect(window.location.search).toBe('');
    expect(window.location.pathname).toBe('/activate');
    expect(loading.loadApp).toHaveBeenCalledTimes(1); // the preload only: the app was not shown
  });

  it('activates, signs in with the proof, then hands over to the app on /dashboard', async () => {
    const { user } = openAlone('/activate');
    await user.click(await verifyCode(user));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, Casey!' }),
    ).toBeInTheDocument();
    expect(window.location.pathname).toBe('/dashboard');
    expect(passkey.createPasskey).toHaveBeenCalledWith(registrationOptions());
    expect(api.callsTo('POST', '/v1/auth/register-passkey')[0]?.body).toEqual({
      email: 'casey@example.com',
      activationCode: 'ABCD2345EFGH6789',
      cognitoUsername: COGNITO_USERNAME,
      registrationResponse: registrationResponse(),
      expectedChallenge: registrationOptions().challenge,
      // The browser's, for the new profile.
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      locale: navigator.language,
    });
    expect(cognito.signInWithPasskeyProof).toHaveBeenCalledTimes(1);
    expect(cognito.signInWithPasskeyProof).toHaveBeenCalledWith(COGNITO_USERNAME, PASSKEY_PROOF, USER_ID);
  });

  it('shows a failed registration on step 2 and stays there, the button ready again', async () => {
    api.set('POST /v1/auth/register-passkey', failure(409, 'This activation code has already been used.'));
    const { user } = openAlone('/activate');
    await user.click(await verifyCode(user));
    expect(await screen.findByRole('alert')).toHaveTextContent('This activation code has already been used.');
    expect(cognito.signInWithPasskeyProof).not.toHaveBeenCalled();
    expect(window.location.pathname).toBe('/activate');
    expectNotBusy(screen.getByRole('button', { name: MESSAGES.createPasskey }));
  });

  it('hands a Back to any other page over to the app', async () => {
    window.history.replaceState(null, '', '/unauthorized');
    window.history.pushState(null, '', '/signin');
    const view = render(<PublicEntry show={(app) => view.rerender(app)} />);
    await signInButton();
    window.history.back();
    expect(await screen.findByRole('heading', { level: 1, name: MESSAGES.accessDenied })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/unauthorized');
    expect(loading.loadApp).toHaveBeenCalled();
  });

  it('loads the next page in full when the app cannot be fetched, the session already stored', async () => {
    appFetch.fails = true;
    const { user } = openSignIn();
    await user.click(await signInButton());
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/dashboard', { replace: true }));
    expect(cognito.signInWithPasskeyProof).toHaveBeenCalledTimes(1);
  });
});
