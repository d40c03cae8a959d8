/**
 * GET /v1/coach/clients/{userId}/logs: the client's daily logs as GET /v1/logs answers them, for the
 * client's coach only (403 for anyone else), answered only once the read is recorded in the audit log.
 */
import { logListQuerySchema } from '../../../shared/health-schemas';
import { recordClientRead, requireCoachOf } from '../../common/coaching';
import { httpHandler, ok } from '../../common/http';
import { listRecords } from '../../common/repositories/health-records';

export const handler = httpHandler(
  { auth: 'coach', query: logListQuerySchema },
  async ({ query, caller, pathParameters, event }) => {
    const clientId = await requireCoachOf(caller, pathParameters.userId);
    const page = await listRecords(clientId, 'L', { ...query, subtype: query.kind }, caller.sub);
    await recordClientRead(event, caller, clientId, {
      read: 'logs',
      ...(query.kind !== undefined && { kind: query.kind }),
    });
    return ok(page);
  },
);
