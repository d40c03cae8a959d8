/**
 * The one way an audit event is written (SPEC-2 section 4). Every writer goes through `recordAudit`
 * or, to commit the event with the change it records, `auditTransactItem`; both put a new item only
 * (`attribute_not_exists`), never update or delete one, and the IAM grant of every writer is PutItem.
 *
 * An event holds ids, counts and reason codes. The caller passes them; nothing here copies a request
 * body, so a health value, code, proof or token cannot reach the log by accident.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  AUDIT_MESSAGES,
  AUDIT_RETENTION_DAYS,
  SECURITY_EVENT_TYPES,
  USER_AGENT_MAX,
  type AuditDetailValue,
  type AuditEvent,
  type AuditEventType,
  type AuditOutcome,
} from '../../shared/audit';
import { ddb, type TransactItem } from './aws';
import { tableName } from './env';
import { ServiceUnavailable } from './errors';
import { logger } from './logger';
import { refusalOf, transactWrite, type CommitChecks } from './transactions';

/** Where a request came from: API Gateway's socket address (never a header) and the user agent. */
export interface RequestOrigin {
  readonly ip: string;
  readonly userAgent: string;
}

export const originOf = (event: APIGatewayProxyEvent): RequestOrigin => {
  const agent = Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === 'user-agent')?.[1];
  return {
    ip: event.requestContext?.identity?.sourceIp ?? 'unknown',
    userAgent: (agent ?? '').slice(0, USER_AGENT_MAX),
  };
};

export interface AuditRecord {
  readonly type: AuditEventType;
  readonly actorId?: string;
  readonly subjectId?: string;
  /** @default 'success' */
  readonly outcome?: AuditOutcome;
  readonly details?: Readonly<Record<string, AuditDetailValue>>;
}

const DAY_SECONDS = 24 * 60 * 60;

/** The stored item: the event, its keys (month partition, time-ordered sort key) and its expiry. */
const itemOf = (origin: RequestOrigin, record: AuditRecord, now = new Date()) => {
  const at = now.toISOString();
  const event: AuditEvent = {
    eventId: randomUUID(),
    at,
    type: record.type,
    ...(record.actorId !== undefined && { actorId: record.actorId }),
    ...(record.subjectId !== undefined && { subjectId: record.subjectId }),
    outcome: record.outcome ?? 'success',
    ip: origin.ip,
    userAgent: origin.userAgent,
    details: { ...record.details } as AuditEvent['details'],
  };
  return {
    ...event,
    pk: at.slice(0, 7),
    sk: `${at}#${event.eventId}`,
    // Places the event in its subject's 'Recent activity' (the `byActivity` index).
    ...(record.subjectId !== undefined &&
      SECURITY_EVENT_TYPES.includes(record.type) && { activityOf: record.subjectId }),
    expiresAt: Math.floor(now.getTime() / 1000) + AUDIT_RETENTION_DAYS * DAY_SECONDS,
  };
};

/** The write of a new event: a new item only, never over another. */
const putOf = (origin: RequestOrigin, record: AuditRecord) => ({
  TableName: tableName('auditEvents'),
  Item: itemOf(origin, record),
  ConditionExpression: 'attribute_not_exists(pk)',
});

/** The event as one item of the transaction that makes the change it records: both or neither. */
export const auditTransactItem = (origin: RequestOrigin, record: AuditRecord): TransactItem => ({
  Put: putOf(origin, record),
});

export interface RecordAuditOptions {
  /** The 503's text. @default AUDIT_MESSAGES.unavailable; AUDIT_MESSAGES.unrecorded when the change was made before its event. */
  readonly message?: string;
  /**
   * Conditions the event is committed with, in one transaction (condition checks on other items): it
   * is written only while they all hold, and when one does not the request answers its refusal.
   */
  readonly onlyIf?: CommitChecks;
}

/**
 * Writes the event. When it cannot be written the request fails with 503: nothing that should have
 * been recorded is answered unrecorded (a coach's read shows nothing). With `onlyIf`, the event
 * commits with its conditions, and a condition that no longer holds is the caller's refusal instead.
 */
export const recordAudit = async (
  origin: RequestOrigin,
  record: AuditRecord,
  { message = AUDIT_MESSAGES.unavailable, onlyIf }: RecordAuditOptions = {},
): Promise<void> => {
  const put = putOf(origin, record);
  try {
    if (onlyIf) await transactWrite({ TransactItems: [{ Put: put }, ...onlyIf.checks] });
    else await ddb.send(new PutCommand(put));
  } catch (error) {
    const refusal = refusalOf(error, onlyIf, 1);
    if (refusal) throw refusal;
    logger.error('audit write failed', {
      type: record.type,
      errorName: error instanceof Error ? error.name : typeof error,
    });
    throw new ServiceUnavailable(message);
  }
};
