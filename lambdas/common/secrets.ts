import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a text, in hex: how a secret (a proof, a recovery code) or a request is kept. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Compares two secrets in time independent of where they differ (hashing first equalizes lengths). */
export const secretsEqual = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
