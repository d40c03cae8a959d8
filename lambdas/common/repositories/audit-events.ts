/**
 * Reading the audit log (the writers are in `../audit.ts`). Every read is a Query: on a month's
 * partition for "everything, newest first", or on the index of the filter given (subject, actor,
 * type); a second filter narrows that Query. Pages continue through a signed cursor, as elsewhere.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  AUDIT_RETENTION_DAYS,
  RECENT_ACTIVITY_COUNT,
  SECURITY_EVENT_TYPES,
  type ActivityEvent,
  type AuditEvent,
  type AuditListQuery,
} from '../../../shared/audit';
import { HEALTH_MESSAGES } from '../../../shared/health-messages';
import { ddb } from '../aws';
import { decodeCursor, encodeCursor, type PageKey } from '../cursor';
import { tableName } from '../env';
import { BadRequest } from '../errors';
import { timeRange } from '../time-range';

const table = () => tableName('auditEvents');
const DAY_MS = 24 * 60 * 60 * 1000;

const withoutKeys = (item: Record<string, unknown>): AuditEvent => {
  const { pk: _pk, sk: _sk, expiresAt: _expiresAt, activityOf: _activityOf, ...event } = item;
  return event as AuditEvent;
};

/** `YYYY-MM` of each month from `newest` back to `oldest`, both included. */
const monthsBetween = (newest: string, oldest: string): string[] => {
  const months: string[] = [];
  let year = Number(newest.slice(0, 4));
  let month = Number(newest.slice(5, 7));
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    if (key < oldest.slice(0, 7)) return months;
    months.push(key);
    month -= 1;
    if (month === 0) {
      month = 12;
      year -= 1;
    }
  }
};

interface Plan {
  readonly index?: string;
  readonly partition: { readonly name: string; readonly values: string[] };
  readonly filters: [string, string][];
}

const planFor = (query: AuditListQuery, now: Date): Plan => {
  const filters: [string, string][] = [];
  if (query.subjectId !== undefined) {
    if (query.actorId !== undefined) filters.push(['actorId', query.actorId]);
    if (query.type !== undefined) filters.push(['type', query.type]);
    return { index: 'bySubject', partition: { name: 'subjectId', values: [query.subjectId] }, filters };
  }
  if (query.actorId !== undefined) {
    if (query.type !== undefined) filters.push(['type', query.type]);
    return { index: 'byActor', partition: { name: 'actorId', values: [query.actorId] }, filters };
  }
  if (query.type !== undefined)
    return { index: 'byType', partition: { name: 'type', values: [query.type] }, filters };
  // Months after now hold nothing: a `to` in the future (even the year 9999) reads from this month on.
  const newest = query.to !== undefined && query.to < now.toISOString() ? query.to : now.toISOString();
  const retained = new Date(now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS).toISOString();
  const oldest = query.from !== undefined && query.from > retained ? query.from : retained;
  return { partition: { name: 'pk', values: monthsBetween(newest, oldest) }, filters };
};

/**
 * A read that filters after DynamoDB's `Limit` (a filtered Audit Log page, the 'Recent activity' of
 * events from before `byActivity`) looks at this many events at least, and reads on at most
 * `MAX_READS` times in all: a page of a person's events of one type is rarely empty while more may
 * follow, and never costs more than five Queries.
 */
const READ_AT_LEAST = 100;
const MAX_READS = 5;

/** Where a page that ends at `item` continues: its keys in the table and in the index read. */
const keyOf = (item: Record<string, unknown>, plan: Plan): PageKey => ({
  pk: String(item.pk),
  sk: String(item.sk),
  [plan.partition.name]: String(item[plan.partition.name]),
});

export interface AuditEventPage {
  readonly events: AuditEvent[];
  readonly nextCursor?: string;
}

