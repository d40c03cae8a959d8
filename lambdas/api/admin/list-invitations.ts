/**
 * GET /internal/v1/admin/invitations: one page of invitations (newest first, or by email prefix),
 * pending (not taken up, expired ones included) or activated; `nextCursor` continues the same query
 * for the same admin only. One Query a page at any size.
 */
import { invitationListQuerySchema } from '../../../shared/directory';
import { listInvitationPage } from '../../common/admin-lists';
import { httpHandler, ok } from '../../common/http';

export const handler = httpHandler(
  { auth: 'admin', query: invitationListQuerySchema },
  async ({ query, caller }) => ok(await listInvitationPage(caller.sub, query)),
);
