import { API_MESSAGES } from '../../shared/messages';
import { normalizedEmailSchema, type Invitation } from '../../shared/schemas';
import { BadRequest } from './errors';
import { invitationExpired, invitationExpiresAt, type InvitationRecord } from './repositories/invitations';

const statusOf = (record: InvitationRecord): Invitation['status'] => {
  if (record.codeUsed) return 'activated';
  return invitationExpired(record) ? 'expired' : 'pending';
};

/** The Invitation entity of SPEC section 3 (with SPEC-2's expiry), as admins see it. */
export const toInvitation = (record: InvitationRecord): Invitation => ({
  email: record.email,
  status: statusOf(record),
  activationCode: record.activationCode,
  roles: record.roles,
  ...(record.usedBy ? { userId: record.usedBy } : {}),
  createdAt: record.createdAt,
  ...(!record.codeUsed && { expiresAt: invitationExpiresAt(record) }),
});

const decode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** The invitation's email of an `/invitations/{email}` route, normalized; 400 when it is not one. */
export const invitationEmailOf = (pathParameters: Record<string, string>): string => {
  const parsed = normalizedEmailSchema.safeParse(decode(pathParameters.email ?? ''));
  if (!parsed.success) throw new BadRequest(parsed.error.issues[0]?.message ?? API_MESSAGES.invalidRequest);
  return parsed.data;
};
