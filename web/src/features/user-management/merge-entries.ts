import type { Role } from '../../../../shared/constants';
import { rolesFromClaim } from '../../../../shared/roles';
import type { AdminUserListItem, Invitation } from '../../../../shared/schemas';
import { fullName } from '../../lib/format';

/**
 * What the Status column says: an invitation is 'pending' or, past its `expiresAt`, 'expired'
 * (SPEC-2 section 3.3); a person is 'activated' or 'disabled'.
 */
export type EntryStatus = 'pending' | 'expired' | 'activated' | 'disabled';

export interface UserEntry {
  /** userId for people, email for invitations not taken up. */
  key: string;
  email: string;
  name: string;
  status: EntryStatus;
  roles: Role[];
  createdAt: string;
  activationCode?: string;
  /** A client's coach (SPEC-2 section 2). */
  coachId?: string;
}

/** An invitation not taken up (pending or expired), rather than a person. */
export const isInvitation = (entry: Pick<UserEntry, 'status'>): boolean =>
  entry.status === 'pending' || entry.status === 'expired';

/** Expired by the server's word, or because its `expiresAt` has passed since the list was read. */
const isExpired = (invitation: Invitation, now: number): boolean =>
  invitation.status === 'expired' ||
  (invitation.expiresAt !== undefined && Date.parse(invitation.expiresAt) <= now);

/**
 * The merged admin list of SPEC section 3: every user is a person's entry ('activated' or
 * 'disabled'); an invitation without a userId is an invitation's entry keyed by email; an
 * invitation whose userId matches a user only lends that user its email and activation code.
 * Newest first.
 */
export const mergeEntries = (
  users: readonly AdminUserListItem[],
  invitations: readonly Invitation[],
  now = Date.now(),
): UserEntry[] => {
  const invitationByUser = new Map(invitations.filter((i) => i.userId).map((i) => [i.userId, i]));
  const people = users.map((user): UserEntry => {
    const invitation = invitationByUser.get(user.userId);
    return {
      key: user.userId,
      email: invitation?.email ?? user.email,
      name: fullName(user),
      status: user.status === 'disabled' ? 'disabled' : 'activated',
      // Cognito group names (admins, coaches, users); unknown groups are left out.
      roles: rolesFromClaim(user.roles),
      createdAt: user.createdAt,
      ...(invitation ? { activationCode: invitation.activationCode } : {}),
      ...(user.coachId ? { coachId: user.coachId } : {}),
    };
  });
  const open = invitations
    .filter((i) => !i.userId && i.status !== 'activated')
    .map((i): UserEntry => ({
      key: i.email,
      email: i.email,
      name: '',
      status: isExpired(i, now) ? 'expired' : 'pending',
      roles: rolesFromClaim(i.roles),
      createdAt: i.createdAt,
      activationCode: i.activationCode,
    }));
  return [...open, ...people].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
};
