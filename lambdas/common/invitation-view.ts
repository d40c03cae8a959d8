import type { Invitation } from '../../shared/schemas';
import type { InvitationRecord } from './repositories/invitations';

/** The Invitation entity of SPEC section 3, as admins see it. */
export const toInvitation = (record: InvitationRecord): Invitation => ({
  email: record.email,
  status: record.codeUsed ? 'activated' : 'pending',
  activationCode: record.activationCode,
  roles: record.roles,
  ...(record.usedBy ? { userId: record.usedBy } : {}),
  createdAt: record.createdAt,
});
