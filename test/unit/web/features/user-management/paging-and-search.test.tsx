import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DIRECTORY_MESSAGES, type DirectoryCounts } from '../../../../../shared/directory';
import { MESSAGES } from '../../../../../shared/messages';
import type { AdminUserListItem, Invitation } from '../../../../../shared/schemas';
import * as cognito from '../../support/cognito-mock';
import { adminUser, completeProfile, invitation, sessionUser } from '../../support/factories';
import { deferred, failure, fakeApi, type RecordedCall } from '../../support/fake-api';
import {
  cursorAfter,
  directoryRoutes,
  invitationKey,
  openUserManagement,
  personKey,
  shownEmails,
} from '../../support/user-management';
import { SEARCH_DELAY_MS } from '../../../../../web/src/features/user-management/components/user-search';
import { expectBusy, expectNotBusy } from '../../support/busy';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const USERS = '/internal/v1/admin/users';
const INVITATIONS = '/internal/v1/admin/invitations';

let serial = 0;
const person = (email: string, createdAt: string): AdminUserListItem =>
  adminUser({
    userId: `00000000-0000-4000-8000-${String((serial += 1)).padStart(12, '0')}`,
    email,
    createdAt,
  });
const invited = (email: string, createdAt: string): Invitation =>
  invitation({ email, createdAt, expiresAt: '2999-01-01T00:00:00.000Z' });
const day = (n: number) => `2025-03-${String(n).padStart(2, '0')}T09:00:00.000Z`;

// People and invitations whose times interleave unevenly: newest first the list reads
// p10, p9, i8, i7, i6, p5, p4, i3, i2, p1.
const P10 = person('p10@example.com', day(10));
const P9 = person('p9@example.com', day(9));
const P5 = person('p5@example.com', day(5));
const P4 = person('p4@example.com', day(4));
const P1 = person('p1@example.com', day(1));
const I8 = invited('i8@example.com', day(8));
const I7 = invited('i7@example.com', day(7));
const I6 = invited('i6@example.com', day(6));
const I3 = invited('i3@example.com', day(3));
const I2 = invited('i2@example.com', day(2));
const NEWEST_FIRST = ['p10', 'p9', 'i8', 'i7', 'i6', 'p5', 'p4', 'i3', 'i2', 'p1'].map(
  (name) => `${name}@example.com`,
);

/** The stream calls of the page (the coach picker's own reading left out). */
const streamCalls = (api: ReturnType<typeof fakeApi>, path: string): RecordedCall[] =>
  api.callsTo('GET', path).filter((call) => call.query.role === undefined);
