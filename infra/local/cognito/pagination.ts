/**
 * Opaque page tokens over a stable order. The token names the last item returned, not an offset,
 * so users created or deleted between pages neither repeat nor vanish from the listing.
 */
import { invalidParameter } from './errors';

const PREFIX = 'v1.';
export const DEFAULT_PAGE_SIZE = 60;

const encode = (key: string): string => PREFIX + Buffer.from(key, 'utf8').toString('base64url');

const decode = (token: string): string => {
  if (!token.startsWith(PREFIX)) throw invalidParameter('Invalid pagination token.');
  return Buffer.from(token.slice(PREFIX.length), 'base64url').toString('utf8');
};

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export interface Page<T> {
  readonly items: T[];
  /** Present only when more items follow. */
  readonly nextToken: string | undefined;
}

export const paginate = <T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  limit: number | undefined,
  token: string | undefined,
): Page<T> => {
  const size = limit || DEFAULT_PAGE_SIZE;
  const after = token === undefined ? undefined : decode(token);
  const ordered = [...items].sort((a, b) => compare(keyOf(a), keyOf(b)));
  const remaining = after === undefined ? ordered : ordered.filter((item) => compare(keyOf(item), after) > 0);
  const pageItems = remaining.slice(0, size);
  const last = pageItems.at(-1);
  return {
    items: pageItems,
    nextToken: remaining.length > size && last !== undefined ? encode(keyOf(last)) : undefined,
  };
};
