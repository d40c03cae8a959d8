import type { Role } from '../../../../shared/constants';
import { rolesFromClaim } from '../../../../shared/roles';
import type { AdminUserListItem, Invitation } from '../../../../shared/schemas';
import { fullName } from '../../lib/format';

/**
 * What the Status column says: an invitation is 'pending' or, past its `expiresAt`, 'expired'
 * (SPEC-2 section 3.3); a person is 'activated' or 'disabled'.
 */
export type EntryStatus = 'pending' | 'expired' | 'activated' | 'disabled' | 'deleting';

export interface UserEntry {
  /** userId for people, email for invitations not taken up. */
  key: string;
  email: string;
  name: string;
  status: EntryStatus;
  roles: Role[];
  createdAt: string;
  /** An invitation's code (people are listed without their invitation). */
  activationCode?: string;
  /** A client's coach (SPEC-2 section 2). */
  coachId?: string;
}

/** An invitation not taken up (pending or expired), rather than a person. */
export const isInvitation = (entry: Pick<UserEntry, 'status'>): boolean =>
  entry.status === 'pending' || entry.status === 'expired';

/** A row's identity: a person and an invitation never share one, even with the same email. */
export const rowKey = (entry: UserEntry): string =>
  `${isInvitation(entry) ? 'invitation' : 'person'}-${entry.key}`;

/** Expired by the server's word, or because its `expiresAt` has passed since the list was read. */
const isExpired = (invitation: Invitation, now: number): boolean =>
  invitation.status === 'expired' ||
  (invitation.expiresAt !== undefined && Date.parse(invitation.expiresAt) <= now);

const personEntry = (user: AdminUserListItem): UserEntry => ({
  key: user.userId,
  email: user.email,
  name: fullName(user),
  // A delete cut short shows as what it is: disabled, and only ever deleted from here (decision 044).
  status: user.beingDeleted ? 'deleting' : user.status === 'disabled' ? 'disabled' : 'activated',
  // Cognito group names (admins, coaches, users); unknown groups are left out.
  roles: rolesFromClaim(user.roles),
  createdAt: user.createdAt,
  ...(user.coachId ? { coachId: user.coachId } : {}),
});

const invitationEntry = (invitation: Invitation, now: number): UserEntry => ({
  key: invitation.email,
  email: invitation.email,
  name: '',
  status: isExpired(invitation, now) ? 'expired' : 'pending',
  roles: rolesFromClaim(invitation.roles),
  createdAt: invitation.createdAt,
  activationCode: invitation.activationCode,
});

/** What one listing has loaded so far, in the server's order, and whether it has more pages. */
export interface Stream<Item> {
  items: readonly Item[];
  hasMore: boolean;
}

export type StreamName = 'people' | 'invitations';

export const NO_STREAM: Stream<never> = { items: [], hasMore: false };

export interface MergeOptions {
  /** A search is on: both listings answer in email order instead of newest first. */
  search: boolean;
  now?: number;
}

export interface MergedEntries {
  /** The entries safe to show, in list order, each once. */
  entries: UserEntry[];
  /** The listings whose next page moves the cut: what 'Load more' reads (none when all is shown). */
  limitedBy: StreamName[];
}

/**
 * The server's sort key: `{createdAt}#{userId}` or `{createdAt}#{email}` read newest first, or the
 * email read from a to z during a search.
 */
const sortKey = (entry: UserEntry, search: boolean): string =>
  search ? entry.email : `${entry.createdAt}#${entry.key}`;

/** By UTF-16 code units, not by locale: the server compares its keys as strings. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Listed {
  stream: StreamName;
  entry: UserEntry;
  sortKey: string;
  row: string;
  /** An invitation that is no row of its own (already taken up). */
  hidden: boolean;
}

/**
 * Negative when `a` comes before `b` in the list: by the server's key, then (a person and an
 * invitation with the same email during a search) by row, so no two entries ever tie.
 */
const compareListed = (a: Listed, b: Listed, search: boolean): number =>
  (search ? byCodeUnits(a.sortKey, b.sortKey) : byCodeUnits(b.sortKey, a.sortKey)) ||
  byCodeUnits(a.row, b.row);

/**
 * The merged admin list of SPEC section 3 over two paged listings: every loaded person is a
 * person's entry ('activated' or 'disabled'); every loaded invitation not taken up is an
 * invitation's entry keyed by email.
 *
 * A listing with more pages may still hold items that sort before anything the other listing has
 * loaded, so the list is cut at the earliest last-loaded item among the listings that have more:
 * an entry is shown only when no unread item can come before it. Rows already shown therefore
 * never move down when a later page arrives; 'Load more' reads the listings that set the cut.
 */
export const mergeEntries = (
  people: Stream<AdminUserListItem>,
  invitations: Stream<Invitation>,
  { search, now = Date.now() }: MergeOptions,
): MergedEntries => {
  const compare = (a: Listed, b: Listed) => compareListed(a, b, search);
  const listedAs = (stream: StreamName, entry: UserEntry, hidden = false): Listed => ({
    stream,
    entry,
    sortKey: sortKey(entry, search),
    row: rowKey(entry),
    hidden,
  });
  const listed: Listed[] = [
    ...people.items.map((user) => listedAs('people', personEntry(user))),
    ...invitations.items.map((invitation) =>
      listedAs(
        'invitations',
        invitationEntry(invitation, now),
        invitation.userId !== undefined || invitation.status === 'activated',
      ),
    ),
  ];

  // Where each listing with more pages stops: its loaded item that comes last (null when it has
  // loaded nothing yet, so any of its items may come first).
  const bounds = new Map<StreamName, Listed | null>();
  for (const [name, stream] of [
    ['people', people],
    ['invitations', invitations],
  ] as const) {
    if (!stream.hasMore) continue;
    bounds.set(
      name,
      listed
        .filter((item) => item.stream === name)
        .reduce<Listed | null>(
          (last, item) => (last === null || compare(item, last) > 0 ? item : last),
          null,
        ),
    );
  }

  // A listing's own loaded items come before its unread ones; another listing's item is safe only
  // when it comes before where this listing stops.
  const safe = (item: Listed): boolean =>
    [...bounds].every(
      ([name, bound]) => name === item.stream || (bound !== null && compare(item, bound) < 0),
    );

  const seen = new Set<string>();
  const entries = listed
    .filter((item) => !item.hidden && safe(item))
    .sort(compare)
    .filter((item) => {
      if (seen.has(item.row)) return false;
      seen.add(item.row);
      return true;
    })
    .map((item) => item.entry);

  // The listings that stop earliest: reading on from them moves the cut.
  const stops = [...bounds];
  const earliest = stops.some(([, bound]) => bound === null)
    ? null
    : stops.reduce<Listed | null>(
        (first, [, bound]) =>
          first === null || (bound !== null && compare(bound, first) < 0) ? bound : first,
        null,
      );
  const limitedBy = stops.filter(([, bound]) => bound === earliest).map(([name]) => name);
  return { entries, limitedBy };
};
