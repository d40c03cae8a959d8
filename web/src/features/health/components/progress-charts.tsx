import { useMemo } from 'react';
import type { MeasurementSystem } from '../../../../../shared/health';
import type { Measurement } from '../../../../../shared/health-schemas';
import { HEALTH_MESSAGES } from '../../../../../shared/health-messages';
import { EmptyState } from '../../../components/empty-state';
import { buildCharts, type ChartModel } from '../chart-data';
import { ChartTable } from './chart-table';
import { MeasurementChart } from './measurement-chart';

interface ProgressChartsProps {
  /** Whoever's readings these are, over whatever period: the caller fetched them. */
  measurements: readonly Measurement[];
  system: MeasurementSystem;
}

function ChartFigure({ chart }: { chart: ChartModel }) {
  const titleId = `chart-${chart.type}-title`;
  return (
    <figure className="chart" aria-labelledby={titleId}>
      <figcaption className="chart__caption">
        <h3 id={titleId} className="chart__title">
          {chart.title} <span className="chart__unit">({chart.unit})</span>
        </h3>
        {chart.band && <p className="chart__note">{chart.band.description}</p>}
      </figcaption>
      <MeasurementChart chart={chart} />
      <details className="chart__details">
        <summary>
          Show as table<span className="visually-hidden">: {chart.title}</span>
        </summary>
        <ChartTable chart={chart} />
      </details>
    </figure>
  );
}

/** One chart per measurement type with readings, each with its table; 'No entries yet' otherwise. */
export function ProgressCharts({ measurements, system }: ProgressChartsProps) {
  const charts = useMemo(() => buildCharts(measurements, system), [measurements, system]);
  if (!charts.length) return <EmptyState>{HEALTH_MESSAGES.noEntries}</EmptyState>;
  return (
    <div className="chart-list">
      {charts.map((chart) => (
        <ChartFigure key={chart.type} chart={chart} />
      ))}
    </div>
  );
}
