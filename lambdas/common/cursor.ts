/**
 * Opaque page cursors bound to the caller. A cursor carries DynamoDB's LastEvaluatedKey and the
 * query it continues, signed with HMAC-SHA256 over the caller's id, so a cursor made for one person,
 * for another query, or edited by a single character, is refused (400). The repository checks the
 * key's partition belongs to the caller as well: the signature is the second lock, not the only one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { HEALTH_MESSAGES } from '../../shared/health-messages';
import { cursorSigningKey } from './env';
import { BadRequest } from './errors';

export type PageKey = Record<string, string>;

const sign = (callerId: string, scope: string, payload: string): Buffer =>
  createHmac('sha256', cursorSigningKey()).update(`${callerId}\n${scope}\n${payload}`).digest();

/** A cursor for the page after `key`, valid only for this caller and this query (`scope`). */
export const encodeCursor = (callerId: string, scope: string, key: PageKey): string => {
  const payload = Buffer.from(JSON.stringify(key)).toString('base64url');
  return `${payload}.${sign(callerId, scope, payload).toString('base64url')}`;
};

/** The key a cursor continues from; a 400 for anything this caller did not get for this query. */
export const decodeCursor = (callerId: string, scope: string, cursor: string): PageKey => {
  const invalid = () => new BadRequest(HEALTH_MESSAGES.cursor);
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length > 0) throw invalid();
  const expected = sign(callerId, scope, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!key || typeof key !== 'object' || Array.isArray(key)) throw invalid();
  const entries = Object.entries(key);
  if (entries.length === 0 || entries.some(([, value]) => typeof value !== 'string')) throw invalid();
  return key as PageKey;
};
