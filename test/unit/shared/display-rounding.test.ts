/**
 * SPEC-2 1.1: values are rounded for display only: glucose and triglycerides to whole numbers, weight
 * to 0.1, waist to 0.5, HbA1c to 0.1; a half step rounds up, as the person reads the number.
 */
import { describe, expect, it } from 'vitest';
import { formatValue, type MeasurementType, type MeasurementUnit } from '../../../shared/health';

describe('display rounding', () => {
  it.each<[MeasurementType, number, MeasurementUnit, string]>([
    ['glucose', 99.088, 'mg/dL', '99'],
    ['glucose', 99.5, 'mg/dL', '100'],
    ['triglycerides', 149.4999, 'mg/dL', '149'],
    ['weight', 68.0389, 'kg', '68.0'],
    ['weight', 68.05, 'kg', '68.1'],
    ['weight', 70.05, 'kg', '70.1'],
    ['weight', 68.15, 'kg', '68.2'],
    ['weight', 68.0499, 'kg', '68.0'],
    ['waist', 86.36, 'cm', '86.5'],
    ['waist', 86.24, 'cm', '86.0'],
    ['waist', 86.25, 'cm', '86.5'],
    ['hba1c', 5.45, '%', '5.5'],
    ['hba1c', 5.55, '%', '5.6'],
    ['hba1c', 5.65, '%', '5.7'],
    ['hba1c', 5.5499, '%', '5.5'],
    ['glucose', 5.55, 'mmol/L', '5.6'],
  ])('shows %s %d %s as %s', (type, value, unit, shown) => {
    expect(formatValue(type, value, unit)).toBe(shown);
  });
});
