import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
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

describe('pages without data yet', () => {
  beforeEach(() => {
    fakeApi({ 'GET /v1/users/me': completeProfile() });
  });

  it.each([
    [['admin'] as const, '/dashboard/settings', 'System Settings'],
    [['coach'] as const, '/dashboard/assessments', 'Assessments'],
  ])('%j sees the %s placeholder', async (roles, path, title) => {
    await openAs([...roles], path, title);
    expect(screen.getByText('Coming soon')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} · Metabolic Coaching`));
  });
});
