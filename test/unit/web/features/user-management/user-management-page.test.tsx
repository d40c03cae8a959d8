import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API_MESSAGES, confirmDeleteInvitation, MESSAGES } from '../../../../../shared/messages';
import type { AdminUserListItem, Invitation } from '../../../../../shared/schemas';
import * as cognito from '../../support/cognito-mock';
import { adminUser, completeProfile, invitation, sessionUser } from '../../support/factories';
import { deferred, failure, fakeApi, json } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';
import { directoryRoutes, openUserManagement } from '../../support/user-management';
import { expectHeldOpen } from '../../support/modal';
import { expectBusy } from '../../support/busy';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const ACTIVE = adminUser({
  userId: '11111111-1111-4111-8111-111111111111',
  email: 'alex@example.com',
  createdAt: '2025-02-01T09:00:00.000Z',
});
const COACH = adminUser({
  userId: '22222222-2222-4222-8222-222222222222',
  email: 'coach@example.com',
  preferredName: 'Morgan',
  familyName: 'Lee',
  roles: ['coaches'],
  createdAt: '2025-02-10T09:00:00.000Z',
});
const PENDING = invitation({
  email: 'new@example.com',
  roles: ['coaches'],
  createdAt: '2025-03-01T09:00:00.000Z',
});
const USED = invitation({
  email: 'ALEX@example.com',
  status: 'activated',
  userId: ACTIVE.userId,
  activationCode: 'USED1234USED5678',
});

const rows = () =>
  within(screen.getByRole('tabpanel'))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

