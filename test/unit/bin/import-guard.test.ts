import { describe, expect, it } from 'vitest';
import {
  IMPORT_LIMIT_MS,
  ISSUE_NODE_START_UP_MS,
  MAX_MACHINE_FACTOR,
  importGuardFor,
} from '../../../bin/import-guard';

describe('the cold import guard (issue 12: 100 ms, on a machine where Node starts in 50 ms)', () => {
  it('is the issue’s 100 ms on its machine and on any faster one', () => {
    expect(IMPORT_LIMIT_MS).toBe(100);
    expect(ISSUE_NODE_START_UP_MS).toBe(50);
    expect(importGuardFor(50)).toBe(100);
    expect(importGuardFor(31)).toBe(100);
    expect(importGuardFor(0.5)).toBe(100);
  });

  it('grows with Node’s start-up on a slower machine', () => {
    expect(importGuardFor(56)).toBeCloseTo(112, 9);
    expect(importGuardFor(64.7)).toBeCloseTo(129.4, 9);
  });

  it('grows by half at most: past that the machine is too busy to judge', () => {
    expect(MAX_MACHINE_FACTOR).toBe(1.5);
    expect(importGuardFor(75)).toBeCloseTo(150, 9);
    expect(importGuardFor(90)).toBe(150);
    expect(importGuardFor(400)).toBe(150);
  });

  it('refuses a reading that cannot be a time', () => {
    for (const reading of [0, -50, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => importGuardFor(reading)).toThrow(RangeError);
  });
});
