import { render, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCharts } from '../../../../../web/src/features/health/chart-data';
import { MeasurementChart } from '../../../../../web/src/features/health/components/measurement-chart';
import { measurement } from '../../support/factories';

/** Any method call does nothing; `fillRect` records the fill style it painted with. */
const recorder = (filled: string[]) => {
  const state: Record<PropertyKey, unknown> = {
    measureText: (text: string) => ({ width: text.length * 6 }),
    fillRect: () => filled.push(String(state.fillStyle)),
  };
  return new Proxy(state, {
    get: (target, key) => (key in target ? target[key] : () => undefined),
    set: (target, key, value) => {
      target[key] = value;
      return true;
    },
  });
};

/**
 * The real uPlot with the app's options on a stand-in canvas (jsdom draws nothing): proves the
 * library accepts the options and paints the target band, and that the picture stays hidden from
 * assistive technology.
 */
describe('MeasurementChart with the real uPlot', () => {
  let filled: string[];

  beforeEach(() => {
    filled = [];
    vi.stubGlobal('matchMedia', () => ({
      matches: false,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    }));
    vi.stubGlobal(
      'Path2D',
      class {
        constructor() {
          return recorder([]);
        }
      },
    );
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
      () => recorder(filled) as unknown as CanvasRenderingContext2D,
    );
  });

  const draw = async (chart: Parameters<typeof MeasurementChart>[0]['chart']) => {
    const view = render(<MeasurementChart chart={chart} />);
    await waitFor(() => expect(view.container.querySelector('.uplot canvas')).not.toBeNull());
    return view;
  };

  it('draws fasting glucose with its target band, hidden from assistive technology', async () => {
    const [chart] = buildCharts(
      [
        measurement({ value: 92, takenAt: '2026-11-20T07:00:00.000Z' }),
        measurement({ value: 118, takenAt: '2026-11-21T07:00:00.000Z' }),
      ],
      'metric',
    );
    const { container } = await draw(chart!);
    expect(container.querySelector('.chart__plot')).toHaveAttribute('aria-hidden', 'true');
    await waitFor(() => expect(filled).toContain('rgb(22 101 52 / 0.14)'));
    expect(container.textContent).not.toContain('could not be drawn');
  });

  it('draws blood pressure as two series without a band', async () => {
    const [chart] = buildCharts(
      [measurement({ type: 'blood_pressure', value: { systolic: 128, diastolic: 82 } })],
      'metric',
    );
    const { container } = await draw(chart!);
    expect(container.querySelectorAll('.u-legend .u-series')).toHaveLength(3);
    expect(filled).not.toContain('rgb(22 101 52 / 0.14)');
  });
});
