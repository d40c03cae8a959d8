/**
 * The counters of the abuse limits (SPEC-2 section 5), in the auth-challenges table under
 * `limit#<scope>#<digest>`; the subject (an email, a source IP) is stored only as a SHA-256 digest.
 * Every attempt takes its place with one atomic update, so concurrent attempts get distinct numbers
 * and no more than the limit are ever let through (docs/decisions/049-abuse-limits.md). The source
 * IP limits count in fixed windows; the wrong codes for one email in a sliding one (a log of the
 * attempts' times), as SPEC-2 words it: 5 within any 15 minutes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../aws';
import { tableName } from '../env';

const table = () => tableName('authChallenges');

export type LimitScope = 'activation-email' | 'activation-ip' | 'signin-ip';

export interface LimitRule {
  readonly limit: number;
  readonly windowMs: number;
}

/** One attempt's place in its window. */
export interface Slot {
  readonly key: string;
  /** 1 for the first attempt of the window; above the rule's limit means refused. */
  readonly number: number;
  /** Epoch ms the window (or a lock) ends. */
  readonly windowEndsAt: number;
}

const keyOf = (scope: LimitScope, subject: string): string =>
  `limit#${scope}#${createHash('sha256').update(`${scope}:${subject}`).digest('base64url')}`;

/** TTL: an item outlives its window by a minute, then DynamoDB may delete it (the code never needs it). */
const expiryOf = (windowEndsAt: number): number => Math.ceil(windowEndsAt / 1000) + 60;

const isConditionFailure = (error: unknown): boolean => error instanceof ConditionalCheckFailedException;

const countInWindow = async (key: string, now: number): Promise<Slot | undefined> => {
  try {
    const result = await ddb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: key },
        UpdateExpression: 'ADD attempts :one',
        ConditionExpression: 'windowEndsAt > :now',
        ExpressionAttributeValues: { ':one': 1, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const item = result.Attributes ?? {};
    return { key, number: Number(item.attempts), windowEndsAt: Number(item.windowEndsAt) };
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
};

const openWindow = async (key: string, now: number, rule: LimitRule): Promise<Slot | undefined> => {
  const windowEndsAt = now + rule.windowMs;
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: key },
        UpdateExpression: 'SET attempts = :one, windowEndsAt = :end, expiresAt = :ttl',
        ConditionExpression: 'attribute_not_exists(windowEndsAt) OR windowEndsAt <= :now',
        ExpressionAttributeValues: {
          ':one': 1,
          ':end': windowEndsAt,
          ':ttl': expiryOf(windowEndsAt),
          ':now': now,
        },
      }),
    );
    return { key, number: 1, windowEndsAt };
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
};

/** Takes the next slot of the subject's current window, opening a new window when the last one ended. */
export const takeSlot = async (scope: LimitScope, subject: string, rule: LimitRule): Promise<Slot> => {
  const key = keyOf(scope, subject);
  // Each step fails only because a concurrent attempt changed the window meanwhile; one more round
  // then always finds the window that attempt opened or counted in.
  for (let round = 0; round < 3; round += 1) {
    const now = Date.now();
    const slot = (await countInWindow(key, now)) ?? (await openWindow(key, now, rule));
    if (slot) return slot;
  }
  throw new Error(`the ${scope} counter kept changing under concurrent attempts`);
};

/** Whether the slot is within the rule's limit. */
export const withinLimit = (slot: Slot, rule: LimitRule): boolean => slot.number <= rule.limit;

/** Gives the slot back (an attempt that must not count), unless its window has ended meanwhile. */
export const refundSlot = async (slot: Slot): Promise<void> => {
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: slot.key },
        UpdateExpression: 'ADD attempts :minusOne',
        ConditionExpression: 'windowEndsAt = :window',
        ExpressionAttributeValues: { ':minusOne': -1, ':window': slot.windowEndsAt },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

/**
 * One attempt in a subject's sliding log (`attemptLog`, a string set: not the fixed windows' `attempts`
 * number, which an item written before the log was introduced may still hold).
 */
export interface LogEntry {
  readonly key: string;
  /** `<epoch ms>:<random>`: the attempt in the log's string set. */
  readonly token: string;
  /** The attempts in the log within the rule's window, this one included (above the limit: refused). */
  readonly number: number;
  /** Epoch ms a lock on the subject ends (0 for none). */
  readonly lockedUntil: number;
}

const timeOf = (token: string): number => Number(token.split(':')[0]);

/**
 * Adds an attempt to the subject's sliding log and counts the attempts of the last `rule.windowMs`,
 * its own included (one atomic `ADD`: attempts at once see each other). Attempts older than the
 * window are dropped from the log afterwards.
 */
export const takeLogEntry = async (
  scope: LimitScope,
  subject: string,
  rule: LimitRule,
): Promise<LogEntry> => {
  const key = keyOf(scope, subject);
  const now = Date.now();
  const token = `${now}:${randomUUID()}`;
  const result = await ddb.send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: key },
      // A lock ends at most a window after the attempt that set it, so this never cuts one short.
      UpdateExpression: 'ADD attemptLog :token SET expiresAt = :ttl',
      ExpressionAttributeValues: { ':token': new Set([token]), ':ttl': expiryOf(now + rule.windowMs) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const item = result.Attributes ?? {};
  const tokens = [...((item.attemptLog as Set<string> | undefined) ?? [])];
  const since = now - rule.windowMs;
  const old = tokens.filter((other) => timeOf(other) <= since);
  if (old.length > 0) await forget(key, old);
  return {
    key,
    token,
    number: tokens.length - old.length,
    lockedUntil: Number(item.lockedUntil ?? 0),
  };
};

const forget = async (key: string, tokens: readonly string[]): Promise<void> => {
  await ddb.send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: key },
      UpdateExpression: 'DELETE attemptLog :tokens',
      ExpressionAttributeValues: { ':tokens': new Set(tokens) },
    }),
  );
};

/** Takes the attempt out of the log (one that must not count: refused, or a right code). */
export const forgetEntry = (entry: LogEntry): Promise<void> => forget(entry.key, [entry.token]);

/** Locks the subject until `until` (epoch ms), unless a lock already runs longer. */
export const lockSubject = async (entry: LogEntry, until: number): Promise<void> => {
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: entry.key },
        UpdateExpression: 'SET lockedUntil = :until, expiresAt = :ttl',
        ConditionExpression: 'attribute_not_exists(lockedUntil) OR lockedUntil < :until',
        ExpressionAttributeValues: { ':until': until, ':ttl': expiryOf(until) },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};
