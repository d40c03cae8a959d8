import { displayName, fullName } from '../../lib/format';

/**
 * Someone the audit log can name instead of showing their id: named by its pages' `people` (an
 * AuditPerson) or found by a directory search in its Person filter.
 */
export interface KnownPerson {
  userId: string;
  email: string;
  preferredName?: string | undefined;
  familyName?: string | undefined;
}

/** 'Name (email)', or the email alone: unique enough to pick from a list. */
export const personOption = (person: KnownPerson): string => {
  const name = fullName(person);
  return name ? `${name} (${person.email})` : person.email;
};

export const byDisplayName = (a: KnownPerson, b: KnownPerson): number =>
  displayName(a).localeCompare(displayName(b));
