import type { Ref } from 'react';
import { AUDIT_TYPE_LABELS, type AuditEvent } from '../../../../../shared/audit';
import { describeUserAgent, formatInstant, fullName } from '../../../lib/format';
import type { KnownPerson } from '../people';

interface AuditTableProps {
  events: readonly AuditEvent[];
  people: ReadonlyMap<string, KnownPerson>;
  /** The table's region, which 'Load more' hands the focus to when it leaves. */
  ref?: Ref<HTMLDivElement>;
}

const NONE = (
  <>
    <span aria-hidden="true">—</span>
    <span className="visually-hidden">None</span>
  </>
);

/** A person by name and email when the Audit Log knows them (its pages name them), else by id. */
function Person({ id, people }: { id: string | undefined; people: ReadonlyMap<string, KnownPerson> }) {
  if (!id) return NONE;
  const person = people.get(id);
  if (!person) return <span className="audit__id">{id}</span>;
  const name = fullName(person);
  return (
    <span className="audit__person">
      {name && <span>{name}</span>}
      <span className={name ? 'muted' : undefined}>{person.email}</span>
    </span>
  );
}

const detailValue = (value: AuditEvent['details'][string]): string =>
  Array.isArray(value) ? value.join(', ') : String(value);

function Details({ details }: { details: AuditEvent['details'] }) {
  const entries = Object.entries(details);
  if (!entries.length) return NONE;
  return (
    <ul className="audit__details">
      {entries.map(([key, value]) => (
        <li key={key}>
          {key}: {detailValue(value)}
        </li>
      ))}
    </ul>
  );
}

/**
 * The audit log's columns.
 * Each cell names its own (`satisfies Column`) for the phone's cards (`.table--stack`).
 */
const COLUMNS = ['Time', 'Event', 'Actor', 'Subject', 'Outcome', 'IP and device', 'Details'] as const;
type Column = (typeof COLUMNS)[number];

/** Audit events as given (newest first), every field in words. */
export function AuditTable({ events, people, ref }: AuditTableProps) {
  return (
    <div className="table-scroll" role="region" aria-label="Audit events" tabIndex={0} ref={ref}>
      <table className="table table--stack audit">
        <caption className="visually-hidden">Audit events, newest first</caption>
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.eventId}>
              <td className="audit__time" data-label={'Time' satisfies Column}>
                <time dateTime={event.at}>{formatInstant(event.at)}</time>
              </td>
              <td data-label={'Event' satisfies Column}>{AUDIT_TYPE_LABELS[event.type]}</td>
              <td data-label={'Actor' satisfies Column}>
                <Person id={event.actorId} people={people} />
              </td>
              <td data-label={'Subject' satisfies Column}>
                <Person id={event.subjectId} people={people} />
              </td>
              <td data-label={'Outcome' satisfies Column}>
                <span
                  className={`badge ${event.outcome === 'success' ? 'badge--success' : 'badge--warning'}`}
                >
                  {event.outcome === 'success' ? 'Success' : 'Failure'}
                </span>
              </td>
              <td data-label={'IP and device' satisfies Column}>
                <span className="audit__ip">{event.ip}</span>
                <span className="audit__agent muted" title={event.userAgent}>
                  {describeUserAgent(event.userAgent)}
                </span>
              </td>
              <td data-label={'Details' satisfies Column}>
                <Details details={event.details} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
