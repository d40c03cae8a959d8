import { useState } from 'react';
import { AUDIT_EVENT_TYPES, AUDIT_TYPE_LABELS, type AuditEventType } from '../../../../../shared/audit';
import { SelectField, TextField } from '../../../components/form-field';
import { errorMessage } from '../../../lib/errors';
import { useUserMatches } from '../../user-management/api/get-users';
import { EMAIL_SEARCH_INPUT, useEmailSearch } from '../../user-management/components/user-search';
import { byDisplayName, personOption, type KnownPerson } from '../people';

export type PersonRole = 'subject' | 'actor';

export interface FilterValues {
  /** '' for anyone. */
  personId: string;
  role: PersonRole;
  /** '' for every type. */
  type: AuditEventType | '';
}

interface AuditFiltersProps {
  /** The people the loaded audit pages name: the Person options while nothing is searched. */
  people: readonly KnownPerson[];
  /** The person picked (`value.personId`), offered whatever the search, so the choice stays valid. */
  selected: KnownPerson | undefined;
  value: FilterValues;
  /** With the person's details when the change picks someone. */
  onChange: (value: FilterValues, picked?: KnownPerson) => void;
}

const TYPE_OPTIONS = [
  { value: '', label: 'All types' },
  ...AUDIT_EVENT_TYPES.map((type) => ({ value: type, label: AUDIT_TYPE_LABELS[type] })),
];

const ROLE_LABELS: Record<PersonRole, string> = {
  subject: 'Subject (acted on)',
  actor: 'Actor (did it)',
};

const isEventType = (value: string): value is AuditEventType =>
  (AUDIT_EVENT_TYPES as readonly string[]).includes(value);

/** The details the Audit Log names someone with (a directory match carries more). */
const known = ({ userId, email, preferredName, familyName }: KnownPerson): KnownPerson => ({
  userId,
  email,
  preferredName,
  familyName,
});

/** Each person once, by name. */
const offered = (people: readonly KnownPerson[]): KnownPerson[] =>
  [...new Map(people.map((person) => [person.userId, person])).values()].sort(byDisplayName);

/**
 * By person (as the event's subject or its actor) and by type; a change reads the log again. The
 * Person options are the people the loaded pages name or, while 'Search people by email' holds text,
 * the directory's first matches: never the whole user list.
 */
export function AuditFilters({ people, selected, value, onChange }: AuditFiltersProps) {
  const [q, setQ] = useState('');
  const search = useEmailSearch(setQ);
  const matches = useUserMatches(q);
  const listed = q ? (matches.data?.users ?? []) : people;
  const choices = offered(selected ? [...listed, selected] : listed);
  const personOptions = [
    { value: '', label: 'Anyone' },
    ...choices.map((person) => ({ value: person.userId, label: personOption(person) })),
  ];
  const searchError =
    search.error ?? (q && matches.isError ? errorMessage(matches.error, 'Please try again.') : undefined);

  const pick = (personId: string) => {
    const person = choices.find((choice) => choice.userId === personId);
    onChange({ ...value, personId }, person && known(person));
  };

  return (
    <form
      className="filters"
      aria-label="Filter events"
      onSubmit={(event) => {
        event.preventDefault();
        search.flush();
      }}
    >
      <div className="stack">
        <TextField
          id="audit-person-search"
          label="Search people by email"
          {...EMAIL_SEARCH_INPUT}
          value={search.text}
          error={searchError}
          onChange={(event) => search.setText(event.target.value)}
        />
        <SelectField
          id="audit-person"
          label="Person"
          options={personOptions}
          value={value.personId}
          onChange={(event) => pick(event.target.value)}
        />
      </div>
      <fieldset className="fieldset">
        <legend>Person's part</legend>
        <div className="choice-row">
          {(['subject', 'actor'] as const).map((role) => (
            <label key={role} className="choice">
              <input
                type="radio"
                name="audit-person-role"
                value={role}
                checked={value.role === role}
                onChange={() => onChange({ ...value, role })}
              />
              <span>{ROLE_LABELS[role]}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <SelectField
        id="audit-type"
        label="Event type"
        options={TYPE_OPTIONS}
        value={value.type}
        onChange={(event) =>
          onChange({ ...value, type: isEventType(event.target.value) ? event.target.value : '' })
        }
      />
    </form>
  );
}
