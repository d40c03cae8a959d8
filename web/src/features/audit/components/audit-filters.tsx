import { AUDIT_EVENT_TYPES, AUDIT_TYPE_LABELS, type AuditEventType } from '../../../../../shared/audit';
import { SelectField } from '../../../components/form-field';
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
  people: readonly KnownPerson[];
  value: FilterValues;
  onChange: (value: FilterValues) => void;
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

/** By person (as the event's subject or its actor) and by type; a change reads the log again. */
export function AuditFilters({ people, value, onChange }: AuditFiltersProps) {
  const personOptions = [
    { value: '', label: 'Anyone' },
    ...[...people]
      .sort(byDisplayName)
      .map((person) => ({ value: person.userId, label: personOption(person) })),
  ];
  return (
    <form className="filters" aria-label="Filter events" onSubmit={(event) => event.preventDefault()}>
      <SelectField
        id="audit-person"
        label="Person"
        options={personOptions}
        value={value.personId}
        onChange={(event) => onChange({ ...value, personId: event.target.value })}
      />
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
