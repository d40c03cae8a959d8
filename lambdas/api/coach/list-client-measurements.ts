/**
 * GET /v1/coach/clients/{userId}/measurements: the client's measurements as GET /v1/measurements
 * answers them, for the client's coach only (403 for anyone else), answered only once the read is
 * recorded in the audit log.
 */
import { measurementListQuerySchema } from '../../../shared/health-schemas';
import { recordClientRead, requireCoachOf } from '../../common/coaching';
import { httpHandler, ok } from '../../common/http';
import { listRecords } from '../../common/repositories/health-records';

export const handler = httpHandler(
  { auth: 'coach', query: measurementListQuerySchema },
  async ({ query, caller, pathParameters, event }) => {
    const clientId = await requireCoachOf(caller, pathParameters.userId);
    const page = await listRecords(clientId, 'M', { ...query, subtype: query.type }, caller.sub);
    await recordClientRead(event, caller, clientId, {
      read: 'measurements',
      ...(query.type !== undefined && { type: query.type }),
    });
    return ok(page);
  },
);
