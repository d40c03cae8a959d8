/** GET /v1/logs: one page of the caller's daily logs, newest first, optionally of one kind and between two times. */
import { logListQuerySchema } from '../../../shared/health-schemas';
import { listLogs } from '../../common/health-records';
import { httpHandler, ok } from '../../common/http';

export const handler = httpHandler({ auth: 'user', query: logListQuerySchema }, async ({ query, caller }) =>
  ok(await listLogs(caller.sub, { ...query, subtype: query.kind })),
);
