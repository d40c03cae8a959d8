import { screen } from '@testing-library/react';
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
