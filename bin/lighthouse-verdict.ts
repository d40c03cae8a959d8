/**
 * How `npm run lighthouse` (bin/lighthouse.ts) judges a page from its runs
 * (docs/decisions/057-lighthouse-and-serving.md, "A second round for performance").
 */
import { median } from './median';

/** The lowest median score issue 12 accepts, in every category. */
export const THRESHOLD = 95;
export const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
export type Category = (typeof CATEGORIES)[number];
export type Scores = Readonly<Record<Category, number>>;

/** Each category's median over a page's runs. */
export const medianScores = (runs: readonly Scores[]): Scores =>
  Object.fromEntries(
    CATEGORIES.map((category) => [category, median(runs.map((run) => run[category]))]),
  ) as Scores;

/** The categories whose median is under the threshold. */
export const failing = (scores: Scores): Category[] =>
  CATEGORIES.filter((category) => !(scores[category] >= THRESHOLD));

/**
 * Whether a page that failed `categories` in its first round is measured in a second: only when
 * performance alone failed. Performance is timed, and a shared machine's other work only ever
 * lengthens what it times; accessibility and best practices read the page, not the clock, and fail at
 * once.
 */
export const secondRoundFor = (categories: readonly Category[]): boolean =>
  categories.length > 0 && categories.every((category) => category === 'performance');
