/**
 * GET /v1/measurements: one page of the caller's measurements, newest `takenAt` first, optionally of
 * one type and between two times; `nextCursor` continues it and works for this caller and query only.
 */
import { measurementListQuerySchema } from '../../../shared/health-schemas';
import { listMeasurements } from '../../common/health-records';
import { httpHandler, ok } from '../../common/http';

export const handler = httpHandler(
  { auth: 'user', query: measurementListQuerySchema },
  async ({ query, caller }) => ok(await listMeasurements(caller.sub, { ...query, subtype: query.type })),
);
