import { useMemo, useState } from 'react';
import { Alert } from '../../components/alert';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { errorMessage } from '../../lib/errors';
import { useAuditEvents, type AuditFilters as Filters } from './api/get-audit-events';
import { AuditFilters, type FilterValues } from './components/audit-filters';
import { AuditTable } from './components/audit-table';
import type { KnownPerson } from './people';
import { LoadFailed } from '../../components/load-failed';

/** Not worded by SPEC-2 (docs/decisions/043-coaching-screens.md). */
const LOAD_FAILED = 'Could not load the audit log';
const NO_EVENTS = 'No events yet.';
const NO_MATCH = 'No events match these filters.';

const NO_FILTERS: FilterValues = { personId: '', role: 'subject', type: '' };

const toQuery = ({ personId, role, type }: FilterValues): Filters => ({
  ...(personId && (role === 'subject' ? { subjectId: personId } : { actorId: personId })),
  ...(type && { type }),
});

interface AuditLogPageProps {
  /** The admin user list, to name people (ids until it has loaded, or if it cannot). */
  people: readonly KnownPerson[];
}

/** Audit Log (admin): security events newest first, filtered by person and type, 'Load more' pages on. */
export function AuditLogPage({ people }: AuditLogPageProps) {
  const [filters, setFilters] = useState<FilterValues>(NO_FILTERS);
  const query = useMemo(() => toQuery(filters), [filters]);
  const events = useAuditEvents(query);
  const byId = useMemo(() => new Map(people.map((person) => [person.userId, person])), [people]);
  const shown = useMemo(() => events.data?.pages.flatMap((page) => page.events) ?? [], [events.data]);
  const filtered = Object.keys(query).length > 0;

  return (
    <>
      <PageHeader
        title="Audit Log"
        description="Security events, newest first. Events are kept for 400 days."
      />
      <section className="card" aria-labelledby="audit-filters-title">
        <h2 id="audit-filters-title" className="card__title">
          Filters
        </h2>
        <AuditFilters people={people} value={filters} onChange={setFilters} />
      </section>
      <section className="card card--flush" aria-labelledby="audit-events-title">
        <h2 id="audit-events-title" className="card__title card__title--padded">
          Events
        </h2>
        {events.isPending ? (
          <Spinner />
        ) : events.isError && !events.isFetchNextPageError ? (
          <LoadFailed title={LOAD_FAILED} error={events.error} onRetry={() => events.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState>{filtered ? NO_MATCH : NO_EVENTS}</EmptyState>
        ) : (
          <>
            <AuditTable events={shown} people={byId} />
            <div className="card__footer">
              <p className="muted" role="status">
                {shown.length === 1 ? '1 event shown' : `${shown.length} events shown`}
              </p>
              {events.isFetchNextPageError && (
                <Alert tone="error" title={LOAD_FAILED}>
                  <p>{errorMessage(events.error, 'Please try again.')}</p>
                </Alert>
              )}
              {events.hasNextPage && (
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => void events.fetchNextPage()}
                  disabled={events.isFetchingNextPage}
                  aria-busy={events.isFetchingNextPage}
                >
                  {events.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </button>
              )}
            </div>
          </>
        )}
      </section>
    </>
  );
}
