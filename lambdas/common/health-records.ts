/**
 * The measurement and log verbs the route handlers share: each handler parses with its shared schema,
 * then calls one of these with the caller's id from the verified token, never an id from the request.
 */
import { randomUUID } from 'node:crypto';
import type { HealthLog, Measurement, NewLog, NewMeasurement } from '../../shared/health-schemas';
import { logTime } from '../../shared/health-schemas';
import { targetStatus } from '../../shared/health';
import { entrySummaryItem, windowDayOf } from './repositories/coaching';
import { listRecords, putRecord, type RecordPage, type RecordQuery } from './repositories/health-records';

/** The ids of records are UUIDs; anything else cannot be one of the caller's. */
export const isRecordId = (id: string | undefined): id is string =>
  typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/**
 * Stores the reading and, in the same transaction, the coaching summary: the last entry and, for a
 * reading outside its target (as the Metrics marks show it), the counter of its day.
 */
export const createMeasurement = async (userId: string, input: NewMeasurement): Promise<Measurement> => {
  const now = new Date();
  const measurement: Measurement = {
    measurementId: randomUUID(),
    userId,
    ...input,
    createdAt: now.toISOString(),
  };
  const status = targetStatus(input.type, input.value, input.context);
  const outOfTarget = status === 'above' || status === 'below';
  const day = outOfTarget ? windowDayOf(input.takenAt, now) : undefined;
  await putRecord(
    'M',
    {
      userId,
      id: measurement.measurementId,
      subtype: input.type,
      at: input.takenAt,
      item: measurement,
      ...(day !== undefined && { outOfTargetDay: day }),
    },
    [entrySummaryItem(userId, now, outOfTarget ? { day } : undefined)],
  );
  return measurement;
};

export const createLog = async (userId: string, input: NewLog): Promise<HealthLog> => {
  const now = new Date();
  const log = { logId: randomUUID(), userId, ...input, createdAt: now.toISOString() } as HealthLog;
  await putRecord('L', { userId, id: log.logId, subtype: input.kind, at: logTime(input), item: log }, [
    entrySummaryItem(userId, now),
  ]);
  return log;
};

export const listMeasurements = (userId: string, query: RecordQuery): Promise<RecordPage> =>
  listRecords(userId, 'M', query);

export const listLogs = (userId: string, query: RecordQuery): Promise<RecordPage> =>
  listRecords(userId, 'L', query);
