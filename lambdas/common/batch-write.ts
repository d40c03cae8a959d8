/**
 * Deleting many items by key (BatchWriteItem, 25 keys a call, until DynamoDB has taken every one), and
 * finding them (a paged Query for the named attributes only).
 */
import { BatchWriteCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb } from './aws';

const KEYS_PER_CALL = 25;
type Key = Record<string, unknown>;

export const batchDeleteAll = async (tableName: string, keys: readonly Key[]): Promise<void> => {
  for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
    let pending = keys.slice(i, i + KEYS_PER_CALL).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 0) await new Promise((done) => setTimeout(done, Math.min(1000, 25 * 2 ** attempt)));
      const result = await ddb.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (result.UnprocessedItems?.[tableName] ?? []) as typeof pending;
    }
  }
};

/** The named attributes (only) of every item a Query finds, page after page. */
export const queryAttributes = async (
  input: Omit<QueryCommandInput, 'ExclusiveStartKey' | 'ProjectionExpression'>,
  attributes: readonly string[],
): Promise<Key[]> => {
  const names = Object.fromEntries(attributes.map((name, i) => [`#k${i}`, name]));
  const keys: Key[] = [];
  let startKey: Key | undefined;
  do {
    const page = await ddb.send(
      new QueryCommand({
        ...input,
        ProjectionExpression: Object.keys(names).join(', '),
        ExpressionAttributeNames: { ...input.ExpressionAttributeNames, ...names },
        ExclusiveStartKey: startKey,
      }),
    );
    keys.push(
      ...(page.Items ?? []).map((item) => Object.fromEntries(attributes.map((name) => [name, item[name]]))),
    );
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return keys;
};
