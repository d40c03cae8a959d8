import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLES } from '../../../../shared/constants';
import type * as RoleLabels from '../../../../web/src/lib/role-labels';
import * as cognito from '../support/cognito-mock';
import { adminUser, completeProfile, invitation, sessionUser } from '../support/factories';
import { fakeApi } from '../support/fake-api';
import { renderApp } from '../support/render-app';
import { directoryRoutes } from '../support/user-management';

vi.mock('../../../../web/src/lib/auth/cognito', () => import('../support/cognito-mock'));
vi.mock('../../../../web/src/lib/passkey', () => import('../support/passkey-mock'));
// Labels no screen could have written itself: every role shown must come from lib/role-labels.
vi.mock('../../../../web/src/lib/role-labels', () => ({
  ROLE_LABELS: { admin: 'Label A', coach: 'Label C', user: 'Label U' },
}));

describe('role labels come from one map (lib/role-labels.ts)', () => {
  it('has a label for every role', async () => {
    const actual = await vi.importActual<typeof RoleLabels>('../../../../web/src/lib/role-labels');
    expect(Object.keys(actual.ROLE_LABELS).sort()).toEqual([...ROLES].sort());
    expect(actual.ROLE_LABELS).toEqual({ admin: 'Admin', coach: 'Coach', user: 'User' });
  });

  describe('on screen', () => {
    beforeEach(() => {
      cognito.givenSession(sessionUser(['admin', 'coach']));
      fakeApi({
        'GET /v1/users/me': completeProfile(),
        ...directoryRoutes({
          users: () => [adminUser({ roles: ['users', 'somebody-elses-group', 'admins'] })],
          invitations: () => [invitation({ roles: ['coaches'] })],
        }),
      });
    });

    it('labels the profile badges', async () => {
      renderApp('/dashboard/profile');
      const badges = await screen.findByRole('list', { name: 'Roles' });
      expect(
        within(badges)
          .getAllByRole('listitem')
          .map((badge) => badge.textContent),
      ).toEqual(['Label A', 'Label C']);
    });

    it('labels the user table (groups mapped by shared/roles.ts) and the invite choices', async () => {
      const app = renderApp('/dashboard/users');
      await screen.findByRole('tablist', { name: 'Filter users' });
      const roleCells = within(screen.getByRole('tabpanel'))
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[3]?.textContent);
      // Newest first: the pending coach invitation, then the user with two known groups.
      expect(roleCells).toEqual(['Label C', 'Label A, Label U']);

      await app.user.click(screen.getByRole('button', { name: '+ Invite User' }));
      const dialog = within(screen.getByRole('dialog', { name: 'Invite User' }));
      for (const label of ['Label U', 'Label C', 'Label A']) {
        expect(dialog.getByRole('radio', { name: new RegExp(`^${label}`) })).toBeInTheDocument();
      }
    });
  });
});
