/**
 * How people, dates and devices read on screen, for the features outside health (which formats its
 * records itself): names, dates in the browser's locale and zone, user agents in a few words.
 */

// ---------------------------------------------------------------- people
interface Named {
  email: string;
  preferredName?: string | undefined;
  familyName?: string | undefined;
}

/** Preferred and family name; '' when neither is set. */
export const fullName = (person: Omit<Named, 'email'>): string =>
  [person.preferredName, person.familyName].filter(Boolean).join(' ');

/** How a person is named on screen: their name, else their email. */
export const displayName = (person: Named): string => fullName(person) || person.email;

// ---------------------------------------------------------------- dates
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** To the second: the audit log tells apart events of the same minute. */
const secondFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

export const formatDate = (iso: string): string => dateFormat.format(new Date(iso));

/** Two digits, as date and time inputs write them. */
export const pad2 = (n: number): string => String(n).padStart(2, '0');

/** `date`'s calendar day where the browser is (YYYY-MM-DD), as a `date` input writes it. */
export const localDate = (date: Date): string =>
  `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`;
export const formatDateTime = (iso: string): string => dateTimeFormat.format(new Date(iso));
/** The time of day to the second, without the date. */
export const formatSecond = (iso: string): string => secondFormat.format(new Date(iso));

// ---------------------------------------------------------------- devices
/** Browsers and systems in the order they must be tested: Edge's string also names Chrome and Safari. */
const BROWSERS: readonly [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: readonly [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];
const SHORT = 40;

const find = (table: readonly [RegExp, string][], text: string) =>
  table.find(([pattern]) => pattern.test(text))?.[1];

/**
 * A user agent in a few words ('Chrome on macOS'); an unknown one cut to 40 characters. The full
 * string stays in the audit log for whoever needs it.
 */
export const describeUserAgent = (userAgent: string): string => {
  const browser = find(BROWSERS, userAgent);
  const system = find(SYSTEMS, userAgent);
  if (browser && system) return `${browser} on ${system}`;
  const known = browser ?? system;
  if (known) return known;
  const text = userAgent.trim();
  if (!text) return 'Unknown device';
  return text.length > SHORT ? `${text.slice(0, SHORT - 1)}…` : text;
};
