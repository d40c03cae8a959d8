import { PageHeader } from '../../components/page-header';

const TILES = [
  { title: 'Blood Glucose', unit: 'mg/dL' },
  { title: 'Weight', unit: 'lbs' },
  { title: 'Waist Circumference', unit: 'in' },
  { title: 'Blood Pressure', unit: 'mmHg' },
] as const;

/** Health Overview: logging actions are not wired yet, tiles wait for the first entries. */
export function HealthPage() {
  return (
    <>
      <PageHeader title="Health Overview" description="Your latest readings in one place." />
      <section className="section" aria-labelledby="health-log-title">
        <h2 id="health-log-title" className="section__title">
          Log today
        </h2>
        <div className="button-row">
          {['Log Meal', 'Log Activity', 'Log Sleep'].map((label) => (
            <button
              key={label}
              type="button"
              className="button button--secondary"
              aria-describedby="health-log-note"
            >
              {label}
            </button>
          ))}
        </div>
        <p id="health-log-note" className="field__hint">
          Logging is coming soon.
        </p>
      </section>
      <section className="section" aria-labelledby="health-readings-title">
        <h2 id="health-readings-title" className="section__title">
          Latest readings
        </h2>
        <ul className="metric-grid">
          {TILES.map((tile) => (
            <li key={tile.title} className="metric-tile">
              <h3 className="metric-tile__title">{tile.title}</h3>
              <p className="metric-tile__value">
                <span aria-hidden="true">--</span>
                <span className="visually-hidden">No reading yet</span>{' '}
                <span className="metric-tile__unit">{tile.unit}</span>
              </p>
              <p className="metric-tile__hint">No readings yet</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
