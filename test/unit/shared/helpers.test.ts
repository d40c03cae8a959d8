import { describe, expect, it } from 'vitest';
import {
  ACTIVATION_CODE_ALPHABET,
  formatActivationCode,
  generateActivationCode,
  normalizeActivationCode,
} from '../../../shared/activation-code';
import { APP_VERSION, CM_PER_FOOT, CM_PER_INCH } from '../../../shared/constants';
import { cmToFeetInches, feetInchesToCm } from '../../../shared/height';
import { parseGroupClaim, rolesFromClaim } from '../../../shared/roles';
import { randomBytes } from 'node:crypto';

describe('activation code helpers', () => {
  it.each([
    ['', ''],
    ['a', 'A'],
    ['abcd', 'ABCD'],
    ['abcde', 'ABCD-E'],
    ['ab-cd ef!gh', 'ABCD-EFGH'],
    ['ABCDEFGH2345WXYZ', 'ABCD-EFGH-2345-WXYZ'],
    ['ABCD-EFGH-2345-WXYZ-MORE', 'ABCD-EFGH-2345-WXYZ'],
  ])('formats %j as %j', (input, formatted) => {
    expect(formatActivationCode(input)).toBe(formatted);
  });

  it('normalizes by uppercasing and dropping dashes', () => {
    expect(normalizeActivationCode('abcd-efgh-2345-wxyz')).toBe('ABCDEFGH2345WXYZ');
  });

  it('generates 16 characters from the alphabet, different each time', () => {
    const codes = new Set(Array.from({ length: 50 }, () => generateActivationCode((n) => randomBytes(n))));
    expect(codes.size).toBe(50);
    for (const code of codes) expect(code).toMatch(new RegExp(`^[${ACTIVATION_CODE_ALPHABET}]{16}$`));
  });

  it('skips bytes that would bias the alphabet', () => {
    // 252..255 are rejected; 0 maps to 'A', 35 to '9'.
    const bytes = [255, 252, 0, 35, ...Array<number>(14).fill(1)];
    let served = false;
    const code = generateActivationCode((n) => {
      served = true;
      return Uint8Array.from(bytes.slice(0, n + 2));
    });
    expect(served).toBe(true);
    expect(code.startsWith('A9')).toBe(true);
  });
});

describe('group claim parsing', () => {
  it.each([
    [
      ['admins', 'users'],
      ['admins', 'users'],
    ],
    ['admins,users', ['admins', 'users']],
    ['admins, coaches', ['admins', 'coaches']],
    ['[admins users]', ['admins', 'users']],
    ['[coaches]', ['coaches']],
    ['', []],
    [undefined, []],
    [42, []],
  ])('%j gives %j', (claim, groups) => {
    expect(parseGroupClaim(claim)).toEqual(groups);
  });

  it('maps groups to roles, ignoring unknown groups', () => {
    expect(rolesFromClaim('[users admins other]')).toEqual(['admin', 'user']);
    expect(rolesFromClaim(['coaches'])).toEqual(['coach']);
  });
});

describe('height conversion', () => {
  it('uses 30.48 cm per foot and 2.54 cm per inch', () => {
    expect(CM_PER_FOOT).toBe(30.48);
    expect(CM_PER_INCH).toBe(2.54);
    expect(feetInchesToCm(5, 10)).toBe(177.8);
    expect(feetInchesToCm(1, 0)).toBe(30.5);
  });

  it('converts back to whole feet and inches', () => {
    expect(cmToFeetInches(177.8)).toEqual({ feet: 5, inches: 10 });
    expect(cmToFeetInches(182.88)).toEqual({ feet: 6, inches: 0 });
  });

  it('knows the product version', () => {
    expect(APP_VERSION).toBe('0.6.0');
  });
});
