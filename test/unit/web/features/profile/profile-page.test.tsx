import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../../../shared/messages';
import { reloadPage } from '../../../../../web/src/lib/browser';
import * as cognito from '../../support/cognito-mock';
import { adminUser, auditEvent, completeProfile, sessionUser, USER_ID } from '../../support/factories';
import { deferred, failure, fakeApi, json } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';
import { directoryRoutes } from '../../support/user-management';
import { expectBusy } from '../../support/busy';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));
// jsdom cannot reload; the page only has to ask for it.
vi.mock('../../../../../web/src/lib/browser', () => ({ reloadPage: vi.fn() }));
// A backoff of a minute: no test here may wait on it, as the test client retries at once.
vi.mock('../../../../../web/src/lib/retry-delay', () => ({ retryDelay: () => 60_000 }));

const section = (name: string) => within(screen.getByRole('region', { name }));

describe('Profile page', () => {
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    cognito.givenSession(sessionUser(['coach', 'user']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      'PUT /v1/users/me': (call) => json(completeProfile(call.body as object)),
      'GET /v1/users/me/activity': { events: [] },
      'GET /v1/users/me/passkeys': { passkeys: [] },
    });
  });

  const open = async () => {
    const app = renderApp('/dashboard/profile');
    await screen.findByRole('region', { name: 'Personal Information' });
    return app;
  };

  it('shows Loading... first', async () => {
    api.set('GET /v1/users/me', () => new Promise(() => undefined));
    renderApp('/dashboard/profile');
    // Once the page asked for the profile: the route's fallback also says 'Loading...' before it.
    await waitFor(() => expect(api.callsTo('GET', '/v1/users/me')).toHaveLength(1));
    expect(screen.getByText(MESSAGES.loading)).toBeInTheDocument();
  });

  it('shows the four sections in view mode', async () => {
    await open();
    expect(section('Personal Information').getByText('Casey')).toBeInTheDocument();
    expect(section('Personal Information').getByText('Jordan')).toBeInTheDocument();
    expect(section('Demographics').getByText('Female')).toBeInTheDocument();
    expect(section('Demographics').getByText('175 cm')).toBeInTheDocument();
    expect(section('Demographics').getByText('April 15, 1990')).toBeInTheDocument();
    expect(section('Preferences').getByText('Metric (cm, kg)')).toBeInTheDocument();
    expect(section('Account Information').getByText('casey@example.com')).toBeInTheDocument();
    expect(section('Account Information').getByLabelText('User ID')).toHaveValue(USER_ID);
    expect(section('Account Information').getByLabelText('User ID')).toHaveAttribute('readonly');
    expect(
      within(section('Account Information').getByRole('list', { name: 'Roles' }))
        .getAllByRole('listitem')
        .map((badge) => badge.textContent),
    ).toEqual(['Coach', 'User']);
    expect(screen.getByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
  });

  it('shows an imperial height in feet and inches', async () => {
    api.set('GET /v1/users/me', completeProfile({ measurementSystem: 'imperial', heightCm: 175.3 }));
    await open();
    expect(section('Demographics').getByText('5 ft 9 in')).toBeInTheDocument();
  });

  it('says Not set for empty fields', async () => {
    api.set('GET /v1/users/me', completeProfile({ familyName: undefined }));
    await open();
    expect(section('Personal Information').getAllByText('Not set').length).toBeGreaterThan(0);
  });

  it('edits and cancels back to the loaded values', async () => {
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    const name = screen.getByLabelText('Preferred name');
    await app.user.clear(name);
    await app.user.type(name, 'Changed');
    await app.user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(section('Personal Information').getByText('Casey')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(screen.getByLabelText('Preferred name')).toHaveValue('Casey');
    expect(api.callsTo('PUT', '/v1/users/me')).toHaveLength(0);
  });

  it("moves focus with the mode: to Preferred name on 'Edit Profile', back to 'Edit Profile' on Cancel", async () => {
    const app = await open();
    // Each pressed button leaves with its mode; focus must not fall back to the page.
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await waitFor(() => expect(screen.getByLabelText('Preferred name')).toHaveFocus());
    await app.user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Profile' })).toHaveFocus());
  });

  it("says 'Profile saved' after a save, with focus back on 'Edit Profile', and clears it when editing again", async () => {
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await app.user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Profile' })).toHaveFocus());
    const status = screen.getByText('Profile saved');
    expect(status).toHaveAttribute('role', 'status');
    // The same region, kept while empty; editing again takes the old message away, Cancel says nothing.
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(status).toBeInTheDocument();
    expect(status).toBeEmptyDOMElement();
    await app.user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Profile' })).toHaveFocus());
    expect(status).toBeEmptyDOMElement();
  });

  it('leaves the focus where the person moved it while the save was under way', async () => {
    const answer = deferred<Response>();
    api.set('PUT /v1/users/me', () => answer.promise);
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await app.user.click(screen.getByRole('button', { name: 'Save Changes' }));
    // Typing in Passkeys' name field meanwhile.
    const elsewhere = await screen.findByLabelText('Name (optional)');
    await app.user.click(elsewhere);
    answer.resolve(json(completeProfile()));
    expect(await screen.findByText('Profile saved')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(elsewhere).toHaveFocus();
  });

  it('offers no date of birth after today where the person is, not where UTC is', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      // 21:30 on the 27th in Los Angeles, already the 28th in UTC.
      vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-28T05:30:00.000Z') });
      const app = await open();
      await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
      expect(screen.getByLabelText('Date of birth')).toHaveAttribute('max', '2026-11-27');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('puts the height bounds on the inputs', async () => {
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(screen.getByLabelText('Height (cm)')).toHaveAttribute('min', '50');
    expect(screen.getByLabelText('Height (cm)')).toHaveAttribute('max', '300');
    await app.user.click(screen.getByRole('radio', { name: 'Imperial (ft, in, lb)' }));
    expect(screen.getByLabelText('Feet')).toHaveAttribute('min', '1');
    expect(screen.getByLabelText('Feet')).toHaveAttribute('max', '9');
    expect(screen.getByLabelText('Inches')).toHaveAttribute('min', '0');
    expect(screen.getByLabelText('Inches')).toHaveAttribute('max', '11');
  });

  it('saves, returns to view mode with the new values, sending only update keys', async () => {
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await app.user.clear(screen.getByLabelText('Preferred name'));
    await app.user.type(screen.getByLabelText('Preferred name'), 'Case');
    await app.user.click(screen.getByRole('radio', { name: 'Imperial (ft, in, lb)' }));
    await app.user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(section('Personal Information').getByText('Case')).toBeInTheDocument();
    expect(section('Demographics').getByText('5 ft 9 in')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/v1/users/me')[0]?.body).toEqual({
      email: 'casey@example.com',
      preferredName: 'Case',
      familyName: 'Jordan',
      dateOfBirth: '1990-04-15',
      // The stored 175 cm, shown as 5 ft 9 in: not moved to 5 ft 9 in's 175.3 by the switch.
      heightCm: 175,
      sexAssignedAtBirth: 'female',
      measurementSystem: 'imperial',
    });
  });

  it('keeps the height across a switch of system, and converts feet and inches once they are changed', async () => {
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await app.user.click(screen.getByRole('radio', { name: 'Imperial (ft, in, lb)' }));
    expect(screen.getByLabelText('Feet')).toHaveValue(5);
    expect(screen.getByLabelText('Inches')).toHaveValue(9);
    await app.user.click(screen.getByRole('radio', { name: 'Metric (cm, kg)' }));
    expect(screen.getByLabelText('Height (cm)')).toHaveValue(175);

    await app.user.click(screen.getByRole('radio', { name: 'Imperial (ft, in, lb)' }));
    await app.user.clear(screen.getByLabelText('Inches'));
    await app.user.type(screen.getByLabelText('Inches'), '10');
    await app.user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByRole('button', { name: 'Edit Profile' });
    expect(api.callsTo('PUT', '/v1/users/me')[0]?.body).toMatchObject({ heightCm: 177.8 });
  });

  it('saves the height feet and inches show when the centimetres typed before the switch were out of bounds', async () => {
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await app.user.clear(screen.getByLabelText('Height (cm)'));
    await app.user.type(screen.getByLabelText('Height (cm)'), '300.4');
    await app.user.click(screen.getByRole('radio', { name: 'Imperial (ft, in, lb)' }));
    expect(screen.getByLabelText('Feet')).toHaveValue(9);
    expect(screen.getByLabelText('Inches')).toHaveValue(10);
    await app.user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByRole('button', { name: 'Edit Profile' });
    expect(api.callsTo('PUT', '/v1/users/me')[0]?.body).toMatchObject({ heightCm: 299.7 });
  });

  it("shows an admin's new name in User Management, within the list's 60 s of freshness", async () => {
    cognito.givenSession(sessionUser(['admin']));
    let preferredName = 'Casey';
    const me = () =>
      adminUser({ userId: USER_ID, email: 'casey@example.com', preferredName, familyName: 'Jordan' });
    api.set('PUT /v1/users/me', (call) => {
      preferredName = (call.body as { preferredName: string }).preferredName;
      return json(completeProfile(call.body as object));
    });
    for (const [route, answer] of Object.entries(
      directoryRoutes({ users: () => [me()], invitations: () => [] }),
    ))
      api.set(route, answer);
    const app = renderApp('/dashboard/users');
    expect(await screen.findByText('Casey Jordan')).toBeInTheDocument();

    await app.user.click(screen.getByRole('link', { name: 'Profile' }));
    await app.user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    await app.user.clear(screen.getByLabelText('Preferred name'));
    await app.user.type(screen.getByLabelText('Preferred name'), 'Case');
    await app.user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByRole('button', { name: 'Edit Profile' });

    await app.user.click(screen.getByRole('link', { name: 'User Management' }));
    expect(await screen.findByText('Case Jordan')).toBeInTheDocument();
    expect(screen.queryByText('Casey Jordan')).not.toBeInTheDocument();
  }, 15_000);

  it('shows Saving... while saving', async () => {
    const answer = deferred<Response>();
    api.set('PUT /v1/users/me', () => answer.promise);
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await app.user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expectBusy(await screen.findByRole('button', { name: MESSAGES.saving }));
    answer.resolve(json(completeProfile()));
    expect(await screen.findByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
  });

  it('stays in edit mode and explains a failed save', async () => {
    api.set('PUT /v1/users/me', failure(400, 'Invalid request'));
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await app.user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.profileSaveFailed);
    expect(alert).toHaveTextContent('Invalid request');
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeInTheDocument();
  });

  it("says only the SPEC message when the save failed on the way, not the browser's words", async () => {
    api.set('PUT /v1/users/me', () => Promise.reject(new TypeError('Failed to fetch')));
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await app.user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.profileSaveFailed);
    expect(alert).not.toHaveTextContent('Failed to fetch');
  });

  it('explains a load failure and reloads the page on Retry', async () => {
    api.set('GET /v1/users/me', failure(404, 'Profile not found. Please complete activation first.'));
    const app = renderApp('/dashboard/profile');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.profileLoadFailed);
    expect(alert).toHaveTextContent('Profile not found. Please complete activation first.');
    await app.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it("retries a network failure once, then shows the fallback text, not the browser's wording", async () => {
    api.set('GET /v1/users/me', () => Promise.reject(new TypeError('Failed to fetch')));
    renderApp('/dashboard/profile');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.profileLoadFallback);
    expect(alert).not.toHaveTextContent('Failed to fetch');
    expect(api.callsTo('GET', '/v1/users/me')).toHaveLength(2);
  });

  it('goes to sign-in when there is no id token (signed out in another tab), sending nothing', async () => {
    cognito.getIdToken.mockResolvedValue(undefined);
    const app = renderApp('/dashboard/profile');
    expect(await screen.findByRole('button', { name: MESSAGES.signInWithPasskey })).toBeInTheDocument();
    expect(app.location().pathname).toBe('/signin');
    expect(api.callsTo('GET', '/v1/users/me')).toHaveLength(0);
  });
});

