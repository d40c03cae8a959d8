import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../../../shared/messages';
import * as cognito from '../../support/cognito-mock';
import { coachClient, completeProfile, sessionUser } from '../../support/factories';
import { failure, fakeApi, json } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const ALEX = coachClient({
  userId: '11111111-1111-4111-8111-111111111111',
  email: 'alex@example.com',
  preferredName: 'Alex',
  familyName: 'Rivera',
  lastEntryAt: '2025-03-01T07:30:00.000Z',
  outOfTarget7d: 3,
  pendingReview: true,
});
const BLAKE = coachClient({
  userId: '22222222-2222-4222-8222-222222222222',
  email: 'blake@example.com',
  preferredName: 'Blake',
  familyName: 'Young',
  outOfTarget7d: 0,
  pendingReview: false,
});
delete BLAKE.lastEntryAt;
const UNNAMED = coachClient({
  userId: '33333333-3333-4333-8333-333333333333',
  email: 'zoe@example.com',
  outOfTarget7d: 1,
  pendingReview: true,
});
delete UNNAMED.preferredName;
delete UNNAMED.familyName;

const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

const rows = () =>
  within(screen.getByRole('table', { name: 'Your clients, by name' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => Array.from(row.children).map((cell) => cell.textContent));

describe('My Clients', () => {
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    cognito.givenSession(sessionUser(['coach']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      'GET /v1/coach/clients': { clients: [BLAKE, UNNAMED, ALEX] },
    });
  });

  const open = async () => {
    const app = renderApp('/dashboard/clients');
    await screen.findByRole('heading', { level: 1, name: 'My Clients' });
    await waitFor(() => expect(screen.queryByText(MESSAGES.loading)).not.toBeInTheDocument());
    return app;
  };

  it('counts the assigned clients and those pending a review; sessions and messages stay 0', async () => {
    await open();
    expect(api.callsTo('GET', '/v1/coach/clients')).toHaveLength(1);
    expect(figure('Active Clients')).toBe('3');
    expect(figure('Sessions This Week')).toBe('0');
    expect(figure('Pending Reviews')).toBe('2');
    expect(figure('Unread Messages')).toBe('0');
    expect(screen.getByText(MESSAGES.noSessions)).toBeInTheDocument();
  });

  it('lists the clients by name with email, last entry date and readings outside target in 7 days', async () => {
    await open();
    const table = within(screen.getByRole('table', { name: 'Your clients, by name' }));
    expect(table.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Name',
      'Email',
      'Last entry',
      'Outside target (7 days)',
    ]);
    const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date('2025-03-01T07:30:00.000Z'),
    );
    expect(rows()).toEqual([
      ['Alex RiveraPending review', 'alex@example.com', date, '3'],
      ['Blake Young', 'blake@example.com', 'No entries yet', '0'],
      ['zoe@example.comPending review', 'zoe@example.com', date, '1'],
    ]);
    // The table scrolls inside a named, focusable region on a narrow screen.
    expect(screen.getByRole('region', { name: 'Clients' })).toHaveAttribute('tabindex', '0');
  });

  it("opens a client's page from their name", async () => {
    api.set(`GET /v1/coach/clients/${ALEX.userId}/notes`, { notes: [] });
    api.set(`GET /v1/coach/clients/${ALEX.userId}/measurements`, { items: [] });
    api.set(`GET /v1/coach/clients/${ALEX.userId}/logs`, { items: [] });
    const app = await open();
    const link = screen.getByRole('link', { name: 'Alex Rivera' });
    expect(link).toHaveAttribute('href', `/dashboard/clients/${ALEX.userId}`);
    await app.user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Alex Rivera' })).toBeInTheDocument();
    expect(app.location().pathname).toBe(`/dashboard/clients/${ALEX.userId}`);
  });

  it("says 'No clients assigned yet.' with every counter at 0 when there are none", async () => {
    api.set('GET /v1/coach/clients', { clients: [] });
    await open();
    expect(screen.getByText(MESSAGES.noClients)).toBeInTheDocument();
    expect(screen.getByText('No clients assigned yet.')).toBeInTheDocument();
    for (const label of ['Active Clients', 'Sessions This Week', 'Pending Reviews', 'Unread Messages']) {
      expect(figure(label)).toBe('0');
    }
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("shows 'Loading...' while the list loads", async () => {
    api.set('GET /v1/coach/clients', () => new Promise<Response>(() => undefined));
    renderApp('/dashboard/clients');
    await screen.findByRole('heading', { level: 1, name: 'My Clients' });
    expect(screen.getByText(MESSAGES.loading)).toBeInTheDocument();
  });

  it('explains a list that failed to load, and tries again', async () => {
    let answer = failure(500, 'Internal server error');
    api.set('GET /v1/coach/clients', () => answer.clone());
    const app = await open();
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load your clientsInternal server error');
    answer = json({ clients: [ALEX] });
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Alex Rivera' })).toBeInTheDocument();
  });
});
