import { describe, expect, it } from 'vitest';
import {
  THRESHOLD,
  failing,
  medianScores,
  secondRoundFor,
  type Scores,
} from '../../../bin/lighthouse-verdict';
import { median } from '../../../bin/median';

const run = (performance: number, accessibility = 100, bestPractices = 100): Scores => ({
  performance,
  accessibility,
  'best-practices': bestPractices,
});

describe('npm run lighthouse: how a page is judged from its runs', () => {
  it('scores each category by the median of the runs, not the best or the mean', () => {
    // The runs of /activate in the fresh-clone run that failed on 2026-11-28.
    const scores = medianScores([run(85), run(93), run(96), run(89), run(98, 92)]);
    expect(scores).toEqual({ performance: 93, accessibility: 100, 'best-practices': 100 });
    expect(median([3, 1, 2, 4])).toBe(3);
  });

  it(`fails every category whose median is under ${THRESHOLD}, and only those`, () => {
    expect(failing(run(THRESHOLD))).toEqual([]);
    expect(failing(run(THRESHOLD - 1))).toEqual(['performance']);
    expect(failing(run(99, 94, 90))).toEqual(['accessibility', 'best-practices']);
    expect(failing(run(Number.NaN))).toEqual(['performance']);
  });

  it('measures a second round only when performance alone failed', () => {
    expect(secondRoundFor(['performance'])).toBe(true);
    expect(secondRoundFor([])).toBe(false);
    // Accessibility and best practices read the page, not the clock: no second chance for them.
    expect(secondRoundFor(['accessibility'])).toBe(false);
    expect(secondRoundFor(['performance', 'best-practices'])).toBe(false);
  });
});
