import { MESSAGES } from '../../../../../shared/messages';
import { EmptyState } from '../../../components/empty-state';
import { ROLE_LABELS } from '../../../lib/role-labels';
import type { UserEntry } from '../merge-entries';
import type { TabId } from './user-tabs';

const EMPTY: Record<TabId, string> = {
  all: MESSAGES.noUsers,
  pending: MESSAGES.noPendingInvitations,
  activated: MESSAGES.noActivatedUsers,
};

interface UserTableProps {
  entries: UserEntry[];
  tab: TabId;
  onDelete: (entry: UserEntry) => void;
  deletingEmail: string | null;
  /** Names of coaches by user id (name, else email). */
  coachNames: ReadonlyMap<string, string>;
  onAssignCoach: (entry: UserEntry) => void;
}

/** Only an activated member of `users` has a coach (SPEC-2 section 2). */
export const isClient = (entry: UserEntry): boolean =>
  entry.status === 'activated' && entry.roles.includes('user');

function CoachCell({ entry, coachNames }: { entry: UserEntry; coachNames: ReadonlyMap<string, string> }) {
  if (!isClient(entry)) return null;
  if (!entry.coachId) {
    return (
      <span className="muted">
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">No coach</span>
      </span>
    );
  }
  // A coach missing from the list (no longer a member) still shows as who they are.
  return <>{coachNames.get(entry.coachId) ?? entry.coachId}</>;
}

export function UserTable({
  entries,
  tab,
  onDelete,
  deletingEmail,
  coachNames,
  onAssignCoach,
}: UserTableProps) {
  if (entries.length === 0) return <EmptyState>{EMPTY[tab]}</EmptyState>;
  return (
    <div className="table-scroll" role="region" aria-label="Users" tabIndex={0}>
      <table className="table">
        <thead>
          <tr>
            {['Email', 'Name', 'Status', 'Roles', 'Coach', 'Created', 'Actions'].map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={`${entry.status}-${entry.key}`}>
              <td className="table__email">{entry.email}</td>
              <td>{entry.name || <span className="muted">Not set</span>}</td>
              <td>
                <span className={`badge ${entry.status === 'pending' ? 'badge--warning' : 'badge--success'}`}>
                  {entry.status === 'pending' ? 'Pending' : 'Activated'}
                </span>
              </td>
              <td>
                {entry.roles.map((role) => ROLE_LABELS[role]).join(', ') || (
                  <span className="muted">None</span>
                )}
              </td>
              <td>
                <CoachCell entry={entry} coachNames={coachNames} />
              </td>
              <td>{new Date(entry.createdAt).toLocaleDateString()}</td>
              <td>
                {entry.status === 'pending' && (
                  <button
                    type="button"
                    className="button button--danger button--small"
                    aria-label={`Delete invitation for ${entry.email}`}
                    onClick={() => onDelete(entry)}
                    disabled={deletingEmail === entry.email}
                  >
                    {deletingEmail === entry.email ? 'Deleting...' : 'Delete'}
                  </button>
                )}
                {isClient(entry) && (
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    // Starts with the visible words (WCAG 2.5.3), then says whose coach.
                    aria-label={`Assign coach for ${entry.email}`}
                    onClick={() => onAssignCoach(entry)}
                  >
                    Assign coach
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
