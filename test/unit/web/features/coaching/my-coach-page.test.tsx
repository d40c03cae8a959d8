import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { COACHING_MESSAGES } from '../../../../../shared/coaching';
import { MESSAGES } from '../../../../../shared/messages';
import * as cognito from '../../support/cognito-mock';
import { coachNote, completeProfile, sessionUser } from '../../support/factories';
import { failure, fakeApi, json } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const COACH = {
  userId: '22222222-2222-4222-8222-222222222222',
  email: 'morgan@example.com',
  preferredName: 'Morgan',
  familyName: 'Lee',
};
const when = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const section = (name: string) => within(screen.getByRole('region', { name }));

describe('My Coach', () => {
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    cognito.givenSession(sessionUser(['user']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      'GET /v1/users/me/coach': { coach: COACH, notes: [] },
    });
  });

  const open = async () => {
    const app = renderApp('/dashboard/coach');
    await screen.findByRole('heading', { level: 1, name: 'My Coach' });
    await screen.findByRole('region', { name: 'Your coach' });
    return app;
  };

  it("shows the coach's name and email", async () => {
    await open();
    expect(api.callsTo('GET', '/v1/users/me/coach')).toHaveLength(1);
    expect(section('Your coach').getByText('Morgan Lee')).toBeInTheDocument();
    expect(section('Your coach').getByRole('link', { name: 'morgan@example.com' })).toHaveAttribute(
      'href',
      'mailto:morgan@example.com',
    );
  });

  it('lists the notes newest first, with their author and date', async () => {
    // Stored without the author's name: named after the coach it came from.
    const unnamed = coachNote({
      text: 'Oldest',
      coachId: COACH.userId,
      createdAt: '2025-03-01T09:00:00.000Z',
    });
    delete unnamed.coachName;
    const newest = coachNote({
      text: 'Newest',
      coachId: COACH.userId,
      coachName: 'Morgan Lee',
      createdAt: '2025-03-05T09:00:00.000Z',
    });
    api.set('GET /v1/users/me/coach', { coach: COACH, notes: [unnamed, newest] });
    await open();
    const items = within(
      section('Notes from your coach').getByRole('list', { name: 'Notes, newest first' }),
    ).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      `Morgan Lee${when('2025-03-05T09:00:00.000Z')}Newest`,
      `Morgan Lee${when('2025-03-01T09:00:00.000Z')}Oldest`,
    ]);
  });

  it("says 'No notes yet.' when the coach has written none", async () => {
    await open();
    expect(section('Notes from your coach').getByText(COACHING_MESSAGES.noNotes)).toBeInTheDocument();
  });

  it("says 'No coach assigned yet.' without a coach", async () => {
    api.set('GET /v1/users/me/coach', { coach: null, notes: [] });
    await open();
    expect(screen.getByText('No coach assigned yet.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Notes from your coach' })).not.toBeInTheDocument();
  });

  it("keeps an earlier coach's notes readable after the coach is unassigned", async () => {
    api.set('GET /v1/users/me/coach', { coach: null, notes: [coachNote({ text: 'Keep going' })] });
    await open();
    expect(screen.getByText(COACHING_MESSAGES.noCoach)).toBeInTheDocument();
    expect(section('Notes from your coach').getByText('Keep going')).toBeInTheDocument();
  });

  it("shows 'Loading...' first", async () => {
    api.set('GET /v1/users/me/coach', () => new Promise<Response>(() => undefined));
    renderApp('/dashboard/coach');
    await screen.findByRole('heading', { level: 1, name: 'My Coach' });
    expect(screen.getByText(MESSAGES.loading)).toBeInTheDocument();
  });

  it('explains a failure to load, and tries again', async () => {
    let answer = failure(500, 'Internal server error');
    api.set('GET /v1/users/me/coach', () => answer.clone());
    const app = renderApp('/dashboard/coach');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load your coachInternal server error',
    );
    answer = json({ coach: COACH, notes: [] });
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Morgan Lee')).toBeInTheDocument();
  });
});
