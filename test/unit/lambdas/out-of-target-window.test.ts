/**
 * The coach's 'outside target in the last 7 days' counts readings by UTC day counters on the client's
 * state item (docs/decisions/042-coaching-and-audit.md). A reading may be dated up to 5 minutes ahead.
 */
import { describe, expect, it } from 'vitest';
import {
  outOfTargetInWindow,
  windowDayOf,
  type ClientState,
} from '../../../lambdas/common/repositories/coaching';

/** The state item after readings counted on these days. */
const counted = (...days: string[]): ClientState =>
  Object.fromEntries(days.map((day) => [`oot_${day}`, 1])) as unknown as ClientState;

describe('the out-of-target window', () => {
  it('counts a reading dated just past midnight UTC, stored just before, once that day comes', () => {
    const storedAt = new Date('2026-11-27T23:58:00.000Z');
    const day = windowDayOf('2026-11-28T00:01:00.000Z', storedAt);
    expect(day).toBe('2026-11-28');
    const state = counted(day ?? 'never');
    // Not yet taken: not yet counted. Then counted, and for seven days.
    expect(outOfTargetInWindow(state, storedAt)).toBe(0);
    expect(outOfTargetInWindow(state, new Date('2026-11-28T00:02:00.000Z'))).toBe(1);
    expect(outOfTargetInWindow(state, new Date('2026-12-04T23:59:00.000Z'))).toBe(1);
    expect(outOfTargetInWindow(state, new Date('2026-12-05T00:00:00.000Z'))).toBe(0);
  });

  it('counts no reading before the window, nor one further ahead than a clock runs fast', () => {
    const now = new Date('2026-11-27T12:00:00.000Z');
    expect(windowDayOf('2026-11-21T00:00:00.000Z', now)).toBe('2026-11-21');
    expect(windowDayOf('2026-11-20T23:59:59.999Z', now)).toBeUndefined();
    expect(windowDayOf('2026-11-28T00:00:00.000Z', now)).toBeUndefined();
  });
});