const loadMore = () => screen.getByRole('button', { name: 'Load more' });
const stat = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('User Management: pages, search and counts', () => {
  let api: ReturnType<typeof fakeApi>;
  let users: AdminUserListItem[];
  let invitations: Invitation[];

  /** The server with pages of `pageSize` (else of the `limit` asked for). */
  const serve = (options: { pageSize?: number; counts?: () => DirectoryCounts } = {}) =>
    fakeApi({
      'GET /v1/users/me': completeProfile(),
      ...directoryRoutes({ users: () => users, invitations: () => invitations, ...options }),
    });

  beforeEach(() => {
    users = [P10, P9, P5, P4, P1];
    invitations = [I8, I7, I6, I3, I2];
    cognito.givenSession(sessionUser(['admin']));
    api = serve({ pageSize: 2 });
  });

  it('asks for 50 a page, newest first, with no search', async () => {
    api = serve();
    await openUserManagement();
    expect(streamCalls(api, USERS).map((call) => call.query)).toEqual([{ limit: '50' }]);
    expect(streamCalls(api, INVITATIONS).map((call) => call.query)).toEqual([
      { status: 'pending', limit: '50' },
    ]);
    expect(shownEmails()).toEqual(NEWEST_FIRST);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('shows every entry once, in order, over Load more pages, never one a later page would put above it', async () => {
    const app = await openUserManagement();
    const seen: string[][] = [shownEmails() as string[]];
    while (screen.queryByRole('button', { name: 'Load more' })) {
      const before = shownEmails().length;
      await app.user.click(loadMore());
      await waitFor(() => expect(shownEmails().length).toBeGreaterThan(before));
      seen.push(shownEmails() as string[]);
    }
    // Each step is the start of the full list: nothing shown is later pushed down by an older row.
    for (const shown of seen) expect(shown).toEqual(NEWEST_FIRST.slice(0, shown.length));
    expect(seen.map((shown) => shown.length)).toEqual([2, 4, 7, 8, 10]);
    expect(shownEmails()).toEqual(NEWEST_FIRST);
  });

  it('holds back a loaded entry until the other list has shown what comes before it', async () => {
    const app = await openUserManagement();
    // i8 and i7 are loaded, but people not read yet could be newer than them.
    expect(shownEmails()).toEqual(['p10@example.com', 'p9@example.com']);
    await app.user.click(loadMore());
    // p5 is loaded now, but i6 (not read yet) is newer.
    await waitFor(() => expect(shownEmails()).toHaveLength(4));
    expect(shownEmails()).not.toContain('p5@example.com');
    await app.user.click(loadMore());
    await waitFor(() => expect(shownEmails()).toContain('p5@example.com'));
    expect(shownEmails().indexOf('i6@example.com')).toBeLessThan(shownEmails().indexOf('p5@example.com'));
  });

  it("hands the focus to the table when 'Load more' reads the last page and leaves", async () => {
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('tab', { name: /^Pending Invitations/ }));
    await app.user.click(loadMore());
    await waitFor(() => expect(shownEmails()).toHaveLength(4));
    expect(loadMore()).toHaveFocus();
    await app.user.click(loadMore());
    await waitFor(() => expect(shownEmails()).toHaveLength(5));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    // Not back to the top of the page: reading goes on from the table the button made longer.
    await waitFor(() => expect(screen.getByRole('region', { name: 'Users' })).toHaveFocus());
  });

  it('asks only the list that holds the cut back for its next page, with its cursor', async () => {
    const app = await openUserManagement();
    await app.user.click(loadMore());
    await waitFor(() => expect(shownEmails()).toHaveLength(4));
    expect(streamCalls(api, USERS).map((call) => call.query.cursor)).toEqual([
      undefined,
      cursorAfter(personKey(P9)),
    ]);
    expect(streamCalls(api, INVITATIONS)).toHaveLength(1);

    await app.user.click(loadMore());
    await waitFor(() => expect(shownEmails()).toHaveLength(7));
    expect(streamCalls(api, INVITATIONS).map((call) => call.query.cursor)).toEqual([
      undefined,
      cursorAfter(invitationKey(I7)),
    ]);
    expect(streamCalls(api, USERS)).toHaveLength(2);
  });

  it("says 'Loading...' and waits while the next page is read", async () => {
    const answer = deferred<Response>();
    const app = await openUserManagement();
    const routes = directoryRoutes({ users: () => users, invitations: () => invitations, pageSize: 2 });
    api.set(`GET ${USERS}`, (call) => (call.query.cursor ? answer.promise : routes[`GET ${USERS}`](call)));
    await app.user.click(loadMore());
    expectBusy(await screen.findByRole('button', { name: 'Loading...' }));
    answer.resolve(routes[`GET ${USERS}`](streamCalls(api, USERS).at(-1)!));
    expectNotBusy(await screen.findByRole('button', { name: 'Load more' }));
    expect(shownEmails()).toHaveLength(4);
  });

  it('keeps the rows and says why when the next page cannot be read', async () => {
    const app = await openUserManagement();
    const routes = directoryRoutes({ users: () => users, invitations: () => invitations, pageSize: 2 });
    api.set(`GET ${USERS}`, (call) =>
      call.query.cursor ? failure(400, 'Cursor is not valid') : routes[`GET ${USERS}`](call),
    );
    await app.user.click(loadMore());
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load usersCursor is not valid');
    expect(shownEmails()).toEqual(['p10@example.com', 'p9@example.com']);
    expectNotBusy(loadMore());
  });

  it('pages the Pending Invitations and Activated tabs through their own list', async () => {
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('tab', { name: /^Pending Invitations/ }));
    expect(shownEmails()).toEqual(['i8@example.com', 'i7@example.com']);
    await app.user.click(loadMore());
    await waitFor(() => expect(shownEmails()).toHaveLength(4));
    await app.user.click(loadMore());
    await waitFor(() => expect(shownEmails()).toHaveLength(5));
    expect(shownEmails()).toEqual(['i8', 'i7', 'i6', 'i3', 'i2'].map((name) => `${name}@example.com`));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    await app.user.click(screen.getByRole('tab', { name: /^Activated/ }));
    expect(shownEmails()).toEqual(['p10@example.com', 'p9@example.com']);
    expect(streamCalls(api, USERS)).toHaveLength(1);
  });

  it('takes the stat cards and tab counts from the server counters, not from the rows read', async () => {
    api = serve({ pageSize: 2, counts: () => ({ people: 120, disabled: 3, pendingInvitations: 7 }) });
    const app = await openUserManagement();
    expect(stat('Total Users')).toBe('127');
    expect(stat('Pending Invitations')).toBe('7');
    expect(stat('Active Users')).toBe('120');
    expect(screen.getByRole('tab', { name: 'All Users (127)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Pending Invitations (7)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Activated (120)' })).toBeInTheDocument();

    // A search narrows the table, never the counters.
    await app.user.type(screen.getByRole('searchbox', { name: 'Search by email' }), 'p1');
    await waitFor(() => expect(shownEmails()).toEqual(['p10@example.com', 'p1@example.com']));
    expect(stat('Total Users')).toBe('127');
    expect(screen.getByRole('tab', { name: 'Activated (120)' })).toBeInTheDocument();
  });

  it('shows the counts of the page read last: Load more brings newer ones', async () => {
    let people = 120;
    api = serve({ pageSize: 2, counts: () => ({ people, disabled: 0, pendingInvitations: 7 }) });
    const app = await openUserManagement();
    await app.user.click(screen.getByRole('tab', { name: /^Activated/ }));
    expect(stat('Active Users')).toBe('120');

    // Someone activated meanwhile: the next page's counters say so.
    people = 121;
    await app.user.click(loadMore());
    await waitFor(() => expect(stat('Active Users')).toBe('121'));
    expect(screen.getByRole('tab', { name: 'Activated (121)' })).toBeInTheDocument();
  });

  describe('search', () => {
    const AMY = person('amy@example.com', day(11));
    const AVA = person('ava@example.com', day(1));
    const AXEL = person('axel@example.com', day(20));
    const ABE = invited('abe@example.com', day(5));
    const ANN = invited('ann@example.com', day(30));
    const ART = invited('art@example.com', day(2));
    const BOB = invited('bob@example.com', day(3));
    const BY_EMAIL = ['abe', 'amy', 'ann', 'art', 'ava', 'axel'].map((name) => `${name}@example.com`);

    beforeEach(() => {
      users = [AMY, AVA, AXEL, ...users];
      invitations = [ABE, ANN, ART, BOB, ...invitations];
    });

    const search = async (app: Awaited<ReturnType<typeof openUserManagement>>, text: string) => {
      const field = screen.getByRole('searchbox', { name: 'Search by email' });
      await app.user.clear(field);
      if (text) await app.user.type(field, text);
    };

    it('sends the prefix as q once typing pauses, lowercased, and lists matches by email', async () => {
      const app = await openUserManagement();
      expect(screen.getByRole('searchbox', { name: 'Search by email' })).toHaveAttribute('type', 'search');
      await search(app, 'A');
      await waitFor(() => expect(shownEmails()).toEqual(BY_EMAIL.slice(0, 3)));
      // One request for the pause, not one per keystroke.
      expect(streamCalls(api, USERS).map((call) => call.query)).toEqual([
        { limit: '50' },
        { limit: '50', q: 'a' },
      ]);
      expect(streamCalls(api, INVITATIONS).at(-1)?.query).toEqual({ status: 'pending', limit: '50', q: 'a' });

      while (screen.queryByRole('button', { name: 'Load more' })) {
        const before = shownEmails().length;
        await app.user.click(loadMore());
        await waitFor(() => expect(shownEmails().length).toBeGreaterThan(before));
        expect(shownEmails()).toEqual(BY_EMAIL.slice(0, shownEmails().length));
      }
      expect(shownEmails()).toEqual(BY_EMAIL);
      expect(
        [...streamCalls(api, USERS), ...streamCalls(api, INVITATIONS)]
          .filter((call) => call.query.cursor)
          .every((call) => call.query.q === 'a'),
      ).toBe(true);
    });

    it('starts a search from its first page, and finds the pages read before once it is cleared', async () => {
      const app = await openUserManagement();
      const firstPages = ['ann', 'axel', 'amy', 'p10', 'p9'].map((name) => `${name}@example.com`);
      expect(shownEmails()).toEqual(firstPages.slice(0, 3));
      await app.user.click(loadMore());
      await waitFor(() => expect(shownEmails()).toEqual(firstPages));
      expect(streamCalls(api, USERS).at(-1)?.query.cursor).toBeDefined();

      await search(app, 'an');
      await waitFor(() => expect(shownEmails()).toEqual(['ann@example.com']));
      expect(streamCalls(api, USERS).at(-1)?.query).toEqual({ limit: '50', q: 'an' });
      expect(streamCalls(api, INVITATIONS).at(-1)?.query).toEqual({
        status: 'pending',
        limit: '50',
        q: 'an',
      });
      expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

      await search(app, '');
      await waitFor(() => expect(shownEmails()).toEqual(firstPages));
    });

    /** What the page's live regions say now, the empty ones left out. */
    const said = () =>
      screen
        .getAllByRole('status')
        .map((region) => region.textContent)
        .filter(Boolean);

    it('says what a search shows once its answer is in, once per search, and nothing on the first load', async () => {
      const app = await openUserManagement();
      expect(said()).toEqual([]);
      await search(app, 'a');
      await waitFor(() => expect(said()).toEqual(['3 people shown']));
      expect(shownEmails()).toHaveLength(3);
      // Load more adds rows, not news: the search's count is said once.
      await app.user.click(loadMore());
      await waitFor(() => expect(shownEmails().length).toBeGreaterThan(3));
      expect(said()).toEqual(['3 people shown']);

      await search(app, 'an');
      await waitFor(() => expect(said()).toEqual(['1 person shown']));
      expect(shownEmails()).toEqual(['ann@example.com']);

      // While a search loads, the last search's count is no longer said (the table's spinner may be).
      const answer = deferred<void>();
      const routes = directoryRoutes({ users: () => users, invitations: () => invitations, pageSize: 2 });
      api.set(`GET ${USERS}`, (call) =>
        call.query.q === 'zed'
          ? answer.promise.then(() => routes[`GET ${USERS}`](call))
          : routes[`GET ${USERS}`](call),
      );
      await search(app, 'Zed');
      await waitFor(() => expect(streamCalls(api, USERS).at(-1)?.query.q).toBe('zed'));
      expect(said()).not.toContain('1 person shown');
      answer.resolve();
      await waitFor(() => expect(said()).toEqual(["No one's email starts with 'zed'."]));
    });

    it('says the search matched no one, in every tab, not that the list is empty', async () => {
      const app = await openUserManagement();
      const panel = () => within(screen.getByRole('tabpanel'));
      await search(app, 'Zed');
      expect(await panel().findByText("No one's email starts with 'zed'.")).toBeInTheDocument();
      for (const tab of [/^Pending Invitations/, /^Activated/]) {
        await app.user.click(screen.getByRole('tab', { name: tab }));
        expect(panel().getByText("No one's email starts with 'zed'.")).toBeInTheDocument();
      }
      for (const empty of [MESSAGES.noUsers, MESSAGES.noPendingInvitations, MESSAGES.noActivatedUsers])
        expect(screen.queryByText(empty)).not.toBeInTheDocument();
      // Cleared, the tab's own empty message is back where the list really is empty: none here.
      await search(app, '');
      await waitFor(() => expect(screen.queryByText(/No one's email/)).not.toBeInTheDocument());
    });

    it('says why a search with a space cannot be sent, and sends none', async () => {
      await openUserManagement();
      const field = screen.getByRole('searchbox', { name: 'Search by email' });
      const searches = () => streamCalls(api, USERS).filter((call) => call.query.q !== undefined);
      // The field's pause on a fake clock (only its timers: the page has loaded), the text typed at once.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        fireEvent.change(field, { target: { value: 'a b' } });
        expect(field).toHaveAccessibleDescription(DIRECTORY_MESSAGES.search);
        expect(field).toHaveAttribute('aria-invalid', 'true');
        await act(() => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS * 4));
        expect(searches()).toEqual([]);
        expect(shownEmails()).toEqual(['ann@example.com', 'axel@example.com', 'amy@example.com']);

        // The control: the same field, with a prefix, sends its search once the pause is over, not before.
        fireEvent.change(field, { target: { value: 'ax' } });
        await act(() => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS - 1));
        expect(searches()).toEqual([]);
        await act(() => vi.advanceTimersByTimeAsync(1));
        expect(searches().map((call) => call.query.q)).toEqual(['ax']);
        await act(() => vi.runOnlyPendingTimersAsync());
      } finally {
        vi.useRealTimers();
      }
      await waitFor(() => expect(shownEmails()).toEqual(['axel@example.com']));
    });
  });
});
