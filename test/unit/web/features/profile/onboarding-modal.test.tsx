import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, VALIDATION } from '../../../../../shared/messages';
import * as cognito from '../../support/cognito-mock';
import { completeProfile, newProfile, sessionUser } from '../../support/factories';
import { deferred, failure, fakeApi, json } from '../../support/fake-api';
import { heardOnFocus } from '../../support/focus';
import { renderApp } from '../../support/render-app';
import { expectBusy } from '../../support/busy';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const thisYear = new Date().getFullYear();

describe('onboarding modal', () => {
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    cognito.givenSession(sessionUser(['user']));
    api = fakeApi({
      'GET /v1/users/me': newProfile(),
      'PUT /v1/users/me': (call) => json(completeProfile({ ...(call.body as object) })),
    });
  });

  const open = async () => {
    const app = renderApp('/dashboard');
    const dialog = await screen.findByRole('dialog', { name: 'Complete Your Profile' });
    return {
      app,
      dialog: within(dialog),
      save: within(dialog).getByRole('button', { name: 'Save and Continue' }),
    };
  };

  it('is non-dismissible: Escape does not close it', async () => {
    const { app } = await open();
    await app.user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Complete Your Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close dialog' })).not.toBeInTheDocument();
  });

  it('offers no date of birth after today', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 10, 27, 12, 0) });
    const { dialog } = await open();
    expect(dialog.getByLabelText('Date of birth')).toHaveAttribute('max', '2026-11-27');
  });

  it('defaults to imperial for an en-US browser', async () => {
    const { dialog } = await open();
    expect(dialog.getByRole('radio', { name: 'Imperial (ft, in, lb)' })).toBeChecked();
    expect(dialog.getByLabelText('Feet')).toBeInTheDocument();
    expect(dialog.getByLabelText('Inches')).toBeInTheDocument();
  });

  it('defaults to metric for any other browser language', async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-GB');
    const { dialog } = await open();
    expect(dialog.getByRole('radio', { name: 'Metric (cm, kg)' })).toBeChecked();
    expect(dialog.getByLabelText('Height (cm)')).toBeInTheDocument();
  });

  it('lists every missing field', async () => {
    const { app, dialog, save } = await open();
    await app.user.clear(dialog.getByLabelText('Email'));
    await app.user.click(save);
    expect(dialog.getByText(VALIDATION.invalidEmail)).toBeInTheDocument();
    expect(dialog.getByText(VALIDATION.preferredNameRequired)).toBeInTheDocument();
    expect(dialog.getByText(VALIDATION.familyNameRequired)).toBeInTheDocument();
    expect(dialog.getByText(VALIDATION.dateOfBirthRequired)).toBeInTheDocument();
    expect(dialog.getByText(VALIDATION.heightRequired)).toBeInTheDocument();
    expect(dialog.getByLabelText('Email')).toHaveAccessibleDescription(VALIDATION.invalidEmail);
    expect(dialog.getByLabelText('Email')).toHaveFocus();
    expect(api.callsTo('PUT', '/v1/users/me')).toHaveLength(0);
  });

  it('focuses the first field it refuses once its message is there, so the message is said with it', async () => {
    const { app, dialog, save } = await open();
    const heard = heardOnFocus(dialog.getByLabelText('Preferred name'));
    await app.user.click(save);
    await waitFor(() => expect(dialog.getByLabelText('Preferred name')).toHaveFocus());
    expect(heard).toEqual([{ invalid: true, description: VALIDATION.preferredNameRequired }]);
  });

  it('keeps the focus it takes when it opens on a route change (the new page does not take it)', async () => {
    const app = renderApp('/dashboard/profile');
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    const sidebar = within(screen.getByRole('complementary', { name: 'Sidebar' }));
    await app.user.click(sidebar.getByRole('link', { name: 'Metabolic Coaching' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Complete Your Profile' }));
    await waitFor(() => expect(dialog.getByLabelText('Preferred name')).toHaveFocus());
    // Still there once every effect of the navigation has run.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(dialog.getByLabelText('Preferred name')).toHaveFocus();
  });

  it('refuses a name that shows as nothing at its field, as the server would', async () => {
    const { app, dialog, save } = await open();
    await app.user.type(dialog.getByLabelText('Preferred name'), '\u200b');
    await app.user.click(save);
    expect(dialog.getByLabelText('Preferred name')).toHaveAccessibleDescription(
      VALIDATION.preferredNameRequired,
    );
    expect(api.callsTo('PUT', '/v1/users/me')).toHaveLength(0);
  });

  it("describes each of feet and inches by the height's message: focus lands on Feet", async () => {
    const { app, dialog, save } = await open();
    await app.user.type(dialog.getByLabelText('Preferred name'), 'Casey');
    await app.user.type(dialog.getByLabelText('Family name'), 'Jordan');
    await app.user.type(dialog.getByLabelText('Date of birth'), '1990-04-15');
    const heard = heardOnFocus(dialog.getByLabelText('Feet'));
    await app.user.click(save);
    await waitFor(() => expect(dialog.getByLabelText('Feet')).toHaveFocus());
    expect(heard).toEqual([{ invalid: true, description: VALIDATION.heightRequired }]);
    expect(dialog.getByLabelText('Inches')).toHaveAccessibleDescription(VALIDATION.heightRequired);
  });

  it.each([
    [`${thisYear - 12}-01-01`, 'too young'],
    [`${thisYear - 121}-01-01`, 'too old'],
  ])('rejects the date of birth %s (%s)', async (date) => {
    const { app, dialog, save } = await open();
    await app.user.type(dialog.getByLabelText('Date of birth'), date);
    await app.user.click(save);
    expect(dialog.getByText(VALIDATION.invalidDateOfBirth)).toBeInTheDocument();
  });

  it.each([`${thisYear - 13}-12-31`, `${thisYear - 120}-01-01`])(
    'accepts the boundary date of birth %s',
    async (date) => {
      const { app, dialog, save } = await open();
      await app.user.type(dialog.getByLabelText('Date of birth'), date);
      await app.user.click(save);
      expect(dialog.queryByText(VALIDATION.invalidDateOfBirth)).not.toBeInTheDocument();
      expect(dialog.queryByText(VALIDATION.dateOfBirthRequired)).not.toBeInTheDocument();
    },
  );

  it.each([
    ['0', '5', VALIDATION.invalidHeight],
    ['10', '0', VALIDATION.invalidHeight],
    ['5', '12', VALIDATION.invalidHeight],
    ['5', '', VALIDATION.heightRequired],
  ])('checks imperial height %s ft %s in', async (feet, inches, message) => {
    const { app, dialog, save } = await open();
    await app.user.type(dialog.getByLabelText('Feet'), feet);
    if (inches) await app.user.type(dialog.getByLabelText('Inches'), inches);
    await app.user.click(save);
    expect(dialog.getByText(message)).toBeInTheDocument();
  });

  it.each([
    ['49', VALIDATION.heightRange],
    ['301', VALIDATION.heightRange],
    ['', VALIDATION.heightRequired],
  ])('checks metric height "%s"', async (cm, message) => {
    const { app, dialog, save } = await open();
    await app.user.click(dialog.getByRole('radio', { name: 'Metric (cm, kg)' }));
    if (cm) await app.user.type(dialog.getByLabelText('Height (cm)'), cm);
    await app.user.click(save);
    expect(dialog.getByText(message)).toBeInTheDocument();
  });

  it('carries the height over when switching systems', async () => {
    const { app, dialog } = await open();
    await app.user.type(dialog.getByLabelText('Feet'), '5');
    await app.user.type(dialog.getByLabelText('Inches'), '9');
    await app.user.click(dialog.getByRole('radio', { name: 'Metric (cm, kg)' }));
    expect(dialog.getByLabelText('Height (cm)')).toHaveValue(175.3);
  });

  const fillValid = async (
    app: Awaited<ReturnType<typeof open>>['app'],
    dialog: Awaited<ReturnType<typeof open>>['dialog'],
  ) => {
    await app.user.type(dialog.getByLabelText('Preferred name'), ' Casey ');
    await app.user.type(dialog.getByLabelText('Family name'), 'Jordan');
    await app.user.type(dialog.getByLabelText('Date of birth'), '1990-04-15');
    await app.user.selectOptions(dialog.getByLabelText('Sex assigned at birth'), 'Female');
    await app.user.type(dialog.getByLabelText('Feet'), '5');
    await app.user.type(dialog.getByLabelText('Inches'), '9');
  };

  it('saves the profile, marks onboarding complete and closes', async () => {
    const { app, dialog, save } = await open();
    await fillValid(app, dialog);
    await app.user.click(save);

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('PUT', '/v1/users/me')[0]?.body).toEqual({
      email: 'casey@example.com',
      preferredName: 'Casey',
      familyName: 'Jordan',
      dateOfBirth: '1990-04-15',
      heightCm: 175.3,
      sexAssignedAtBirth: 'female',
      measurementSystem: 'imperial',
      metadata: { onboardingCompleted: true },
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back, Casey!' })).toBeInTheDocument();
  });

  it('saves a metric height in centimetres', async () => {
    const { app, dialog, save } = await open();
    await fillValid(app, dialog);
    await app.user.click(dialog.getByRole('radio', { name: 'Metric (cm, kg)' }));
    await app.user.clear(dialog.getByLabelText('Height (cm)'));
    await app.user.type(dialog.getByLabelText('Height (cm)'), '168');
    await app.user.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('PUT', '/v1/users/me')[0]?.body).toMatchObject({
      heightCm: 168,
      measurementSystem: 'metric',
    });
  });

  it('shows Saving... while the profile is saved', async () => {
    const answer = deferred<Response>();
    api.set('PUT /v1/users/me', () => answer.promise);
    const { app, dialog, save } = await open();
    await fillValid(app, dialog);
    await app.user.click(save);
    expectBusy(await dialog.findByRole('button', { name: MESSAGES.saving }));
    answer.resolve(json(completeProfile()));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the modal open with the SPEC message when saving fails', async () => {
    api.set('PUT /v1/users/me', failure(400, 'Email cannot be changed'));
    const { app, dialog, save } = await open();
    await fillValid(app, dialog);
    await app.user.click(save);
    const alert = await dialog.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.onboardingSaveFailed);
    expect(alert).toHaveTextContent('Email cannot be changed');
    expect(screen.getByRole('dialog', { name: 'Complete Your Profile' })).toBeInTheDocument();
  });

  it("says only the SPEC message when the save failed on the way, not the browser's words", async () => {
    api.set('PUT /v1/users/me', () => Promise.reject(new TypeError('Failed to fetch')));
    const { app, dialog, save } = await open();
    await fillValid(app, dialog);
    await app.user.click(save);
    const alert = await dialog.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.onboardingSaveFailed);
    expect(alert).not.toHaveTextContent('Failed to fetch');
  });
});
