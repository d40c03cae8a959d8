/** POST /v1/logs: logs one of the caller's meals, activities or nights of sleep. */
import { createLogRequestSchema } from '../../../shared/health-schemas';
import { createLog } from '../../common/health-records';
import { created, httpHandler } from '../../common/http';

export const handler = httpHandler({ auth: 'user', body: createLogRequestSchema }, async ({ body, caller }) =>
  created(await createLog(caller.sub, body)),
);
