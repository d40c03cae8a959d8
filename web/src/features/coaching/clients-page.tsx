import { MESSAGES } from '../../../../shared/messages';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { StatCard } from '../../components/stat-card';
import { useCoachClients } from './api/get-coach-clients';
import { ClientTable } from './components/client-table';
import { LoadFailed } from '../../components/load-failed';

/** Not worded by SPEC-2 (docs/decisions/043-coaching-screens.md). */
const LOAD_FAILED = 'Could not load your clients';

/**
 * My Clients (coach): the SPEC counters from the assigned clients (no sessions or messages exist
 * yet, so those stay 0), the client list, and the sessions placeholder (SPEC-2 section 2).
 */
export function ClientsPage() {
  const clients = useCoachClients();
  const list = clients.data ?? [];
  const pendingReviews = list.filter((client) => client.pendingReview).length;

  return (
    <>
      <PageHeader title="My Clients" description="Your clients, sessions and reviews at a glance." />
      {clients.isError ? (
        <LoadFailed title={LOAD_FAILED} error={clients.error} onRetry={() => clients.refetch()} />
      ) : clients.isPending ? (
        <Spinner />
      ) : (
        <>
          <dl className="stat-grid">
            <StatCard label="Active Clients" value={list.length} />
            <StatCard label="Sessions This Week" value={0} />
            <StatCard label="Pending Reviews" value={pendingReviews} />
            <StatCard label="Unread Messages" value={0} />
          </dl>
          <section className="card card--flush" aria-labelledby="clients-list-title">
            <h2 id="clients-list-title" className="card__title card__title--padded">
              Client List
            </h2>
            {list.length ? <ClientTable clients={list} /> : <EmptyState>{MESSAGES.noClients}</EmptyState>}
          </section>
        </>
      )}
      <section className="card" aria-labelledby="clients-sessions-title">
        <h2 id="clients-sessions-title" className="card__title">
          Upcoming Sessions
        </h2>
        <EmptyState>{MESSAGES.noSessions}</EmptyState>
      </section>
    </>
  );
}
