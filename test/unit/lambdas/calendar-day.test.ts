import { describe, expect, it } from 'vitest';
import { calendarDayIn } from '../../../lambdas/common/calendar-day';

describe("an export's file date", () => {
  it("is the person's calendar day, not the UTC one", () => {
    // 05:30 UTC on the 27th is 21:30 on the 26th in Los Angeles and 14:30 on the 27th in Tokyo.
    expect(calendarDayIn('2026-11-27T05:30:00.000Z', 'America/Los_Angeles')).toBe('2026-11-26');
    expect(calendarDayIn('2026-11-27T05:30:00.000Z', 'Asia/Tokyo')).toBe('2026-11-27');
    // 23:30 UTC on New Year's Eve is already next year in Auckland.
    expect(calendarDayIn('2026-12-31T23:30:00.000Z', 'Pacific/Auckland')).toBe('2027-01-01');
    expect(calendarDayIn('2026-12-31T23:30:00.000Z', 'UTC')).toBe('2026-12-31');
  });

  it('falls back to the UTC day for a zone the runtime does not know', () => {
    expect(calendarDayIn('2026-11-27T05:30:00.000Z', 'Mars/Olympus_Mons')).toBe('2026-11-27');
  });
});
