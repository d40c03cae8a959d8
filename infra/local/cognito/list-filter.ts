/**
 * ListUsers' `Filter`: `attribute = "value"` (exact) or `attribute ^= "value"` (prefix) on the
 * attributes Cognito lets you search. An empty filter matches everyone.
 */
import { invalidParameter } from './errors';
import type { UserRecord } from './state';

export type UserPredicate = (user: UserRecord) => boolean;

type Reader = (user: UserRecord) => string | undefined;

const attribute =
  (name: string): Reader =>
  (user) =>
    user.attributes[name];

/** Searchable attributes and whether Cognito compares them ignoring case. */
const SEARCHABLE: Record<string, { read: Reader; ignoreCase: boolean }> = {
  // The pool is case-insensitive, so its usernames are too.
  username: { read: (user) => user.username, ignoreCase: true },
  email: { read: attribute('email'), ignoreCase: false },
  phone_number: { read: attribute('phone_number'), ignoreCase: false },
  name: { read: attribute('name'), ignoreCase: false },
  given_name: { read: attribute('given_name'), ignoreCase: false },
  family_name: { read: attribute('family_name'), ignoreCase: false },
  preferred_username: { read: attribute('preferred_username'), ignoreCase: false },
  sub: { read: (user) => user.sub, ignoreCase: false },
  'cognito:user_status': { read: (user) => user.status, ignoreCase: true },
  status: { read: (user) => (user.enabled ? 'Enabled' : 'Disabled'), ignoreCase: false },
};

const FILTER = /^\s*"?([\w:]+)"?\s*(\^?=)\s*"((?:[^"\\]|\\.)*)"\s*$/;

export const parseUserFilter = (filter: string | undefined): UserPredicate => {
  if (filter === undefined || filter.trim() === '') return () => true;
  const match = FILTER.exec(filter);
  if (!match) throw invalidParameter('Error while parsing filter.');
  const [, name = '', operator, rawValue = ''] = match;
  const searchable = SEARCHABLE[name];
  if (!searchable) throw invalidParameter(`Invalid search attribute: ${name}`);
  const fold = (value: string): string => (searchable.ignoreCase ? value.toLowerCase() : value);
  const wanted = fold(rawValue.replace(/\\(.)/g, '$1'));
  return (user) => {
    const actual = searchable.read(user);
    if (actual === undefined) return false;
    return operator === '=' ? fold(actual) === wanted : fold(actual).startsWith(wanted);
  };
};
