import type { Ref } from 'react';
import { AUDIT_TYPE_LABELS, type AuditEvent } from '../../../../../shared/audit';
import { Email } from '../../../components/email';
import { TableRegion } from '../../../components/table-region';
import { describeUserAgent, formatDate, formatSecond, fullName } from '../../../lib/format';
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
      <span className={name ? 'muted' : undefined}>
        <Email address={person.email} />
      </span>
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
 * The audit log's columns: five, so the table fits beside the navigation at 1,280 px. An event's
 * outcome goes with its name, and the address and device it came from with its actor (decision 045).
 * Each cell names its own (`satisfies Column`) for the phone's cards (`.table--stack`).
 */
const COLUMNS = ['Time', 'Event', 'Actor', 'Subject', 'Details'] as const;
type Column = (typeof COLUMNS)[number];

/** Audit events as given (newest first), every field in words. */
export function AuditTable({ events, people, ref }: AuditTableProps) {
  return (
    <TableRegion label="Audit events" stack="where-narrow" ref={ref}>
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
              <td data-label={'Time' satisfies Column}>
                <time className="audit__when" dateTime={event.at}>
                  <span>{formatDate(event.at)}</span> <span>{formatSecond(event.at)}</span>
                </time>
              </td>
              <td data-label={'Event' satisfies Column}>
                <div className="audit__stack">
                  <span>{AUDIT_TYPE_LABELS[event.type]}</span>
                  <span
                    className={`badge ${event.outcome === 'success' ? 'badge--success' : 'badge--warning'}`}
                  >
                    {event.outcome === 'success' ? 'Success' : 'Failure'}
                  </span>
                </div>
              </td>
              <td data-label={'Actor' satisfies Column}>
                <div className="audit__stack">
                  <Person id={event.actorId} people={people} />
                  <span className="audit__source muted">
                    <span className="visually-hidden">From </span>
                    <span>{event.ip}</span>
                    <span title={event.userAgent}>{describeUserAgent(event.userAgent)}</span>
                  </span>
                </div>
              </td>
              <td data-label={'Subject' satisfies Column}>
                <Person id={event.subjectId} people={people} />
              </td>
              <td data-label={'Details' satisfies Column}>
                <Details details={event.details} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
