import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES, type Passkey } from '../../../../../shared/account';
import * as cognito from '../../support/cognito-mock';
import {
  completeProfile,
  passkeyItem,
  registrationOptions,
  registrationResponse,
  sessionUser,
} from '../../support/factories';
import { deferred, failure, fakeApi, json } from '../../support/fake-api';
import { heardOnFocus } from '../../support/focus';
import * as passkey from '../../support/passkey-mock';
import { givenPasskeySignInAs } from '../../support/sign-in';
import { renderApp } from '../../support/render-app';
import { expectHeldOpen } from '../../support/modal';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const PHONE = passkeyItem();
const LAPTOP = passkeyItem({
  credentialId: 'bGFwdG9wLWNyZWRlbnRpYWw',
  name: 'Work laptop',
  createdAt: '2025-02-01T10:00:00.000Z',
  lastUsedAt: undefined,
  backedUp: false,
  providerName: 'Windows Hello',
});
const ADDED = passkeyItem({ credentialId: 'bmV3LWNyZWRlbnRpYWw', name: 'YubiKey', backedUp: false });

const PASSKEYS = '/v1/users/me/passkeys';
/** The account's WebAuthn user handle, as the list carries it. */
const USER_HANDLE = 'YWNjb3VudC1oYW5kbGU';
const when = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
const day = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(iso));

