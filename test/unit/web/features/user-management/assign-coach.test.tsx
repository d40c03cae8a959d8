import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { COACHING_MESSAGES } from '../../../../../shared/coaching';
import { MESSAGES } from '../../../../../shared/messages';
import type { AdminUserListItem } from '../../../../../shared/schemas';
import * as cognito from '../../support/cognito-mock';
import { adminUser, coachClient, completeProfile, sessionUser } from '../../support/factories';
import { deferred, failure, fakeApi, json } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';
import { cell, directoryRoutes, openUserManagement } from '../../support/user-management';
import { expectHeldOpen } from '../../support/modal';
import { expectBusy } from '../../support/busy';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const CLIENT = adminUser({
  userId: '11111111-1111-4111-8111-111111111111',
  email: 'alex@example.com',
  preferredName: 'Alex',
  familyName: 'Rivera',
  roles: ['users'],
  createdAt: '2025-02-01T09:00:00.000Z',
});
const MORGAN = adminUser({
  userId: '22222222-2222-4222-8222-222222222222',
  email: 'morgan@example.com',
  preferredName: 'Morgan',
  familyName: 'Lee',
  roles: ['coaches'],
  createdAt: '2025-02-02T09:00:00.000Z',
});
const UNNAMED_COACH = adminUser({
  userId: '33333333-3333-4333-8333-333333333333',
  email: 'sam@example.com',
  roles: ['coaches'],
  createdAt: '2025-02-03T09:00:00.000Z',
});
delete UNNAMED_COACH.preferredName;
delete UNNAMED_COACH.familyName;
const ADMIN = adminUser({
  userId: '44444444-4444-4444-8444-444444444444',
  email: 'admin@example.com',
  preferredName: 'Ada',
  familyName: 'Admin',
  roles: ['admins'],
  createdAt: '2025-02-04T09:00:00.000Z',
});

const COACH_PATH = `/internal/v1/admin/users/${CLIENT.userId}/coach`;