const stat = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('User Management', () => {
  let api: ReturnType<typeof fakeApi>;
  let users: AdminUserListItem[];
  let invitations: Invitation[];

  beforeEach(() => {
    users = [ACTIVE, COACH];
    invitations = [PENDING, USED];
    cognito.givenSession(sessionUser(['admin']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      ...directoryRoutes({ users: () => users, invitations: () => invitations }),
    });
  });

  it('shows the stat cards', async () => {
    await openUserManagement();
    expect(stat('Total Users')).toBe('3');
    expect(stat('Pending Invitations')).toBe('1');
    expect(stat('Active Users')).toBe('2');
  });

  it('shows the merged list, newest first, with every column', async () => {
    await openUserManagement();
    expect(
      within(screen.getByRole('tabpanel'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Email', 'Name', 'Status', 'Roles', 'Coach', 'Created', 'Actions']);
    expect(rows()).toEqual([
      [
        'new@example.com',
        'Not set',
        'Pending',
        'Coach',
        '',
        new Date(PENDING.createdAt).toLocaleDateString(),
        'ResendDelete',
      ],
      [
        'coach@example.com',
        'Morgan Lee',
        'Activated',
        'Coach',
        '',
        new Date(COACH.createdAt).toLocaleDateString(),
        'Change rolesReset accessDisableDelete',
      ],
      // The activated invitation adds no row; the person shows under their own email.
      // Only a client (a member of users) has a coach, or '—' (read as 'No coach') without one.
      [
        'alex@example.com',
        'Alex Rivera',
        'Activated',
        'User',
        '—No coach',
        new Date(ACTIVE.createdAt).toLocaleDateString(),
        'Assign coachChange rolesReset accessDisableDelete',
      ],
    ]);
  });

  it('filters by tab, with counts in the tab names', async () => {
    const app = await openUserManagement();
    expect(screen.getByRole('tab', { name: 'All Users (3)' })).toHaveAttribute('aria-selected', 'true');
    await app.user.click(screen.getByRole('tab', { name: 'Pending Invitations (1)' }));
    expect(rows().map((row) => row[0])).toEqual(['new@example.com']);
    await app.user.click(screen.getByRole('tab', { name: 'Activated (2)' }));
    expect(rows().map((row) => row[0])).toEqual(['coach@example.com', 'alex@example.com']);
  });

  it('moves between tabs with the arrow keys', async () => {
    const app = await openUserManagement();
    screen.getByRole('tab', { name: 'All Users (3)' }).focus();
    await app.user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Pending Invitations (1)' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Pending Invitations (1)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await app.user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Activated (2)' })).toHaveFocus();
  });

  it.each([
    ['All Users (0)', MESSAGES.noUsers],
    ['Pending Invitations (0)', MESSAGES.noPendingInvitations],
    ['Activated (0)', MESSAGES.noActivatedUsers],
  ])('shows the empty message on %s', async (tab, message) => {
    invitations = [];
    users = [];
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('tab', { name: tab }));
    expect(screen.getByText(message)).toBeInTheDocument();
  });

  it('deletes a pending invitation after confirming, then refreshes the list', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set('DELETE /internal/v1/admin/invitations/new%40example.com', () => {
      invitations = [USED];
      return new Response(null, { status: 204 });
    });
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Delete invitation for new@example.com' }));

    expect(confirm).toHaveBeenCalledWith(confirmDeleteInvitation('new@example.com'));
    expect(confirm.mock.calls[0]?.[0]).toBe(
      'Are you sure you want to delete the invitation for new@example.com?',
    );
    await waitFor(() => expect(screen.queryByText('new@example.com')).not.toBeInTheDocument());
    expect(stat('Pending Invitations')).toBe('0');
    expect(screen.getAllByRole('status').map((region) => region.textContent)).toContain(
      'Invitation for new@example.com deleted.',
    );
  });

  it('says an invitation is deleted when the retry of a delete whose answer was lost finds it gone (404)', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const path = '/internal/v1/admin/invitations/new%40example.com';
    // The first try deletes it, but its answer is lost (503); SPEC section 9's retry finds nothing.
    api.set(`DELETE ${path}`, () => {
      const first = invitations.length > 1;
      invitations = [USED];
      return first ? failure(503, 'Service Unavailable') : failure(404, 'Invitation not found');
    });
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Delete invitation for new@example.com' }));
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((region) => region.textContent)).toContain(
        'Invitation for new@example.com deleted.',
      ),
    );
    expect(api.callsTo('DELETE', path)).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps the invitation when the confirmation is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Delete invitation for new@example.com' }));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    expect(screen.getByRole('cell', { name: 'new@example.com' })).toBeInTheDocument();
  });

  it('shows a dismissible banner when deleting fails', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set(
      'DELETE /internal/v1/admin/invitations/new%40example.com',
      failure(409, 'Only pending invitations can be deleted'),
    );
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Delete invitation for new@example.com' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only pending invitations can be deleted');
    await app.user.click(screen.getByRole('button', { name: 'Dismiss error' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('falls back to the SPEC text when a delete failure has no message', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    api.set('DELETE /internal/v1/admin/invitations/new%40example.com', () => Promise.reject(new Error('')));
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('button', { name: 'Delete invitation for new@example.com' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.deleteInvitationFallback);
  });

  it('explains a list that failed to load', async () => {
    api.set('GET /internal/v1/admin/users', failure(403, 'Forbidden'));
    renderApp('/dashboard/users');
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('Invite modal', () => {
  let api: ReturnType<typeof fakeApi>;
  let invitations: Invitation[] = [];

  beforeEach(() => {
    invitations = [];
    cognito.givenSession(sessionUser(['admin']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      ...directoryRoutes({ users: () => [], invitations: () => invitations }),
      'POST /internal/v1/admin/invitations': (call) => {
        const created = invitation({
          ...(call.body as { email: string; roles: ('users' | 'coaches' | 'admins')[] }),
        });
        invitations = [created];
        return json(created, 201);
      },
    });
  });

  const openModal = async (options?: Parameters<typeof renderApp>[1]) => {
    const app = renderApp('/dashboard/users', options);
    await app.user.click(await screen.findByRole('button', { name: '+ Invite User' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Invite User' }));
    return { app, dialog };
  };

  it('starts with the email focused, User chosen and the submit disabled', async () => {
    const { dialog } = await openModal();
    expect(dialog.getByLabelText('Email address')).toHaveFocus();
    expect(dialog.getByLabelText('Email address')).toHaveAttribute('type', 'email');
    expect(dialog.getByRole('radio', { name: /^User/ })).toBeChecked();
    expect(dialog.getByRole('button', { name: 'Create Invitation' })).toBeDisabled();
  });

  it('closes on Escape and on Cancel, giving focus back to the invite button', async () => {
    const { app } = await openModal();
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '+ Invite User' })).toHaveFocus();
    await app.user.click(screen.getByRole('button', { name: '+ Invite User' }));
    await app.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it.each([
    ['User', ['users']],
    ['Coach', ['coaches']],
    ['Admin', ['admins']],
  ])('invites with the %s role', async (label, roles) => {
    const { app, dialog } = await openModal();
    await app.user.type(dialog.getByLabelText('Email address'), 'new@example.com');
    await app.user.click(dialog.getByRole('radio', { name: new RegExp(`^${label}`) }));
    await app.user.click(dialog.getByRole('button', { name: 'Create Invitation' }));
    expect(await dialog.findByText('ABCD-2345-EFGH-6789')).toBeInTheDocument();
    expect(api.callsTo('POST', '/internal/v1/admin/invitations')[0]?.body).toEqual({
      email: 'new@example.com',
      roles,
    });
  });

  it('shows the code, the link and the instructions, and refreshes the list', async () => {
    const { app, dialog } = await openModal();
    await app.user.type(dialog.getByLabelText('Email address'), 'new@example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Create Invitation' }));

    expect(await dialog.findByText('Invitation created for new@example.com.')).toBeInTheDocument();
    expect(
      dialog.getByText(`${window.location.origin}/activate?code=ABCD-2345-EFGH-6789`),
    ).toBeInTheDocument();
    expect(dialog.getByText(/Visit the activation page/)).toBeInTheDocument();
    expect(dialog.getByText(/Enter their email address and the activation code/)).toBeInTheDocument();
    expect(dialog.getByText(/Create a passkey/)).toBeInTheDocument();
    await app.user.click(dialog.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('cell', { name: 'new@example.com' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Pending Invitations (1)' })).toBeInTheDocument();
  });

  /** An invitation for new@example.com under way: its answer is `answer`'s to give. */
  const creating = async () => {
    const answer = deferred<Response>();
    api.set('POST /internal/v1/admin/invitations', () => answer.promise);
    const { app, dialog } = await openModal();
    await app.user.type(dialog.getByLabelText('Email address'), 'new@example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Create Invitation' }));
    await dialog.findByRole('button', { name: MESSAGES.creating });
    return { app, dialog, answer };
  };

  it('shows Creating... while the invitation is created', async () => {
    const { dialog, answer } = await creating();
    expectBusy(dialog.getByRole('button', { name: MESSAGES.creating }));
    answer.resolve(json(invitation({ email: 'new@example.com' }), 201));
    expect(await dialog.findByText('ABCD-2345-EFGH-6789')).toBeInTheDocument();
  });

  it('cannot be closed while creating, so the code is shown: Cancel and × wait, Escape and the backdrop do nothing', async () => {
    const { app, dialog, answer } = await creating();

    await expectHeldOpen(app.user, 'Invite User');

    answer.resolve(json(invitation({ email: 'new@example.com' }), 201));
    expect(await dialog.findByText('Invitation created for new@example.com.')).toBeInTheDocument();
    expect(dialog.getByText('ABCD-2345-EFGH-6789')).toBeInTheDocument();
    // Settled: it closes again, and focus goes back to the invite button.
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '+ Invite User' })).toHaveFocus();
  });

  it('cannot be closed while creating, so a refusal is shown, after which Cancel works again', async () => {
    const { app, dialog, answer } = await creating();
    await app.user.keyboard('{Escape}');
    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('dialog', { name: 'Invite User' })).toBeInTheDocument();

    answer.resolve(failure(409, API_MESSAGES.invitationExists));
    expect(await dialog.findByRole('alert')).toHaveTextContent(API_MESSAGES.invitationExists);
    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows the server's reason when creating fails", async () => {
    api.set(
      'POST /internal/v1/admin/invitations',
      failure(409, 'An invitation for this email is already pending'),
    );
    const { app, dialog } = await openModal();
    await app.user.type(dialog.getByLabelText('Email address'), 'new@example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Create Invitation' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'An invitation for this email is already pending',
    );
  });

  it('lists the invitation another admin made meanwhile when creating answers 409', async () => {
    api.set('POST /internal/v1/admin/invitations', () => {
      invitations = [invitation({ email: 'new@example.com', roles: ['users'] })];
      return failure(409, API_MESSAGES.invitationExists);
    });
    const { app, dialog } = await openModal();
    await app.user.type(dialog.getByLabelText('Email address'), 'new@example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Create Invitation' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(API_MESSAGES.invitationExists);
    await app.user.click(dialog.getByRole('button', { name: 'Cancel' }));
    // Read again after the refusal: the list and its counts show what the server holds.
    expect(await screen.findByRole('cell', { name: 'new@example.com' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Pending Invitations (1)' })).toBeInTheDocument();
  });

  it('falls back to the SPEC text when a create failure has no message', async () => {
    api.set('POST /internal/v1/admin/invitations', () => Promise.reject(new Error('')));
    const { app, dialog } = await openModal();
    await app.user.type(dialog.getByLabelText('Email address'), 'new@example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Create Invitation' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(MESSAGES.createInvitationFallback);
  });

  it('copies the code and the link, each confirmation clearing after 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { app, dialog } = await openModal({
      userEvent: { advanceTimers: vi.advanceTimersByTime.bind(vi) },
    });
    await app.user.type(dialog.getByLabelText('Email address'), 'new@example.com');
    await app.user.click(dialog.getByRole('button', { name: 'Create Invitation' }));

    await app.user.click(await dialog.findByRole('button', { name: 'Copy Code' }));
    expect(await dialog.findByText(MESSAGES.codeCopied)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('ABCD-2345-EFGH-6789');
    act(() => {
      vi.advanceTimersByTime(2_900);
    });
    expect(dialog.getByText(MESSAGES.codeCopied)).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(dialog.queryByText(MESSAGES.codeCopied)).not.toBeInTheDocument();

    await app.user.click(dialog.getByRole('button', { name: 'Copy Link' }));
    expect(await dialog.findByText(MESSAGES.linkCopied)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(
      `${window.location.origin}/activate?code=ABCD-2345-EFGH-6789`,
    );
    act(() => {
      vi.advanceTimersByTime(3_000);
    });
    expect(dialog.queryByText(MESSAGES.linkCopied)).not.toBeInTheDocument();
  });
});
