import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { HealthLog, Measurement } from '../../../../../shared/health-schemas';
import { HEALTH_MESSAGES } from '../../../../../shared/health-messages';
import { PAGE_SIZE } from '../../../../../web/src/features/health/components/recent-entries';
import { periodStart } from '../../../../../web/src/features/health/period';
import * as cognito from '../../support/cognito-mock';
import {
  activityLog,
  completeProfile,
  mealLog,
  measurement,
  sessionUser,
  sleepLog,
} from '../../support/factories';
import { expectBusy, expectNotBusy } from '../../support/busy';
import { deferred, failure, fakeApi, json, type RecordedCall } from '../../support/fake-api';
import { renderApp } from '../../support/render-app';

vi.mock('../../../../../web/src/lib/auth/cognito', () => import('../../support/cognito-mock'));
vi.mock('../../../../../web/src/lib/passkey', () => import('../../support/passkey-mock'));

/** jsdom has no canvas: a stand-in records what the chart library was asked to draw. */
const charts = vi.hoisted(() => ({
  drawn: [] as { options: { hooks?: Record<string, unknown> }; data: number[][]; target: HTMLElement }[],
}));
vi.mock('uplot', () => ({
  default: class FakeUPlot {
    static rangeNum = (min: number, max: number) => [min, max];
    constructor(options: never, data: number[][], target: HTMLElement) {
      charts.drawn.push({ options, data, target });
    }
    setSize() {}
    destroy() {}
  },
}));

const HOUR = 3_600_000;
/**
 * Counted from one moment per file: the expected texts read the same times as the data, even when a
 * minute turns between the two (the screens show absolute times, to the minute).
 */
const NOW = Date.now();
const hoursAgo = (hours: number) => new Date(NOW - hours * HOUR).toISOString();
const when = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** GET answers newest first and honours `from` and `to` (both included), like the server. */
const listed =
  <T,>(items: () => T[], timeOf: (item: T) => string) =>
  (call: RecordedCall) =>
    json({
      items: items()
        .filter((item) => !call.query.from || timeOf(item) >= call.query.from)
        .filter((item) => !call.query.to || timeOf(item) <= call.query.to)
        .sort((a, b) => Date.parse(timeOf(b)) - Date.parse(timeOf(a))),
    });

const logTime = (log: HealthLog) =>
  log.kind === 'meal' ? log.eatenAt : log.kind === 'activity' ? log.startedAt : log.start;

/** The `<details>` summary that opens a chart's table. */
const showTable = (name: string) => {
  const found = Array.from(document.querySelectorAll('summary')).find((s) => s.textContent === name);
  if (!found) throw new Error(`No summary '${name}'`);
  return found;
};

const entryItems = () => {
  const section = screen.getByRole('region', { name: 'Recent Entries' });
  return within(section)
    .queryAllByRole('listitem')
    .map((item) => item.querySelector('.entry__body')?.textContent);
};

