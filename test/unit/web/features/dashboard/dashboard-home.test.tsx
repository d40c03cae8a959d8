import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as cognito from '../../support/cognito-mock';
import { completeProfile, newProfile, sessionUser } from '../../support/factories';
import { failure, fakeApi } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';
import { directoryRoutes } from '../../support/user-management';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const cardTitles = (group: string) =>
  within(screen.getByRole('region', { name: group }))
    .getAllByRole('link')
    .map((link) => link.querySelector('.tool-card__title')?.textContent);

describe('dashboard index', () => {
  beforeEach(() => {
    cognito.givenSession(sessionUser(['user']));
  });

  it('welcomes by preferred name', async () => {
    fakeApi({ 'GET /v1/users/me': completeProfile({ preferredName: 'Sam' }) });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Sam!' })).toBeInTheDocument();
    // The name stays out of the browser tab, whose title the browser's history keeps.
    await waitFor(() => expect(document.title).toBe('Dashboard · Metabolic Coaching'));
  });

  it('falls back to the email while there is no preferred name', async () => {
    fakeApi({ 'GET /v1/users/me': failure(500, 'down') });
    renderApp('/dashboard');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, casey@example.com!' }),
    ).toBeInTheDocument();
  });

  it("falls back to 'there' without a name or an email", async () => {
    cognito.givenSession(sessionUser(['user'], { email: '' }));
    fakeApi({ 'GET /v1/users/me': failure(403, 'Forbidden') });
    renderApp('/dashboard');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, there!' }),
    ).toBeInTheDocument();
  });

  it('shows only My Health cards to a user, with My Coach', async () => {
    fakeApi({ 'GET /v1/users/me': completeProfile() });
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome back, Casey!' });
    expect(screen.queryByRole('region', { name: 'Admin Tools' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Coach Tools' })).not.toBeInTheDocument();
    expect(cardTitles('My Health')).toEqual(['My Health', 'My Metrics', 'Profile', 'My Coach']);
  });

  it('adds Coach Tools for a coach', async () => {
    cognito.givenSession(sessionUser(['coach']));
    fakeApi({ 'GET /v1/users/me': completeProfile() });
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome back, Casey!' });
    expect(cardTitles('Coach Tools')).toEqual(['My Clients', 'Assessments']);
    expect(cardTitles('My Health')).toEqual(['My Health', 'My Metrics', 'Profile']);
    expect(screen.queryByRole('region', { name: 'Admin Tools' })).not.toBeInTheDocument();
  });

  it('adds Admin Tools for an admin, and the cards lead to their pages', async () => {
    cognito.givenSession(sessionUser(['admin']));
    fakeApi({
      'GET /v1/users/me': completeProfile(),
      ...directoryRoutes({ users: () => [], invitations: () => [] }),
    });
    const app = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome back, Casey!' });
    expect(cardTitles('Admin Tools')).toEqual(['User Management', 'System Settings', 'Audit Log']);
    await app.user.click(
      within(screen.getByRole('region', { name: 'Admin Tools' })).getAllByRole('link')[0]!,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'User Management' })).toBeInTheDocument();
  });

  it('does not open onboarding for a complete profile', async () => {
    fakeApi({ 'GET /v1/users/me': completeProfile() });
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome back, Casey!' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it.each([
    ['onboarding not marked complete', { metadata: { onboardingCompleted: false } }],
    ['no height', { heightCm: undefined }],
    ['no date of birth', { dateOfBirth: undefined }],
    ['no family name', { familyName: undefined }],
    ['no preferred name', { preferredName: undefined }],
  ])('opens onboarding when the profile has %s', async (_, overrides) => {
    fakeApi({ 'GET /v1/users/me': completeProfile(overrides) });
    renderApp('/dashboard');
    expect(await screen.findByRole('dialog', { name: 'Complete Your Profile' })).toBeInTheDocument();
  });
});

describe('onboarding prefill', () => {
  it('starts from the profile and focuses the first empty field', async () => {
    cognito.givenSession(sessionUser(['user']));
    fakeApi({ 'GET /v1/users/me': newProfile() });
    renderApp('/dashboard');
    const dialog = await screen.findByRole('dialog', { name: 'Complete Your Profile' });
    expect(within(dialog).getByLabelText('Email')).toHaveValue('casey@example.com');
    expect(within(dialog).getByLabelText('Preferred name')).toHaveFocus();
  });
});
