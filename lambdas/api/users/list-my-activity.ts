/** GET /v1/users/me/activity: the caller's own last 20 sign-ins and security events ('Recent activity'). */
import { httpHandler, ok } from '../../common/http';
import { listRecentActivity } from '../../common/repositories/audit-events';

export const handler = httpHandler({ auth: 'user' }, async ({ caller }) =>
  ok({ events: await listRecentActivity(caller.sub) }),
);
