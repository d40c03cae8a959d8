import { describe, expect, it } from 'vitest';
import type { AdminUserListItem, Invitation } from '../../../../../shared/schemas';
import {
  mergeEntries,
  NO_STREAM,
  rowKey,
  type Stream,
  type StreamName,
} from '../../../../../web/src/features/user-management/merge-entries';
import { adminUser, invitation } from '../../support/factories';

const NOW = Date.parse('2025-06-01T00:00:00.000Z');

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Few distinct times and names, so people and invitations often share a time or an email. */
const directory = (next: () => number) => {
  const pick = (n: number) => Math.floor(next() * n);
  const time = () => `2025-03-0${1 + pick(4)}T09:00:00.000Z`;
  const name = () => `${'abcdef'[pick(6)]}${'xyz'[pick(3)]}${pick(3)}`;
  const emails = new Set<string>();
  const people: AdminUserListItem[] = Array.from({ length: pick(12) }, (_, index) => {
    let email = `${name()}@example.com`;
    while (emails.has(email)) email = `${name()}${index}@example.com`;
    emails.add(email);
    return adminUser({ userId: uuid(index + 1), email, createdAt: time() });
  });
  // An invitation may share its email with a person (one who was invited again).
  const invited = new Set<string>();
  const invitations: Invitation[] = Array.from({ length: pick(12) }, () => `${name()}@example.com`)
    .filter((email) => !invited.has(email) && invited.add(email))
    .map((email) => invitation({ email, createdAt: time(), expiresAt: '2999-01-01T00:00:00.000Z' }));
  return { people, invitations, pageSizes: { people: 1 + pick(4), invitations: 1 + pick(4) } };
};

/** The server: newest first by `{createdAt}#{id}`, or by email during a search. */
const serverOrder = <Item extends { email: string; createdAt: string }>(
  items: readonly Item[],
  id: (item: Item) => string,
  search: boolean,
) => {
  const key = (item: Item) => (search ? item.email : `${item.createdAt}#${id(item)}`);
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : 1) * (search ? 1 : -1));
};

/** The whole directory in list order, worked out on its own: by key, then invitation before person. */
const listOrder = (
  people: readonly AdminUserListItem[],
  invitations: readonly Invitation[],
  search: boolean,
) =>
  [
    ...people.map((user) => ({
      row: `person-${user.userId}`,
      key: search ? user.email : `${user.createdAt}#${user.userId}`,
    })),
    ...invitations.map((invite) => ({
      row: `invitation-${invite.email}`,
      key: search ? invite.email : `${invite.createdAt}#${invite.email}`,
    })),
  ]
    .sort((a, b) => {
      if (a.key !== b.key) return (a.key < b.key ? -1 : 1) * (search ? 1 : -1);
      return a.row < b.row ? -1 : 1;
    })
    .map(({ row }) => row);

/**
 * Reads both listings the way the page does, page by page, and returns every list shown on the way
 * and the rows of the whole directory in list order.
 */
const pageThrough = (seed: number, search: boolean) => {
  const { people, invitations, pageSizes } = directory(random(seed));
  const ordered = {
    people: serverOrder(people, (user) => user.userId, search),
    invitations: serverOrder(invitations, (invite) => invite.email, search),
  };
  const read: Record<StreamName, number> = {
    people: Math.min(pageSizes.people, people.length),
    invitations: Math.min(pageSizes.invitations, invitations.length),
  };
  const stream = <Item>(name: StreamName, items: Item[]): Stream<Item> => ({
    items: items.slice(0, read[name]),
    hasMore: read[name] < items.length,
  });
  const shown: string[][] = [];
  for (let step = 0; step < 50; step += 1) {
    const merged = mergeEntries(
      stream('people', ordered.people),
      stream('invitations', ordered.invitations),
      {
        search,
        now: NOW,
      },
    );
    shown.push(merged.entries.map(rowKey));
    if (merged.limitedBy.length === 0) break;
    for (const name of merged.limitedBy) read[name] += pageSizes[name];
  }
  return { shown, all: listOrder(people, invitations, search) };
};

describe('mergeEntries over pages', () => {
  it.each([false, true])(
    'with search %s: every list shown starts the whole list, each row once, and the last is all of it',
    (search) => {
      for (let seed = 1; seed <= 300; seed += 1) {
        const { shown, all } = pageThrough(seed, search);
        expect(new Set(all).size, `seed ${seed}`).toBe(all.length);
        for (const rows of shown) expect(rows, `seed ${seed}`).toEqual(all.slice(0, rows.length));
        expect(shown.at(-1), `seed ${seed}`).toEqual(all);
      }
    },
  );

  it('holds back an invitation that an unread page of people could still put below a newer person', () => {
    const newest = adminUser({
      userId: uuid(1),
      email: 'new@example.com',
      createdAt: '2025-03-09T09:00:00.000Z',
    });
    const older = invitation({ email: 'old@example.com', createdAt: '2025-03-05T09:00:00.000Z' });
    const merged = mergeEntries(
      { items: [newest], hasMore: true },
      { items: [older], hasMore: false },
      { search: false, now: NOW },
    );
    expect(merged.entries.map((entry) => entry.email)).toEqual(['new@example.com']);
    expect(merged.limitedBy).toEqual(['people']);
  });

  it('shows nothing of the other list while a list with more pages has read none', () => {
    const merged = mergeEntries(
      { items: [adminUser()], hasMore: false },
      { items: [], hasMore: true },
      { search: false, now: NOW },
    );
    expect(merged.entries).toEqual([]);
    expect(merged.limitedBy).toEqual(['invitations']);
  });

  it('shows a row read twice (pages overlapping after a change) once', () => {
    const alex = adminUser({ userId: uuid(1) });
    const merged = mergeEntries({ items: [alex, alex], hasMore: false }, NO_STREAM, {
      search: false,
      now: NOW,
    });
    expect(merged.entries).toHaveLength(1);
  });

  it('leaves out an invitation already taken up and lends nothing to its person', () => {
    const alex = adminUser({ userId: uuid(1), email: 'alex@example.com' });
    const used = invitation({ email: 'ALEX@example.com', status: 'activated', userId: alex.userId });
    const merged = mergeEntries(
      { items: [alex], hasMore: false },
      { items: [used], hasMore: false },
      { search: false, now: NOW },
    );
    expect(merged.entries).toEqual([
      expect.objectContaining({ key: alex.userId, email: 'alex@example.com' }),
    ]);
    expect(merged.entries[0]).not.toHaveProperty('activationCode');
  });
});
