/**
 * The user directory behind User Management (docs/decisions/058-admin-lists-at-scale.md): the
 * attributes that place accounts and invitations in the list indexes, the counters kept in the same
 * transaction as every write that changes them, and one page of a list as one Query.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DirectoryCounts } from '../../../shared/directory';
import type { TableKey } from '../../../shared/tables';
import { ddb, type TransactItem } from '../aws';
import { batchGetAll } from '../batch-get';
import type { PageKey } from '../cursor';
import { tableName } from '../env';

/**
 * The counters are spread over this many items, each write adding to one picked at random, so that
 * activations at the same moment do not all collide on one item (a transaction touching an item
 * another transaction holds is cancelled); the counts are their sum, read in one BatchGetItem.
 */
export const COUNT_SHARDS = 10;
const COUNTS_PREFIX = 'directory#counts#';
const COUNT_NAMES = ['people', 'disabled', 'pendingInvitations'] as const;

/** The keys (in the accounts table) of the counter items. */
export const countKeys = (): { userId: string }[] =>
  Array.from({ length: COUNT_SHARDS }, (_, shard) => ({ userId: `${COUNTS_PREFIX}${shard}` }));

/**
 * The transaction item adding `delta` to the counts (a negative number subtracts), in a list to
 * spread into a transaction: empty when `delta` changes nothing. `transactWrite` moves it to another
 * shard when it tries the transaction again (`countsOnAnotherShard`).
 */
export const countsUpdateItem = (
  delta: Partial<DirectoryCounts>,
  shard = Math.floor(Math.random() * COUNT_SHARDS),
): TransactItem[] => {
  const changes = COUNT_NAMES.filter((name) => (delta[name] ?? 0) !== 0);
  if (changes.length === 0) return [];
  return [
    {
      Update: {
        TableName: tableName('accounts'),
        Key: { userId: `${COUNTS_PREFIX}${shard}` },
        UpdateExpression: `ADD ${changes.map((name) => `#${name} :${name}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(changes.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: Object.fromEntries(changes.map((name) => [`:${name}`, delta[name]])),
      },
    },
  ];
};

/**
 * The same transaction items with the counts' update moved to a shard other than the one it had, for
 * the next try of a transaction that collided: a shard held by other writes for a while (activations
 * at the same moment) must not cancel every try, which the caller would read as its own condition
 * failing ('code used', 'invitation exists'). The other items are the very same objects.
 */
export const countsOnAnotherShard = (items: readonly TransactItem[]): TransactItem[] =>
  items.map((item) => {
    const key: unknown = item.Update?.Key?.userId;
    if (item.Update === undefined || typeof key !== 'string' || !key.startsWith(COUNTS_PREFIX)) return item;
    const shard = Number(key.slice(COUNTS_PREFIX.length));
    const next = (shard + 1 + Math.floor(Math.random() * (COUNT_SHARDS - 1))) % COUNT_SHARDS;
    return { ...item, Update: { ...item.Update, Key: { userId: `${COUNTS_PREFIX}${next}` } } };
  });

/** How an account's status change moves the counts. */
export const statusDelta = (before: string, after: string | undefined): Partial<DirectoryCounts> => {
  if (after === undefined || after === before) return {};
  return { disabled: after === 'disabled' ? 1 : before === 'disabled' ? -1 : 0 };
};

/** The counts now (consistent: a list read right after a write shows it). */
export const getDirectoryCounts = async (): Promise<DirectoryCounts> => {
  const items = await batchGetAll(tableName('accounts'), countKeys(), {
    ProjectionExpression: COUNT_NAMES.map((name) => `#${name}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(COUNT_NAMES.map((name) => [`#${name}`, name])),
    ConsistentRead: true,
  });
  const sum = (name: (typeof COUNT_NAMES)[number]) =>
    items.reduce((total, item) => total + Number(item[name] ?? 0), 0);
  return { people: sum('people'), disabled: sum('disabled'), pendingInvitations: sum('pendingInvitations') };
};

/** What places an account in the list indexes (`byCreated`, `byEmail`, `byStatus`, `byCoachRole`). */
export const accountDirectoryAttributes = (account: {
  readonly userId: string;
  readonly createdAt: string;
  readonly roles: readonly string[];
}) => ({
  dir: 'people',
  dirSort: `${account.createdAt}#${account.userId}`,
  ...coachRoleAttribute(account.roles),
});

/** The `byCoachRole` partition of an account with these roles. */
export const coachRoleAttribute = (roles: readonly string[]) => ({
  dirCoach: roles.includes('coaches') ? 'coaches' : 'others',
});

export type InvitationState = 'pending' | 'activated';

/** What places an invitation in the list indexes (`byCreated`, `byEmail`, `byState`, `byStateEmail`). */
export const invitationDirectoryAttributes = (invitation: {
  readonly email: string;
  readonly createdAt: string;
  readonly codeUsed: boolean;
}) => ({
  dir: 'invitations',
  dirSort: `${invitation.createdAt}#${invitation.email}`,
  state: (invitation.codeUsed ? 'activated' : 'pending') satisfies InvitationState,
});

export interface DirectoryPageQuery {
  readonly table: Extract<TableKey, 'accounts' | 'invitations'>;
  readonly index: string;
  /** The index's partition key and the one value read. */
  readonly partition: readonly [name: string, value: string];
  /** An email prefix: the index's sort key is `email`, read in email order. Else newest first. */
  readonly emailPrefix?: string;
  /** Attribute equalities the index cannot serve (a page may then hold fewer than `limit` items). */
  readonly filters?: readonly (readonly [name: string, value: string])[];
  readonly limit: number;
  readonly start?: PageKey;
  readonly projection: readonly string[];
}

/** One page of a list: exactly one Query, whatever the size of the directory. */
export const queryDirectoryPage = async (
  query: DirectoryPageQuery,
): Promise<{ items: Record<string, unknown>[]; last?: PageKey }> => {
  const names: Record<string, string> = { '#p': query.partition[0] };
  const values: Record<string, string> = { ':p': query.partition[1] };
  let condition = '#p = :p';
  if (query.emailPrefix !== undefined) {
    names['#email'] = 'email';
    values[':prefix'] = query.emailPrefix;
    // Every string that starts with the prefix, as a range: strings compare as UTF-8 bytes and U+10FFFF
    // encodes highest, and an email cannot hold it. Same answer as begins_with, which DynamoDB Local
    // evaluates over the whole partition (slower at 10,000 people than at 1,000), where it reads a range.
    values[':prefixEnd'] = `${query.emailPrefix}\u{10FFFF}`;
    condition += ' AND #email BETWEEN :prefix AND :prefixEnd';
  }
  const filters = (query.filters ?? []).map(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    return `#f${i} = :f${i}`;
  });
  query.projection.forEach((name, i) => {
    names[`#a${i}`] = name;
  });
  const input: QueryCommandInput = {
    TableName: tableName(query.table),
    IndexName: query.index,
    KeyConditionExpression: condition,
    ...(filters.length > 0 && { FilterExpression: filters.join(' AND ') }),
    ProjectionExpression: query.projection.map((_, i) => `#a${i}`).join(', '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: query.emailPrefix !== undefined,
    Limit: query.limit,
    ...(query.start && { ExclusiveStartKey: query.start }),
  };
  const result = await ddb.send(new QueryCommand(input));
  return { items: result.Items ?? [], last: result.LastEvaluatedKey as PageKey | undefined };
};
