import { MESSAGES } from '../../../../shared/messages';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { StatCard } from '../../components/stat-card';

/** My Clients (coach): counters at zero until client assignment exists (SPEC section 2). */
export function ClientsPage() {
  return (
    <>
      <PageHeader title="My Clients" description="Your clients, sessions and reviews at a glance." />
      <dl className="stat-grid">
        <StatCard label="Active Clients" value={0} />
        <StatCard label="Sessions This Week" value={0} />
        <StatCard label="Pending Reviews" value={0} />
        <StatCard label="Unread Messages" value={0} />
      </dl>
      <div className="two-column">
        <section className="card" aria-labelledby="clients-list-title">
          <h2 id="clients-list-title" className="card__title">
            Client List
          </h2>
          <EmptyState>{MESSAGES.noClients}</EmptyState>
        </section>
        <section className="card" aria-labelledby="clients-sessions-title">
          <h2 id="clients-sessions-title" className="card__title">
            Upcoming Sessions
          </h2>
          <EmptyState>{MESSAGES.noSessions}</EmptyState>
        </section>
      </div>
    </>
  );
}
