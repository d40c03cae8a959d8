import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../../../shared/messages';
import * as cognito from '../../support/cognito-mock';
import { completeProfile, sessionUser } from '../../support/factories';
import { fakeApi } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const openAs = async (roles: Parameters<typeof sessionUser>[0], path: string, title: string) => {
  cognito.givenSession(sessionUser(roles));
  const app = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: title });
  return app;
};

const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('pages without data yet', () => {
  beforeEach(() => {
    fakeApi({ 'GET /v1/users/me': completeProfile() });
  });

  it('My Clients shows four zero counters and both empty texts', async () => {
    await openAs(['coach'], '/dashboard/clients', 'My Clients');
    for (const label of ['Active Clients', 'Sessions This Week', 'Pending Reviews', 'Unread Messages']) {
      expect(figure(label)).toBe('0');
    }
    expect(screen.getByText(MESSAGES.noClients)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.noSessions)).toBeInTheDocument();
  });

  it('Health Overview has the three log buttons (not wired yet) and four tiles with units', async () => {
    const app = await openAs(['user'], '/dashboard/health', 'Health Overview');
    for (const name of ['Log Meal', 'Log Activity', 'Log Sleep']) {
      const button = screen.getByRole('button', { name });
      await app.user.click(button);
      expect(button).toHaveAccessibleDescription('Logging is coming soon.');
    }
    expect(app.location().pathname).toBe('/dashboard/health');
    const tiles = screen.getAllByRole('listitem').filter((item) => item.classList.contains('metric-tile'));
    expect(tiles.map((tile) => within(tile).getByRole('heading').textContent)).toEqual([
      'Blood Glucose',
      'Weight',
      'Waist Circumference',
      'Blood Pressure',
    ]);
    expect(tiles.map((tile) => tile.querySelector('.metric-tile__unit')?.textContent)).toEqual([
      'mg/dL',
      'lbs',
      'in',
      'mmHg',
    ]);
  });

  it('Metrics & Analytics shows the targets and the empty states', async () => {
    await openAs(['user'], '/dashboard/metrics', 'Metrics & Analytics');
    expect(figure('Fasting Glucose')).toBe('70-100 mg/dL');
    expect(figure('HbA1c')).toBe('Under 5.7%');
    expect(figure('Triglycerides')).toBe('Under 150 mg/dL');
    expect(screen.getByRole('heading', { name: 'Recent Entries' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Progress Charts' })).toBeInTheDocument();
  });

  it.each([
    [['admin'] as const, '/dashboard/settings', 'System Settings'],
    [['coach'] as const, '/dashboard/assessments', 'Assessments'],
    [['user'] as const, '/dashboard/coach', 'My Coach'],
  ])('%j sees the %s placeholder', async (roles, path, title) => {
    await openAs([...roles], path, title);
    expect(screen.getByText('Coming soon')).toBeInTheDocument();
    expect(document.title).toBe(`${title} · Metabolic Coaching`);
  });
});
