import { useState } from 'react';
import { confirmDeleteUser, confirmDisableCoached, confirmResetAccess } from '../../../../shared/account';
import { confirmDeleteInvitation, MESSAGES } from '../../../../shared/messages';
import { errorMessage } from '../../lib/errors';
import { useUnderWay } from '../../lib/use-under-way';
import { useDeleteInvitation } from './api/delete-invitation';
import { useDeleteUser } from './api/delete-user';
import { useResendInvitation } from './api/resend-invitation';
import { useResetAccess } from './api/reset-access';
import { useSetUserStatus } from './api/set-user-status';
import type { PendingAction, RowActions } from './components/user-actions';
import type { UserEntry } from './merge-entries';

/** Not worded by SPEC-2 (docs/decisions/045-account-screens.md). */
const DELETE_FAILED = 'Could not delete the account. Please try again.';
const STATUS_FAILED = 'Could not change the account. Please try again.';

/** The dialogs a row opens. */
export type RowDialog = { kind: 'coach' | 'roles' | 'recovery' | 'resend'; entry: UserEntry };

interface RowActionsOptions {
  openDialog: (dialog: RowDialog) => void;
  /** Opens the dialog unless one is open (a code that arrives after its dialog was closed). */
  openDialogIfNone: (dialog: RowDialog) => void;
  /** What to tell screen readers after a change ('' to clear). */
  announce: (status: string) => void;
}

/**
 * What the table's buttons do: the SPEC's confirm prompts, then the call. Reset access and Resend
 * show their code (or the refusal) in a dialog; the other refusals show in the page's banner.
 */
export const useRowActions = ({ openDialog, openDialogIfNone, announce }: RowActionsOptions) => {
  const deleteInvitation = useDeleteInvitation();
  const deleteUser = useDeleteUser();
  const setUserStatus = useSetUserStatus();
  const resetAccess = useResetAccess();
  const resend = useResendInvitation();
  const [error, setError] = useState<string | null>(null);
  // The rows whose delete or status change is under way, each settling its own row.
  const { underWay: running, run } = useUnderWay<PendingAction>();

  const begin = () => {
    setError(null);
    announce('');
  };
  const failWith = (fallback: string) => (failure: unknown) => setError(errorMessage(failure, fallback));

  const pending = new Map(running);
  if (resend.isPending) pending.set(resend.variables, 'resend');

  const actions: RowActions = {
    pending,
    onAssignCoach: (entry) => {
      begin();
      openDialog({ kind: 'coach', entry });
    },
    onChangeRoles: (entry) => {
      begin();
      openDialog({ kind: 'roles', entry });
    },
    onResetAccess: (entry) => {
      if (!window.confirm(confirmResetAccess(entry.email))) return;
      begin();
      // A code that arrives after its dialog was closed is shown all the same: the code it replaced
      // no longer works, and this one is shown nowhere else.
      resetAccess.mutate(entry.key, { onSuccess: () => openDialogIfNone({ kind: 'recovery', entry }) });
      openDialog({ kind: 'recovery', entry });
    },
    onResend: (entry) => {
      begin();
      resend.mutate(entry.email, { onSuccess: () => openDialogIfNone({ kind: 'resend', entry }) });
      openDialog({ kind: 'resend', entry });
    },
    onToggleStatus: (entry) => {
      const change = entry.status === 'disabled' ? 'enable' : 'disable';
      // A disabled person is nobody's client: the disable ends their coaching (decision 042). Else
      // Disable asks nothing (SPEC-2 words no prompt, and Enable undoes it).
      const endsCoaching = change === 'disable' && entry.coachId !== undefined;
      if (endsCoaching && !window.confirm(confirmDisableCoached(entry.email))) return;
      const done = endsCoaching
        ? `${entry.email} disabled. Their coach was unassigned.`
        : `${entry.email} ${change}d.`;
      begin();
      void run(entry.key, 'status', setUserStatus.mutateAsync({ userId: entry.key, change })).then(
        () => announce(done),
        failWith(STATUS_FAILED),
      );
    },
    onDeleteUser: (entry) => {
      if (!window.confirm(confirmDeleteUser(entry.email))) return;
      begin();
      void run(entry.key, 'delete', deleteUser.mutateAsync(entry.key)).then(
        () => announce(`${entry.email} deleted.`),
        failWith(DELETE_FAILED),
      );
    },
    onDeleteInvitation: (entry) => {
      if (!window.confirm(confirmDeleteInvitation(entry.email))) return;
      begin();
      void run(entry.key, 'delete', deleteInvitation.mutateAsync(entry.email)).then(
        () => announce(`Invitation for ${entry.email} deleted.`),
        failWith(MESSAGES.deleteInvitationFallback),
      );
    },
  };

  return { actions, error, dismissError: () => setError(null), resetAccess, resend };
};
