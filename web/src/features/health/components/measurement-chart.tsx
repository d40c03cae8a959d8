import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
// Bundled by Vite as a CSS file of this route: the CSP allows no inline styles from React.
import type { ChartModel } from '../chart-data';
import { drawTargetBand } from './draw-target-band';

const HEIGHT = 220;
/** Canvas cannot read CSS variables: these mirror tokens.css. */
const COLORS = {
  series: ['#0f766e', '#1e4f7a'],
  axis: '#4a5d62',
  grid: '#d5dfdd',
  band: 'rgb(22 101 52 / 0.14)',
};
/** Diastolic is dashed, so the two blood pressure lines differ in more than colour. */
const DASHES: (number[] | undefined)[] = [undefined, [6, 4]];

let loading: Promise<typeof uPlot> | undefined;
/**
 * uPlot is fetched on first use, so it loads only where a chart is drawn; one fetch serves every
 * chart on the page, and a failed one is tried again by the next chart.
 */
const loadUPlot = (): Promise<typeof uPlot> => {
  loading ??= import('./uplot-with-styles').then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
};

const options = (chart: ChartModel, UPlot: typeof uPlot, width: number): uPlot.Options => ({
  width,
  height: HEIGHT,
  scales: {
    x: { time: true },
    y: {
      // The band stays in view, so a reading is always seen against its target.
      range: (_u, min, max) => {
        const low = Math.min(min, chart.band?.min ?? min);
        const high = Math.max(max, chart.band?.max ?? max);
        return UPlot.rangeNum(low, high, 0.1, true);
      },
    },
  },
  axes: [
    { stroke: COLORS.axis, grid: { stroke: COLORS.grid, width: 1 }, ticks: { stroke: COLORS.grid } },
    { stroke: COLORS.axis, grid: { stroke: COLORS.grid, width: 1 }, ticks: { stroke: COLORS.grid } },
  ],
  series: [
    {},
    ...chart.series.map((series, index) => ({
      label: series.label,
      stroke: COLORS.series[index] ?? COLORS.axis,
      width: 2,
      ...(DASHES[index] ? { dash: DASHES[index] } : {}),
      points: { show: true, size: 7, fill: COLORS.series[index] ?? COLORS.axis },
    })),
  ],
  legend: { show: chart.series.length > 1 },
  cursor: { drag: { x: false, y: false } },
  hooks: chart.band
    ? { drawAxes: [(u: uPlot) => chart.band && drawTargetBand(u, chart.band, COLORS.band)] }
    : {},
});

/**
 * The picture of a chart, hidden from assistive technology: its table is the text alternative.
 * If the library cannot load or draw (old browser, no canvas), a sentence points to the table.
 */
export function MeasurementChart({ chart }: { chart: ChartModel }) {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const target = container.current;
    if (!target) return undefined;
    let plot: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    loadUPlot()
      .then((UPlot) => {
        if (cancelled) return;
        const data: uPlot.AlignedData = [chart.times, ...chart.series.map((s) => s.values)];
        plot = new UPlot(options(chart, UPlot, target.clientWidth || 320), data, target);
        if (typeof ResizeObserver === 'undefined') return;
        observer = new ResizeObserver(() => plot?.setSize({ width: target.clientWidth, height: HEIGHT }));
        observer.observe(target);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [chart]);

  return (
    <>
      <div ref={container} className="chart__plot" aria-hidden="true" />
      {failed && <p className="chart__note">The chart could not be drawn here; the table has every value.</p>}
    </>
  );
}
