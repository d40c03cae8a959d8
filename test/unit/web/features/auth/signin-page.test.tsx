import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../../../shared/messages';
import * as cognito from '../../support/cognito-mock';
import {
  authenticationOptions,
  authenticationResponse,
  COGNITO_USERNAME,
  completeProfile,
  PASSKEY_PROOF,
  passkeyProof,
  sessionUser,
  USER_ID,
} from '../../support/factories';
import { deferred, failure, fakeApi, json } from '../../support/fake-api';
import * as passkey from '../../support/passkey-mock';
import { renderApp } from '../../support/render-app';
import { expectBusy, expectNotBusy } from '../../support/busy';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const signInButton = () => screen.findByRole('button', { name: MESSAGES.signInWithPasskey });

describe('/signin', () => {
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
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

  it('runs the four steps and lands on the dashboard', async () => {
    const app = renderApp('/signin');
    await app.user.click(await signInButton());

    expect(await screen.findByRole('heading', { name: 'Welcome back, Casey!' })).toBeInTheDocument();
    expect(app.location().pathname).toBe('/dashboard');
    expect(api.callsTo('POST', '/v1/auth/initiate-signin')[0]?.body).toEqual({});
    expect(passkey.getPasskeyAssertion).toHaveBeenCalledWith(authenticationOptions());
    expect(api.callsTo('POST', '/v1/auth/verify-webauthn')[0]?.body).toEqual({
      sessionId: 'session-1',
      authenticationResponse: authenticationResponse(),
    });
    // (cognitoUsername, proof, userId), exactly: the three values differ, so a swap fails here.
    expect(cognito.signInWithPasskeyProof).toHaveBeenCalledTimes(1);
    expect(cognito.signInWithPasskeyProof).toHaveBeenCalledWith(COGNITO_USERNAME, PASSKEY_PROOF, USER_ID);
  });

  it('sends the public auth calls without an Authorization header', async () => {
    const app = renderApp('/signin');
    await app.user.click(await signInButton());
    await screen.findByRole('heading', { name: 'Welcome back, Casey!' });
    expect(api.callsTo('POST', '/v1/auth/initiate-signin')[0]?.headers.authorization).toBeUndefined();
  });

  it('shows Authenticating... and disables the button while the passkey prompt is open', async () => {
    const prompt = deferred<ReturnType<typeof authenticationResponse>>();
    passkey.getPasskeyAssertion.mockReturnValue(prompt.promise);
    const app = renderApp('/signin');
    await app.user.click(await signInButton());

    const busy = await screen.findByRole('button', { name: MESSAGES.authenticating });
    expectBusy(busy);
    prompt.resolve(authenticationResponse());
    await waitFor(() => expect(app.location().pathname).toBe('/dashboard'));
  });

  it("shows the server's message when verification fails, and stays signed out", async () => {
    api.set(
      'POST /v1/auth/verify-webauthn',
      failure(401, 'Passkey sign-in could not be verified. Please try again.'),
    );
    const app = renderApp('/signin');
    await app.user.click(await signInButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Passkey sign-in could not be verified. Please try again.',
    );
    expect(cognito.signInWithPasskeyProof).not.toHaveBeenCalled();
    expect(app.location().pathname).toBe('/signin');
    expectNotBusy(screen.getByRole('button', { name: MESSAGES.signInWithPasskey }));
  });

  it('tells the browser about a passkey the server does not know (Signal API), where it can', async () => {
    const signalUnknownCredential = vi.fn(() => Promise.resolve());
    vi.stubGlobal('PublicKeyCredential', { signalUnknownCredential });
    api.set(
      'POST /v1/auth/verify-webauthn',
      json(
        { message: 'Passkey sign-in could not be verified. Please try again.', unknownCredential: true },
        401,
      ),
    );
    const app = renderApp('/signin');
    await app.user.click(await signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Passkey sign-in could not be verified.');
    expect(signalUnknownCredential).toHaveBeenCalledWith({
      rpId: 'localhost',
      credentialId: authenticationResponse().id,
    });

    // Any other failure signals nothing.
    signalUnknownCredential.mockClear();
    api.set(
      'POST /v1/auth/verify-webauthn',
      failure(401, 'Passkey sign-in could not be verified. Please try again.'),
    );
    await app.user.click(await signInButton());
    await waitFor(() => expect(api.callsTo('POST', '/v1/auth/verify-webauthn')).toHaveLength(2));
    expect(signalUnknownCredential).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('shows the passkey error when the prompt is dismissed', async () => {
    passkey.getPasskeyAssertion.mockRejectedValue(
      new passkey.PasskeyError('cancelled', MESSAGES.authNotCompleted),
    );
    const app = renderApp('/signin');
    await app.user.click(await signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.authNotCompleted);
  });

  it('shows the Cognito step failure', async () => {
    cognito.signInWithPasskeyProof.mockRejectedValue(new Error(MESSAGES.networkError));
    const app = renderApp('/signin');
    await app.user.click(await signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.networkError);
    expect(app.location().pathname).toBe('/signin');
  });

  it('falls back to the SPEC text when a failure carries no message', async () => {
    passkey.getPasskeyAssertion.mockRejectedValue(new Error(''));
    const app = renderApp('/signin');
    await app.user.click(await signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.signInFailed);
  });

  it('shows the status line of an answer without a JSON body', async () => {
    api.set(
      'POST /v1/auth/initiate-signin',
      new Response('', { status: 503, statusText: 'Service Unavailable' }),
    );
    const app = renderApp('/signin');
    await app.user.click(await signInButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('API error: 503 Service Unavailable');
  });

  it('leads new users to /activate', async () => {
    const app = renderApp('/signin');
    expect(await screen.findByText('New user?')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Activate Your Account' }));
    expect(await screen.findByRole('heading', { name: 'Activate Your Account' })).toBeInTheDocument();
    expect(app.location().pathname).toBe('/activate');
  });
});
