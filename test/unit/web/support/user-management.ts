import { screen, within } from '@testing-library/react';
import {
  adminUserListQuerySchema,
  invitationListQuerySchema,
  type DirectoryCounts,
} from '../../../../shared/directory';
import type { AdminUserListItem, Invitation } from '../../../../shared/schemas';
import { failure, json, type RecordedCall } from './fake-api';
import { renderApp } from './render-app';

/** /dashboard/users, once both lists have loaded. */
export const openUserManagement = async () => {
  const app = renderApp('/dashboard/users');
  await screen.findByRole('tablist', { name: 'Filter users' });
  return app;
};

/** The text of one column of the row with this email, in the table the selected tab shows. */
export const cell = (email: string, column: string) => {
  const panel = within(screen.getByRole('tabpanel'));
  const index = panel.getAllByRole('columnheader').findIndex((header) => header.textContent === column);
  const row = panel.getByRole('cell', { name: email }).closest('tr');
  if (!row) throw new Error(`No row for ${email}`);
  return within(row).getAllByRole('cell')[index]?.textContent;
};

/** The email column of the table the selected tab shows, top to bottom. */
export const shownEmails = () =>
  within(screen.getByRole('tabpanel'))
    .queryAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

/** The fake's cursor: opaque to the page, readable by a test that checks which page was asked for. */
export const cursorAfter = (sortKey: string) => `after:${sortKey}`;

export const personKey = (user: AdminUserListItem) => `${user.createdAt}#${user.userId}`;
export const invitationKey = (invitation: Invitation) => `${invitation.createdAt}#${invitation.email}`;

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One page as the server pages: newest first by sort key, or by email for a search. */
const pageOf = <Item extends { email: string }>(
  items: readonly Item[],
  sortKey: (item: Item) => string,
  query: { q?: string | undefined; cursor?: string | undefined },
  pageSize: number,
) => {
  const keyOf = (item: Item) => (query.q === undefined ? sortKey(item) : item.email);
  const sorted = items
    .filter((item) => query.q === undefined || item.email.toLowerCase().startsWith(query.q))
    .sort((a, b) =>
      query.q === undefined ? byCodeUnits(keyOf(b), keyOf(a)) : byCodeUnits(keyOf(a), keyOf(b)),
    );
  const start =
    query.cursor === undefined
      ? 0
      : sorted.findIndex((item) => cursorAfter(keyOf(item)) === query.cursor) + 1;
  const page = sorted.slice(start, start + pageSize);
  const last = page.at(-1);
  return {
    items: page,
    ...(last && start + pageSize < sorted.length && { nextCursor: cursorAfter(keyOf(last)) }),
  };
};

const isOpen = (invitation: Invitation) => invitation.status !== 'activated' && !invitation.userId;

interface FakeDirectory {
  users: () => readonly AdminUserListItem[];
  invitations: () => readonly Invitation[];
  /** Items per page whatever `limit` asks, so a few items make several pages. */
  pageSize?: number;
  /** The server's counters, when a test wants them to differ from what it lists. */
  counts?: () => DirectoryCounts;
}

/**
 * GET /internal/v1/admin/users and /invitations as shared/directory.ts describes them: the query
 * checked with the shared schemas (400 otherwise), `status`, `role=coaches` and `q` honoured, pages
 * in the server's order with a cursor, and `counts` on every page of people.
 */
export const directoryRoutes = ({ users, invitations, pageSize, counts }: FakeDirectory) => ({
  'GET /internal/v1/admin/users': (call: RecordedCall) => {
    const parsed = adminUserListQuerySchema.safeParse(call.query);
    if (!parsed.success) return failure(400, parsed.error.issues[0]?.message ?? 'Bad query');
    const { status, role, limit } = parsed.data;
    const listed = users().filter(
      (user) => (!status || user.status === status) && (!role || user.roles.includes(role)),
    );
    const page = pageOf(listed, personKey, parsed.data, pageSize ?? limit);
    return json({
      users: page.items,
      ...(page.nextCursor && { nextCursor: page.nextCursor }),
      counts: counts?.() ?? {
        people: users().length,
        disabled: users().filter((user) => user.status === 'disabled').length,
        pendingInvitations: invitations().filter(isOpen).length,
      },
    });
  },
  'GET /internal/v1/admin/invitations': (call: RecordedCall) => {
    const parsed = invitationListQuerySchema.safeParse(call.query);
    if (!parsed.success) return failure(400, parsed.error.issues[0]?.message ?? 'Bad query');
    const { status, limit } = parsed.data;
    const listed = invitations().filter(
      (invitation) => !status || (status === 'pending' ? isOpen(invitation) : !isOpen(invitation)),
    );
    const page = pageOf(listed, invitationKey, parsed.data, pageSize ?? limit);
    return json({ invitations: page.items, ...(page.nextCursor && { nextCursor: page.nextCursor }) });
  },
});
