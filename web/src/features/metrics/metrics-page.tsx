import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';

const TARGETS = [
  { name: 'Fasting Glucose', target: '70-100 mg/dL' },
  { name: 'HbA1c', target: 'Under 5.7%' },
  { name: 'Triglycerides', target: 'Under 150 mg/dL' },
] as const;

/** Metrics & Analytics: the metabolic targets, then empty states until data arrives. */
export function MetricsPage() {
  return (
    <>
      <PageHeader title="Metrics & Analytics" description="Track your markers against healthy targets." />
      <section className="card" aria-labelledby="metrics-targets-title">
        <h2 id="metrics-targets-title" className="card__title">
          Target Ranges
        </h2>
        <dl className="target-list">
          {TARGETS.map((item) => (
            <div key={item.name} className="target-list__item">
              <dt>{item.name}</dt>
              <dd>{item.target}</dd>
            </div>
          ))}
        </dl>
      </section>
      <div className="two-column">
        <section className="card" aria-labelledby="metrics-entries-title">
          <h2 id="metrics-entries-title" className="card__title">
            Recent Entries
          </h2>
          <EmptyState>No entries yet. Your logged readings will appear here.</EmptyState>
        </section>
        <section className="card" aria-labelledby="metrics-charts-title">
          <h2 id="metrics-charts-title" className="card__title">
            Progress Charts
          </h2>
          <EmptyState>Charts appear once you have a few readings.</EmptyState>
        </section>
      </div>
    </>
  );
}
