/**
 * Creates the product's tables from the shared definitions (shared/tables.ts): the same definitions
 * the CDK stack deploys. Used by the tests and by `npm start`.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import {
  TABLES,
  TABLE_KEYS,
  type IndexDefinition,
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

const indexDefinition = (index: IndexDefinition) => ({
  IndexName: index.indexName,
  KeySchema: keySchema(index.partitionKey, index.sortKey),
  Projection: { ProjectionType: 'ALL' as const },
});

/**
 * Adds the indexes a table kept from an earlier `npm start` lacks (a folder from 0.6.0 has no list
 * indexes: docs/decisions/058-admin-lists-at-scale.md), one at a time as DynamoDB requires; DynamoDB
 * Local fills each from the items already there. Indexes the definition no longer has are left.
 */
const addMissingIndexes = async (
  client: DynamoDBClient,
  name: string,
  definition: TableDefinition,
): Promise<void> => {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of definition.globalSecondaryIndexes ?? []) {
    if (present.has(index.indexName)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: attributeDefinitions(definition),
        GlobalSecondaryIndexUpdates: [{ Create: indexDefinition(index) }],
      }),
    );
    await untilActive(client, name, index.indexName);
  }
};

/** Waits (at most 30 s) until the table and the index being created are both ACTIVE. */
const untilActive = async (client: DynamoDBClient, name: string, indexName: string): Promise<void> => {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    const index = Table?.GlobalSecondaryIndexes?.find((candidate) => candidate.IndexName === indexName);
    if (Table?.TableStatus === 'ACTIVE' && index?.IndexStatus === 'ACTIVE') return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`The index ${indexName} of ${name} did not become active.`);
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
        GlobalSecondaryIndexes: definition.globalSecondaryIndexes?.map(indexDefinition),
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
    // Tables persisted by an earlier `npm start` are kept, with the indexes added since.
    if (!(error instanceof ResourceInUseException)) throw error;
    await addMissingIndexes(client, name, definition);
  }
};

/** Creates every table (those that exist already are kept) and answers their names. */
export const createTables = async (client: DynamoDBClient, prefix: string): Promise<TableNames> => {
  const names = tableNames(prefix);
  await Promise.all(TABLE_KEYS.map((key) => createOne(client, names[key], TABLES[key])));
  return names;
};
