import type { TargetBand } from '../chart-data';

/** What the band painter needs of a uPlot instance (a structural slice, so it tests without one). */
export interface BandCanvas {
  ctx: CanvasRenderingContext2D;
  bbox: { left: number; top: number; width: number; height: number };
  valToPos: (value: number, scaleKey: string, canvasPixels?: boolean) => number;
}

/**
 * Fills the plot area between the band's values on the y scale (canvas pixels), clipped to the
 * plot; a band without a minimum reaches down to the bottom edge. Runs in uPlot's `drawAxes` hook,
 * so the band sits under the series.
 */
export const drawTargetBand = (u: BandCanvas, band: TargetBand, fill: string): void => {
  const { left, top, width, height } = u.bbox;
  const bottom = top + height;
  const upper = u.valToPos(band.max, 'y', true);
  const lower = band.min === undefined ? bottom : u.valToPos(band.min, 'y', true);
  const y0 = Math.max(top, Math.min(upper, lower));
  const y1 = Math.min(bottom, Math.max(upper, lower));
  if (!(y1 > y0)) return;
  u.ctx.save();
  u.ctx.fillStyle = fill;
  u.ctx.fillRect(left, y0, width, y1 - y0);
  u.ctx.restore();
};
