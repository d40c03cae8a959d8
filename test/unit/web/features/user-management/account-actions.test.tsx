import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT_LABELS,
  ACCOUNT_MESSAGES,
  confirmDisableCoached,
  confirmRolesEndCoaching,
} from '../../../../../shared/account';
import { MESSAGES } from '../../../../../shared/messages';
import type { AdminUserListItem, Invitation } from '../../../../../shared/schemas';
import * as cognito from '../../support/cognito-mock';
import { adminUser, coachClient, completeProfile, invitation, sessionUser } from '../../support/factories';
import { expectBusy, expectNotBusy } from '../../support/busy';
import { deferred, failure, fakeApi, json } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';
import { cell, directoryRoutes, openUserManagement } from '../../support/user-management';
import { expectHeldOpen } from '../../support/modal';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const ALEX = adminUser({
  userId: '11111111-1111-4111-8111-111111111111',
  email: 'alex@example.com',
  roles: ['admins', 'users'],
});
const PENDING = invitation({
  email: 'new@example.com',
  createdAt: '2025-03-03T09:00:00.000Z',
  expiresAt: '2999-01-01T00:00:00.000Z',
});
const OVERDUE = invitation({
  email: 'late@example.com',
  createdAt: '2025-03-02T09:00:00.000Z',
  expiresAt: '2025-03-09T09:00:00.000Z',
});
const EXPIRED = invitation({
  email: 'old@example.com',
  status: 'expired',
  createdAt: '2025-03-01T09:00:00.000Z',
});

const USER_PATH = `/internal/v1/admin/users/${ALEX.userId}`;
const NEW_CODE = { activationCode: 'WXYZ2345WXYZ6789', expiresAt: '2999-03-10T09:00:00.000Z' };

