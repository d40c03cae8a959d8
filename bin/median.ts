/**
 * The middle of some measurements (the upper middle of an even count; NaN for none), as the budget
 * scripts judge them: `npm run lighthouse`, `measure:infra`, `measure:start`.
 */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
