import { displayName, fullName } from '../../lib/format';

/** Someone the admin user list knows: the audit log names them instead of showing their id. */
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
