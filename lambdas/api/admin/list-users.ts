/**
 * GET /internal/v1/admin/users: one page of people (newest first, or by email prefix), filtered by
 * status or the coach role, with the directory's counts; `nextCursor` continues the same query for the
 * same admin only. One Query and three BatchGetItems a page at any size, and no Cognito call.
 */
import { adminUserListQuerySchema } from '../../../shared/directory';
import { listPeople } from '../../common/admin-lists';
import { httpHandler, ok } from '../../common/http';

export const handler = httpHandler(
  { auth: 'admin', query: adminUserListQuerySchema },
  async ({ query, caller }) => ok(await listPeople(caller.sub, query)),
);
