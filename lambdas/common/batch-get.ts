/** Reading many items by key: BatchGetItem, 100 keys a call, until DynamoDB has answered every key. */
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ddb } from './aws';

const KEYS_PER_CALL = 100;

export interface Projection {
  /** The attributes to read. @default - every attribute */
  readonly ProjectionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
  /** Strongly consistent reads (a list that must show what was just written). */
  readonly ConsistentRead?: boolean;
}

/** How many calls of one read are in flight at once. */
const CALLS_AT_ONCE = 4;

/** One call's keys, until DynamoDB has answered every one (it may leave some unprocessed). */
const readChunk = async (
  tableName: string,
  keys: Record<string, unknown>[],
  projection: Projection,
): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] | undefined = keys;
  while (pending && pending.length > 0) {
    const result: BatchGetCommandOutput = await ddb.send(
      new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...projection } } }),
    );
    items.push(...(result.Responses?.[tableName] ?? []));
    pending = result.UnprocessedKeys?.[tableName]?.Keys;
  }
  return items;
};

/**
 * The items of `keys` that exist (in no particular order), with only the projected attributes if any;
 * up to `CALLS_AT_ONCE` calls of 100 keys in flight at once.
 */
export const batchGetAll = async (
  tableName: string,
  keys: readonly Record<string, unknown>[],
  projection: Projection,
): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_CALL * CALLS_AT_ONCE) {
    const chunks = Array.from({ length: CALLS_AT_ONCE }, (_, c) =>
      keys.slice(i + c * KEYS_PER_CALL, i + (c + 1) * KEYS_PER_CALL),
    ).filter((chunk) => chunk.length > 0);
    for (const found of await Promise.all(chunks.map((chunk) => readChunk(tableName, chunk, projection))))
      items.push(...found);
  }
  return items;
};
