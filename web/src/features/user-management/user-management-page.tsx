import { useMemo, useState } from 'react';
import { ACCOUNT_LABELS } from '../../../../shared/account';
import { Alert } from '../../components/alert';
import { LoadFailed } from '../../components/load-failed';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { StatCard } from '../../components/stat-card';
import { fullName } from '../../lib/format';
import { useInvitations } from './api/get-invitations';
import { useUsers } from './api/get-users';
import { AssignCoachModal, type CoachChoice } from './components/assign-coach-modal';
import { ChangeRolesModal } from './components/change-roles-modal';
import { InviteModal } from './components/invite-modal';
import { IssuedCodeModal } from './components/issued-code-modal';
import { UserTable } from './components/user-table';
import { PANEL_ID, tabId, UserTabs, type TabId } from './components/user-tabs';
import { isInvitation, mergeEntries } from './merge-entries';
import { useRowActions, type RowDialog } from './use-row-actions';

/** Not worded by SPEC-2 (docs/decisions/045-account-screens.md). */
const RECOVERY_NOTE =
  'Their current passkeys keep working until they create the new one; then those are removed and every session is signed out.';

type Dialog = RowDialog | { kind: 'invite' };

export function UserManagementPage() {
  const users = useUsers();
  const invitations = useInvitations();
  const [tab, setTab] = useState<TabId>('all');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [status, setStatus] = useState('');
  const row = useRowActions({ openDialog: setDialog, announce: setStatus });
  const entries = useMemo(
    () => mergeEntries(users.data ?? [], invitations.data ?? []),
    [users.data, invitations.data],
  );
  // Coaches come from the same list: members of `coaches`, named by name, else email.
  const coaches = useMemo(
    () =>
      (users.data ?? [])
        .filter((user) => user.roles.includes('coaches'))
        .map((user): CoachChoice => ({ userId: user.userId, name: fullName(user), email: user.email }))
        .sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email)),
    [users.data],
  );
  const coachNames = useMemo(
    () => new Map((users.data ?? []).map((user) => [user.userId, fullName(user) || user.email])),
    [users.data],
  );
  const close = () => setDialog(null);
  const done = (message: string) => {
    setDialog(null);
    setStatus(message);
  };

  const header = (
    <PageHeader
      title="User Management"
      description="Invite clients, coaches and admins, and follow their activation."
      actions={
        <button
          type="button"
          className="button button--primary"
          onClick={() => setDialog({ kind: 'invite' })}
        >
          + Invite User
        </button>
      }
    />
  );
  const loadError = users.error ?? invitations.error;
  const pending = entries.filter(isInvitation);
  const activated = entries.filter((entry) => !isInvitation(entry));
  const counts = { all: entries.length, pending: pending.length, activated: activated.length };
  const shown = { all: entries, pending, activated }[tab];

  return (
    <>
      {header}
      {row.error && (
        <Alert tone="error" onDismiss={row.dismissError} dismissLabel="Dismiss error">
          <p>{row.error}</p>
        </Alert>
      )}
      <p className="save-status" role="status">
        {status}
      </p>
      {loadError ? (
        <LoadFailed
          title="Could not load users"
          error={loadError}
          onRetry={() => Promise.all([users.refetch(), invitations.refetch()])}
        />
      ) : users.isPending || invitations.isPending ? (
        <Spinner />
      ) : (
        <>
          <dl className="stat-grid stat-grid--three">
            <StatCard label="Total Users" value={counts.all} />
            <StatCard label="Pending Invitations" value={counts.pending} />
            <StatCard label="Active Users" value={counts.activated} />
          </dl>
          <section className="card card--flush">
            <UserTabs selected={tab} counts={counts} onSelect={setTab} />
            <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(tab)}>
              <UserTable entries={shown} tab={tab} coachNames={coachNames} actions={row.actions} />
            </div>
          </section>
        </>
      )}
      {dialog?.kind === 'invite' && <InviteModal onClose={close} />}
      {dialog?.kind === 'coach' && (
        <AssignCoachModal
          client={dialog.entry}
          coaches={coaches.filter((coach) => coach.userId !== dialog.entry.key)}
          onClose={close}
          onDone={done}
        />
      )}
      {dialog?.kind === 'roles' && <ChangeRolesModal person={dialog.entry} onClose={close} onDone={done} />}
      {dialog?.kind === 'recovery' && (
        <IssuedCodeModal
          title={ACCOUNT_LABELS.resetAccess}
          email={dialog.entry.email}
          heading={`Recovery code issued for ${dialog.entry.email}.`}
          note={RECOVERY_NOTE}
          issuing={row.resetAccess}
          onClose={close}
        />
      )}
      {dialog?.kind === 'resend' && (
        <IssuedCodeModal
          title="Resend invitation"
          email={dialog.entry.email}
          heading={`Invitation resent to ${dialog.entry.email}. The earlier code no longer works.`}
          issuing={row.resend}
          onClose={close}
        />
      )}
    </>
  );
}
