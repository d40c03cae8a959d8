/**
 * Measurements and daily logs (SPEC-2 section 1), in one table keyed per person and type (see
 * `TABLES.healthRecords`). Health data: never logged. Every function takes the caller's id (the
 * writes: the caller as a `RecordOwner`, their id and their session's check) and reads or writes only
 * that person's partitions; there is no Scan and no filter over other people's items.
 */
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb, type TransactItem } from '../aws';
import { conditionFailedAt, transactWrite } from '../transactions';
import { decodeCursor, encodeCursor, type PageKey } from '../cursor';
import { tableName } from '../env';
import { BadRequest, Unauthorized } from '../errors';
import { timeRange } from '../time-range';
import { entryDeletedSummaryItem, windowDayOf } from './coaching';
import { HEALTH_MESSAGES } from '../../../shared/health-messages';

const table = () => tableName('healthRecords');
const OWNER_INDEX = 'byOwner';

/** `M`: measurements, filed by type; `L`: daily logs, filed by kind. */
export type RecordCategory = 'M' | 'L';

const partition = (userId: string, category: RecordCategory, subtype: string) =>
  `${userId}#${category}#${subtype}`;
const ownerKey = (userId: string, category: RecordCategory) => `${userId}#${category}`;
const referenceKey = (userId: string) => `${userId}#R`;

interface StoredKeys {
  readonly pk: string;
  readonly sk: string;
  readonly owner?: string;
}

export interface RecordToStore {
  readonly userId: string;
  readonly id: string;
  /** The measurement type or the log kind. */
  readonly subtype: string;
  /** UTC ISO time the record is filed under. */
  readonly at: string;
  readonly item: Record<string, unknown>;
  /** The UTC day of a reading outside target, which the coaching summary counts (kept for a delete). */
  readonly outOfTargetDay?: string;
  /** The fingerprint of the create's request, which the same id sent again is compared with (ADR 061). */
  readonly fingerprint?: string;
}

/**
 * The two items a record is stored as: the record under its type's partition and the reference by
 * id. Exported for the benchmark's bulk seeder, which writes exactly these items.
 */
export const recordItems = (
  category: RecordCategory,
  record: RecordToStore,
): [Record<string, unknown>, Record<string, unknown>] => {
  const keys: StoredKeys = {
    pk: partition(record.userId, category, record.subtype),
    sk: `${record.at}#${record.id}`,
    owner: ownerKey(record.userId, category),
  };
  return [
    { ...record.item, ...keys },
    {
      pk: referenceKey(record.userId),
      sk: record.id,
      category,
      targetPk: keys.pk,
      targetSk: keys.sk,
      ...(record.outOfTargetDay !== undefined && { outOfTargetDay: record.outOfTargetDay }),
      ...(record.fingerprint !== undefined && { fingerprint: record.fingerprint }),
    },
  ];
};

/** The reference of the person's record `id` (read consistently): where the record is filed. */
const getReference = async (userId: string, id: string) => {
  const reference = await ddb.send(
    new GetCommand({ TableName: table(), Key: { pk: referenceKey(userId), sk: id }, ConsistentRead: true }),
  );
  return reference.Item as
    | {
        category?: string;
        targetPk?: string;
        targetSk?: string;
        outOfTargetDay?: string;
        fingerprint?: string;
      }
    | undefined;
};

/** A record of this id is already stored for this person: the create was sent before (an idempotency key). */
export class RecordExists extends Error {
  override readonly name = 'RecordExists';
}

/**
 * Who a record is written for, and the check the write commits under: the writer's session
 * (`callerSessionCheckItem`) for a request, so that a write that passed the session check just before
 * a disable, delete, recovery or sign-out committed is cancelled (401) rather than committed after it,
 * an erase included (nothing may be left behind it).
 */
export interface RecordOwner {
  readonly userId: string;
  readonly check: TransactItem;
}

/**
 * Stores a record and its reference together, and whatever else must change with them: all or
 * nothing, and only while the owner's check holds (else 401). `RecordExists` when the person already
 * has a record of this id (nothing is written then, the summary included).
 */
export const putRecord = async (
  category: RecordCategory,
  owner: RecordOwner,
  record: Omit<RecordToStore, 'userId'>,
  withItems: readonly TransactItem[] = [],
): Promise<void> => {
  const items = [
    owner.check,
    ...recordItems(category, { ...record, userId: owner.userId }).map((Item) => ({
      Put: { TableName: table(), Item, ConditionExpression: 'attribute_not_exists(pk)' },
    })),
    ...withItems,
  ];
  try {
    await transactWrite({ TransactItems: items });
  } catch (error) {
    const failed = (index: number) => conditionFailedAt(error, index);
    if (failed(0)) throw new Unauthorized();
    // The record or its reference is there already.
    if (failed(1) || failed(2)) throw new RecordExists();
    throw error;
  }
};

/**
 * One of the person's records by id (through its reference, read consistently): its category, the
 * fingerprint of the create that stored it (none on a record stored before fingerprints were kept),
 * and the record as stored when it is of `category`. Undefined when the person has no record of that id.
 */
