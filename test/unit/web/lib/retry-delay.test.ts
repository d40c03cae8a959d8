import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../../../web/src/lib/retry-delay';

const always = (value: number) => () => value;

describe('retryDelay (SPEC section 9: 2^n * 100 ms plus up to 100 ms, at most 300000 ms)', () => {
  it('doubles from 100 ms without jitter', () => {
    expect([0, 1, 2, 3, 4].map((n) => retryDelay(n, always(0)))).toEqual([100, 200, 400, 800, 1600]);
  });

  it('adds random() * 100 ms of jitter', () => {
    expect(retryDelay(0, always(0.5))).toBe(150);
    expect(retryDelay(1, always(0.25))).toBe(225);
    expect(retryDelay(3, always(0.75))).toBe(875);
  });

  it('is capped at 300000 ms, jitter included', () => {
    // 2^11 * 100 = 204800 stays under the cap; 2^12 * 100 = 409600 does not.
    expect(retryDelay(11, always(0.5))).toBe(204_850);
    expect(retryDelay(12, always(0))).toBe(300_000);
    expect(retryDelay(40, always(0.99))).toBe(300_000);
  });

  it('uses Math.random by default', () => {
    for (let i = 0; i < 50; i += 1) {
      const delay = retryDelay(2);
      expect(delay).toBeGreaterThanOrEqual(400);
      expect(delay).toBeLessThan(500);
    }
  });
});
