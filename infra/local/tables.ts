/**
 * Creates the product's tables from the shared definitions (shared/tables.ts): the same definitions
 * the CDK stack deploys. Used by the tests and by `npm start`.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import {
  TABLES,
  TABLE_KEYS,
  type KeyAttribute,
  type TableDefinition,
  type TableKey,
} from '../../shared/tables';

export type TableNames = Record<TableKey, string>;

export const tableNames = (prefix: string): TableNames =>
  Object.fromEntries(TABLE_KEYS.map((key) => [key, `${prefix}-${TABLES[key].id}`])) as TableNames;

/** Environment variables that tell the Lambdas their table names. */
export const tableEnvironment = (names: TableNames): Record<string, string> =>
  Object.fromEntries(TABLE_KEYS.map((key) => [TABLES[key].envVar, names[key]]));

const keySchema = (partitionKey: KeyAttribute, sortKey?: KeyAttribute) => [
  { AttributeName: partitionKey.name, KeyType: 'HASH' as const },
  ...(sortKey ? [{ AttributeName: sortKey.name, KeyType: 'RANGE' as const }] : []),
];

const attributeDefinitions = (definition: TableDefinition): AttributeDefinition[] => {
  const keys = [
    definition.partitionKey,
    definition.sortKey,
    ...(definition.globalSecondaryIndexes ?? []).flatMap((index) => [index.partitionKey, index.sortKey]),
  ].filter((key): key is KeyAttribute => key !== undefined);
  const unique = new Map(keys.map((key) => [key.name, key.type]));
  return [...unique].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
};

const createOne = async (
  client: DynamoDBClient,
  name: string,
  definition: TableDefinition,
): Promise<void> => {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: keySchema(definition.partitionKey, definition.sortKey),
        AttributeDefinitions: attributeDefinitions(definition),
        GlobalSecondaryIndexes: definition.globalSecondaryIndexes?.map((index) => ({
          IndexName: index.indexName,
          KeySchema: keySchema(index.partitionKey, index.sortKey),
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    if (definition.timeToLiveAttribute) {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { AttributeName: definition.timeToLiveAttribute, Enabled: true },
        }),
      );
    }
  } catch (error) {
    // Tables persisted by an earlier `npm start` are kept as they are.
    if (!(error instanceof ResourceInUseException)) throw error;
    await client.send(new DescribeTableCommand({ TableName: name }));
  }
};

/** Creates every table (those that exist already are kept) and answers their names. */
export const createTables = async (client: DynamoDBClient, prefix: string): Promise<TableNames> => {
  const names = tableNames(prefix);
  await Promise.all(TABLE_KEYS.map((key) => createOne(client, names[key], TABLES[key])));
  return names;
};