describe('User Management: account lifecycle', () => {
  let api: ReturnType<typeof fakeApi>;
  let users: AdminUserListItem[];
  let invitations: Invitation[];

  beforeEach(() => {
    users = [ALEX];
    invitations = [PENDING, OVERDUE, EXPIRED];
    cognito.givenSession(sessionUser(['admin']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      ...directoryRoutes({ users: () => users, invitations: () => invitations }),
    });
  });

  it('shows Expired for an invitation past expiresAt or expired by the server, Pending otherwise, each with Resend', async () => {
    await openUserManagement();
    expect(cell('new@example.com', 'Status')).toBe('Pending');
    expect(cell('late@example.com', 'Status')).toBe('Expired');
    expect(cell('old@example.com', 'Status')).toBe('Expired');
    for (const email of ['new@example.com', 'late@example.com', 'old@example.com']) {
      expect(screen.getByRole('button', { name: `Resend ${email}` })).toBeInTheDocument();
    }
    expect(screen.getByRole('tab', { name: 'Pending Invitations (3)' })).toBeInTheDocument();
  });

  it('resends an expired invitation and shows the new code as a new invitation is shown', async () => {
    api.set('POST /internal/v1/admin/invitations/old%40example.com/resend', () => {
      const resent = { ...EXPIRED, status: 'pending' as const, ...NEW_CODE };
      invitations = [PENDING, OVERDUE, resent];
      return json(resent);
    });
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Resend old@example.com' }));

    const dialog = within(screen.getByRole('dialog', { name: 'Resend invitation' }));
    expect(await dialog.findByText('WXYZ-2345-WXYZ-6789')).toBeInTheDocument();
    expect(
      dialog.getByText(`${window.location.origin}/activate?code=WXYZ-2345-WXYZ-6789`),
    ).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Copy Code' })).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Copy Link' })).toBeInTheDocument();
    await waitFor(() => expect(cell('old@example.com', 'Status')).toBe('Pending'));
  });

  it('resets access after the SPEC confirm prompt and shows the recovery code', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set(`POST ${USER_PATH}/recovery`, json(NEW_CODE, 201));
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Reset access alex@example.com' }));

    expect(confirm).toHaveBeenCalledWith('Reset access for alex@example.com? Their passkeys stop working.');
    const dialog = within(screen.getByRole('dialog', { name: 'Reset access' }));
    expect(await dialog.findByText('WXYZ-2345-WXYZ-6789')).toBeInTheDocument();
    expect(dialog.getByText('Recovery code issued for alex@example.com.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Copy Link' })).toBeInTheDocument();
  });

  it('issues nothing when the reset prompt is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Reset access alex@example.com' }));
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows a refused reset in its dialog, in the server's words", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set(`POST ${USER_PATH}/recovery`, failure(404, ACCOUNT_MESSAGES.userNotFound));
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Reset access alex@example.com' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Reset access' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.userNotFound);
    expect(dialog.queryByRole('button', { name: 'Sign in again' })).not.toBeInTheDocument();
  });

  it('asks an admin whose sign-in is too old to reset access to sign in again, and offers it', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set(`POST ${USER_PATH}/recovery`, failure(401, ACCOUNT_MESSAGES.reauthToReset));
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Reset access alex@example.com' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Reset access' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.reauthToReset);
    expect(cognito.signOut).not.toHaveBeenCalled();
    await app.user.click(dialog.getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
  });

  it('shows a resent code that arrives after its dialog was closed (the old code no longer works)', async () => {
    const answer = deferred<Response>();
    api.set('POST /internal/v1/admin/invitations/old%40example.com/resend', () => answer.promise);
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Resend old@example.com' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Resend invitation' }));
    await app.user.click(dialog.getByRole('button', { name: 'Close dialog' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    answer.resolve(json({ ...EXPIRED, status: 'pending', ...NEW_CODE }));
    const reopened = within(await screen.findByRole('dialog', { name: 'Resend invitation' }));
    expect(await reopened.findByText('WXYZ-2345-WXYZ-6789')).toBeInTheDocument();
  });

  it('offers Disable on an active person and Enable on a disabled one, showing Disabled', async () => {
    const change = (status: 'active' | 'disabled') => () => {
      users = [{ ...ALEX, status }];
      return json({ userId: ALEX.userId, status });
    };
    api.set(`POST ${USER_PATH}/disable`, change('disabled'));
    api.set(`POST ${USER_PATH}/enable`, change('active'));
    const app = await openUserManagement();
    expect(cell('alex@example.com', 'Status')).toBe('Activated');
    expect(screen.queryByRole('button', { name: 'Enable alex@example.com' })).not.toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Disable alex@example.com' }));
    expect(await screen.findByRole('button', { name: 'Enable alex@example.com' })).toBeInTheDocument();
    expect(cell('alex@example.com', 'Status')).toBe('Disabled');
    expect(screen.queryByRole('button', { name: 'Disable alex@example.com' })).not.toBeInTheDocument();
    expect(api.callsTo('POST', `${USER_PATH}/disable`)).toHaveLength(1);
    // A disabled account takes no new passkey: no 'Reset access' until it is enabled (decision 044).
    expect(screen.queryByRole('button', { name: 'Reset access alex@example.com' })).not.toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Enable alex@example.com' }));
    expect(await screen.findByRole('button', { name: 'Disable alex@example.com' })).toBeInTheDocument();
    expect(cell('alex@example.com', 'Status')).toBe('Activated');
    expect(screen.getByRole('button', { name: 'Reset access alex@example.com' })).toBeInTheDocument();
    expect(api.callsTo('POST', `${USER_PATH}/enable`)).toHaveLength(1);
  });

  it('asks before disabling a client who has a coach and says they lost them; disables one with none at once', async () => {
    const COACH_ID = '33333333-3333-4333-8333-333333333333';
    users = [{ ...ALEX, coachId: COACH_ID }];
    api.set(`POST ${USER_PATH}/disable`, () => {
      users = [{ ...ALEX, status: 'disabled' }];
      return json({ userId: ALEX.userId, status: 'disabled' });
    });
    api.set(`POST ${USER_PATH}/enable`, () => {
      users = [{ ...ALEX, status: 'active' }];
      return json({ userId: ALEX.userId, status: 'active' });
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
    const app = await openUserManagement();
    // Asked first, as the disable ends the coaching: declined, nothing is sent.
    await app.user.click(screen.getByRole('button', { name: 'Disable alex@example.com' }));
    expect(confirm).toHaveBeenLastCalledWith(confirmDisableCoached('alex@example.com'));
    expect(api.callsTo('POST', `${USER_PATH}/disable`)).toHaveLength(0);
    await app.user.click(screen.getByRole('button', { name: 'Disable alex@example.com' }));
    expect(
      await screen.findByText('alex@example.com disabled. Their coach was unassigned.'),
    ).toBeInTheDocument();
    await app.user.click(await screen.findByRole('button', { name: 'Enable alex@example.com' }));
    expect(await screen.findByText('alex@example.com enabled.')).toBeInTheDocument();
    // One with no coach is disabled at once, as SPEC-2 has it.
    await app.user.click(await screen.findByRole('button', { name: 'Disable alex@example.com' }));
    expect(await screen.findByText('alex@example.com disabled.')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it('shows the change in the Audit Log when it is opened again, though its page was read a moment before', async () => {
    const AUDIT = '/internal/v1/admin/audit';
    api.set(`GET ${AUDIT}`, { events: [], people: [] });
    api.set(`POST ${USER_PATH}/disable`, () => {
      users = [{ ...ALEX, status: 'disabled' }];
      return json({ userId: ALEX.userId, status: 'disabled' });
    });
    const app = renderApp('/dashboard/audit');
    await screen.findByRole('heading', { level: 1, name: 'Audit Log' });
    await waitFor(() => expect(api.callsTo('GET', AUDIT)).toHaveLength(1));
    await app.user.click(screen.getByRole('link', { name: 'User Management' }));
    await screen.findByRole('tablist', { name: 'Filter users' });
    await app.user.click(await screen.findByRole('button', { name: 'Disable alex@example.com' }));
    await screen.findByRole('button', { name: 'Enable alex@example.com' });
    await app.user.click(screen.getByRole('link', { name: 'Audit Log' }));
    await screen.findByRole('heading', { level: 1, name: 'Audit Log' });
    // Within its 60 s of freshness, the page is read again: the disable wrote an event.
    await waitFor(() => expect(api.callsTo('GET', AUDIT)).toHaveLength(2));
  });

  it('shows a refused disable in a banner', async () => {
    api.set(`POST ${USER_PATH}/disable`, failure(409, ACCOUNT_MESSAGES.selfDisable));
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Disable alex@example.com' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.selfDisable);
  });

  it('deletes a person after the SPEC confirm prompt, then refreshes the list', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set(`DELETE ${USER_PATH}`, () => {
      users = [];
      return new Response(null, { status: 204 });
    });
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Delete alex@example.com' }));

    expect(confirm).toHaveBeenCalledWith(
      'Delete alex@example.com and all their data? This cannot be undone.',
    );
    await waitFor(() => expect(screen.queryByText('alex@example.com')).not.toBeInTheDocument());
    // The row's buttons left with it; the invitations' rows remain, and focus stays on the table.
    await waitFor(() => expect(screen.getByRole('region', { name: 'Users' })).toHaveFocus());
  });

  it('says a person is deleted when the retry of a delete whose answer was lost finds them gone (404)', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    // The first try erases them, but its answer is lost (503); SPEC section 9's retry finds nobody.
    api.set(`DELETE ${USER_PATH}`, () => {
      const first = users.length > 0;
      users = [];
      return first ? failure(503, 'Service Unavailable') : failure(404, 'User not found');
    });
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Delete alex@example.com' }));
    await waitFor(() => expect(screen.queryByText('alex@example.com')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', USER_PATH)).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the outcome of each of two deletes under way at once, the slower one failing', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const slow = deferred<Response>();
    api.set('DELETE /internal/v1/admin/invitations/new%40example.com', () => slow.promise);
    api.set('DELETE /internal/v1/admin/invitations/late%40example.com', () => {
      invitations = invitations.filter((entry) => entry.email !== 'late@example.com');
      return new Response(null, { status: 204 });
    });
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Delete invitation for new@example.com' }));
    await app.user.click(screen.getByRole('button', { name: 'Delete invitation for late@example.com' }));

    await waitFor(() =>
      expect(screen.getAllByRole('status').map((region) => region.textContent)).toContain(
        'Invitation for late@example.com deleted.',
      ),
    );
    // The first is still under way: its row says so and cannot be pressed again.
    expectBusy(screen.getByRole('button', { name: 'Deleting... invitation for new@example.com' }));
    slow.resolve(failure(409, 'Only pending invitations can be deleted'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only pending invitations can be deleted');
    expectNotBusy(await screen.findByRole('button', { name: 'Delete invitation for new@example.com' }));
  });

  it('shows a delete that was cut short as Being deleted, with Delete alone to finish it now', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    users = [{ ...ALEX, roles: ['users'], status: 'disabled', beingDeleted: true }];
    api.set(`DELETE ${USER_PATH}`, () => {
      users = [];
      return new Response(null, { status: 204 });
    });
    const app = await openUserManagement();
    expect(cell('alex@example.com', 'Status')).toBe(ACCOUNT_LABELS.beingDeleted);
    const row = screen.getByRole('row', { name: /alex@example\.com/ });
    // Nothing to change or undo: no Enable, roles, reset or coach (the server refuses an enable: 409).
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Delete']);

    await app.user.click(within(row).getByRole('button', { name: 'Delete alex@example.com' }));
    expect(confirm).toHaveBeenCalledWith(
      'Delete alex@example.com and all their data? This cannot be undone.',
    );
    await waitFor(() => expect(screen.queryByText('alex@example.com')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', USER_PATH)).toHaveLength(1);
  });

  it('gives focus to what replaces the table when its very last row is deleted', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    invitations = [];
    api.set(`DELETE ${USER_PATH}`, () => {
      users = [];
      return new Response(null, { status: 204 });
    });
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Delete alex@example.com' }));
    await screen.findByText(MESSAGES.noUsers);
    expect(screen.queryByRole('region', { name: 'Users' })).not.toBeInTheDocument();
    // Not the top of the page: the empty state that took the table's place, named by its text.
    await waitFor(() => expect(screen.getByRole('group', { name: MESSAGES.noUsers })).toHaveFocus());
  });

  it('keeps the person when the delete prompt is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Delete alex@example.com' }));
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
  });

  it('changes roles with the three checkboxes, at least one', async () => {
    api.set(`PUT ${USER_PATH}/roles`, (call) => {
      const { roles } = call.body as { roles: string[] };
      users = [{ ...ALEX, roles }];
      return json({ userId: ALEX.userId, roles });
    });
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Change roles alex@example.com' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Change roles' }));
    const box = (name: string) => dialog.getByRole('checkbox', { name: new RegExp(`^${name}`) });
    const save = dialog.getByRole('button', { name: 'Save roles' });
    expect(box('Admin')).toBeChecked();
    expect(box('Coach')).not.toBeChecked();
    expect(box('User')).toBeChecked();
    expect(save).toBeDisabled();

    await app.user.click(box('Admin'));
    await app.user.click(box('User'));
    expect(save).toBeDisabled();
    expect(dialog.getByText('Choose at least one role.')).toBeInTheDocument();

    await app.user.click(box('User'));
    await app.user.click(box('Coach'));
    await app.user.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('PUT', `${USER_PATH}/roles`)[0]?.body).toEqual({ roles: ['coaches', 'users'] });
    await waitFor(() => expect(cell('alex@example.com', 'Roles')).toBe('Coach, User'));
  });

  it('tells an admin changing their own roles that it signs them out, and takes them to sign-in once done', async () => {
    cognito.givenSession(sessionUser(['admin'], { userId: ALEX.userId, email: ALEX.email }));
    // As the server does: the change refuses the token that made it.
    let changed = false;
    api.set(`PUT ${USER_PATH}/roles`, (call) => {
      changed = true;
      return json({ userId: ALEX.userId, ...(call.body as object) });
    });
    const directory = directoryRoutes({ users: () => users, invitations: () => invitations });
    for (const [route, list] of Object.entries(directory))
      api.set(route, (call) => (changed ? failure(401, 'Unauthorized') : list(call)));
    const app = await openUserManagement();
    const readsOfLists = () =>
      api.calls.filter((call) => call.method === 'GET' && call.path.startsWith('/internal/v1/admin/')).length;
    await app.user.click(screen.getByRole('button', { name: 'Change roles alex@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Change roles' });
    expect(dialog).toHaveAccessibleDescription(
      'Your roles. You are signed out when your roles change, and sign in again to use them.',
    );
    await app.user.click(within(dialog).getByRole('checkbox', { name: /^Coach/ }));
    const readsBefore = readsOfLists();
    await app.user.click(within(dialog).getByRole('button', { name: 'Save roles' }));
    await waitFor(() => expect(app.location().pathname).toBe('/signin'));
    expect(cognito.signOut).toHaveBeenCalledTimes(1);
    // Nothing was read again with the token the change refused.
    expect(readsOfLists()).toBe(readsBefore);
    expect(api.callsTo('PUT', `${USER_PATH}/roles`)[0]?.body).toEqual({
      roles: ['admins', 'coaches', 'users'],
    });
  });

  it("says of someone else's roles that they sign in again, and keeps the admin on the page", async () => {
    api.set(`PUT ${USER_PATH}/roles`, (call) => json({ userId: ALEX.userId, ...(call.body as object) }));
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Change roles alex@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Change roles' });
    expect(dialog).toHaveAccessibleDescription(
      'Roles of alex@example.com. They are asked to sign in again before the change takes effect.',
    );
    await app.user.click(within(dialog).getByRole('checkbox', { name: /^Coach/ }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Save roles' }));
    expect(await screen.findByText('Roles of alex@example.com changed.')).toBeInTheDocument();
    expect(app.location().pathname).toBe('/dashboard/users');
  });

  describe('a role change that ends coaching', () => {
    const COACH_ID = '33333333-3333-4333-8333-333333333333';
    const saveRoles = async (app: Awaited<ReturnType<typeof openUserManagement>>, untick: string[]) => {
      await app.user.click(screen.getByRole('button', { name: 'Change roles alex@example.com' }));
      const dialog = within(screen.getByRole('dialog', { name: 'Change roles' }));
      for (const role of untick)
        await app.user.click(dialog.getByRole('checkbox', { name: new RegExp(`^${role}`) }));
      await app.user.click(dialog.getByRole('button', { name: 'Save roles' }));
      return dialog;
    };
    beforeEach(() => {
      api.set(`PUT ${USER_PATH}/roles`, (call) => json({ userId: ALEX.userId, ...(call.body as object) }));
    });

    it('asks first when a coach leaves Coach, saying their clients are unassigned; declined, nothing is sent', async () => {
      users = [{ ...ALEX, roles: ['coaches', 'users'] }];
      const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
      const app = await openUserManagement();
      const dialog = await saveRoles(app, ['Coach']);
      expect(confirm).toHaveBeenCalledWith(
        'Change the roles of alex@example.com? They leave the Coach role, so all their clients will be unassigned from them; giving the role back does not bring the clients back.',
      );
      expect(api.callsTo('PUT', `${USER_PATH}/roles`)).toHaveLength(0);
      expect(screen.getByRole('dialog', { name: 'Change roles' })).toBeInTheDocument();

      await app.user.click(dialog.getByRole('button', { name: 'Save roles' }));
      expect(await screen.findByText('Roles of alex@example.com changed.')).toBeInTheDocument();
      expect(api.callsTo('PUT', `${USER_PATH}/roles`)[0]?.body).toEqual({ roles: ['users'] });
    });

    it('asks first when a client with a coach leaves User, saying their coach is unassigned', async () => {
      users = [{ ...ALEX, coachId: COACH_ID }];
      const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
      const app = await openUserManagement();
      await saveRoles(app, ['User']);
      expect(confirm).toHaveBeenCalledWith(
        'Change the roles of alex@example.com? They leave the User role, so their coach will be unassigned; giving the role back does not bring the coach back.',
      );
      expect(await screen.findByText('Roles of alex@example.com changed.')).toBeInTheDocument();
    });

    it('says both when a coached client who is a coach leaves both roles', async () => {
      users = [{ ...ALEX, roles: ['admins', 'coaches', 'users'], coachId: COACH_ID }];
      const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
      const app = await openUserManagement();
      await saveRoles(app, ['Coach', 'User']);
      expect(confirm).toHaveBeenCalledWith(
        confirmRolesEndCoaching('alex@example.com', { coach: true, clients: true }),
      );
      expect(confirm.mock.calls[0]?.[0]).toBe(
        'Change the roles of alex@example.com? They leave the User and Coach roles, so their coach and all their clients will be unassigned; giving the roles back does not bring them back.',
      );
      expect(api.callsTo('PUT', `${USER_PATH}/roles`)).toHaveLength(0);
    });

    it('asks nothing when no coaching ends', async () => {
      // A client without a coach leaves User; someone gains Coach.
      const confirm = vi.spyOn(window, 'confirm');
      const app = await openUserManagement();
      await saveRoles(app, ['User', 'Coach']);
      expect(await screen.findByText('Roles of alex@example.com changed.')).toBeInTheDocument();
      expect(confirm).not.toHaveBeenCalled();
    });
  });

  it('cannot close Change roles while the change is saved, and then shows its refusal', async () => {
    const answer = deferred<Response>();
    api.set(`PUT ${USER_PATH}/roles`, () => answer.promise);
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Change roles alex@example.com' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Change roles' }));
    await app.user.click(dialog.getByRole('checkbox', { name: /^Coach/ }));
    await app.user.click(dialog.getByRole('button', { name: 'Save roles' }));
    await dialog.findByRole('button', { name: MESSAGES.saving });
    await expectHeldOpen(app.user, 'Change roles');

    answer.resolve(failure(409, ACCOUNT_MESSAGES.changedMeanwhile));
    expect(await dialog.findByRole('alert')).toHaveTextContent(ACCOUNT_MESSAGES.changedMeanwhile);
    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('takes a client an admin who is also their coach disables off My Clients at once', async () => {
    cognito.givenSession(sessionUser(['admin', 'coach']));
    users = [{ ...ALEX, roles: ['users'], coachId: sessionUser().userId }];
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set('GET /v1/coach/clients', () =>
      json({
        clients: users
          .filter((user) => user.coachId === sessionUser().userId)
          .map((user) => coachClient({ userId: user.userId, email: user.email, preferredName: 'Alex' })),
      }),
    );
    api.set(`POST ${USER_PATH}/disable`, () => {
      users = [{ ...ALEX, roles: ['users'], status: 'disabled' }];
      return json({ userId: ALEX.userId, status: 'disabled' });
    });
    const app = renderApp('/dashboard/clients');
    expect(await screen.findByRole('link', { name: /Alex/ })).toBeInTheDocument();

    await app.user.click(screen.getByRole('link', { name: 'User Management' }));
    await screen.findByRole('tablist', { name: 'Filter users' });
    await app.user.click(screen.getByRole('button', { name: 'Disable alex@example.com' }));
    await screen.findByText('alex@example.com disabled. Their coach was unassigned.');

    await app.user.click(screen.getByRole('link', { name: 'My Clients' }));
    expect(await screen.findByText(MESSAGES.noClients)).toBeInTheDocument();
  });

  it("shows a refused role change in its dialog, in the server's words", async () => {
    api.set(`PUT ${USER_PATH}/roles`, failure(409, ACCOUNT_MESSAGES.ownAdminRole));
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Change roles alex@example.com' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Change roles' }));
    await app.user.click(dialog.getByRole('checkbox', { name: /^Admin/ }));
    await app.user.click(dialog.getByRole('button', { name: 'Save roles' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('You cannot remove your own admin role.');
  });
});
