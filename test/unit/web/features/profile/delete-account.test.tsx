import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../../../../shared/account';
import * as cognito from '../../support/cognito-mock';
import { completeProfile, sessionUser } from '../../support/factories';
import { deferred, failure, fakeApi, json } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';
import { expectBusy } from '../../support/busy';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

describe('Profile page: Export my data and Delete my account', () => {
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    cognito.givenSession(sessionUser(['admin', 'user']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      'GET /v1/users/me/activity': { events: [] },
      'GET /v1/users/me/passkeys': { passkeys: [] },
      'DELETE /v1/users/me': new Response(null, { status: 204 }),
    });
  });

  const openDialog = async () => {
    const app = renderApp('/dashboard/profile');
    const section = within(await screen.findByRole('region', { name: 'Delete my account' }));
    await app.user.click(section.getByRole('button', { name: 'Delete my account' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Delete my account' }));
    return { app, dialog };
  };

  it("offers the health screens' export", async () => {
    renderApp('/dashboard/profile');
    const section = within(await screen.findByRole('region', { name: 'Export my data' }));
    expect(section.getByRole('button', { name: 'Download JSON' })).toBeInTheDocument();
    expect(section.getByRole('button', { name: 'Download FHIR' })).toBeInTheDocument();
  });

  it('keeps the delete button disabled until the typed email matches, case aside', async () => {
    const { app, dialog } = await openDialog();
    const email = dialog.getByLabelText('Your email address');
    const submit = dialog.getByRole('button', { name: 'Delete my account' });
    expect(email).toHaveFocus();
    expect(submit).toBeDisabled();

    await app.user.type(email, 'casey@example.co');
    expect(submit).toBeDisabled();
    await app.user.type(email, 'm');
    expect(submit).toBeEnabled();
    await app.user.clear(email);
    await app.user.type(email, 'CASEY@Example.com');
    expect(submit).toBeEnabled();
    expect(api.callsTo('DELETE', '/v1/users/me')).toHaveLength(0);
  });

  it('deletes with the typed email, then signs out and lands on /signin', async () => {
    const { app, dialog } = await openDialog();
    await app.user.type(dialog.getByLabelText('Your email address'), 'Casey@Example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Delete my account' }));

    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(api.callsTo('DELETE', '/v1/users/me')[0]?.body).toEqual({ confirmEmail: 'casey@example.com' });
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
  });

  it("tells the browser the account's passkeys no longer work, so its password manager drops them", async () => {
    const signalAllAcceptedCredentials = vi.fn(() => Promise.resolve());
    vi.stubGlobal('PublicKeyCredential', { signalAllAcceptedCredentials });
    api.set('GET /v1/users/me/passkeys', () =>
      json({
        userHandle: 'dXNlci1oYW5kbGU',
        passkeys: [
          { credentialId: 'Y3JlZA', name: 'Phone', createdAt: '2026-11-01T10:00:00.000Z', backedUp: true },
        ],
      }),
    );
    const { app, dialog } = await openDialog();
    await screen.findByText('Phone');
    await app.user.type(dialog.getByLabelText('Your email address'), 'casey@example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Delete my account' }));

    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(signalAllAcceptedCredentials).toHaveBeenCalledWith({
      rpId: 'localhost',
      userId: 'dXNlci1oYW5kbGU',
      allAcceptedCredentialIds: [],
    });
  });

  /** The deletion sent and held: `answer` settles it. */
  const deletionUnderWay = async () => {
    const answer = deferred<Response>();
    api.set('DELETE /v1/users/me', () => answer.promise);
    const { app, dialog } = await openDialog();
    await app.user.type(dialog.getByLabelText('Your email address'), 'casey@example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/v1/users/me')).toHaveLength(1));
    return { app, dialog, answer };
  };

  it('keeps the dialog open while deleting, then signs out to /signin', async () => {
    const { app, dialog, answer } = await deletionUnderWay();

    // Cancel, Escape and the backdrop cannot close a deletion that has started.
    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await app.user.keyboard('{Escape}');
    const backdrop = document.querySelector('.modal__backdrop');
    expect(backdrop).not.toBeNull();
    await app.user.click(backdrop as Element);
    expect(screen.getByRole('dialog', { name: 'Delete my account' })).toBeInTheDocument();
    expectBusy(dialog.getByRole('button', { name: 'Cancel' }));

    await act(async () => answer.resolve(new Response(null, { status: 204 })));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
  });

  it('still signs out when the page was left while deleting', async () => {
    const { app, answer } = await deletionUnderWay();

    // The browser's Back button, say: the dialog goes with the page.
    await act(() => app.router.navigate('/dashboard'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await act(async () => answer.resolve(new Response(null, { status: 204 })));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
  });

  it("shows the server's refusal for the last admin and stays signed in", async () => {
    api.set('DELETE /v1/users/me', failure(409, ACCOUNT_MESSAGES.lastAdmin));
    const { app, dialog } = await openDialog();
    await app.user.type(dialog.getByLabelText('Your email address'), 'casey@example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Delete my account' }));

    expect(await dialog.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.lastAdmin);
    expect(cognito.signOut).not.toHaveBeenCalled();
    expect(app.location().pathname).toBe('/dashboard/profile');
    expect(dialog.queryByRole('button', { name: 'Sign in again' })).not.toBeInTheDocument();
  });

  it('asks for a fresh sign-in when the sign-in is too old to delete, and offers one', async () => {
    api.set('DELETE /v1/users/me', failure(401, ACCOUNT_MESSAGES.reauthToDelete));
    const { app, dialog } = await openDialog();
    await app.user.type(dialog.getByLabelText('Your email address'), 'casey@example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Delete my account' }));

    expect(await dialog.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.reauthToDelete);
    expect(cognito.signOut).not.toHaveBeenCalled();
    await app.user.click(dialog.getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
  });
});