describe('Profile page: Recent activity', () => {
  let api: ReturnType<typeof fakeApi>;
  const when = (iso: string) =>
    new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  beforeEach(() => {
    cognito.givenSession(sessionUser(['user']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      'GET /v1/users/me/activity': { events: [] },
      'GET /v1/users/me/passkeys': { passkeys: [] },
    });
  });

  const open = async () => {
    renderApp('/dashboard/profile');
    await screen.findByRole('region', { name: 'Recent activity' });
    await waitFor(() => expect(screen.queryByText(MESSAGES.loading)).not.toBeInTheDocument());
    return section('Recent activity');
  };

  it('lists the last events newest first: what, when, from where, failures marked', async () => {
    api.set('GET /v1/users/me/activity', {
      events: [
        auditEvent({ type: 'passkey.added', at: '2025-03-03T09:00:00.000Z' }),
        auditEvent({
          type: 'signin.failed',
          outcome: 'failure',
          at: '2025-03-02T09:00:00.000Z',
          ip: '198.51.100.4',
          userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Gecko/20100101 Firefox/133.0',
        }),
        auditEvent({ type: 'signin.succeeded', at: '2025-03-01T09:00:00.000Z', userAgent: 'curl/8.5.0' }),
      ],
    });
    const activity = await open();
    expect(api.callsTo('GET', '/v1/users/me/activity')).toHaveLength(1);
    expect(
      within(activity.getByRole('list', { name: 'Recent activity, newest first' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `Passkey added203.0.113.7 · Chrome on macOS${when('2025-03-03T09:00:00.000Z')}`,
      `Sign-in failedFailed198.51.100.4 · Firefox on Windows${when('2025-03-02T09:00:00.000Z')}`,
      `Sign-in succeeded203.0.113.7 · curl/8.5.0${when('2025-03-01T09:00:00.000Z')}`,
    ]);
  });

  it("says an admin's action on the person was an administrator's, with no address or browser", async () => {
    api.set('GET /v1/users/me/activity', {
      events: [
        {
          eventId: 'e-1',
          at: '2025-03-03T09:00:00.000Z',
          type: 'roles.changed',
          outcome: 'success',
          byAdmin: true,
          details: {},
        },
      ],
    });
    const activity = await open();
    expect(
      within(activity.getByRole('list', { name: 'Recent activity, newest first' })).getByRole('listitem')
        .textContent,
    ).toBe(`Roles changedBy an administrator${when('2025-03-03T09:00:00.000Z')}`);
  });

  it('cuts a long unknown user agent to 40 characters', async () => {
    api.set('GET /v1/users/me/activity', {
      events: [auditEvent({ userAgent: `SomeAgent/1.0 ${'x'.repeat(100)}` })],
    });
    const activity = await open();
    expect(activity.getByText(/^203\.0\.113\.7 · /).textContent).toBe(
      `203.0.113.7 · SomeAgent/1.0 ${'x'.repeat(25)}…`,
    );
  });

  it('says when there is nothing yet', async () => {
    const activity = await open();
    expect(activity.getByText('No recent activity.')).toBeInTheDocument();
  });

  it('explains a failure to load without hiding the profile, and tries again', async () => {
    let answer = failure(503, 'Service unavailable');
    api.set('GET /v1/users/me/activity', () => answer.clone());
    const app = renderApp('/dashboard/profile');
    const activity = within(await screen.findByRole('region', { name: 'Recent activity' }));
    // An alert, so it is said as it appears.
    const alert = await activity.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your recent activity');
    expect(alert).toHaveTextContent('Service unavailable');
    expect(section('Account Information').getByText('casey@example.com')).toBeInTheDocument();
    answer = json({ events: [auditEvent({ type: 'data.exported' })] });
    await app.user.click(activity.getByRole('button', { name: 'Try again' }));
    expect(await activity.findByText('Data exported')).toBeInTheDocument();
  });
});
