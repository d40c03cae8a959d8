/** GET /internal/v1/admin/invitations: every invitation, pending and activated, oldest first. */
import { httpHandler, ok } from '../../common/http';
import { toInvitation } from '../../common/invitation-view';
import { listInvitations, type InvitationRecord } from '../../common/repositories/invitations';

export const handler = httpHandler({ auth: 'admin' }, async () => {
  const records: InvitationRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await listInvitations(startKey);
    records.push(...page.items);
    startKey = page.nextKey;
  } while (startKey);
  records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return ok({ invitations: records.map(toInvitation) });
});
