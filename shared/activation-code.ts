import { ACTIVATION_CODE_LENGTH } from './constants';

/** Canonical stored form: uppercase, dashes and every other non-alphanumeric removed. */
export const normalizeActivationCode = (input: string): string =>
  input.toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * What the activation input shows while typing: uppercase, non-alphanumerics removed,
 * at most 16 characters, grouped in blocks of 4 with hyphens (XXXX-XXXX-XXXX-XXXX).
 */
export const formatActivationCode = (input: string): string => {
  const groups =
    normalizeActivationCode(input)
      .slice(0, ACTIVATION_CODE_LENGTH)
      .match(/.{1,4}/g) ?? [];
  return groups.join('-');
};

export const ACTIVATION_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * A new activation code from the given CSPRNG bytes source. Rejection sampling keeps every
 * character equally likely (256 is not a multiple of 36).
 */
export const generateActivationCode = (randomBytes: (size: number) => Uint8Array): string => {
  const limit = 256 - (256 % ACTIVATION_CODE_ALPHABET.length);
  let code = '';
  while (code.length < ACTIVATION_CODE_LENGTH) {
    for (const byte of randomBytes(ACTIVATION_CODE_LENGTH)) {
      if (byte < limit && code.length < ACTIVATION_CODE_LENGTH) {
        code += ACTIVATION_CODE_ALPHABET[byte % ACTIVATION_CODE_ALPHABET.length];
      }
    }
  }
  return code;
};