/** One page of events, newest first, for the admin's Audit Log. */
export const listAuditEvents = async (
  viewerId: string,
  query: AuditListQuery,
  now = new Date(),
): Promise<AuditEventPage> => {
  const { cursor, limit, ...filters } = query;
  const scope = JSON.stringify(filters);
  const plan = planFor(query, now);
  let start: PageKey | undefined;
  let partitions = plan.partition.values;
  if (cursor !== undefined) {
    start = decodeCursor(viewerId, scope, cursor);
    const at = partitions.indexOf(start[plan.partition.name] ?? '');
    if (at < 0) throw new BadRequest(HEALTH_MESSAGES.cursor);
    partitions = partitions.slice(at);
  }

  const names: Record<string, string> = { '#p': plan.partition.name };
  const range = timeRange(query.from, query.to);
  const values: Record<string, string> = { ...range.values };
  plan.filters.forEach(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
  });
  const filterExpression = plan.filters.map((_, i) => `#f${i} = :f${i}`).join(' AND ');

  const events: AuditEvent[] = [];
  let reads = 0;
  for (const [i, partition] of partitions.entries()) {
    // A cursor naming only a partition starts at its top.
    let from: PageKey | undefined = i === 0 && start?.sk !== undefined ? start : undefined;
    let last: PageKey | undefined;
    do {
      const wanted = limit - events.length;
      const input: QueryCommandInput = {
        TableName: table(),
        ...(plan.index !== undefined && { IndexName: plan.index }),
        KeyConditionExpression: `#p = :p${range.condition}`,
        ...(filterExpression && { FilterExpression: filterExpression }),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':p': partition },
        ScanIndexForward: false,
        // DynamoDB applies a second filter after `Limit`: a page of a person's events may hold none of
        // the type asked for. So a filtered read looks at more than it answers, and reads on.
        Limit: filterExpression ? Math.max(wanted, READ_AT_LEAST) : wanted,
        ...(from !== undefined && { ExclusiveStartKey: from }),
      };
      const result = await ddb.send(new QueryCommand(input));
      reads += 1;
      const items = result.Items ?? [];
      if (items.length > wanted) {
        // More matched than the page holds: it ends at the last one shown, and the next starts after.
        const kept = items.slice(0, wanted);
        events.push(...kept.map(withoutKeys));
        return { events, nextCursor: encodeCursor(viewerId, scope, keyOf(kept.at(-1) ?? {}, plan)) };
      }
      events.push(...items.map(withoutKeys));
      last = result.LastEvaluatedKey as PageKey | undefined;
      from = last;
    } while (filterExpression && last && events.length < limit && reads < MAX_READS);
    if (last) return { events, nextCursor: encodeCursor(viewerId, scope, last) };
    if (events.length >= limit) {
      // This partition is done; the next page starts at the top of the one after it, if any.
      const next = partitions[i + 1];
      if (next === undefined) return { events };
      return { events, nextCursor: encodeCursor(viewerId, scope, { pk: next }) };
    }
  }
  return { events };
};

/**
 * An event as 'Recent activity' shows it to `userId`: where it came from only when they acted
 * themselves; an admin's action on them without the admin's id, address or browser.
 */
const asActivity = (userId: string, event: AuditEvent): ActivityEvent => {
  const { actorId, ip, userAgent, ...shown } = event;
  return actorId === undefined || actorId === userId
    ? { ...shown, ip, userAgent }
    : { ...shown, byAdmin: true };
};

/**
 * The person's own last security events ('Recent activity'), newest first: one Query of the
 * `byActivity` index, which holds those events alone. Events written before it (0.6.0, without
 * `activityOf`) are found as they used to be, through `bySubject` filtered by type, only when the index
 * holds fewer than the screen shows: at most 5 pages of 100 of the person's newest events.
 */
export const listRecentActivity = async (userId: string): Promise<ActivityEvent[]> => {
  const indexed = await ddb.send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'byActivity',
      KeyConditionExpression: 'activityOf = :s',
      ExpressionAttributeValues: { ':s': userId },
      ScanIndexForward: false,
      Limit: RECENT_ACTIVITY_COUNT,
    }),
  );
  const items = indexed.Items ?? [];
  if (items.length < RECENT_ACTIVITY_COUNT) items.push(...(await listUnindexedActivity(userId)));
  return items
    .sort((a, b) => String(b.sk).localeCompare(String(a.sk)))
    .slice(0, RECENT_ACTIVITY_COUNT)
    .map((item) => asActivity(userId, withoutKeys(item)));
};

/** The person's security events stored without `activityOf` (before `byActivity`), newest first. */
const listUnindexedActivity = async (userId: string): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  const types = SECURITY_EVENT_TYPES.map((type, i) => [`:t${i}`, type] as const);
  let start: Record<string, unknown> | undefined;
  for (let call = 0; call < MAX_READS && items.length < RECENT_ACTIVITY_COUNT; call += 1) {
    const result = await ddb.send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'bySubject',
        KeyConditionExpression: 'subjectId = :s',
        FilterExpression: `attribute_not_exists(activityOf) AND #type IN (${types.map(([name]) => name).join(', ')})`,
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':s': userId, ...Object.fromEntries(types) },
        ScanIndexForward: false,
        Limit: READ_AT_LEAST,
        ...(start && { ExclusiveStartKey: start }),
      }),
    );
    items.push(...(result.Items ?? []));
    start = result.LastEvaluatedKey;
    if (!start) break;
  }
  return items;
};