describe('Metrics & Analytics', () => {
  let measurements: Measurement[];
  let logs: HealthLog[];
  let api: ReturnType<typeof fakeApi>;

  beforeEach(() => {
    charts.drawn = [];
    measurements = [];
    logs = [];
    cognito.givenSession(sessionUser(['user']));
    api = fakeApi({
      'GET /v1/users/me': completeProfile({ measurementSystem: 'imperial' }),
      'GET /v1/measurements': listed(
        () => measurements,
        (m) => m.takenAt,
      ),
      'GET /v1/logs': listed(() => logs, logTime),
    });
  });

  const open = async () => {
    const app = renderApp('/dashboard/metrics');
    await screen.findByRole('heading', { level: 1, name: 'Metrics & Analytics' });
    await waitFor(() => expect(screen.queryByText('Loading...')).not.toBeInTheDocument());
    return app;
  };

  it('keeps the SPEC targets', async () => {
    await open();
    const figure = (label: string) =>
      screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(figure('Fasting Glucose')).toBe('70-100 mg/dL');
    expect(figure('HbA1c')).toBe('Under 5.7%');
    expect(figure('Triglycerides')).toBe('Under 150 mg/dL');
  });

  it("shows 'No entries yet' under 'Recent Entries' and 'Progress Charts' when the period is empty", async () => {
    await open();
    for (const title of ['Recent Entries', 'Progress Charts']) {
      const section = screen.getByRole('region', { name: title });
      expect(within(section).getByRole('heading', { name: title })).toBeInTheDocument();
      expect(within(section).getByText(HEALTH_MESSAGES.noEntries)).toBeInTheDocument();
    }
    expect(charts.drawn).toHaveLength(0);
  });

  it('reads the period (30 days by default) 200 at a time, following the cursor, and 7 or 90 days on request', async () => {
    measurements = [measurement({ takenAt: hoursAgo(2) })];
    const second = measurement({ type: 'hba1c', value: 5.4, takenAt: hoursAgo(30) });
    api.set('GET /v1/measurements', (call) =>
      json(
        call.query.cursor === 'page-2' ? { items: [second] } : { items: measurements, nextCursor: 'page-2' },
      ),
    );
    const app = await open();
    expect(api.callsTo('GET', '/v1/measurements').map((c) => c.query)).toEqual([
      { from: periodStart(30), limit: '200' },
      { from: periodStart(30), limit: '200', cursor: 'page-2' },
    ]);
    expect(api.callsTo('GET', '/v1/logs')[0]?.query).toEqual({ from: periodStart(30), limit: '200' });
    expect(entryItems()).toHaveLength(2);

    await app.user.click(screen.getByRole('radio', { name: '7 days' }));
    await waitFor(() =>
      expect(api.callsTo('GET', '/v1/logs').at(-1)?.query).toEqual({ from: periodStart(7), limit: '200' }),
    );
    await app.user.click(screen.getByRole('radio', { name: '90 days' }));
    await waitFor(() =>
      expect(api.callsTo('GET', '/v1/measurements').at(-1)?.query.from).toBe(periodStart(90)),
    );
  });

  it('lists measurements and logs together, newest first, in the person’s units', async () => {
    measurements = [
      measurement({ type: 'weight', value: 69.8532, takenAt: hoursAgo(1) }),
      measurement({ type: 'glucose', value: 95, context: 'after_meal', takenAt: hoursAgo(5) }),
    ];
    logs = [
      mealLog({ description: 'Oatmeal', carbsGrams: 45, eatenAt: hoursAgo(3) }),
      activityLog({ activity: 'Walking', minutes: 30, intensity: 'light', startedAt: hoursAgo(4) }),
      sleepLog({ start: hoursAgo(14), end: hoursAgo(6.5), quality: 4 }),
    ];
    await open();
    expect(entryItems()).toEqual([
      `Weight154.0 lb${when(measurements[0]!.takenAt)}`,
      `MealOatmeal · 45 g carbs${when(logs[0]!.kind === 'meal' ? logs[0]!.eatenAt : '')}`,
      `ActivityWalking · 30 min · Light${when(hoursAgo(4))}`,
      `Blood glucose95 mg/dL · After meal${when(measurements[1]!.takenAt)}`,
      `Sleep7 h 30 min · quality 4 of 5${when(hoursAgo(14))}`,
    ]);
  });

  it("marks readings outside a target 'Above target' or 'Below target' (glucose only when fasting)", async () => {
    measurements = [
      measurement({ type: 'glucose', value: 112, context: 'fasting', takenAt: hoursAgo(1) }),
      measurement({ type: 'glucose', value: 65, context: 'fasting', takenAt: hoursAgo(2) }),
      measurement({ type: 'glucose', value: 180, context: 'after_meal', takenAt: hoursAgo(3) }),
      measurement({ type: 'hba1c', value: 5.7, takenAt: hoursAgo(4) }),
      measurement({ type: 'triglycerides', value: 120, takenAt: hoursAgo(5) }),
      measurement({ type: 'triglycerides', value: 150, takenAt: hoursAgo(6) }),
    ];
    await open();
    const marks = entryItems().map((text) => /(Above|Below) target/.exec(text ?? '')?.[0] ?? null);
    expect(marks).toEqual(['Above target', 'Below target', null, 'Above target', null, 'Above target']);
  });

  it("shows 20 entries, the rest on 'Show more', and keeps the focus on the list when the button leaves", async () => {
    logs = Array.from({ length: PAGE_SIZE + 5 }, (_, n) => mealLog({ eatenAt: hoursAgo(n + 1) }));
    const app = await open();
    expect(entryItems()).toHaveLength(PAGE_SIZE);
    await app.user.click(screen.getByRole('button', { name: 'Show more (5 left)' }));
    expect(entryItems()).toHaveLength(PAGE_SIZE + 5);
    expect(screen.queryByRole('button', { name: /^Show more/ })).not.toBeInTheDocument();
    // The pressed button left with nothing more to show: focus is on the list, not back at the top.
    await waitFor(() => expect(screen.getByRole('list', { name: 'Entries, newest first' })).toHaveFocus());
  });

  it('deletes an entry after the confirm prompt, and every view updates', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const reading = measurement({ type: 'weight', value: 70, takenAt: hoursAgo(1) });
    const meal = mealLog({ description: 'Toast', eatenAt: hoursAgo(2) });
    measurements = [reading];
    logs = [meal];
    api.set(`DELETE /v1/measurements/${reading.measurementId}`, () => {
      measurements = [];
      return new Response(null, { status: 204 });
    });
    api.set(`DELETE /v1/logs/${meal.logId}`, () => {
      logs = [];
      return new Response(null, { status: 204 });
    });
    const app = await open();

    await app.user.click(screen.getByRole('button', { name: `Delete Weight from ${when(reading.takenAt)}` }));
    expect(confirm).toHaveBeenCalledWith('Delete this entry?');
    await waitFor(() => expect(entryItems()).toHaveLength(1));
    expect(screen.getByText('Entry deleted')).toBeInTheDocument();
    // The pressed button left with its row: focus is on the list, not back at the top of the page.
    await waitFor(() => expect(screen.getByRole('list', { name: 'Entries, newest first' })).toHaveFocus());
    // The chart of the deleted reading goes too.
    expect(
      within(screen.getByRole('region', { name: 'Progress Charts' })).getByText(HEALTH_MESSAGES.noEntries),
    ).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: `Delete Meal from ${when(meal.eatenAt)}` }));
    await waitFor(() => expect(entryItems()).toHaveLength(0));
    expect(api.callsTo('DELETE', `/v1/logs/${meal.logId}`)).toHaveLength(1);
    // The very last one: focus goes to the empty state that took the list's place, not to the page.
    const entries = screen.getByRole('region', { name: 'Recent Entries' });
    await waitFor(() =>
      expect(within(entries).getByRole('group', { name: HEALTH_MESSAGES.noEntries })).toHaveFocus(),
    );
  });

  it('shows the entries before the period only when asked, and deletes one there', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const recent = measurement({ type: 'weight', value: 70, takenAt: hoursAgo(1) });
    const old = measurement({ type: 'weight', value: 72, takenAt: hoursAgo(200 * 24) });
    const oldMeal = mealLog({ description: 'Porridge', eatenAt: hoursAgo(400 * 24) });
    measurements = [recent, old];
    logs = [oldMeal];
    api.set(`DELETE /v1/measurements/${old.measurementId}`, () => {
      measurements = [recent];
      return new Response(null, { status: 204 });
    });
    api.set(`DELETE /v1/logs/${oldMeal.logId}`, () => {
      logs = [];
      return new Response(null, { status: 204 });
    });
    const app = await open();
    expect(entryItems()).toHaveLength(1);
    // Nothing before the period is read until the person asks.
    expect(api.calls.filter((call) => call.query.to)).toEqual([]);

    await app.user.click(screen.getByRole('button', { name: 'Show older entries' }));
    const older = await screen.findByRole('region', { name: 'Older entries' });
    const before = new Date(Date.parse(periodStart(30)) - 1).toISOString();
    for (const path of ['/v1/measurements', '/v1/logs'])
      expect(api.callsTo('GET', path).at(-1)?.query).toEqual({ to: before, limit: '200' });
    await waitFor(() => expect(within(older).getAllByRole('listitem')).toHaveLength(2));
    // Two lists on the page, each with a name of its own.
    expect(screen.getByRole('list', { name: 'Older entries, newest first' })).toBe(
      within(older).getByRole('list'),
    );
    expect(within(older).getByRole('heading', { name: 'Older entries' })).toHaveFocus();
    expect(
      within(older)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.entry__title')?.textContent),
    ).toEqual(['Weight', 'Meal']);

    await app.user.click(
      within(older).getByRole('button', { name: `Delete Weight from ${when(old.takenAt)}` }),
    );
    expect(confirm).toHaveBeenCalledWith('Delete this entry?');
    await waitFor(() => expect(within(older).getAllByRole('listitem')).toHaveLength(1));
    await app.user.click(
      within(older).getByRole('button', { name: `Delete Meal from ${when(oldMeal.eatenAt)}` }),
    );
    // The last one: focus goes to the empty state that took the list's place, not to the page.
    await waitFor(() =>
      expect(within(older).getByRole('group', { name: 'No older entries.' })).toHaveFocus(),
    );
    // The period's own entry stays.
    expect(
      screen.getByRole('button', { name: `Delete Weight from ${when(recent.takenAt)}` }),
    ).toBeInTheDocument();
  });

  it("keeps the older entries open when the period's own read fails after a delete", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const old = measurement({ type: 'weight', value: 72, takenAt: hoursAgo(200 * 24) });
    const older2 = measurement({ type: 'weight', value: 73, takenAt: hoursAgo(300 * 24) });
    measurements = [old, older2];
    api.set(`DELETE /v1/measurements/${old.measurementId}`, () => {
      measurements = [older2];
      // From now on the period's read fails; the older entries' read still works.
      api.set('GET /v1/measurements', (call) =>
        call.query.to
          ? listed(
              () => measurements,
              (m) => m.takenAt,
            )(call)
          : failure(500, 'Internal error'),
      );
      return new Response(null, { status: 204 });
    });
    const app = await open();
    await app.user.click(screen.getByRole('button', { name: 'Show older entries' }));
    const older = await screen.findByRole('region', { name: 'Older entries' });
    await waitFor(() => expect(within(older).getAllByRole('listitem')).toHaveLength(2));

    await app.user.click(
      within(older).getByRole('button', { name: `Delete Weight from ${when(old.takenAt)}` }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your entriesInternal error');
    expect(screen.getByRole('region', { name: 'Older entries' })).toBeInTheDocument();
    await waitFor(() => expect(within(older).getAllByRole('listitem')).toHaveLength(1));
  });

  it('keeps the entry when the prompt is cancelled', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const reading = measurement({ takenAt: hoursAgo(1) });
    measurements = [reading];
    const app = await open();
    await app.user.click(
      screen.getByRole('button', { name: `Delete Blood glucose from ${when(reading.takenAt)}` }),
    );
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
    expect(entryItems()).toHaveLength(1);
  });

  it("shows the server's message when a delete fails", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const reading = measurement({ takenAt: hoursAgo(1) });
    measurements = [reading];
    api.set(`DELETE /v1/measurements/${reading.measurementId}`, json({ message: 'Forbidden' }, 403));
    const app = await open();
    await app.user.click(
      screen.getByRole('button', { name: `Delete Blood glucose from ${when(reading.takenAt)}` }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden');
  });

  it('says the outcome of each of two deletes under way at once, the slower one failing', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const first = measurement({ takenAt: hoursAgo(1) });
    const second = measurement({ takenAt: hoursAgo(2) });
    measurements = [first, second];
    const slow = deferred<Response>();
    api.set(`DELETE /v1/measurements/${first.measurementId}`, () => slow.promise);
    api.set(`DELETE /v1/measurements/${second.measurementId}`, () => {
      measurements = [first];
      return new Response(null, { status: 204 });
    });
    const app = await open();
    const button = (reading: Measurement) =>
      screen.getByRole('button', { name: `Delete Blood glucose from ${when(reading.takenAt)}` });
    await app.user.click(button(first));
    await app.user.click(button(second));

    expect(await screen.findByText('Entry deleted')).toBeInTheDocument();
    // The first is still under way: its button waits.
    expectBusy(button(first));
    slow.resolve(json({ message: 'Forbidden' }, 403));
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden');
    await waitFor(() => expectNotBusy(button(first)));
  });

  it('says the entry is deleted when the retry of a delete whose answer was lost finds it gone (404)', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const reading = measurement({ takenAt: hoursAgo(1) });
    measurements = [reading];
    // The first try deletes it, but its answer is lost (503); SPEC section 9's retry finds nothing.
    api.set(`DELETE /v1/measurements/${reading.measurementId}`, () => {
      const first = measurements.length > 0;
      measurements = [];
      return first
        ? json({ message: 'Service Unavailable' }, 503)
        : json({ message: HEALTH_MESSAGES.measurementNotFound }, 404);
    });
    const app = await open();
    await app.user.click(
      screen.getByRole('button', { name: `Delete Blood glucose from ${when(reading.takenAt)}` }),
    );
    expect(await screen.findByText('Entry deleted')).toBeInTheDocument();
    expect(api.callsTo('DELETE', `/v1/measurements/${reading.measurementId}`)).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('explains a period that failed to load, keeping both section titles', async () => {
    api.set('GET /v1/measurements', json({ message: 'Forbidden' }, 403));
    await open();
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load your entriesForbidden');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    for (const title of ['Recent Entries', 'Progress Charts']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
  });

  it('draws one chart per type, in the person’s units, with a table as its text alternative', async () => {
    measurements = [
      measurement({ type: 'weight', value: 69.8532, takenAt: hoursAgo(1) }),
      measurement({ type: 'weight', value: 70.3068, takenAt: hoursAgo(25) }),
      measurement({ type: 'glucose', value: 112, context: 'fasting', takenAt: hoursAgo(2) }),
      measurement({ type: 'glucose', value: 140, context: 'random', takenAt: hoursAgo(26) }),
    ];
    const app = await open();
    const region = within(screen.getByRole('region', { name: 'Progress Charts' }));
    expect(region.getAllByRole('figure').map((figure) => figure.querySelector('h3')?.textContent)).toEqual([
      'Blood glucose (mg/dL)',
      'Weight (lb)',
    ]);
    expect(region.getByText('Shaded band: target 70-100 mg/dL, fasting readings.')).toBeInTheDocument();

    await app.user.click(showTable('Show as table: Blood glucose'));
    const glucose = within(region.getByRole('table', { name: 'Blood glucose in mg/dL, newest first' }));
    expect(glucose.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Date',
      'Value',
      'Unit',
      'Context',
      'Target',
    ]);
    expect(
      glucose
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      [when(hoursAgo(2)), '112', 'mg/dL', 'Fasting', 'Above target'],
      [when(hoursAgo(26)), '140', 'mg/dL', 'Random', 'No target (not fasting)'],
    ]);

    await app.user.click(showTable('Show as table: Weight'));
    const weight = within(region.getByRole('table', { name: 'Weight in lb, newest first' }));
    expect(
      weight
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      [when(hoursAgo(1)), '154.0', 'lb'],
      [when(hoursAgo(25)), '155.0', 'lb'],
    ]);

    // The pictures: hidden from assistive technology, data oldest first in lb, band only where a target is.
    await waitFor(() => expect(charts.drawn).toHaveLength(2));
    const [glucoseChart, weightChart] = charts.drawn;
    expect(glucoseChart?.target).toHaveAttribute('aria-hidden', 'true');
    expect(glucoseChart?.data[1]).toEqual([140, 112]);
    expect(glucoseChart?.options.hooks).toHaveProperty('drawAxes');
    expect(weightChart?.data[1]).toEqual([155, 154]);
    expect(weightChart?.options.hooks).toEqual({});
  });

  describe('Export my data', () => {
    let saved: { href: string; download: string }[];

    beforeEach(() => {
      saved = [];
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:export-1'), revokeObjectURL: vi.fn() });
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        saved.push({ href: this.href, download: this.download });
      });
    });

    it('downloads JSON with the id token, named by Content-Disposition', async () => {
      api.set(
        'GET /v1/users/me/export',
        () =>
          new Response('{"profile":{}}', {
            headers: {
              'Content-Type': 'application/json',
              'Content-Disposition': 'attachment; filename="health-records-2026-11-23.json"',
            },
          }),
      );
      const app = await open();
      await app.user.click(screen.getByRole('button', { name: 'Download JSON' }));
      expect(await screen.findByText('Saved health-records-2026-11-23.json')).toBeInTheDocument();
      const call = api.callsTo('GET', '/v1/users/me/export')[0];
      expect(call?.query).toEqual({ format: 'json' });
      expect(call?.headers.authorization).toBe('Bearer test-id-token');
      expect(saved).toEqual([{ href: 'blob:export-1', download: 'health-records-2026-11-23.json' }]);
    });

    it('downloads FHIR under the default name when the answer names no file', async () => {
      api.set('GET /v1/users/me/export', () => json({ resourceType: 'Bundle', type: 'collection' }));
      const app = await open();
      await app.user.click(screen.getByRole('button', { name: 'Download FHIR' }));
      expect(await screen.findByText('Saved health-records.fhir.json')).toBeInTheDocument();
      expect(api.callsTo('GET', '/v1/users/me/export')[0]?.query).toEqual({ format: 'fhir' });
      expect(saved).toEqual([{ href: 'blob:export-1', download: 'health-records.fhir.json' }]);
    });

    it("shows the server's message when the export fails", async () => {
      api.set('GET /v1/users/me/export', json({ message: 'Forbidden' }, 403));
      const app = await open();
      await app.user.click(screen.getByRole('button', { name: 'Download JSON' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden');
      expect(saved).toHaveLength(0);
    });

    it('signs out when the stored tokens are gone (signed out in another tab)', async () => {
      const app = await open();
      cognito.getIdToken.mockResolvedValue(undefined);
      await app.user.click(screen.getByRole('button', { name: 'Download JSON' }));
      await waitFor(() => expect(app.location().pathname).toBe('/signin'));
      expect(api.callsTo('GET', '/v1/users/me/export')).toHaveLength(0);
    });

    it('signs out when the API refuses the session', async () => {
      api.set('GET /v1/users/me/export', json({ message: 'Unauthorized' }, 401));
      const app = await open();
      await app.user.click(screen.getByRole('button', { name: 'Download JSON' }));
      await waitFor(() => expect(app.location().pathname).toBe('/signin'));
      expect(cognito.signOut).toHaveBeenCalledTimes(1);
      expect(saved).toHaveLength(0);
    });
  });
});
