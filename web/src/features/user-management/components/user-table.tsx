import { useRef, type RefObject } from 'react';
import { ACCOUNT_LABELS } from '../../../../../shared/account';
import { MESSAGES } from '../../../../../shared/messages';
import { Email } from '../../../components/email';
import { EmptyState } from '../../../components/empty-state';
import { TableRegion } from '../../../components/table-region';
import { useKeepFocusIn } from '../../../lib/keep-focus';
import { ROLE_LABELS } from '../../../lib/role-labels';
import { rowKey, type EntryStatus, type UserEntry } from '../merge-entries';
import { isClient, UserActions, type RowActions } from './user-actions';
import type { TabId } from './user-tabs';

const EMPTY: Record<TabId, string> = {
  all: MESSAGES.noUsers,
  pending: MESSAGES.noPendingInvitations,
  activated: MESSAGES.noActivatedUsers,
};

/**
 * A search that matched no one (not worded by the SPEC, whose empty messages say the list itself is
 * empty, beside counts that say otherwise; docs/decisions/058-admin-lists-at-scale.md).
 */
export const noSearchMatch = (q: string): string => `No one's email starts with '${q}'.`;

/** What the table says when it has no row: the tab's own empty message, or that a search matched no one. */
export const emptyText = (tab: TabId, search: string): string =>
  search ? noSearchMatch(search) : EMPTY[tab];

/**
 * SPEC's Pending and Activated, SPEC-2's Expired; 'Disabled' for a disabled account, 'Being deleted'
 * for one whose delete was cut short.
 */
const STATUS_BADGES: Record<EntryStatus, { label: string; tone: string }> = {
  pending: { label: 'Pending', tone: 'badge--warning' },
  expired: { label: ACCOUNT_LABELS.expired, tone: 'badge--neutral' },
  activated: { label: 'Activated', tone: 'badge--success' },
  disabled: { label: 'Disabled', tone: 'badge--neutral' },
  deleting: { label: ACCOUNT_LABELS.beingDeleted, tone: 'badge--neutral' },
};

interface UserTableProps {
  entries: UserEntry[];
  tab: TabId;
  /** Pages not read yet may hold rows: no empty message until they are read. */
  hasMore?: boolean;
  /** Names of coaches by user id (name, else email). */
  coachNames: ReadonlyMap<string, string>;
  actions: RowActions;
  /** The email prefix the rows were searched for ('' for none). */
  search?: string;
  /** The table's region, or the empty state in its place: focus is kept there. */
  ref?: RefObject<HTMLDivElement | null>;
}

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

/**
 * User Management's columns, as SPEC names them.
 * Each cell names its own (`satisfies Column`) for the phone's cards (`.table--stack`).
 */
const COLUMNS = ['Email', 'Name', 'Status', 'Roles', 'Coach', 'Created', 'Actions'] as const;
type Column = (typeof COLUMNS)[number];

export function UserTable({
  entries,
  tab,
  hasMore = false,
  coachNames,
  actions,
  search = '',
  ref,
}: UserTableProps) {
  const own = useRef<HTMLDivElement>(null);
  const table = ref ?? own;
  // A deleted person's or invitation's buttons leave with the row: focus stays on the table, or on
  // what replaces it.
  useKeepFocusIn(table, entries);
  if (entries.length === 0)
    return hasMore ? null : <EmptyState ref={table}>{emptyText(tab, search)}</EmptyState>;
  return (
    <TableRegion label="Users" stack="where-narrow" ref={table}>
      <table className="table table--stack">
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={rowKey(entry)}>
              <td className="table__email" data-label={'Email' satisfies Column}>
                <Email address={entry.email} />
              </td>
              <td data-label={'Name' satisfies Column}>
                {entry.name || <span className="muted">Not set</span>}
              </td>
              <td data-label={'Status' satisfies Column}>
                <span className={`badge ${STATUS_BADGES[entry.status].tone}`}>
                  {STATUS_BADGES[entry.status].label}
                </span>
              </td>
              <td data-label={'Roles' satisfies Column}>
                {entry.roles.map((role) => ROLE_LABELS[role]).join(', ') || (
                  <span className="muted">None</span>
                )}
              </td>
              <td data-label={'Coach' satisfies Column}>
                <CoachCell entry={entry} coachNames={coachNames} />
              </td>
              <td data-label={'Created' satisfies Column}>
                {new Date(entry.createdAt).toLocaleDateString()}
              </td>
              <td data-label={'Actions' satisfies Column}>
                <UserActions entry={entry} actions={actions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
