/**
 * An instant's calendar day (YYYY-MM-DD) in a person's time zone: the date an export's file is named
 * by, as the person's own calendar reads it (an export at 21:00 in Los Angeles is that day's, not
 * tomorrow's UTC date). A zone the runtime does not know (a profile written before the check) gives
 * the UTC day.
 */
export const calendarDayIn = (instant: string, timeZone: string): string => {
  const date = new Date(instant);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(date);
  } catch {
    return date.toISOString().slice(0, 10);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
};
