import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TOO_MANY_ATTEMPTS } from '../../../../../shared/limits';
import { MESSAGES, VALIDATION } from '../../../../../shared/messages';
import { AUTO_SIGN_IN_FAILED } from '../../../../../web/src/features/activation/api/register-passkey';
import { profileQueryKey } from '../../../../../web/src/features/profile/api/get-profile';
import * as cognito from '../../support/cognito-mock';
import {
  COGNITO_USERNAME,
  completeProfile,
  newProfile,
  PASSKEY_PROOF,
  passkeyProof,
  registrationOptions,
  registrationResponse,
  sessionUser,
  USER_ID,
} from '../../support/factories';
import { deferred, failure, fakeApi, json } from '../../support/fake-api';
import * as passkey from '../../support/passkey-mock';
import { renderApp } from '../../support/render-app';
import { expectBusy } from '../../support/busy';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const validAnswer = {
  valid: true,
  cognitoUsername: COGNITO_USERNAME,
  registrationOptions: registrationOptions(),
};

/** The browser's time zone and language, as the activation reads them. */
const givenBrowser = (timeZone: string, language: string) => {
  const resolved = Intl.DateTimeFormat().resolvedOptions();
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ ...resolved, timeZone });
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(language);
};

describe('/activate', () => {
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    cognito.givenSession(null);
    api = fakeApi({
      'POST /v1/auth/verify-activation': validAnswer,
      'POST /v1/auth/register-passkey': passkeyProof(),
      'GET /v1/users/me': newProfile(),
    });
    passkey.createPasskey.mockResolvedValue(registrationResponse());
    cognito.signInWithPasskeyProof.mockImplementation(() => {
      cognito.givenSession(sessionUser(['user']));
      return Promise.resolve(sessionUser(['user']));
    });
  });

  const open = async (path = '/activate') => {
    const app = renderApp(path);
    await screen.findByRole('heading', { name: 'Activate Your Account' });
    return app;
  };

  const fillAndVerify = async (app: Awaited<ReturnType<typeof open>>, code = 'abcd-2345-efgh-6789') => {
    await app.user.type(screen.getByLabelText('Email address'), 'Casey@Example.com');
    await app.user.type(screen.getByLabelText('Activation code'), code);
    await app.user.click(screen.getByRole('button', { name: 'Verify Code' }));
  };

  it('formats the code as it is typed: uppercase, alphanumeric, 16 characters in groups of 4', async () => {
    const app = await open();
    const code = screen.getByLabelText('Activation code');
    expect(code).toHaveAttribute('placeholder', 'XXXX-XXXX-XXXX-XXXX');
    await app.user.type(code, 'ab cd_2345!efgh6789zz');
    expect(code).toHaveValue('ABCD-2345-EFGH-6789');
  });

  it.each([' ABCD-EFGH-IJKL-MNOP', 'ABCD - EFGH - IJKL - MNOP', '  abcd-efgh-ijkl-mnop  '])(
    'formats a pasted code whole, whatever spaces it carries: %j',
    async (pasted) => {
      const app = await open();
      const code = screen.getByLabelText('Activation code');
      await app.user.click(code);
      await app.user.paste(pasted);
      expect(code).toHaveValue('ABCD-EFGH-IJKL-MNOP');
    },
  );

  it('keeps a full code as it is when one more character is typed, even in the middle', async () => {
    const app = await open();
    const code = screen.getByLabelText<HTMLInputElement>('Activation code');
    await app.user.type(code, 'ABCDEFGHIJKLMNOP');
    await app.user.type(code, 'Z', { initialSelectionStart: 5, initialSelectionEnd: 5 });
    expect(code).toHaveValue('ABCD-EFGH-IJKL-MNOP');
    expect(code.selectionStart).toBe(5);
    // Typing over a selection still replaces it.
    await app.user.type(code, 'Z', { initialSelectionStart: 0, initialSelectionEnd: 1 });
    expect(code).toHaveValue('ZBCD-EFGH-IJKL-MNOP');
  });

  it('takes a code pasted over the whole of a full one (the link filled it in), spaces and all', async () => {
    const app = await open('/activate?code=abcd2345efgh6789');
    const code = screen.getByLabelText<HTMLInputElement>('Activation code');
    expect(code).toHaveValue('ABCD-2345-EFGH-6789');
    await app.user.tripleClick(code);
    await app.user.paste(' WXYZ-EFGH-IJKL-MNOP');
    expect(code).toHaveValue('WXYZ-EFGH-IJKL-MNOP');
  });

  it('pre-fills the code from the link, then takes it out of the address bar', async () => {
    const app = await open('/activate?code=abcd2345efgh6789');
    expect(screen.getByLabelText('Activation code')).toHaveValue('ABCD-2345-EFGH-6789');
    await waitFor(() => expect(app.location().search).toBe(''));
    expect(app.location().pathname).toBe('/activate');
    expect(screen.getByLabelText('Activation code')).toHaveValue('ABCD-2345-EFGH-6789');
  });

  it('requires email and code', async () => {
    await open();
    expect(screen.getByLabelText('Email address')).toBeRequired();
    expect(screen.getByLabelText('Activation code')).toBeRequired();
  });

  it('sends the normalised email and code, showing Verifying... meanwhile', async () => {
    const answer = deferred<Response>();
    api.set('POST /v1/auth/verify-activation', () => answer.promise);
    const app = await open();
    await fillAndVerify(app);

    expectBusy(await screen.findByRole('button', { name: MESSAGES.verifying }));
    answer.resolve(new Response(JSON.stringify(validAnswer), { status: 200 }));
    expect(await screen.findByRole('heading', { name: MESSAGES.setUpYourPasskey })).toBeInTheDocument();
    expect(api.callsTo('POST', '/v1/auth/verify-activation')[0]?.body).toEqual({
      email: 'casey@example.com',
      activationCode: 'ABCD2345EFGH6789',
    });
  });

  it('says the code is invalid when the server answers valid: false', async () => {
    api.set('POST /v1/auth/verify-activation', { valid: false });
    const app = await open();
    await fillAndVerify(app);
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.invalidActivationCode);
    expect(screen.queryByRole('heading', { name: MESSAGES.setUpYourPasskey })).not.toBeInTheDocument();
  });

  it('explains a code that is too short before calling the server', async () => {
    const app = await open();
    await fillAndVerify(app, 'ABCD-2345');
    expect(await screen.findByRole('alert')).toHaveTextContent(VALIDATION.registrationCode);
    expect(api.callsTo('POST', '/v1/auth/verify-activation')).toHaveLength(0);
  });

  it('shows a server failure message, without trying again', async () => {
    api.set('POST /v1/auth/verify-activation', failure(400, 'Invalid request'));
    const app = await open();
    await fillAndVerify(app);
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid request');
    expect(api.callsTo('POST', '/v1/auth/verify-activation')).toHaveLength(1);
  });

  it('tries the code once more after a retryable failure (SPEC sections 8 and 9), then goes on', async () => {
    let tries = 0;
    api.set('POST /v1/auth/verify-activation', () =>
      (tries += 1) === 1 ? failure(503, 'Service Unavailable') : json(validAnswer),
    );
    const app = await open();
    await fillAndVerify(app);
    expect(await screen.findByRole('heading', { name: MESSAGES.setUpYourPasskey })).toBeInTheDocument();
    expect(api.callsTo('POST', '/v1/auth/verify-activation')).toHaveLength(2);
  });

  it('shows the lock of SPEC-2 section 5 as the server words it, and stays on step 1', async () => {
    api.set('POST /v1/auth/verify-activation', failure(429, TOO_MANY_ATTEMPTS));
    const app = await open();
    await fillAndVerify(app);
    expect(await screen.findByRole('alert')).toHaveTextContent(TOO_MANY_ATTEMPTS);
    expect(screen.queryByRole('heading', { name: MESSAGES.setUpYourPasskey })).not.toBeInTheDocument();
  });

  it('creates the passkey, registers it, signs in with the proof and opens the dashboard', async () => {
    givenBrowser('Europe/Berlin', 'de-DE');
    const app = await open();
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));

    await waitFor(() => expect(app.location().pathname).toBe('/dashboard'));
    expect(passkey.createPasskey).toHaveBeenCalledWith(registrationOptions());
    expect(api.callsTo('POST', '/v1/auth/register-passkey')[0]?.body).toEqual({
      email: 'casey@example.com',
      activationCode: 'ABCD2345EFGH6789',
      cognitoUsername: COGNITO_USERNAME,
      registrationResponse: registrationResponse(),
      expectedChallenge: registrationOptions().challenge,
      // The browser's, for the new profile.
      timezone: 'Europe/Berlin',
      locale: 'de-DE',
    });
    expect(cognito.signInWithPasskeyProof).toHaveBeenCalledTimes(1);
    expect(cognito.signInWithPasskeyProof).toHaveBeenCalledWith(COGNITO_USERNAME, PASSKEY_PROOF, USER_ID);
    expect(passkey.createPasskey).toHaveBeenCalledTimes(1);
  });

  it('sends an odd time zone for the server to judge, leaves out an empty language, and goes on', async () => {
    givenBrowser('Etc/Unknown', '');
    const app = await open();
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));
    await waitFor(() => expect(app.location().pathname).toBe('/dashboard'));
    const body = api.callsTo('POST', '/v1/auth/register-passkey')[0]?.body;
    expect(body).toMatchObject({ timezone: 'Etc/Unknown' });
    expect(body).not.toHaveProperty('locale');
  });

  it("tells the browser the new passkey is the account's only one, where the Signal API exists", async () => {
    const signalAllAcceptedCredentials = vi.fn(() => Promise.resolve());
    vi.stubGlobal('PublicKeyCredential', { signalAllAcceptedCredentials });
    const app = await open();
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));
    await waitFor(() => expect(app.location().pathname).toBe('/dashboard'));
    // A recovery removed the earlier passkeys: a provider that synced one stops offering it.
    expect(signalAllAcceptedCredentials).toHaveBeenCalledWith({
      rpId: registrationOptions().rp.id,
      userId: registrationOptions().user.id,
      allAcceptedCredentialIds: [registrationResponse().id],
    });
  });

  it("drops the previous person's cached data when the automatic sign-in fails", async () => {
    // An admin, signed in, opens someone's activation link in the same browser.
    cognito.givenSession(sessionUser(['admin']));
    api.set('GET /v1/users/me', completeProfile());
    const app = renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Welcome back, Casey!' });
    expect(app.queryClient.getQueryData(profileQueryKey)).toBeDefined();
    // Signing the new person in signs the admin out first, then Cognito refuses.
    cognito.signInWithPasskeyProof.mockImplementation(() => {
      cognito.givenSession(null);
      return Promise.reject(new Error(MESSAGES.networkError));
    });

    await act(() => app.router.navigate('/activate'));
    await screen.findByRole('heading', { name: 'Activate Your Account' });
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));

    expect(await screen.findByRole('alert')).toHaveTextContent(AUTO_SIGN_IN_FAILED);
    expect(app.queryClient.getQueryData(profileQueryKey)).toBeUndefined();
    expect(app.queryClient.getQueryCache().getAll()).toEqual([]);
    // Signed out: the dashboard now leads to /signin instead of showing the admin's data.
    await act(() => app.router.navigate('/dashboard'));
    expect(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey })).toBeInTheDocument();
  });

  it('goes Back to step 1 with the entries kept', async () => {
    const app = await open();
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: 'Back' }));
    expect(await screen.findByLabelText('Activation code')).toHaveValue('ABCD-2345-EFGH-6789');
    expect(screen.getByLabelText('Email address')).toHaveValue('Casey@Example.com');
  });

  it("moves focus with the step: to step 2's title after Verify Code, to the email after Back", async () => {
    const app = await open();
    // The pressed button leaves with its step; focus must not fall back to the page.
    await fillAndVerify(app);
    const title = await screen.findByRole('heading', { name: MESSAGES.setUpYourPasskey });
    await waitFor(() => expect(title).toHaveFocus());
    await app.user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.getByLabelText('Email address')).toHaveFocus());
  });

  it('refuses a browser without WebAuthn', async () => {
    passkey.isWebAuthnSupported.mockReturnValue(false);
    const app = await open();
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.webAuthnUnsupported);
    expect(passkey.createPasskey).not.toHaveBeenCalled();
  });

  it('refuses a device without a platform authenticator', async () => {
    passkey.isPlatformAuthenticatorAvailable.mockResolvedValue(false);
    const app = await open();
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.noPlatformAuthenticator);
    expect(passkey.createPasskey).not.toHaveBeenCalled();
  });

  it('reports a passkey prompt that returned no credential', async () => {
    passkey.createPasskey.mockRejectedValue(
      new passkey.PasskeyError('no-credential', MESSAGES.noCredentialCreated),
    );
    const app = await open();
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.noCredentialCreated);
    expect(api.callsTo('POST', '/v1/auth/register-passkey')).toHaveLength(0);
  });

  it('shows Creating Passkey... while the prompt is open', async () => {
    passkey.createPasskey.mockReturnValue(new Promise(() => undefined));
    const app = await open();
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));
    expectBusy(await screen.findByRole('button', { name: 'Creating Passkey...' }));
  });

  it('shows a registration failure from the server', async () => {
    api.set('POST /v1/auth/register-passkey', failure(409, 'This activation code has already been used.'));
    const app = await open();
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This activation code has already been used.');
    expect(cognito.signInWithPasskeyProof).not.toHaveBeenCalled();
  });

  it('tells the browser the passkey the server refused is unknown, so it is not offered at sign-in', async () => {
    const signalUnknownCredential = vi.fn(() => Promise.resolve());
    vi.stubGlobal('PublicKeyCredential', { signalUnknownCredential });
    api.set('POST /v1/auth/register-passkey', failure(409, 'This activation code has already been used.'));
    const app = await open();
    await fillAndVerify(app);
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));
    await screen.findByRole('alert');
    expect(signalUnknownCredential).toHaveBeenCalledWith({
      rpId: registrationOptions().rp.id,
      credentialId: registrationResponse().id,
    });
  });

  it('asks to start over when step 2 is reached without verification data', async () => {
    const app = await open('/activate?code=ABCD2345EFGH6789&step=passkey');
    await app.user.click(await screen.findByRole('button', { name: MESSAGES.createPasskey }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.verificationDataNotFound);
    expect(passkey.createPasskey).not.toHaveBeenCalled();
  });

  it('links to Sign In', async () => {
    const app = await open();
    await app.user.click(screen.getByRole('link', { name: 'Sign In' }));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
  });
});
