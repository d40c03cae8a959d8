/**
 * GET /internal/v1/admin/audit: one page of the audit log, newest first, filtered by subject, actor,
 * type and time; `nextCursor` continues the same query for the same admin only.
 */
import { auditListQuerySchema } from '../../../shared/audit';
import { httpHandler, ok } from '../../common/http';
import { listAuditEvents } from '../../common/repositories/audit-events';

export const handler = httpHandler(
  { auth: 'admin', query: auditListQuerySchema },
  async ({ query, caller }) => ok(await listAuditEvents(caller.sub, query)),
);
