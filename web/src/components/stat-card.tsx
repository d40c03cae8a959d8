interface StatCardProps {
  label: string;
  value: number | string;
  hint?: string;
}

/** One figure with its label; the label is the term, the figure its description. */
export function StatCard({ label, value, hint }: StatCardProps) {
  return (
    <div className="stat-card">
      <dt className="stat-card__label">{label}</dt>
      <dd className="stat-card__value">{value}</dd>
      {hint && <dd className="stat-card__hint">{hint}</dd>}
    </div>
  );
}
