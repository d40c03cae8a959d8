/**
 * The measurement and log verbs the route handlers share: each handler parses with its shared schema,
 * then calls one of these with the caller's id from the verified token, never an id from the request.
 */
import { randomUUID } from 'node:crypto';
import type { HealthLog, Measurement, NewLog, NewMeasurement } from '../../shared/health-schemas';
import { logTime } from '../../shared/health-schemas';
import { listRecords, putRecord, type RecordPage, type RecordQuery } from './repositories/health-records';

/** The ids of records are UUIDs; anything else cannot be one of the caller's. */
export const isRecordId = (id: string | undefined): id is string =>
  typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

export const createMeasurement = async (userId: string, input: NewMeasurement): Promise<Measurement> => {
  const measurement: Measurement = {
    measurementId: randomUUID(),
    userId,
    ...input,
    createdAt: new Date().toISOString(),
  };
  await putRecord('M', {
    userId,
    id: measurement.measurementId,
    subtype: input.type,
    at: input.takenAt,
    item: measurement,
  });
  return measurement;
};

export const createLog = async (userId: string, input: NewLog): Promise<HealthLog> => {
  const log = { logId: randomUUID(), userId, ...input, createdAt: new Date().toISOString() } as HealthLog;
  await putRecord('L', { userId, id: log.logId, subtype: input.kind, at: logTime(input), item: log });
  return log;
};

export const listMeasurements = (userId: string, query: RecordQuery): Promise<RecordPage> =>
  listRecords(userId, 'M', query);

export const listLogs = (userId: string, query: RecordQuery): Promise<RecordPage> =>
  listRecords(userId, 'L', query);
