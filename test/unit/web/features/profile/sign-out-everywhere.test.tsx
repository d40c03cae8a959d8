import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SIGN_OUT_EVERYWHERE,
  SIGN_OUT_EVERYWHERE_TEXT,
} from '../../../../../web/src/features/profile/components/sign-out-everywhere';
import * as cognito from '../../support/cognito-mock';
import { completeProfile, sessionUser } from '../../support/factories';
import { deferred, failure, fakeApi } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';
import { expectBusy } from '../../support/busy';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

describe('Profile page: Sign out everywhere', () => {
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    cognito.givenSession(sessionUser(['user']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      'GET /v1/users/me/activity': { events: [] },
      'GET /v1/users/me/passkeys': { passkeys: [] },
      'POST /v1/users/me/sign-out': new Response(null, { status: 204 }),
    });
  });

  const openDialog = async () => {
    const app = renderApp('/dashboard/profile');
    const section = within(await screen.findByRole('region', { name: 'Sessions' }));
    expect(section.getByText(SIGN_OUT_EVERYWHERE_TEXT)).toBeInTheDocument();
    await app.user.click(section.getByRole('button', { name: SIGN_OUT_EVERYWHERE }));
    const dialog = within(screen.getByRole('dialog', { name: `${SIGN_OUT_EVERYWHERE}?` }));
    return { app, dialog };
  };

  it('asks first; Cancel ends nothing', async () => {
    const { app, dialog } = await openDialog();
    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/v1/users/me/sign-out')).toHaveLength(0);
    expect(cognito.signOut).not.toHaveBeenCalled();
  });

  it('ends every session on the server, then signs this browser out to /signin', async () => {
    const { app, dialog } = await openDialog();
    await app.user.click(dialog.getByRole('button', { name: SIGN_OUT_EVERYWHERE }));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    const [everywhere] = api.callsTo('POST', '/v1/users/me/sign-out');
    expect(everywhere?.body).toEqual({ everywhere: true });
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
  });

  /** 'Sign out everywhere' sent and held: `answer` settles it (this session's own sign-out answers 204). */
  const endingUnderWay = async () => {
    const answer = deferred<Response>();
    api.set('POST /v1/users/me/sign-out', (call) =>
      (call.body as { everywhere?: boolean }).everywhere
        ? answer.promise
        : new Response(null, { status: 204 }),
    );
    const { app, dialog } = await openDialog();
    await app.user.click(dialog.getByRole('button', { name: SIGN_OUT_EVERYWHERE }));
    await waitFor(() => expect(api.callsTo('POST', '/v1/users/me/sign-out')).toHaveLength(1));
    return { app, dialog, answer };
  };

  it('keeps the dialog open while ending the sessions, then signs out to /signin', async () => {
    const { app, dialog, answer } = await endingUnderWay();

    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await app.user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: `${SIGN_OUT_EVERYWHERE}?` })).toBeInTheDocument();
    expectBusy(dialog.getByRole('button', { name: 'Cancel' }));

    await act(async () => answer.resolve(new Response(null, { status: 204 })));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
  });

  it('still signs out when the page was left while ending the sessions', async () => {
    const { app, answer } = await endingUnderWay();

    await act(() => app.router.navigate('/dashboard'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await act(async () => answer.resolve(new Response(null, { status: 204 })));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
  });

  it('stays signed in and says so when the server could not do it', async () => {
    api.set('POST /v1/users/me/sign-out', failure(503, 'Service Unavailable'));
    const { app, dialog } = await openDialog();
    await app.user.click(dialog.getByRole('button', { name: SIGN_OUT_EVERYWHERE }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Service Unavailable');
    expect(app.location().pathname).toBe('/dashboard/profile');
    expect(cognito.signOut).not.toHaveBeenCalled();
  });
});