describe('User Management: coaches', () => {
  let users: AdminUserListItem[];
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    users = [CLIENT, MORGAN, UNNAMED_COACH, ADMIN];
    cognito.givenSession(sessionUser(['admin']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      ...directoryRoutes({ users: () => users, invitations: () => [] }),
      [`PUT ${COACH_PATH}`]: (call) => {
        const { coachId } = call.body as { coachId: string };
        users = users.map((user) => (user.userId === CLIENT.userId ? { ...user, coachId } : user));
        return json({ userId: CLIENT.userId, coachId });
      },
      [`DELETE ${COACH_PATH}`]: () => {
        users = users.map((user) => (user.userId === CLIENT.userId ? { ...user, coachId: undefined } : user));
        return new Response(null, { status: 204 });
      },
    });
  });

  const openDialog = async () => {
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Assign coach for alex@example.com' }));
    return { app, dialog: within(screen.getByRole('dialog', { name: 'Assign coach' })) };
  };

  it("shows a client's coach by name, else by email, and offers 'Assign coach' on clients only", async () => {
    users = [{ ...CLIENT, coachId: MORGAN.userId }, MORGAN, UNNAMED_COACH, ADMIN];
    await openUserManagement();
    expect(cell('alex@example.com', 'Coach')).toBe('Morgan Lee');
    for (const email of ['morgan@example.com', 'sam@example.com', 'admin@example.com']) {
      expect(cell(email, 'Coach')).toBe('');
      expect(cell(email, 'Actions')).not.toContain('Assign coach');
    }
    expect(screen.getAllByRole('button', { name: /^Assign coach/ })).toHaveLength(1);
  });

  it('names a coach without a name by email', async () => {
    users = [{ ...CLIENT, coachId: UNNAMED_COACH.userId }, MORGAN, UNNAMED_COACH, ADMIN];
    await openUserManagement();
    expect(cell('alex@example.com', 'Coach')).toBe('sam@example.com');
  });

  it('lists the coaches by name and email, with focus on the first, and no Unassign without a coach', async () => {
    // A disabled coach is not offered.
    const ROBIN = {
      ...MORGAN,
      userId: '55555555-5555-4555-8555-555555555555',
      email: 'robin@example.com',
      preferredName: 'Robin',
      status: 'disabled' as const,
    };
    users = [CLIENT, MORGAN, UNNAMED_COACH, ADMIN, ROBIN];
    const { dialog } = await openDialog();
    expect(dialog.getByText('Choose the coach of Alex Rivera.')).toBeInTheDocument();
    const choices = within(dialog.getByRole('group', { name: 'Coach' })).getAllByRole('radio');
    expect(choices.map((radio) => radio.closest('label')?.textContent)).toEqual([
      'Morgan Lee morgan@example.com',
      'sam@example.com sam@example.com',
    ]);
    expect(choices[0]).toHaveFocus();
    expect(dialog.queryByRole('button', { name: 'Unassign' })).not.toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Assign' })).toBeDisabled();
  });

  it('assigns the chosen coach, refreshes the list and says so, giving focus back', async () => {
    const { app, dialog } = await openDialog();
    await app.user.click(dialog.getByRole('radio', { name: /^Morgan Lee/ }));
    await app.user.click(dialog.getByRole('button', { name: 'Assign' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('PUT', COACH_PATH).map((call) => call.body)).toEqual([{ coachId: MORGAN.userId }]);
    expect(cell('alex@example.com', 'Coach')).toBe('Morgan Lee');
    expect(screen.getByText('Morgan Lee is now the coach of Alex Rivera.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Assign coach for alex@example.com' })).toHaveFocus();
  });

  it('reads no invitation page again for an assignment, which changes none', async () => {
    const { app, dialog } = await openDialog();
    const invitationReads = api.callsTo('GET', '/internal/v1/admin/invitations').length;
    await app.user.click(dialog.getByRole('radio', { name: /^Morgan Lee/ }));
    await app.user.click(dialog.getByRole('button', { name: 'Assign' }));
    await screen.findByText('Morgan Lee is now the coach of Alex Rivera.');
    expect(api.callsTo('GET', '/internal/v1/admin/invitations')).toHaveLength(invitationReads);
  });

  it("shows 'Assigning...' while the change is saved", async () => {
    const answer = deferred<Response>();
    api.set(`PUT ${COACH_PATH}`, () => answer.promise);
    const { app, dialog } = await openDialog();
    await app.user.click(dialog.getByRole('radio', { name: /^Morgan Lee/ }));
    await app.user.click(dialog.getByRole('button', { name: 'Assign' }));
    expectBusy(await dialog.findByRole('button', { name: 'Assigning...' }));
    answer.resolve(json({ userId: CLIENT.userId, coachId: MORGAN.userId }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('starts on the current coach and unassigns them', async () => {
    users = [{ ...CLIENT, coachId: MORGAN.userId }, MORGAN, UNNAMED_COACH, ADMIN];
    const { app, dialog } = await openDialog();
    expect(dialog.getByRole('radio', { name: /^Morgan Lee/ })).toBeChecked();
    expect(dialog.getByRole('radio', { name: /^Morgan Lee/ })).toHaveFocus();
    expect(dialog.getByRole('button', { name: 'Assign' })).toBeDisabled();

    await app.user.click(dialog.getByRole('button', { name: 'Unassign' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', COACH_PATH)).toHaveLength(1);
    expect(cell('alex@example.com', 'Coach')).toBe('—No coach');
    expect(screen.getByText('Alex Rivera has no coach now.')).toBeInTheDocument();
  });

  it("keeps the dialog open with the server's message when the change is refused", async () => {
    api.set(`PUT ${COACH_PATH}`, failure(400, COACHING_MESSAGES.notACoach));
    const { app, dialog } = await openDialog();
    await app.user.click(dialog.getByRole('radio', { name: /^sam@example.com/ }));
    await app.user.click(dialog.getByRole('button', { name: 'Assign' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Coach must be a member of coaches');
    expect(screen.getByRole('dialog', { name: 'Assign coach' })).toBeInTheDocument();
  });

  it('falls back to its own words when a refusal has no message', async () => {
    api.set(`DELETE ${COACH_PATH}`, () => Promise.reject(new Error('')));
    users = [{ ...CLIENT, coachId: MORGAN.userId }, MORGAN, ADMIN];
    const { app, dialog } = await openDialog();
    await app.user.click(dialog.getByRole('button', { name: 'Unassign' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'Could not change the coach. Please try again.',
    );
  });

  it('closes on Escape without a call, giving focus back to the row', async () => {
    const { app } = await openDialog();
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Assign coach for alex@example.com' })).toHaveFocus();
    expect(api.calls.filter((call) => call.method !== 'GET')).toHaveLength(0);
  });

  it('says when there is no coach to choose', async () => {
    users = [CLIENT, ADMIN];
    const { dialog } = await openDialog();
    expect(dialog.getByText('No coaches yet. Invite someone with the Coach role first.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Assign' })).toBeDisabled();
  });

  it("offers no 'Assign coach' for a disabled client, only Unassign for a coach left from before", async () => {
    const BLAKE = adminUser({
      userId: '66666666-6666-4666-8666-666666666666',
      email: 'blake@example.com',
      roles: ['users'],
      status: 'disabled',
      createdAt: '2025-02-05T09:00:00.000Z',
    });
    users = [{ ...CLIENT, status: 'disabled', coachId: MORGAN.userId }, MORGAN, BLAKE, ADMIN];
    const app = await openUserManagement();
    expect(cell('blake@example.com', 'Actions')).not.toContain('coach');
    expect(screen.queryByRole('button', { name: /^Assign coach/ })).not.toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Unassign coach for alex@example.com' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Unassign coach' }));
    expect(
      dialog.getByText('Alex Rivera is disabled: enable them before assigning a coach.'),
    ).toBeInTheDocument();
    expect(dialog.queryByRole('radio')).not.toBeInTheDocument();
    expect(dialog.queryByRole('button', { name: 'Assign' })).not.toBeInTheDocument();
    await app.user.click(dialog.getByRole('button', { name: 'Unassign' }));
    expect(await screen.findByText('Alex Rivera has no coach now.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', COACH_PATH)).toHaveLength(1);
    expect(api.callsTo('PUT', COACH_PATH)).toHaveLength(0);
    await waitFor(() => expect(cell('alex@example.com', 'Actions')).not.toContain('coach'));
    // The button that opened the dialog has gone with the coach: focus stays in the table.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Users' })).toHaveFocus();
  });

  it('cannot be closed while the change is saved, and then shows its refusal', async () => {
    const answer = deferred<Response>();
    api.set(`PUT ${COACH_PATH}`, () => answer.promise);
    const { app, dialog } = await openDialog();
    await app.user.click(dialog.getByRole('radio', { name: /^Morgan Lee/ }));
    await app.user.click(dialog.getByRole('button', { name: 'Assign' }));
    await dialog.findByRole('button', { name: 'Assigning...' });
    await expectHeldOpen(app.user, 'Assign coach');

    answer.resolve(failure(400, COACHING_MESSAGES.clientDisabled));
    expect(await dialog.findByRole('alert')).toHaveTextContent(COACHING_MESSAGES.clientDisabled);
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Assign coach for alex@example.com' })).toHaveFocus();
  });

  /** From another page: User Management, then Morgan Lee made Alex Rivera's coach. */
  const assignMorganFromUserManagement = async (app: ReturnType<typeof renderApp>) => {
    await app.user.click(screen.getByRole('link', { name: 'User Management' }));
    await screen.findByRole('tablist', { name: 'Filter users' });
    await app.user.click(screen.getByRole('button', { name: 'Assign coach for alex@example.com' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Assign coach' }));
    await app.user.click(dialog.getByRole('radio', { name: /^Morgan Lee/ }));
    await app.user.click(dialog.getByRole('button', { name: 'Assign' }));
    await screen.findByText('Morgan Lee is now the coach of Alex Rivera.');
  };

  it('shows an admin who is also a coach the client just assigned to them in My Clients', async () => {
    cognito.givenSession(sessionUser(['admin', 'coach'], { userId: MORGAN.userId, email: MORGAN.email }));
    api.set('GET /v1/coach/clients', () =>
      json({
        clients: users
          .filter((user) => user.coachId === MORGAN.userId)
          .map((user) => coachClient({ userId: user.userId, email: user.email, preferredName: 'Alex' })),
      }),
    );
    const app = renderApp('/dashboard/clients');
    expect(await screen.findByText(MESSAGES.noClients)).toBeInTheDocument();

    await assignMorganFromUserManagement(app);

    // Within the list's 60 s of freshness, My Clients is read again: the assignment changed it.
    await app.user.click(screen.getByRole('link', { name: 'My Clients' }));
    expect(await screen.findByRole('link', { name: /Alex/ })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.noClients)).not.toBeInTheDocument();
  });

  it('shows an admin who is also a client the coach just assigned to them in My Coach', async () => {
    const self = { ...CLIENT, roles: ['users', 'admins'] };
    users = [self, MORGAN, UNNAMED_COACH, ADMIN];
    cognito.givenSession(sessionUser(['admin', 'user'], { userId: CLIENT.userId, email: CLIENT.email }));
    api.set('GET /v1/users/me/coach', () => {
      const coachId = users.find((user) => user.userId === CLIENT.userId)?.coachId;
      const coach = users.find((user) => user.userId === coachId);
      return json({ coach: coach ? { userId: coach.userId, email: coach.email } : null, notes: [] });
    });
    const app = renderApp('/dashboard/coach');
    expect(await screen.findByText(COACHING_MESSAGES.noCoach)).toBeInTheDocument();

    await assignMorganFromUserManagement(app);

    // Within My Coach's 60 s of freshness, it is read again: the assignment changed it.
    await app.user.click(screen.getByRole('link', { name: 'My Coach' }));
    expect(await screen.findByRole('link', { name: MORGAN.email })).toBeInTheDocument();
    expect(screen.queryByText(COACHING_MESSAGES.noCoach)).not.toBeInTheDocument();
  });

  it('never offers a client as their own coach', async () => {
    const both = { ...CLIENT, roles: ['users', 'coaches'] };
    users = [both, MORGAN];
    const { dialog } = await openDialog();
    expect(dialog.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual([MORGAN.userId]);
  });
});
