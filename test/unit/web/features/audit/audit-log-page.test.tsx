import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUDIT_EVENT_TYPES,
  AUDIT_TYPE_LABELS,
  type AuditEvent,
  type AuditPerson,
} from '../../../../../shared/audit';
import { DIRECTORY_MESSAGES } from '../../../../../shared/directory';
import { MESSAGES } from '../../../../../shared/messages';
import type { AdminUserListItem } from '../../../../../shared/schemas';
import * as cognito from '../../support/cognito-mock';
import {
  adminUser,
  auditEvent,
  completeProfile,
  passkeyItem,
  registrationOptions,
  registrationResponse,
  sessionUser,
} from '../../support/factories';
import * as passkey from '../../support/passkey-mock';
import { deferred, failure, fakeApi, json, type RecordedCall } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';
import { directoryRoutes } from '../../support/user-management';
import { SEARCH_DELAY_MS } from '../../../../../web/src/features/user-management/components/user-search';
import { expectBusy, expectNotBusy } from '../../support/busy';

/** Waits past the search field's pause, and as long again: a search it would send is sent by then. */
const pastSearchPause = () => new Promise((resolve) => setTimeout(resolve, SEARCH_DELAY_MS * 2));

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

const ADMIN = adminUser({
  userId: '11111111-1111-4111-8111-111111111111',
  email: 'ada@example.com',
  preferredName: 'Ada',
  familyName: 'Admin',
  roles: ['admins'],
});
const CLIENT = adminUser({
  userId: '22222222-2222-4222-8222-222222222222',
  email: 'alex@example.com',
  preferredName: 'Alex',
  familyName: 'Rivera',
});
const UNNAMED = adminUser({ userId: '33333333-3333-4333-8333-333333333333', email: 'zoe@example.com' });
delete UNNAMED.preferredName;
delete UNNAMED.familyName;
/** In the directory, named by no audit page: only a search finds them. */
const ALBERT = adminUser({
  userId: '55555555-5555-4555-8555-555555555555',
  email: 'albert@example.com',
  preferredName: 'Albert',
  familyName: 'Alvarez',
});
const GONE = '44444444-4444-4444-8444-444444444444';
const AUDIT = '/internal/v1/admin/audit';
const USERS = '/internal/v1/admin/users';
const DIRECTORY = [ADMIN, CLIENT, UNNAMED, ALBERT];

/** Someone as an audit page names them: no roles, status or dates. */
const asPerson = ({ userId, email, preferredName, familyName }: AdminUserListItem): AuditPerson => ({
  userId,
  email,
  ...(preferredName !== undefined && { preferredName }),
  ...(familyName !== undefined && { familyName }),
});

/** An audit page as the server answers it: the events, and the actors and subjects with a profile. */
const auditPage = (events: AuditEvent[], nextCursor?: string) => ({
  events,
  ...(nextCursor !== undefined && { nextCursor }),
  people: DIRECTORY.filter((user) =>
    events.some((event) => event.actorId === user.userId || event.subjectId === user.userId),
  ).map(asPerson),
});

/** GET /internal/v1/admin/audit over these events, honouring subjectId, actorId and type. */
const auditLog =
  (events: AuditEvent[]) =>
  ({ query }: RecordedCall) =>
    json(
      auditPage(
        events.filter(
          (event) =>
            (!query.subjectId || event.subjectId === query.subjectId) &&
            (!query.actorId || event.actorId === query.actorId) &&
            (!query.type || event.type === query.type),
        ),
      ),
    );

/** An event's time as its cell reads: the date, then the time of day to the second. */
const precise = (iso: string) =>
  `${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(iso))} ${new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }).format(new Date(iso))}`;

const options = (label: string) =>
  within(screen.getByLabelText(label))
    .getAllByRole('option')
    .map((option) => option.textContent);

/** The address and browser of the factory's events, under their actor ('From ' for screen readers). */
const FROM_MAC = 'From 203.0.113.7Chrome on macOS';

