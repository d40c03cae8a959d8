import { useRef, useState } from 'react';
import { ACCOUNT_LABELS } from '../../../../shared/account';
import { Alert } from '../../components/alert';
import { LoadFailed } from '../../components/load-failed';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { StatCard } from '../../components/stat-card';
import { AssignCoachModal } from './components/assign-coach-modal';
import { ChangeRolesModal } from './components/change-roles-modal';
import { InviteModal } from './components/invite-modal';
import { IssuedCodeModal } from './components/issued-code-modal';
import { LOAD_FAILED, LoadMore } from './components/load-more';
import { UserSearch } from './components/user-search';
import { emptyText, UserTable } from './components/user-table';
import { PANEL_ID, tabId, UserTabs, type TabId } from './components/user-tabs';
import type { UserEntry } from './merge-entries';
import { useRowActions, type RowDialog } from './use-row-actions';
import { useUserDirectory } from './use-user-directory';

/** Not worded by SPEC-2 (docs/decisions/045-account-screens.md). */
const RECOVERY_NOTE =
  'Their current passkeys keep working until they create the new one; then those are removed and every session is signed out.';

type Dialog = RowDialog | { kind: 'invite' };

/**
 * What a settled search says (not worded by the SPEC): how many it shows, as the Audit Log counts its
 * events, or the empty table's own words.
 */
const searchOutcome = (entries: readonly UserEntry[], hasMore: boolean, tab: TabId, q: string): string => {
  if (entries.length === 0 && !hasMore) return emptyText(tab, q);
  return entries.length === 1 ? '1 person shown' : `${entries.length} people shown`;
};

export function UserManagementPage() {
  const [q, setQ] = useState('');
  const directory = useUserDirectory(q);
  const { coaches, coachNames } = directory;
  const [tab, setTab] = useState<TabId>('all');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [status, setStatus] = useState('');
  const row = useRowActions({
    openDialog: setDialog,
    openDialogIfNone: (opened) => setDialog((current) => current ?? opened),
    announce: setStatus,
  });
  const close = () => setDialog(null);
  const done = (message: string) => {
    setDialog(null);
    setStatus(message);
  };
  // A search changes the table without a word: once its answer is on screen, say what it shows. Once
  // per search (not on the first load, nor as rows come and go), and nothing while it loads.
  const view = directory.views[tab];
  const [said, setSaid] = useState({ q, text: '' });
  const { entries } = view;
  const settled = !directory.error && !directory.isPending && !directory.isSearching && entries !== null;
  if (settled && said.q !== q) setSaid({ q, text: searchOutcome(entries, view.hasMore, tab, q) });
  const searchStatus = said.q === q ? said.text : '';
  // The table, or the empty state in its place: where focus goes when 'Load more' leaves.
  const list = useRef<HTMLDivElement>(null);

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
  const counts = directory.tabCounts;

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
      {directory.error ? (
        <LoadFailed title={LOAD_FAILED} error={directory.error} onRetry={directory.refetch} />
      ) : directory.isPending || !counts ? (
        <Spinner />
      ) : (
        <dl className="stat-grid stat-grid--three">
          <StatCard label="Total Users" value={counts.all} />
          <StatCard label="Pending Invitations" value={counts.pending} />
          <StatCard label="Active Users" value={counts.activated} />
        </dl>
      )}
      {/* Outside the load states: a search that failed can be changed. */}
      <UserSearch onSearch={setQ} />
      <p className="visually-hidden" role="status">
        {searchStatus}
      </p>
      {!directory.error && !directory.isPending && counts && (
        <section className="card card--flush">
          <UserTabs selected={tab} counts={counts} onSelect={setTab} />
          <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(tab)} aria-busy={directory.isSearching}>
            {view.entries ? (
              <UserTable
                entries={view.entries}
                tab={tab}
                hasMore={view.hasMore}
                coachNames={coachNames}
                actions={row.actions}
                search={q}
                ref={list}
              />
            ) : (
              <Spinner />
            )}
            <LoadMore view={view} list={list} />
          </div>
        </section>
      )}
      {dialog?.kind === 'invite' && <InviteModal onClose={close} />}
      {dialog?.kind === 'coach' && (
        <AssignCoachModal
          client={dialog.entry}
          // A disabled coach takes no client (decision 042).
          coaches={coaches.filter((coach) => coach.userId !== dialog.entry.key && !coach.disabled)}
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
