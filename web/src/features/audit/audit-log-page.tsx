import { useCallback, useMemo, useRef, useState } from 'react';
import { MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/alert';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { errorMessage } from '../../lib/errors';
import { useKeepFocusAfterMore } from '../../lib/keep-focus';
import { useAuditEvents, type AuditFilters as Filters } from './api/get-audit-events';
import { AuditFilters, type FilterValues } from './components/audit-filters';
import { AuditTable } from './components/audit-table';
import type { KnownPerson } from './people';
import { LoadFailed } from '../../components/load-failed';
import { busyButton } from '../../lib/busy-button';

/** Not worded by SPEC-2 (docs/decisions/043-coaching-screens.md). */
const LOAD_FAILED = 'Could not load the audit log';
const NO_EVENTS = 'No events yet.';
const NO_MATCH = 'No events match these filters.';
/** A filtered page with none of the events the server read matching, and older ones left (decision 045). */
const NONE_YET = 'No matching events among the most recent ones. Load more to search older events.';

const NO_FILTERS: FilterValues = { personId: '', role: 'subject', type: '' };

const toQuery = ({ personId, role, type }: FilterValues): Filters => ({
  ...(personId && (role === 'subject' ? { subjectId: personId } : { actorId: personId })),
  ...(type && { type }),
});

const NOBODY: ReadonlyMap<string, KnownPerson> = new Map();

/**
 * Audit Log (admin): security events newest first, filtered by person and type, 'Load more' pages on.
 * People are named from the loaded pages' `people` (and anyone picked in the Person filter), never from
 * the whole user list; someone no page names (an erased person) is shown by id.
 */
export function AuditLogPage() {
  const [filters, setFilters] = useState<FilterValues>(NO_FILTERS);
  /** Everyone picked in the Person filter: the filter keeps offering them and the table names them. */
  const [picked, setPicked] = useState(NOBODY);
  const query = useMemo(() => toQuery(filters), [filters]);
  const events = useAuditEvents(query);
  /** The people the loaded pages name, each once. */
  const named = useMemo(() => {
    const people = events.data?.pages.flatMap((page) => page.people) ?? [];
    return [...new Map(people.map((person) => [person.userId, person])).values()];
  }, [events.data]);
  const byId = useMemo(
    () => new Map([...picked, ...named.map((person) => [person.userId, person] as const)]),
    [picked, named],
  );
  const onFilter = useCallback((value: FilterValues, person?: KnownPerson) => {
    setFilters(value);
    if (person) setPicked((before) => new Map(before).set(person.userId, person));
  }, []);
  const shown = useMemo(() => events.data?.pages.flatMap((page) => page.events) ?? [], [events.data]);
  const filtered = Object.keys(query).length > 0;
  const { fetchNextPage, isFetchingNextPage } = events;
  // 'Load more' leaves with the last page: focus goes to the table, or to the empty state in its place.
  const list = useRef<HTMLDivElement>(null);
  const loadMore = useKeepFocusAfterMore(list, events.hasNextPage);
  const footer = (
    <div className="card__footer">
      <p className="muted" role="status">
        {shown.length === 0
          ? isFetchingNextPage
            ? MESSAGES.loading
            : NONE_YET
          : shown.length === 1
            ? '1 event shown'
            : `${shown.length} events shown`}
      </p>
      {events.isFetchNextPageError && (
        <Alert tone="error" title={LOAD_FAILED}>
          <p>{errorMessage(events.error, 'Please try again.')}</p>
        </Alert>
      )}
      {events.hasNextPage && (
        <button
          ref={loadMore}
          type="button"
          className="button button--secondary"
          {...busyButton(isFetchingNextPage, () => void fetchNextPage())}
          aria-busy={isFetchingNextPage}
        >
          {isFetchingNextPage ? 'Loading...' : 'Load more'}
        </button>
      )}
    </div>
  );

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
        <AuditFilters
          people={named}
          selected={byId.get(filters.personId)}
          value={filters}
          onChange={onFilter}
        />
      </section>
      <section className="card card--flush" aria-labelledby="audit-events-title">
        <h2 id="audit-events-title" className="card__title card__title--padded">
          Events
        </h2>
        {events.isPending ? (
          <Spinner />
        ) : events.isError && !events.isFetchNextPageError ? (
          <LoadFailed title={LOAD_FAILED} error={events.error} onRetry={() => events.refetch()} />
        ) : shown.length === 0 && !events.hasNextPage ? (
          <EmptyState ref={list}>{filtered ? NO_MATCH : NO_EVENTS}</EmptyState>
        ) : (
          // One shape with or without events, so the footer's 'Load more' keeps its focus when the
          // first matching events arrive above it.
          <>
            {shown.length > 0 && <AuditTable events={shown} people={byId} ref={list} />}
            {footer}
          </>
        )}
      </section>
    </>
  );
}