const rows = () =>
  within(screen.getByRole('table', { name: 'Audit events, newest first' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('Audit Log', () => {
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    cognito.givenSession(sessionUser(['admin']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile(),
      ...directoryRoutes({ users: () => DIRECTORY, invitations: () => [] }),
      [`GET ${AUDIT}`]: { events: [], people: [] },
    });
  });

  const open = async () => {
    const app = renderApp('/dashboard/audit');
    await screen.findByRole('heading', { level: 1, name: 'Audit Log' });
    await waitFor(() => expect(screen.queryByText(MESSAGES.loading)).not.toBeInTheDocument());
    return app;
  };

  it("shows every event in words, naming people from the page's people and anyone else by id", async () => {
    api.set(`GET ${AUDIT}`, {
      // GONE (erased) has no profile, so the page does not name them.
      people: [asPerson(CLIENT), asPerson(ADMIN)],
      events: [
        auditEvent({
          at: '2025-03-02T10:00:05.000Z',
          type: 'coach.assigned',
          actorId: ADMIN.userId,
          subjectId: CLIENT.userId,
          details: { coachId: GONE, previousCoachId: UNNAMED.userId },
        }),
        auditEvent({
          at: '2025-03-02T09:00:00.000Z',
          type: 'signin.failed',
          outcome: 'failure',
          actorId: undefined,
          subjectId: GONE,
          ip: '198.51.100.4',
          userAgent:
            'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Version/18.0 Mobile Safari/604.1',
          details: { reason: 'unknown_credential', clientIds: ['a', 'b'], locked: false },
        }),
      ],
    });
    await open();
    expect(
      within(screen.getByRole('table', { name: 'Audit events, newest first' }))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Time', 'Event', 'Actor', 'Subject', 'Details']);
    // An event's outcome under its name; the address and device it came from under its actor.
    expect(rows()).toEqual([
      [
        precise('2025-03-02T10:00:05.000Z'),
        'Coach assignedSuccess',
        `Ada Adminada@example.com${FROM_MAC}`,
        'Alex Riveraalex@example.com',
        `coachId: ${GONE}previousCoachId: ${UNNAMED.userId}`,
      ],
      [
        precise('2025-03-02T09:00:00.000Z'),
        'Sign-in failedFailure',
        '—NoneFrom 198.51.100.4Safari on iOS',
        GONE,
        'reason: unknown_credentialclientIds: a, blocked: false',
      ],
    ]);
    expect(screen.getByText('2 events shown')).toBeInTheDocument();
  });

  it('reads the newest page first, 50 events at a time', async () => {
    await open();
    expect(api.callsTo('GET', AUDIT).map((call) => call.query)).toEqual([{ limit: '50' }]);
  });

  it('opens without reading the user list', async () => {
    api.set(
      `GET ${AUDIT}`,
      auditLog([auditEvent({ actorId: ADMIN.userId, subjectId: CLIENT.userId, type: 'coach.assigned' })]),
    );
    await open();
    expect(rows()[0]?.slice(2, 4)).toEqual([
      `Ada Adminada@example.com${FROM_MAC}`,
      'Alex Riveraalex@example.com',
    ]);
    // Past the search field's pause: an empty search reads nothing either.
    await pastSearchPause();
    expect(api.callsTo('GET', USERS)).toEqual([]);
  });

  it('offers as Person the people named on the pages loaded, each once, by name', async () => {
    api.set(`GET ${AUDIT}`, {
      events: [
        auditEvent({ actorId: UNNAMED.userId, subjectId: UNNAMED.userId }),
        auditEvent({ actorId: CLIENT.userId, subjectId: GONE }),
        auditEvent({ actorId: ADMIN.userId, subjectId: CLIENT.userId }),
      ],
      people: [asPerson(UNNAMED), asPerson(CLIENT), asPerson(ADMIN)],
    });
    await open();
    expect(screen.getByRole('searchbox', { name: 'Search people by email' })).toHaveValue('');
    expect(options('Person')).toEqual([
      'Anyone',
      'Ada Admin (ada@example.com)',
      'Alex Rivera (alex@example.com)',
      'zoe@example.com',
    ]);
  });

  it('filters by a person found by email, as subject or as actor, and by type', async () => {
    api.set(
      `GET ${AUDIT}`,
      auditLog([
        auditEvent({ type: 'coach.assigned', actorId: ADMIN.userId, subjectId: CLIENT.userId }),
        auditEvent({ type: 'signin.succeeded', actorId: UNNAMED.userId, subjectId: UNNAMED.userId }),
      ]),
    );
    const app = await open();
    const person = screen.getByLabelText('Person');
    expect(options('Person')).toEqual([
      'Anyone',
      'Ada Admin (ada@example.com)',
      'Alex Rivera (alex@example.com)',
      'zoe@example.com',
    ]);

    const search = screen.getByRole('searchbox', { name: 'Search people by email' });
    expect(search).toHaveAttribute('type', 'search');
    expect(search.closest('form')).toBe(person.closest('form'));
    await app.user.type(search, 'al');
    await waitFor(() =>
      expect(options('Person')).toEqual([
        'Anyone',
        'Albert Alvarez (albert@example.com)',
        'Alex Rivera (alex@example.com)',
      ]),
    );
    // One request once typing pauses, not one per keystroke; never the whole list.
    expect(api.callsTo('GET', USERS).map((call) => call.query)).toEqual([{ q: 'al', limit: '20' }]);

    await app.user.selectOptions(person, 'Albert Alvarez (albert@example.com)');
    await waitFor(() =>
      expect(api.callsTo('GET', AUDIT).at(-1)?.query).toEqual({ subjectId: ALBERT.userId, limit: '50' }),
    );
    expect(screen.getByRole('radio', { name: 'Subject (acted on)' })).toBeChecked();
    expect(await screen.findByText('No events match these filters.')).toBeInTheDocument();

    // Cleared, the search gives way to the pages' people; the person picked stays picked and offered.
    await app.user.clear(search);
    await waitFor(() => expect(options('Person')).toEqual(['Anyone', 'Albert Alvarez (albert@example.com)']));
    expect(person).toHaveValue(ALBERT.userId);

    await app.user.click(screen.getByRole('radio', { name: 'Actor (did it)' }));
    await waitFor(() =>
      expect(api.callsTo('GET', AUDIT).at(-1)?.query).toEqual({ actorId: ALBERT.userId, limit: '50' }),
    );

    const type = screen.getByLabelText('Event type');
    expect(options('Event type')).toEqual([
      'All types',
      ...AUDIT_EVENT_TYPES.map((value) => AUDIT_TYPE_LABELS[value]),
    ]);
    await app.user.selectOptions(type, 'Coach note written');
    await waitFor(() =>
      expect(api.callsTo('GET', AUDIT).at(-1)?.query).toEqual({
        actorId: ALBERT.userId,
        type: 'note.created',
        limit: '50',
      }),
    );

    await app.user.selectOptions(person, 'Anyone');
    await waitFor(() =>
      expect(api.callsTo('GET', AUDIT).at(-1)?.query).toEqual({ type: 'note.created', limit: '50' }),
    );
    expect(screen.getByText('No events match these filters.')).toBeInTheDocument();
  });

  it("follows nextCursor with 'Load more', keeping the filters, until there is no more", async () => {
    const first = auditEvent({ type: 'passkey.added', at: '2025-03-03T09:00:00.000Z' });
    const second = auditEvent({ type: 'passkey.removed', at: '2025-03-02T09:00:00.000Z' });
    api.set(`GET ${AUDIT}`, (call) =>
      json(call.query.cursor === 'page-2' ? auditPage([second]) : auditPage([first], 'page-2')),
    );
    const app = await open();
    await app.user.selectOptions(screen.getByLabelText('Event type'), 'Passkey added');
    await screen.findByText('1 event shown');

    await app.user.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('2 events shown');
    expect(rows().map((row) => row[1])).toEqual(['Passkey addedSuccess', 'Passkey removedSuccess']);
    expect(api.callsTo('GET', AUDIT).at(-1)?.query).toEqual({
      type: 'passkey.added',
      limit: '50',
      cursor: 'page-2',
    });
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it("hands the focus to the table when 'Load more' reads the last page and leaves", async () => {
    api.set(`GET ${AUDIT}`, (call) =>
      json(call.query.cursor === 'page-2' ? auditPage([auditEvent()]) : auditPage([auditEvent()], 'page-2')),
    );
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('2 events shown');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    // Not back to the top of the page: reading goes on from the events.
    await waitFor(() => expect(screen.getByRole('region', { name: 'Audit events' })).toHaveFocus());
  });

  it("names the people of each page 'Load more' adds, and offers them too", async () => {
    api.set(`GET ${AUDIT}`, (call) =>
      json(
        call.query.cursor === 'page-2'
          ? auditPage([
              auditEvent({ type: 'coach.assigned', actorId: ADMIN.userId, subjectId: CLIENT.userId }),
            ])
          : auditPage(
              [auditEvent({ type: 'roles.changed', actorId: ADMIN.userId, subjectId: ADMIN.userId })],
              'page-2',
            ),
      ),
    );
    const app = await open();
    expect(options('Person')).toEqual(['Anyone', 'Ada Admin (ada@example.com)']);

    await app.user.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('2 events shown');
    expect(rows().map((row) => row.slice(1, 4))).toEqual([
      ['Roles changedSuccess', `Ada Adminada@example.com${FROM_MAC}`, 'Ada Adminada@example.com'],
      ['Coach assignedSuccess', `Ada Adminada@example.com${FROM_MAC}`, 'Alex Riveraalex@example.com'],
    ]);
    expect(options('Person')).toEqual([
      'Anyone',
      'Ada Admin (ada@example.com)',
      'Alex Rivera (alex@example.com)',
    ]);
    expect(api.callsTo('GET', USERS)).toEqual([]);
  });

  describe('with a person and a type, whose pages the server filters after reading them', () => {
    const MATCH = auditEvent({ type: 'passkey.added', actorId: CLIENT.userId, subjectId: CLIENT.userId });
    /** Unfiltered, one event naming Alex; filtered, `empty` pages with none, then MATCH on the last. */
    const sparseLog =
      (empty: number, last: AuditEvent[] = [MATCH]) =>
      ({ query }: RecordedCall) => {
        if (!query.type)
          return json(auditPage([auditEvent({ actorId: CLIENT.userId, subjectId: CLIENT.userId })]));
        const page = Number((query.cursor ?? 'page-0').slice('page-'.length));
        return json(page < empty ? auditPage([], `page-${page + 1}`) : auditPage(last));
      };
    const filterAlexAndPasskeyAdded = async () => {
      const app = await open();
      await app.user.selectOptions(screen.getByLabelText('Person'), 'Alex Rivera (alex@example.com)');
      await app.user.selectOptions(screen.getByLabelText('Event type'), 'Passkey added');
      return app;
    };

    const NONE_YET = 'No matching events among the most recent ones. Load more to search older events.';
    const filteredCursors = () =>
      api
        .callsTo('GET', AUDIT)
        .filter((call) => call.query.type)
        .map((call) => call.query.cursor);

    it("offers 'Load more' past a page with no event, one page per click, never saying none match", async () => {
      api.set(`GET ${AUDIT}`, sparseLog(2));
      const app = await filterAlexAndPasskeyAdded();
      expect(await screen.findByText(NONE_YET)).toBeInTheDocument();
      expect(filteredCursors()).toEqual([undefined]);

      await app.user.click(screen.getByRole('button', { name: 'Load more' }));
      await waitFor(() => expect(filteredCursors()).toEqual([undefined, 'page-1']));
      expect(await screen.findByText(NONE_YET)).toBeInTheDocument();
      expectNotBusy(screen.getByRole('button', { name: 'Load more' }));

      await app.user.click(screen.getByRole('button', { name: 'Load more' }));
      expect(await screen.findByText('1 event shown')).toBeInTheDocument();
      expect(rows().map((row) => row[1])).toEqual(['Passkey addedSuccess']);
      expect(filteredCursors()).toEqual([undefined, 'page-1', 'page-2']);
      expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
      expect(screen.queryByText('No events match these filters.')).not.toBeInTheDocument();
    });

    it("keeps focus on 'Load more' when the events it finds appear above it", async () => {
      api.set(`GET ${AUDIT}`, ({ query }: RecordedCall) => {
        if (!query.type)
          return json(auditPage([auditEvent({ actorId: CLIENT.userId, subjectId: CLIENT.userId })]));
        return json(query.cursor === 'page-1' ? auditPage([MATCH], 'page-2') : auditPage([], 'page-1'));
      });
      const app = await filterAlexAndPasskeyAdded();
      await screen.findByText(NONE_YET);
      await app.user.click(screen.getByRole('button', { name: 'Load more' }));
      expect(await screen.findByText('1 event shown')).toBeInTheDocument();
      expect(await screen.findByRole('button', { name: 'Load more' })).toHaveFocus();
    });

    it('says none match only once the last page is read with no event', async () => {
      const log = sparseLog(2, []);
      const secondPage = deferred<void>();
      api.set(`GET ${AUDIT}`, (call: RecordedCall) =>
        call.query.cursor === 'page-1' ? secondPage.promise.then(() => log(call)) : log(call),
      );
      const app = await filterAlexAndPasskeyAdded();
      await screen.findByText(NONE_YET);
      await app.user.click(screen.getByRole('button', { name: 'Load more' }));
      expectBusy(await screen.findByRole('button', { name: 'Loading...' }));
      secondPage.resolve();
      // The second page is in, still with none matching, and older pages remain.
      expectNotBusy(await screen.findByRole('button', { name: 'Load more' }));
      expect(screen.getByText(NONE_YET)).toBeInTheDocument();
      expect(screen.queryByText('No events match these filters.')).not.toBeInTheDocument();
      await app.user.click(await screen.findByRole('button', { name: 'Load more' }));
      expect(await screen.findByText('No events match these filters.')).toBeInTheDocument();
      expect(filteredCursors()).toEqual([undefined, 'page-1', 'page-2']);
      expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
      // The pressed button left with the list: focus goes to what took the list's place.
      await waitFor(() =>
        expect(screen.getByRole('group', { name: 'No events match these filters.' })).toHaveFocus(),
      );
    });
  });

  it("shows 'Loading...' on the button while the next page loads", async () => {
    const next = deferred<Response>();
    api.set(`GET ${AUDIT}`, (call) =>
      call.query.cursor ? next.promise : json(auditPage([auditEvent()], 'page-2')),
    );
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Load more' }));
    expectBusy(await screen.findByRole('button', { name: 'Loading...' }));
    next.resolve(json(auditPage([auditEvent()])));
    await screen.findByText('2 events shown');
  });

  it('keeps the events shown when the next page fails, with the reason', async () => {
    api.set(`GET ${AUDIT}`, (call) =>
      call.query.cursor ? failure(400, 'Cursor is not valid') : json(auditPage([auditEvent()], 'page-2')),
    );
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the audit logCursor is not valid',
    );
    expect(rows()).toHaveLength(1);
    expectNotBusy(screen.getByRole('button', { name: 'Load more' }));
  });

  it("shows the admin's own passkey change when opened again, within its 60 s of freshness", async () => {
    let events: AuditEvent[] = [];
    api.set(`GET ${AUDIT}`, () => json(auditPage(events)));
    api.set('GET /v1/users/me/activity', { events: [] });
    api.set('GET /v1/users/me/passkeys', { passkeys: [passkeyItem()], userHandle: 'YWNjb3VudC1oYW5kbGU' });
    api.set('POST /v1/users/me/passkeys/options', registrationOptions());
    api.set('POST /v1/users/me/passkeys', () => {
      events = [auditEvent({ type: 'passkey.added', actorId: ADMIN.userId, subjectId: ADMIN.userId })];
      return json(passkeyItem({ credentialId: 'bmV3LWNyZWRlbnRpYWw', name: 'YubiKey' }), 201);
    });
    passkey.createPasskey.mockResolvedValue(registrationResponse());
    const app = await open();
    expect(screen.getByText('No events yet.')).toBeInTheDocument();

    await app.user.click(screen.getByRole('link', { name: 'Profile' }));
    const passkeys = within(await screen.findByRole('region', { name: 'Passkeys' }));
    await app.user.click(await passkeys.findByRole('button', { name: 'Add a passkey' }));
    await passkeys.findByText('YubiKey added.');

    await app.user.click(screen.getByRole('link', { name: 'Audit Log' }));
    await screen.findByRole('table', { name: 'Audit events, newest first' });
    expect(rows()[0]).toContain(`${AUDIT_TYPE_LABELS['passkey.added']}Success`);
    // Two pages, the Profile page between them: a longer walk than most.
  }, 15_000);

  it("says 'No events yet.' for an empty log", async () => {
    await open();
    expect(screen.getByText('No events yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says why a search failed, still offering the person picked', async () => {
    api.set(`GET ${USERS}`, failure(500, 'down'));
    api.set(`GET ${AUDIT}`, auditLog([auditEvent({ actorId: CLIENT.userId, subjectId: CLIENT.userId })]));
    const app = await open();
    expect(rows()[0]?.[3]).toBe('Alex Riveraalex@example.com');
    await app.user.selectOptions(screen.getByLabelText('Person'), 'Alex Rivera (alex@example.com)');
    await waitFor(() =>
      expect(api.callsTo('GET', AUDIT).at(-1)?.query).toEqual({ subjectId: CLIENT.userId, limit: '50' }),
    );

    const search = screen.getByRole('searchbox', { name: 'Search people by email' });
    await app.user.type(search, 'al');
    await waitFor(() => expect(search).toHaveAccessibleDescription('down'));
    expect(options('Person')).toEqual(['Anyone', 'Alex Rivera (alex@example.com)']);
    expect(screen.getByLabelText('Person')).toHaveValue(CLIENT.userId);
  });

  it('says why a search with a space cannot be sent, and sends none', async () => {
    await open();
    const search = screen.getByRole('searchbox', { name: 'Search people by email' });
    // The field's pause on a fake clock (only its timers: the page has loaded), the text typed at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.change(search, { target: { value: 'a b' } });
      expect(search).toHaveAccessibleDescription(DIRECTORY_MESSAGES.search);
      expect(search).toHaveAttribute('aria-invalid', 'true');
      await act(() => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS * 4));
      expect(api.callsTo('GET', USERS)).toEqual([]);

      // The control: the same field, with a prefix, sends its search once the pause is over, not before.
      fireEvent.change(search, { target: { value: 'ab' } });
      await act(() => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS - 1));
      expect(api.callsTo('GET', USERS)).toEqual([]);
      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(api.callsTo('GET', USERS).map((call) => call.query.q)).toEqual(['ab']);
      await act(() => vi.runOnlyPendingTimersAsync());
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows 'Loading...' first", async () => {
    api.set(`GET ${AUDIT}`, () => new Promise<Response>(() => undefined));
    renderApp('/dashboard/audit');
    await screen.findByRole('heading', { level: 1, name: 'Audit Log' });
    expect(screen.getByText(MESSAGES.loading)).toBeInTheDocument();
  });

  it('explains a log that failed to load, and tries again', async () => {
    let answer = failure(400, 'Cursor is not valid');
    api.set(`GET ${AUDIT}`, () => answer.clone());
    const app = await open();
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load the audit logCursor is not valid');
    answer = json(auditPage([auditEvent()]));
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('1 event shown')).toBeInTheDocument();
  });
});
