import { describe, expect, it, vi } from 'vitest';
import { buildCharts } from '../../../../../web/src/features/health/chart-data';
import { drawTargetBand } from '../../../../../web/src/features/health/components/draw-target-band';
import { periodStart } from '../../../../../web/src/features/health/period';
import { measurement } from '../../support/factories';

describe('buildCharts', () => {
  it('makes one chart per type with readings, in the product order, oldest point first', () => {
    const charts = buildCharts(
      [
        measurement({ type: 'weight', value: 80, takenAt: '2026-11-02T08:00:00.000Z' }),
        measurement({ type: 'hba1c', value: 5.9, takenAt: '2026-11-01T08:00:00.000Z' }),
        measurement({ type: 'weight', value: 81, takenAt: '2026-11-01T08:00:00.000Z' }),
      ],
      'metric',
    );
    expect(charts.map((c) => c.type)).toEqual(['weight', 'hba1c']);
    expect(charts[0]?.times).toEqual([
      Date.parse('2026-11-01T08:00:00.000Z') / 1000,
      Date.parse('2026-11-02T08:00:00.000Z') / 1000,
    ]);
    expect(charts[0]?.series).toEqual([{ label: 'Weight', values: [81, 80] }]);
    expect(charts[0]?.band).toBeUndefined();
    expect(charts[0]?.hasTarget).toBe(false);
  });

  it('draws the three SPEC target bands and words them', () => {
    const charts = buildCharts(
      [
        measurement({ type: 'glucose', value: 90 }),
        measurement({ type: 'hba1c', value: 5.4 }),
        measurement({ type: 'triglycerides', value: 160 }),
      ],
      'imperial',
    );
    expect(charts.map((c) => c.band)).toEqual([
      { min: 70, max: 100, description: 'Shaded band: target 70-100 mg/dL, fasting readings.' },
      { max: 5.7, description: 'Shaded band: target under 5.7%.' },
      { max: 150, description: 'Shaded band: target under 150 mg/dL.' },
    ]);
    expect(charts.map((c) => c.rows[0]?.target)).toEqual(['In target', 'In target', 'Above target']);
  });

  it('marks a reading as it is shown: the rounded value and its mark never contradict each other', () => {
    const rowsOf = (type: 'glucose' | 'hba1c' | 'triglycerides', values: number[]) =>
      buildCharts(
        values.map((value, i) =>
          measurement({ type, value, takenAt: new Date(Date.UTC(2026, 10, 1, 8, i)).toISOString() }),
        ),
        'metric',
      )[0]?.rows.map((row) => `${row.value} ${row.target}`);
    // 1.69 mmol/L of triglycerides is stored as 149.68 mg/dL and shown as 150: not under 150.
    expect(rowsOf('triglycerides', [149.4, 149.68])).toEqual(['150 Above target', '149 In target']);
    expect(rowsOf('hba1c', [5.64, 5.66])).toEqual(['5.7 Above target', '5.6 In target']);
    // Fasting 70-100 mg/dL, both ends in: 69.6 is shown as 70, 100.4 as 100.
    expect(rowsOf('glucose', [69.4, 69.6, 100.4, 100.5])).toEqual([
      '101 Above target',
      '100 In target',
      '70 In target',
      '69 Below target',
    ]);
  });

  it('charts blood pressure as two series', () => {
    const [chart] = buildCharts(
      [measurement({ type: 'blood_pressure', value: { systolic: 128, diastolic: 82 } })],
      'metric',
    );
    expect(chart?.series).toEqual([
      { label: 'Systolic', values: [128] },
      { label: 'Diastolic', values: [82] },
    ]);
    expect(chart?.rows[0]?.value).toBe('128/82');
  });
});

describe('drawTargetBand', () => {
  const canvas = () => {
    const ctx = { save: vi.fn(), restore: vi.fn(), fillRect: vi.fn(), fillStyle: '' };
    // y pixels: value 0 at the bottom (400), 200 at the top (0).
    const valToPos = (value: number) => 400 - value * 2;
    return {
      ctx,
      u: {
        ctx: ctx as unknown as CanvasRenderingContext2D,
        bbox: { left: 50, top: 0, width: 600, height: 400 },
        valToPos,
      },
    };
  };

  it('fills the plot between the band values', () => {
    const { ctx, u } = canvas();
    drawTargetBand(u, { min: 70, max: 100, description: '' }, 'green');
    expect(ctx.fillRect).toHaveBeenCalledWith(50, 200, 600, 60);
    expect(ctx.fillStyle).toBe('green');
  });

  it("reaches down to the bottom edge for an 'under' target", () => {
    const { ctx, u } = canvas();
    drawTargetBand(u, { max: 150, description: '' }, 'green');
    expect(ctx.fillRect).toHaveBeenCalledWith(50, 100, 600, 300);
  });

  it('draws nothing when the band is outside the plot', () => {
    const { ctx, u } = canvas();
    drawTargetBand(u, { min: 250, max: 300, description: '' }, 'green');
    expect(ctx.fillRect).not.toHaveBeenCalled();
  });
});

describe('periodStart', () => {
  it('starts at local midnight, counting today as the first day', () => {
    const now = new Date(2026, 10, 23, 15, 45);
    expect(periodStart(7, now)).toBe(new Date(2026, 10, 17).toISOString());
    expect(periodStart(1, now)).toBe(new Date(2026, 10, 23).toISOString());
  });
});
