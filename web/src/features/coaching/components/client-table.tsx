import { Link } from 'react-router';
import type { CoachClient } from '../../../../../shared/coaching';
import { HEALTH_MESSAGES } from '../../../../../shared/health-messages';
import { Email } from '../../../components/email';
import { TableRegion } from '../../../components/table-region';
import { paths } from '../../../config/paths';
import { displayName, formatDate } from '../../../lib/format';

/** A client's page for their coach: /dashboard/clients/{userId}. */
const clientPath = (userId: string): string =>
  paths.clientDetail.replace(':userId', encodeURIComponent(userId));

/**
 * My Clients' columns.
 * Each cell names its own (`satisfies Column`) for the phone's cards (`.table--stack`).
 */
const COLUMNS = ['Name', 'Email', 'Last entry', 'Outside target (7 days)'] as const;
type Column = (typeof COLUMNS)[number];

/** A coach's clients by name; each name opens the client's page. */
export function ClientTable({ clients }: { clients: readonly CoachClient[] }) {
  const rows = clients
    .map((client) => ({ client, name: displayName(client) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <TableRegion label="Clients" stack="on-phone">
      <table className="table table--stack">
        <caption className="visually-hidden">Your clients, by name</caption>
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
          {rows.map(({ client, name }) => (
            <tr key={client.userId}>
              <th scope="row" data-label={'Name' satisfies Column}>
                <span className="table__name">
                  <Link to={clientPath(client.userId)}>{name}</Link>
                  {client.pendingReview && <span className="badge badge--warning">Pending review</span>}
                </span>
              </th>
              <td className="table__email" data-label={'Email' satisfies Column}>
                <Email address={client.email} />
              </td>
              <td data-label={'Last entry' satisfies Column}>
                {client.lastEntryAt ? (
                  <time dateTime={client.lastEntryAt}>{formatDate(client.lastEntryAt)}</time>
                ) : (
                  <span className="muted">{HEALTH_MESSAGES.noEntries}</span>
                )}
              </td>
              <td data-label={'Outside target (7 days)' satisfies Column}>{client.outOfTarget7d}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
