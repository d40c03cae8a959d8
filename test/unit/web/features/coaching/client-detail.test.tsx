import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { COACHING_MESSAGES, type CoachNote } from '../../../../../shared/coaching';
import type { Measurement } from '../../../../../shared/health-schemas';
import { HEALTH_MESSAGES } from '../../../../../shared/health-messages';
import { MESSAGES } from '../../../../../shared/messages';
import { periodStart } from '../../../../../web/src/features/health/period';
import * as cognito from '../../support/cognito-mock';
import {
  coachClient,
  coachNote,
  completeProfile,
  mealLog,
  measurement,
  sessionUser,
} from '../../support/factories';
import { deferred, failure, fakeApi, json } from '../../support/fake-api';
import { heardOnFocus } from '../../support/focus';
import { renderApp } from '../../support/render-app';
import { expectBusy, expectNotBusy } from '../../support/busy';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));
// jsdom has no canvas: the chart library is a stand-in (the charts are tested on Metrics).
vi.mock('uplot', () => ({
  default: class FakeUPlot {
    static rangeNum = (min: number, max: number) => [min, max];
    setSize() {}
    destroy() {}
  },
}));

const CLIENT = coachClient({
  userId: '11111111-1111-4111-8111-111111111111',
  email: 'alex@example.com',
  preferredName: 'Alex',
  familyName: 'Rivera',
});
const BASE = `/v1/coach/clients/${CLIENT.userId}`;
const HOUR = 3_600_000;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();
const when = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const notesSection = () => within(screen.getByRole('region', { name: 'Coach notes' }));
const noteItems = () =>
  within(notesSection().getByRole('list', { name: 'Notes, newest first' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('Client detail', () => {
  let measurements: Measurement[];
  let notes: CoachNote[];
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    measurements = [];
    notes = [];
    cognito.givenSession(sessionUser(['coach']));
    api = fakeApi({
      // The coach reads in their own system: imperial here.
      'GET /v1/users/me': completeProfile({ measurementSystem: 'imperial' }),
      'GET /v1/coach/clients': { clients: [CLIENT] },
      [`GET ${BASE}/measurements`]: () => json({ items: measurements }),
      [`GET ${BASE}/logs`]: { items: [] },
      [`GET ${BASE}/notes`]: () => json({ notes }),
      [`POST ${BASE}/notes`]: (call) => {
        const note = coachNote({ text: (call.body as { text: string }).text, createdAt: hoursAgo(0) });
        notes = [note, ...notes];
        return json(note, 201);
      },
    });
  });

  const open = async () => {
    const app = renderApp(`/dashboard/clients/${CLIENT.userId}`);
    await screen.findByRole('heading', { level: 1, name: 'Alex Rivera' });
    await waitFor(() => expect(screen.queryByText(MESSAGES.loading)).not.toBeInTheDocument());
    return app;
  };

  it("shows the client's name and email, with a way back to My Clients", async () => {
    await open();
    expect(screen.getByText('alex@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to My Clients' })).toHaveAttribute(
      'href',
      '/dashboard/clients',
    );
    // The browser tab (and so its history) does not say whose page it was.
    await waitFor(() => expect(document.title).toBe('Client · Metabolic Coaching'));
  });

  it("reads the client's records from the coach routes over 30 days, and 7 or 90 on request", async () => {
    const app = await open();
    expect(api.callsTo('GET', `${BASE}/measurements`).map((call) => call.query)).toEqual([
      { from: periodStart(30), limit: '200' },
    ]);
    expect(api.callsTo('GET', `${BASE}/logs`).map((call) => call.query)).toEqual([
      { from: periodStart(30), limit: '200' },
    ]);
    expect(api.callsTo('GET', '/v1/measurements')).toHaveLength(0);

    await app.user.click(screen.getByRole('radio', { name: '7 days' }));
    await waitFor(() =>
      expect(api.callsTo('GET', `${BASE}/logs`).at(-1)?.query).toEqual({
        from: periodStart(7),
        limit: '200',
      }),
    );
    await app.user.click(screen.getByRole('radio', { name: '90 days' }));
    await waitFor(() =>
      expect(api.callsTo('GET', `${BASE}/measurements`).at(-1)?.query.from).toBe(periodStart(90)),
    );
  });

  it("lists the client's entries before the period on request, from the coach routes, read-only", async () => {
    const old = measurement({
      userId: CLIENT.userId,
      type: 'weight',
      value: 70,
      takenAt: hoursAgo(200 * 24),
    });
    api.set(`GET ${BASE}/measurements`, (call) => json({ items: call.query.to ? [old] : [] }));
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Show older entries' }));
    const older = await screen.findByRole('region', { name: 'Older entries' });
    await waitFor(() => expect(within(older).getAllByRole('listitem')).toHaveLength(1));
    const before = new Date(Date.parse(periodStart(30)) - 1).toISOString();
    for (const path of [`${BASE}/measurements`, `${BASE}/logs`])
      expect(api.callsTo('GET', path).at(-1)?.query).toEqual({ to: before, limit: '200' });
    expect(api.callsTo('GET', '/v1/measurements')).toHaveLength(0);
    expect(within(older).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });

  it("shows the client's charts and entries read-only, in the coach's units, marked against targets", async () => {
    // Each time taken once: read again for the expected text, a minute may have turned meanwhile.
    const [oneHourAgo, twoHoursAgo, threeHoursAgo] = [hoursAgo(1), hoursAgo(2), hoursAgo(3)];
    measurements = [
      measurement({ userId: CLIENT.userId, type: 'weight', value: 69.8532, takenAt: oneHourAgo }),
      measurement({ userId: CLIENT.userId, type: 'glucose', value: 112, takenAt: twoHoursAgo }),
    ];
    api.set(`GET ${BASE}/logs`, {
      items: [mealLog({ userId: CLIENT.userId, description: 'Toast', eatenAt: threeHoursAgo })],
    });
    await open();
    const charts = within(screen.getByRole('region', { name: 'Progress Charts' }));
    expect(charts.getAllByRole('figure').map((figure) => figure.querySelector('h3')?.textContent)).toEqual([
      'Blood glucose (mg/dL)',
      'Weight (lb)',
    ]);
    const entries = within(screen.getByRole('region', { name: 'Recent Entries' }));
    expect(
      entries.getAllByRole('listitem').map((item) => item.querySelector('.entry__body')?.textContent),
    ).toEqual([
      `Weight154.0 lb${when(oneHourAgo)}`,
      `Blood glucoseAbove target112 mg/dL · Fasting${when(twoHoursAgo)}`,
      `MealToast · 45 g carbs${when(threeHoursAgo)}`,
    ]);
    expect(entries.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();
  });

  it("says 'No entries yet' for a client without records in the period", async () => {
    await open();
    for (const title of ['Recent Entries', 'Progress Charts']) {
      expect(
        within(screen.getByRole('region', { name: title })).getByText(HEALTH_MESSAGES.noEntries),
      ).toBeInTheDocument();
    }
  });

  it('lists the notes newest first with their author and date', async () => {
    notes = [
      coachNote({ text: 'Older note', coachName: 'Morgan Lee', createdAt: '2025-03-01T09:00:00.000Z' }),
      coachNote({ text: 'Newer note', coachName: 'Casey Jordan', createdAt: '2025-03-05T09:00:00.000Z' }),
    ];
    await open();
    expect(noteItems()).toEqual([
      `Casey Jordan${when('2025-03-05T09:00:00.000Z')}Newer note`,
      `Morgan Lee${when('2025-03-01T09:00:00.000Z')}Older note`,
    ]);
  });

  it('explains notes that failed to load and offers to try again', async () => {
    let tries = 0;
    api.set(`GET ${BASE}/notes`, () => {
      tries += 1;
      return tries <= 2 ? json({ message: 'Service Unavailable' }, 503) : json({ notes: [coachNote()] });
    });
    const app = await open();
    const alert = await notesSection().findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the notes');
    await app.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(noteItems()).toHaveLength(1));
  });

  it("says 'No notes yet.' before the first note", async () => {
    await open();
    expect(notesSection().getByText(COACHING_MESSAGES.noNotes)).toBeInTheDocument();
  });

  it('saves a note, then refreshes the thread and My Clients', async () => {
    const app = await open();
    const field = notesSection().getByLabelText('Note');
    await app.user.type(field, '  Try a walk after dinner.  ');
    await app.user.click(notesSection().getByRole('button', { name: 'Save note' }));

    expect(await notesSection().findByText('Note saved')).toBeInTheDocument();
    expect(api.callsTo('POST', `${BASE}/notes`).map((call) => call.body)).toEqual([
      { text: 'Try a walk after dinner.' },
    ]);
    expect(noteItems()).toEqual([`Casey Jordan${when(notes[0]!.createdAt)}Try a walk after dinner.`]);
    expect(field).toHaveValue('');
    // A note clears the client's Pending Review: the list My Clients shows is read again.
    expect(api.callsTo('GET', `${BASE}/notes`)).toHaveLength(2);
    expect(api.callsTo('GET', '/v1/coach/clients')).toHaveLength(2);
  });

  it('sends the retry of a note whose answer was lost with the same Idempotency-Key, and the next note a new one', async () => {
    let tries = 0;
    // The first try is stored but its answer lost (the gateway answers 503): SPEC section 9 retries once.
    api.set(`POST ${BASE}/notes`, (call) => {
      tries += 1;
      const note = coachNote({ text: (call.body as { text: string }).text, createdAt: hoursAgo(0) });
      return tries === 1 ? failure(503, 'Service Unavailable') : json(note, 201);
    });
    const app = await open();
    for (const text of ['First', 'Second']) {
      await app.user.type(notesSection().getByLabelText('Note'), text);
      await app.user.click(notesSection().getByRole('button', { name: 'Save note' }));
      await waitFor(() => expect(notesSection().getByLabelText('Note')).toHaveValue(''));
    }
    const keys = api.callsTo('POST', `${BASE}/notes`).map((call) => call.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it("shows 'Saving...' while the note is saved, keeping the focus, and sends nothing more when pressed", async () => {
    const answer = deferred<Response>();
    api.set(`POST ${BASE}/notes`, () => answer.promise);
    const app = await open();
    await app.user.type(notesSection().getByLabelText('Note'), 'Hello');
    await app.user.click(notesSection().getByRole('button', { name: 'Save note' }));
    const busy = await notesSection().findByRole('button', { name: MESSAGES.saving });
    expectBusy(busy);
    expect(busy).toHaveFocus();
    // Pressed again, or Enter in the form: the busy submit does nothing.
    await app.user.click(busy);
    await app.user.keyboard('{Enter}');
    expect(api.callsTo('POST', `${BASE}/notes`)).toHaveLength(1);
    answer.resolve(json(coachNote({ text: 'Hello' }), 201));
    expectNotBusy(await notesSection().findByRole('button', { name: 'Save note' }));
  });

  it.each([
    ['an empty note', ''],
    ['a note of spaces only', '   '],
    ['a note over 2000 characters', 'x'.repeat(2001)],
  ])('refuses %s before sending, with the field marked and focused', async (_, text) => {
    const app = await open();
    const field = notesSection().getByLabelText('Note');
    if (text) {
      await app.user.click(field);
      await app.user.paste(text);
    }
    const heard = heardOnFocus(field);
    await app.user.click(notesSection().getByRole('button', { name: 'Save note' }));

    expect(notesSection().getByText('Note must be 1 to 2000 characters')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining('Note must be 1 to 2000 characters') as string,
    );
    await waitFor(() => expect(field).toHaveFocus());
    // Focus lands once the message is there, so it is said with the field.
    expect(heard).toEqual([
      { invalid: true, description: expect.stringContaining('Note must be 1 to 2000 characters') as string },
    ]);
    expect(api.callsTo('POST', `${BASE}/notes`)).toHaveLength(0);
  });

  it('counts the characters and clears the message once the text is right', async () => {
    const app = await open();
    const field = notesSection().getByLabelText('Note');
    expect(field).toHaveAccessibleDescription('0 of 2000 characters. Alex Rivera sees it on My Coach.');
    await app.user.click(notesSection().getByRole('button', { name: 'Save note' }));
    await app.user.type(field, 'Ok');
    expect(notesSection().queryByText('Note must be 1 to 2000 characters')).not.toBeInTheDocument();
    expect(field).toHaveAccessibleDescription('2 of 2000 characters. Alex Rivera sees it on My Coach.');
  });

  it("shows the server's message when the note is refused", async () => {
    api.set(`POST ${BASE}/notes`, failure(400, COACHING_MESSAGES.noteText));
    const app = await open();
    await app.user.type(notesSection().getByLabelText('Note'), 'Hello');
    await app.user.click(notesSection().getByRole('button', { name: 'Save note' }));
    expect(await notesSection().findByRole('alert')).toHaveTextContent('Note must be 1 to 2000 characters');
    expect(notesSection().getByLabelText('Note')).toHaveValue('Hello');
  });

  it('says the person is no longer your client when a note is refused because they were taken away', async () => {
    let listed = [CLIENT];
    api.set('GET /v1/coach/clients', () => json({ clients: listed }));
    const app = await open();
    const forbidden = () => {
      listed = [];
      return failure(403, COACHING_MESSAGES.notYourClient);
    };
    api.set(`POST ${BASE}/notes`, forbidden);
    api.set(`GET ${BASE}/notes`, forbidden);
    await app.user.type(notesSection().getByLabelText('Note'), 'Hello');
    await app.user.click(notesSection().getByRole('button', { name: 'Save note' }));

    // The thread and My Clients are read again: the page no longer shows the client.
    expect(await screen.findByRole('heading', { level: 1, name: 'Client' })).toBeInTheDocument();
    expect(screen.getByText(COACHING_MESSAGES.notYourClient)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Coach notes' })).not.toBeInTheDocument();
  });

  it('says the person is not your client, without reading their records, when they are not in your list', async () => {
    api.set('GET /v1/coach/clients', { clients: [] });
    renderApp(`/dashboard/clients/${CLIENT.userId}`);
    expect(await screen.findByText(COACHING_MESSAGES.notYourClient)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Client' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to My Clients' })).toBeInTheDocument();
    expect(api.calls.filter((call) => call.path.startsWith(BASE))).toHaveLength(0);
  });

  it('answers a 403 with a clear message: the list is read again and the client is gone', async () => {
    let listed = [CLIENT];
    api.set('GET /v1/coach/clients', () => json({ clients: listed }));
    const forbidden = () => {
      listed = [];
      return failure(403, COACHING_MESSAGES.notYourClient);
    };
    api.set(`GET ${BASE}/measurements`, forbidden);
    api.set(`GET ${BASE}/logs`, forbidden);
    api.set(`GET ${BASE}/notes`, forbidden);
    renderApp(`/dashboard/clients/${CLIENT.userId}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Client' })).toBeInTheDocument();
    expect(screen.getByText(COACHING_MESSAGES.notYourClient)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Coach notes' })).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/v1/coach/clients')).toHaveLength(2);
    // A 403 is not retried.
    expect(api.callsTo('GET', `${BASE}/notes`)).toHaveLength(1);
  });

  it("reads the client's records and notes again on each visit, and shows none from memory once access ended", async () => {
    measurements = [measurement({ userId: CLIENT.userId, type: 'weight', value: 70, takenAt: hoursAgo(1) })];
    notes = [coachNote({ text: 'Keep going' })];
    let listed = [CLIENT];
    api.set('GET /v1/coach/clients', () => json({ clients: listed }));
    const app = await open();
    const entries = () => screen.queryByRole('region', { name: 'Recent Entries' });
    expect(within(entries()!).getAllByRole('listitem')).toHaveLength(1);
    expect(noteItems()).toHaveLength(1);

    // Unassigned meanwhile: My Clients still lists them from its cache (under its 60 s), but every
    // read of their records and notes is refused now.
    listed = [];
    const forbidden = () => failure(403, COACHING_MESSAGES.notYourClient);
    for (const path of [`${BASE}/measurements`, `${BASE}/logs`, `${BASE}/notes`])
      api.set(`GET ${path}`, forbidden);
    await app.user.click(screen.getByRole('link', { name: 'Back to My Clients' }));
    await app.user.click(await screen.findByRole('link', { name: 'Alex Rivera' }));

    await waitFor(() => expect(api.callsTo('GET', `${BASE}/notes`)).toHaveLength(2));
    expect(api.callsTo('GET', `${BASE}/measurements`)).toHaveLength(2);
    expect(api.callsTo('GET', `${BASE}/logs`)).toHaveLength(2);
    expect(await screen.findByText(COACHING_MESSAGES.notYourClient)).toBeInTheDocument();
    expect(screen.queryByText('Keep going')).not.toBeInTheDocument();
    expect(screen.queryByText(/154\.3 lb/)).not.toBeInTheDocument();
  });

  it("shows 'Loading...' while the client is looked up", async () => {
    api.set('GET /v1/coach/clients', () => new Promise<Response>(() => undefined));
    renderApp(`/dashboard/clients/${CLIENT.userId}`);
    // The page's own state, once it asked for the list: before that, the route's fallback also says
    // 'Loading...' and is replaced (a found element could leave the document before the check).
    await waitFor(() => expect(api.callsTo('GET', '/v1/coach/clients')).toHaveLength(1));
    expect(screen.getByText(MESSAGES.loading)).toBeInTheDocument();
  });

  it('explains a client list that failed to load', async () => {
    api.set('GET /v1/coach/clients', failure(500, 'Internal server error'));
    renderApp(`/dashboard/clients/${CLIENT.userId}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load your clientsInternal server error',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
