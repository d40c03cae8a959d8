import { useMemo, useState } from 'react';
import { confirmDeleteInvitation, MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/alert';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { StatCard } from '../../components/stat-card';
import { errorMessage } from '../../lib/errors';
import { fullName } from '../../lib/format';
import { useDeleteInvitation } from './api/delete-invitation';
import { useInvitations } from './api/get-invitations';
import { useUsers } from './api/get-users';
import { AssignCoachModal, type CoachChoice } from './components/assign-coach-modal';
import { InviteModal } from './components/invite-modal';
import { UserTable } from './components/user-table';
import { PANEL_ID, tabId, UserTabs, type TabId } from './components/user-tabs';
import { mergeEntries, type UserEntry } from './merge-entries';
import { LoadFailed } from '../../components/load-failed';

export function UserManagementPage() {
  const users = useUsers();
  const invitations = useInvitations();
  const remove = useDeleteInvitation();
  const [tab, setTab] = useState<TabId>('all');
  const [inviting, setInviting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [assigning, setAssigning] = useState<UserEntry | null>(null);
  const [status, setStatus] = useState('');
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

  const onDelete = (entry: UserEntry) => {
    if (!window.confirm(confirmDeleteInvitation(entry.email))) return;
    setDeleteError(null);
    setStatus('');
    remove.mutate(entry.email, {
      onError: (error) => setDeleteError(errorMessage(error, MESSAGES.deleteInvitationFallback)),
    });
  };

  const header = (
    <PageHeader
      title="User Management"
      description="Invite clients, coaches and admins, and follow their activation."
      actions={
        <button type="button" className="button button--primary" onClick={() => setInviting(true)}>
          + Invite User
        </button>
      }
    />
  );
  const loadError = users.error ?? invitations.error;
  const pending = entries.filter((entry) => entry.status === 'pending');
  const activated = entries.filter((entry) => entry.status === 'activated');
  const counts = { all: entries.length, pending: pending.length, activated: activated.length };
  const shown = { all: entries, pending, activated }[tab];

  return (
    <>
      {header}
      {deleteError && (
        <Alert tone="error" onDismiss={() => setDeleteError(null)} dismissLabel="Dismiss error">
          <p>{deleteError}</p>
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
              <UserTable
                entries={shown}
                tab={tab}
                onDelete={onDelete}
                deletingEmail={remove.isPending ? remove.variables : null}
                coachNames={coachNames}
                onAssignCoach={(entry) => {
                  setStatus('');
                  setAssigning(entry);
                }}
              />
            </div>
          </section>
        </>
      )}
      {inviting && <InviteModal onClose={() => setInviting(false)} />}
      {assigning && (
        <AssignCoachModal
          client={assigning}
          coaches={coaches.filter((coach) => coach.userId !== assigning.key)}
          onClose={() => setAssigning(null)}
          onDone={(message) => {
            setAssigning(null);
            setStatus(message);
          }}
        />
      )}
    </>
  );
}