export const getRecord = async (
  userId: string,
  category: RecordCategory,
  id: string,
): Promise<{ category: string; fingerprint?: string; item?: Record<string, unknown> } | undefined> => {
  const item = await getReference(userId, id);
  if (!item?.category || !item.targetPk || !item.targetSk) return undefined;
  if (item.category !== category) return { category: item.category };
  const stored = await ddb.send(
    new GetCommand({
      TableName: table(),
      Key: { pk: item.targetPk, sk: item.targetSk },
      ConsistentRead: true,
    }),
  );
  return {
    category,
    ...(item.fingerprint !== undefined && { fingerprint: item.fingerprint }),
    ...(stored.Item && { item: withoutKeys(stored.Item) }),
  };
};

const withoutKeys = (item: Record<string, unknown>): Record<string, unknown> => {
  const { pk: _pk, sk: _sk, owner: _owner, ...rest } = item;
  return rest;
};

export interface RecordQuery {
  readonly subtype?: string;
  readonly from?: string;
  readonly to?: string;
  readonly limit: number;
  readonly cursor?: string;
}

export interface RecordPage {
  readonly items: Record<string, unknown>[];
  readonly nextCursor?: string;
}

/**
 * One page of a person's records, newest first: of one type (a Query on the table, read
 * consistently) or of every type (a Query on `byOwner`), optionally between two times. The cursor is
 * bound to who reads (`viewerId`: the person, or their coach) and whose records these are.
 */
export const listRecords = async (
  userId: string,
  category: RecordCategory,
  query: RecordQuery,
  viewerId: string = userId,
): Promise<RecordPage> => {
  const scope = [
    category,
    query.subtype ?? '*',
    query.from ?? '',
    query.to ?? '',
    ...(viewerId === userId ? [] : [`of:${userId}`]),
  ].join('|');
  const byType = query.subtype !== undefined;
  const partitionName = byType ? 'pk' : 'owner';
  const partitionValue = byType
    ? partition(userId, category, query.subtype ?? '')
    : ownerKey(userId, category);

  let exclusiveStartKey: PageKey | undefined;
  if (query.cursor !== undefined) {
    exclusiveStartKey = decodeCursor(viewerId, scope, query.cursor);
    // The signature already binds the cursor to this caller; a key outside their partition is refused anyway.
    const expectedKeys = byType ? ['pk', 'sk'] : ['owner', 'pk', 'sk'];
    const keys = Object.keys(exclusiveStartKey).sort();
    if (keys.join() !== expectedKeys.join() || exclusiveStartKey[partitionName] !== partitionValue)
      throw new BadRequest(HEALTH_MESSAGES.cursor);
  }

  const range = timeRange(query.from, query.to);
  const input: QueryCommandInput = {
    TableName: table(),
    ...(byType ? { ConsistentRead: true } : { IndexName: OWNER_INDEX }),
    KeyConditionExpression: `#p = :p${range.condition}`,
    ExpressionAttributeNames: { '#p': partitionName },
    ExpressionAttributeValues: { ':p': partitionValue, ...range.values },
    ScanIndexForward: false,
    Limit: query.limit,
    ...(exclusiveStartKey && { ExclusiveStartKey: exclusiveStartKey }),
  };
  const result = await ddb.send(new QueryCommand(input));
  const last = result.LastEvaluatedKey as PageKey | undefined;
  return {
    items: (result.Items ?? []).map(withoutKeys),
    ...(last && { nextCursor: encodeCursor(viewerId, scope, last) }),
  };
};

/** Every record of one category, newest first (for the export). */
export const listAllRecords = async (userId: string, category: RecordCategory) => {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const page = await listRecords(userId, category, { limit: 200, ...(cursor && { cursor }) });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
};

/**
 * Deletes one of the owner's records by id, with its reference, in one transaction, under the owner's
 * check (401 when it no longer holds). False when the owner has no such record (another person's id
 * included: their reference is in their partition).
 */
export const deleteRecord = async (
  owner: RecordOwner,
  category: RecordCategory,
  id: string,
): Promise<boolean> => {
  const { userId } = owner;
  const item = await getReference(userId, id);
  if (!item || item.category !== category || !item.targetPk || !item.targetSk) return false;
  // A reading outside target leaves its day's counter, while that day is still counted.
  const countedDay =
    item.outOfTargetDay !== undefined ? windowDayOf(item.outOfTargetDay, new Date()) : undefined;
  try {
    await transactWrite({
      TransactItems: [
        owner.check,
        {
          Delete: {
            TableName: table(),
            Key: { pk: referenceKey(userId), sk: id },
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Delete: {
            TableName: table(),
            Key: { pk: item.targetPk, sk: item.targetSk },
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        ...(countedDay !== undefined ? [entryDeletedSummaryItem(userId, countedDay)] : []),
      ],
    });
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) throw new Unauthorized();
    // Deleted meanwhile (a double click, two tabs): gone, and not by this call. Any other cancellation
    // (a collision that outlasted the tries) left the record where it was: a failure, never 'not found'.
    if (conditionFailedAt(error, 1) || conditionFailedAt(error, 2)) return false;
    throw error;
  }
};
