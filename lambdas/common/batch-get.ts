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

/** The items of `keys` that exist (in no particular order), with only the projected attributes if any. */
export const batchGetAll = async (
  tableName: string,
  keys: readonly Record<string, unknown>[],
  projection: Projection,
): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + KEYS_PER_CALL);
    while (pending && pending.length > 0) {
      const result: BatchGetCommandOutput = await ddb.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...projection } } }),
      );
      items.push(...(result.Responses?.[tableName] ?? []));
      pending = result.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  return items;
};
