/**
 * The measurement and log verbs the route handlers share: each handler parses with its shared schema,
 * then calls one of these for the caller (`ownerOf`: the id from the verified token, never an id from
 * the request, and the caller's session, which each write is checked against again as it commits).
 */
import { randomUUID } from 'node:crypto';
import { isUuid } from '../../shared/constants';
import type { HealthLog, Measurement, NewLog, NewMeasurement } from '../../shared/health-schemas';
import { logTime } from '../../shared/health-schemas';
import { targetStatus } from '../../shared/health';
import { entrySummaryItem, windowDayOf } from './repositories/coaching';
import {
  getRecord,
  listRecords,
  putRecord,
  RecordExists,
  type RecordCategory,
  type RecordOwner,
  type RecordPage,
  type RecordQuery,
} from './repositories/health-records';
import { API_MESSAGES } from '../../shared/messages';
import { Conflict, NotFound, requireSameRequest } from './errors';
import { requestFingerprint, type Caller } from './http';
import { callerSessionCheckItem } from './session';
import { HEALTH_MESSAGES } from '../../shared/health-messages';

/** The caller as the owner of the records they write: their id, and their session as each write checks it. */
export const ownerOf = (caller: Caller): RecordOwner => ({
  userId: caller.sub,
  check: callerSessionCheckItem(caller),
});

/** The ids of records are UUIDs; anything else cannot be one of the caller's. */
export const isRecordId = (id: string | undefined): id is string => isUuid(id);

/**
 * Stores what `put` stores under `id`, with `fingerprint`; when the person already has a record of that
 * id (the same create sent again with its idempotency key, after its answer was lost) answers that
 * record instead, having written nothing. 409 if that id holds a record of the other category or is the
 * person's own; 422 if it was stored by another request (another fingerprint); 404 (`gone`) if the
 * record was deleted between the two reads.
 */
const storeOnce = async <T>(
  userId: string,
  category: RecordCategory,
  id: string,
  record: T,
  fingerprint: string,
  put: () => Promise<void>,
  gone: string,
): Promise<T> => {
  // The person's own id is their Patient's in the FHIR export: a record of that id would share its
  // `fullUrl`, and the bundle would be invalid.
  if (id === userId) throw new Conflict(API_MESSAGES.idempotencyKeyReused);
  try {
    await put();
    return record;
  } catch (error) {
    if (!(error instanceof RecordExists)) throw error;
    const stored = await getRecord(userId, category, id);
    if (stored && stored.category !== category) throw new Conflict(API_MESSAGES.idempotencyKeyReused);
    requireSameRequest(stored?.fingerprint, fingerprint);
    if (!stored?.item) throw new NotFound(gone);
    return stored.item as T;
  }
};

/**
 * Stores the reading and, in the same transaction, the coaching summary: the last entry and, for a
 * reading outside its target (as the Metrics marks show it), the counter of its day. `id` is the
 * create's idempotency key when it came with one.
 */
export const createMeasurement = async (
  owner: RecordOwner,
  input: NewMeasurement,
  id: string = randomUUID(),
): Promise<Measurement> => {
  const { userId } = owner;
  const now = new Date();
  const measurement: Measurement = {
    measurementId: id,
    userId,
    ...input,
    createdAt: now.toISOString(),
  };
  const status = targetStatus(input.type, input.value, input.context);
  const outOfTarget = status === 'above' || status === 'below';
  const day = outOfTarget ? windowDayOf(input.takenAt, now) : undefined;
  const fingerprint = requestFingerprint(input);
  return storeOnce(
    userId,
    'M',
    id,
    measurement,
    fingerprint,
    () =>
      putRecord(
        'M',
        owner,
        {
          id,
          subtype: input.type,
          at: input.takenAt,
          item: measurement,
          fingerprint,
          ...(day !== undefined && { outOfTargetDay: day }),
        },
        [entrySummaryItem(userId, now, outOfTarget ? { day } : undefined)],
      ),
    HEALTH_MESSAGES.measurementNotFound,
  );
};

/** Stores the log and the coaching summary's last entry; `id` as for a measurement. */
export const createLog = async (
  owner: RecordOwner,
  input: NewLog,
  id: string = randomUUID(),
): Promise<HealthLog> => {
  const { userId } = owner;
  const now = new Date();
  const log = { logId: id, userId, ...input, createdAt: now.toISOString() };
  const fingerprint = requestFingerprint(input);
  return storeOnce(
    userId,
    'L',
    id,
    log,
    fingerprint,
    () =>
      putRecord('L', owner, { id, subtype: input.kind, at: logTime(input), item: log, fingerprint }, [
        entrySummaryItem(userId, now),
      ]),
    HEALTH_MESSAGES.logNotFound,
  );
};

export const listMeasurements = (userId: string, query: RecordQuery): Promise<RecordPage> =>
  listRecords(userId, 'M', query);

export const listLogs = (userId: string, query: RecordQuery): Promise<RecordPage> =>
  listRecords(userId, 'L', query);
