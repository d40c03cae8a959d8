export const PERIODS = [7, 30, 90] as const;
export type PeriodDays = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: PeriodDays = 30;

/**
 * The first moment of a period of `days` calendar days ending today (local midnight), as an ISO
 * instant. Day-aligned, so the query key stays the same all day and a chart never starts mid-day.
 */
export const periodStart = (days: number, now: Date = new Date()): string => {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));
  return start.toISOString();
};

/**
 * Whether a record's time falls before the period Metrics & Analytics shows (it opens on the default
 * period each time): such a record is in none of its charts and lists.
 */
export const beforePeriod = (at: string, days: number = DEFAULT_PERIOD, now: Date = new Date()): boolean =>
  Date.parse(at) < Date.parse(periodStart(days, now));
