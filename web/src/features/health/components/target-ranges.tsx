/** SPEC's metabolic targets, as worded there (the numbers live in shared/health.ts TARGETS). */
const TARGETS = [
  { name: 'Fasting Glucose', target: '70-100 mg/dL' },
  { name: 'HbA1c', target: 'Under 5.7%' },
  { name: 'Triglycerides', target: 'Under 150 mg/dL' },
] as const;

export function TargetRanges() {
  return (
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
  );
}