describe('Profile page: Passkeys', () => {
  let api: ReturnType<typeof fakeApi>;
  let passkeys: Passkey[];

  beforeEach(() => {
    passkeys = [PHONE, LAPTOP];
    cognito.givenSession(sessionUser(['user']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      'GET /v1/users/me/activity': { events: [] },
      [`GET ${PASSKEYS}`]: () => json({ passkeys, userHandle: USER_HANDLE }),
      [`POST ${PASSKEYS}/options`]: registrationOptions(),
      [`POST ${PASSKEYS}`]: () => {
        passkeys = [...passkeys, ADDED];
        return json(ADDED, 201);
      },
      [`DELETE ${PASSKEYS}/${LAPTOP.credentialId}`]: () => {
        passkeys = [PHONE];
        return new Response(null, { status: 204 });
      },
      [`PATCH ${PASSKEYS}/${LAPTOP.credentialId}`]: (call) => {
        const renamed = { ...LAPTOP, ...(call.body as { name: string }) };
        passkeys = [PHONE, renamed];
        return json(renamed);
      },
    });
    passkey.createPasskey.mockResolvedValue(registrationResponse());
  });

  const open = async () => {
    const app = renderApp('/dashboard/profile');
    const section = within(await screen.findByRole('region', { name: 'Passkeys' }));
    await section.findByRole('list', { name: 'Passkeys' });
    return { app, section };
  };
  /** Each passkey's details, without its buttons. */
  const items = () =>
    within(screen.getByRole('list', { name: 'Passkeys' }))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.entry__body')?.textContent ?? '');

  it('lists each passkey: name, synced or device-bound, provider when it differs, created and last used', async () => {
    const { section } = await open();
    expect(items()).toEqual([
      `iCloud KeychainSyncedCreated ${day(PHONE.createdAt)} · Last used ${when(PHONE.lastUsedAt ?? '')}`,
      `Work laptopDevice-boundWindows HelloCreated ${day(LAPTOP.createdAt)} · Not used yet`,
    ]);
    expect(section.getByRole('button', { name: 'Rename Work laptop' })).toBeInTheDocument();
    expect(section.getByRole('button', { name: 'Remove Work laptop' })).toBeInTheDocument();
  });

  it('adds a passkey: options, the device prompt, then the named passkey stored and listed', async () => {
    const { app, section } = await open();
    await app.user.type(section.getByLabelText('Name (optional)'), ' YubiKey ');
    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));

    expect(await section.findByText('YubiKey added.')).toBeInTheDocument();
    expect(passkey.createPasskey).toHaveBeenCalledWith(registrationOptions());
    expect(api.callsTo('POST', PASSKEYS)[0]?.body).toEqual({
      registrationResponse: registrationResponse(),
      name: 'YubiKey',
    });
    expect(items()).toHaveLength(3);
    expect(section.getByLabelText('Name (optional)')).toHaveValue('');
  });

  it('leaves the name out when none is typed', async () => {
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    await section.findByText('YubiKey added.');
    expect(api.callsTo('POST', PASSKEYS)[0]?.body).toEqual({ registrationResponse: registrationResponse() });
  });

  it('shows why the device made no passkey, and stores nothing', async () => {
    passkey.createPasskey.mockRejectedValue(
      new passkey.PasskeyError('cancelled', 'Failed to create passkey credential'),
    );
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    expect(await section.findByRole('alert')).toHaveTextContent('Failed to create passkey credential');
    expect(api.callsTo('POST', PASSKEYS)).toHaveLength(0);
    // Nothing was sent: the list is not read again.
    expect(api.callsTo('GET', PASSKEYS)).toHaveLength(1);
  });

  it('tells the browser a passkey the server refused is unknown, not one it holds or whose answer was lost', async () => {
    const signalUnknownCredential = vi.fn(() => Promise.resolve());
    vi.stubGlobal('PublicKeyCredential', { signalUnknownCredential });
    api.set(
      `POST ${PASSKEYS}`,
      failure(400, 'Passkey registration could not be verified. Please start over.'),
    );
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    await section.findByRole('alert');
    // The device made it; the server stored nothing: the provider stops offering it.
    expect(signalUnknownCredential).toHaveBeenCalledWith({
      rpId: 'localhost',
      credentialId: registrationResponse().id,
    });

    // One the server holds already ('already registered') stays offered.
    signalUnknownCredential.mockClear();
    api.set(`POST ${PASSKEYS}`, failure(409, ACCOUNT_MESSAGES.passkeyExists));
    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() => expect(api.callsTo('POST', PASSKEYS)).toHaveLength(2));
    expect(await section.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.passkeyExists);
    expect(signalUnknownCredential).not.toHaveBeenCalled();

    api.set(`POST ${PASSKEYS}`, failure(503, 'Service unavailable'));
    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() => expect(api.callsTo('POST', PASSKEYS).length).toBeGreaterThanOrEqual(3));
    await waitFor(() => expect(section.getByRole('button', { name: 'Add a passkey' })).toBeEnabled());
    expect(signalUnknownCredential).not.toHaveBeenCalled();
  });

  it('lists a passkey the server stored before its answer failed', async () => {
    api.set(`POST ${PASSKEYS}`, () => {
      passkeys = [...passkeys, ADDED];
      return failure(500, 'Internal server error');
    });
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    expect(await section.findByRole('alert')).toHaveTextContent('Internal server error');
    // The list is read again either way: it shows what the server holds.
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(items()[2]).toMatch(/^YubiKey/);
  });

  it('asks for a fresh sign-in when adding answers 401, without signing out by itself', async () => {
    api.set(`POST ${PASSKEYS}/options`, failure(401, ACCOUNT_MESSAGES.reauthRequired));
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));

    const alert = await section.findByRole('alert');
    expect(alert).toHaveTextContent('Please sign in again to manage passkeys.');
    expect(passkey.createPasskey).not.toHaveBeenCalled();
    expect(cognito.signOut).not.toHaveBeenCalled();
    expect(app.location().pathname).toBe('/dashboard/profile');

    await app.user.click(within(alert).getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
  });

  describe("after 'Sign in again'", () => {
    /** The 401, 'Sign in again', then a passkey sign-in on /signin as `who`. */
    const signInAgainAs = async (who: ReturnType<typeof sessionUser>) => {
      api.set(`POST ${PASSKEYS}/options`, failure(401, ACCOUNT_MESSAGES.reauthRequired));
      givenPasskeySignInAs(api, who);
      const { app, section } = await open();
      await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
      await app.user.click(
        within(await section.findByRole('alert')).getByRole('button', { name: 'Sign in again' }),
      );
      await waitFor(() => expect(app.location().pathname).toBe('/signin'));
      await app.user.click(await screen.findByRole('button', { name: 'Sign In with Passkey' }));
      return app;
    };

    /** Once every navigation the sign-in set off has run, where the browser is. */
    const settledAt = async (app: Awaited<ReturnType<typeof signInAgainAs>>) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return app.location().pathname;
    };

    it('the same person comes back to the page they were on', async () => {
      const app = await signInAgainAs(sessionUser(['user']));
      expect(await screen.findByRole('button', { name: 'Add a passkey' })).toBeEnabled();
      expect(await settledAt(app)).toBe('/dashboard/profile');
      expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeInTheDocument();
    });

    it('someone else who signs in on the browser starts at the dashboard', async () => {
      const app = await signInAgainAs(
        sessionUser(['user'], { userId: '99999999-9999-4999-8999-999999999999', email: 'other@example.com' }),
      );
      await waitFor(() => expect(app.location().pathname).toBe('/dashboard'));
      expect(await settledAt(app)).toBe('/dashboard');
    });
  });

  it('removes a passkey after the SPEC confirm prompt, then lists the rest', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Remove Work laptop' }));

    expect(confirm).toHaveBeenCalledWith('Remove the passkey Work laptop?');
    expect(await section.findByText('Work laptop removed.')).toBeInTheDocument();
    expect(items()).toHaveLength(1);
    // Its buttons left with it: focus is on the list, not back at the top of the page.
    await waitFor(() => expect(section.getByRole('list', { name: 'Passkeys' })).toHaveFocus());
  });

  it('says a passkey is removed when the retry of a removal whose answer was lost finds it gone (404)', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { app, section } = await open();
    const path = `${PASSKEYS}/${LAPTOP.credentialId}`;
    // The first try removes it, but its answer is lost (503); SPEC section 9's retry finds nothing.
    api.set(`DELETE ${path}`, () => {
      const first = passkeys.length > 1;
      passkeys = [PHONE];
      return first ? failure(503, 'Service Unavailable') : failure(404, ACCOUNT_MESSAGES.passkeyNotFound);
    });
    await app.user.click(section.getByRole('button', { name: 'Remove Work laptop' }));
    expect(await section.findByText('Work laptop removed.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', path)).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps the passkey when the prompt is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Remove Work laptop' }));
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
  });

  it('shows the refusal to remove the only passkey', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    passkeys = [PHONE];
    api.set(`DELETE ${PASSKEYS}/${PHONE.credentialId}`, failure(409, ACCOUNT_MESSAGES.onlyPasskey));
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Remove iCloud Keychain' }));

    const alert = await section.findByRole('alert');
    expect(alert).toHaveTextContent('You cannot remove your only passkey.');
    expect(within(alert).queryByRole('button', { name: 'Sign in again' })).not.toBeInTheDocument();
    expect(items()).toHaveLength(1);
  });

  it('takes away a refused removal once a passkey is added', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    passkeys = [PHONE];
    api.set(`DELETE ${PASSKEYS}/${PHONE.credentialId}`, failure(409, ACCOUNT_MESSAGES.onlyPasskey));
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Remove iCloud Keychain' }));
    expect(await section.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.onlyPasskey);

    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    expect(await section.findByText('YubiKey added.')).toBeInTheDocument();
    expect(section.queryByRole('alert')).not.toBeInTheDocument();
    expect(section.queryByText(ACCOUNT_MESSAGES.onlyPasskey)).not.toBeInTheDocument();
  });

  it('takes away a refused add once a passkey is removed, or renamed', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set(`POST ${PASSKEYS}/options`, failure(401, ACCOUNT_MESSAGES.reauthRequired));
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    expect(await section.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.reauthRequired);

    await app.user.click(section.getByRole('button', { name: 'Remove Work laptop' }));
    expect(await section.findByText('Work laptop removed.')).toBeInTheDocument();
    expect(section.queryByRole('alert')).not.toBeInTheDocument();

    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    expect(await section.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.reauthRequired);
    api.set(`PATCH ${PASSKEYS}/${PHONE.credentialId}`, (call) =>
      json({ ...PHONE, ...(call.body as { name: string }) }),
    );
    await app.user.click(section.getByRole('button', { name: 'Rename iCloud Keychain' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Rename passkey' }));
    await app.user.clear(dialog.getByLabelText('Name'));
    await app.user.type(dialog.getByLabelText('Name'), 'My phone');
    await app.user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await section.findByText('Renamed to My phone.')).toBeInTheDocument();
    expect(section.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('cannot close the Rename dialog while the new name is saved, and shows the refusal', async () => {
    const answer = deferred<Response>();
    api.set(`PATCH ${PASSKEYS}/${LAPTOP.credentialId}`, () => answer.promise);
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Rename Work laptop' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Rename passkey' }));
    await app.user.type(dialog.getByLabelText('Name'), ' 2');
    await app.user.click(dialog.getByRole('button', { name: 'Save' }));
    await dialog.findByRole('button', { name: 'Saving...' });
    await expectHeldOpen(app.user, 'Rename passkey');

    answer.resolve(failure(404, ACCOUNT_MESSAGES.passkeyNotFound));
    expect(await dialog.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.passkeyNotFound);
    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks for a fresh sign-in when removing answers 401', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set(`DELETE ${PASSKEYS}/${LAPTOP.credentialId}`, failure(401, ACCOUNT_MESSAGES.reauthRequired));
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Remove Work laptop' }));

    const alert = await section.findByRole('alert');
    expect(alert).toHaveTextContent('Please sign in again to manage passkeys.');
    await app.user.click(within(alert).getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
  });

  it('renames in a dialog, refusing an empty name with the schema message', async () => {
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Rename Work laptop' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Rename passkey' }));
    const name = dialog.getByLabelText('Name');
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('maxlength', '64');

    await app.user.clear(name);
    await app.user.type(name, '   ');
    const heard = heardOnFocus(name);
    await app.user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(dialog.getByText('Name must be 1 to 64 characters')).toBeInTheDocument();
    // Back to the field, with its message said (Save had the focus).
    await waitFor(() => expect(name).toHaveFocus());
    expect(heard).toEqual([{ invalid: true, description: 'Name must be 1 to 64 characters' }]);
    expect(api.callsTo('PATCH', `${PASSKEYS}/${LAPTOP.credentialId}`)).toHaveLength(0);

    await app.user.clear(name);
    await app.user.type(name, 'Desk PC');
    await app.user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await section.findByText('Renamed to Desk PC.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('PATCH', `${PASSKEYS}/${LAPTOP.credentialId}`)[0]?.body).toEqual({ name: 'Desk PC' });
    expect(section.getByRole('button', { name: 'Rename Desk PC' })).toBeInTheDocument();
  });

  it("reads 'Recent activity' again after an add, a rename and a removal, each of which it records", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const activityReads = () => api.callsTo('GET', '/v1/users/me/activity').length;
    const { app, section } = await open();
    await waitFor(() => expect(activityReads()).toBe(1));

    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    await section.findByText('YubiKey added.');
    await waitFor(() => expect(activityReads()).toBe(2));

    await app.user.click(section.getByRole('button', { name: 'Rename Work laptop' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Rename passkey' }));
    await app.user.clear(dialog.getByLabelText('Name'));
    await app.user.type(dialog.getByLabelText('Name'), 'Desk PC');
    await app.user.click(dialog.getByRole('button', { name: 'Save' }));
    await section.findByText('Renamed to Desk PC.');
    await waitFor(() => expect(activityReads()).toBe(3));

    api.set(`DELETE ${PASSKEYS}/${LAPTOP.credentialId}`, () => {
      passkeys = [PHONE, ADDED];
      return new Response(null, { status: 204 });
    });
    await app.user.click(section.getByRole('button', { name: 'Remove Desk PC' }));
    await section.findByText('Desk PC removed.');
    await waitFor(() => expect(activityReads()).toBe(4));
  });

  it('tells the browser every passkey that still works after an add, where the Signal API exists', async () => {
    const signalAllAcceptedCredentials = vi.fn(() => Promise.resolve());
    vi.stubGlobal('PublicKeyCredential', { signalAllAcceptedCredentials });
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Add a passkey' }));
    await section.findByText('YubiKey added.');

    expect(signalAllAcceptedCredentials).toHaveBeenCalledWith({
      rpId: 'localhost',
      userId: USER_HANDLE,
      allAcceptedCredentialIds: [PHONE.credentialId, LAPTOP.credentialId, ADDED.credentialId],
    });
  });

  it('signals a removal too, under the user handle the list carries, with the passkeys left', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const signalAllAcceptedCredentials = vi.fn(() => Promise.resolve());
    vi.stubGlobal('PublicKeyCredential', { signalAllAcceptedCredentials });
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Remove Work laptop' }));
    await section.findByText('Work laptop removed.');
    await waitFor(() =>
      expect(signalAllAcceptedCredentials).toHaveBeenCalledWith({
        rpId: 'localhost',
        userId: USER_HANDLE,
        allAcceptedCredentialIds: [PHONE.credentialId],
      }),
    );
    expect(signalAllAcceptedCredentials).toHaveBeenCalledTimes(1);
  });

  it('signals nothing when the list names no user handle', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set(`GET ${PASSKEYS}`, () => json({ passkeys }));
    const signalAllAcceptedCredentials = vi.fn(() => Promise.resolve());
    vi.stubGlobal('PublicKeyCredential', { signalAllAcceptedCredentials });
    const { app, section } = await open();
    await app.user.click(section.getByRole('button', { name: 'Remove Work laptop' }));
    await section.findByText('Work laptop removed.');
    await waitFor(() => expect(api.callsTo('GET', PASSKEYS)).toHaveLength(2));
    expect(signalAllAcceptedCredentials).not.toHaveBeenCalled();
  });
});
