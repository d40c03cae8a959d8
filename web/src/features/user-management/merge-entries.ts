import type { Role } from '../../../../shared/constants';
import { rolesFromClaim } from '../../../../shared/roles';
import type { AdminUserListItem, Invitation } from '../../../../shared/schemas';
import { fullName } from '../../lib/format';

export type EntryStatus = 'pending' | 'activated';

export interface UserEntry {
  /** userId for people, email for pending invitations. */
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

/**
 * The merged admin list of SPEC section 3: every user is an 'activated' entry; a pending
 * invitation without a userId is a 'pending' entry keyed by email; an invitation whose userId
 * matches a user only lends that user its email and activation code. Newest first.
 */
export const mergeEntries = (
  users: readonly AdminUserListItem[],
  invitations: readonly Invitation[],
): UserEntry[] => {
  const invitationByUser = new Map(invitations.filter((i) => i.userId).map((i) => [i.userId, i]));
  const activated = users.map((user): UserEntry => {
    const invitation = invitationByUser.get(user.userId);
    return {
      key: user.userId,
      email: invitation?.email ?? user.email,
      name: fullName(user),
      status: 'activated',
      // Cognito group names (admins, coaches, users); unknown groups are left out.
      roles: rolesFromClaim(user.roles),
      createdAt: user.createdAt,
      ...(invitation ? { activationCode: invitation.activationCode } : {}),
      ...(user.coachId ? { coachId: user.coachId } : {}),
    };
  });
  const pending = invitations
    .filter((i) => !i.userId && i.status === 'pending')
    .map((i): UserEntry => ({
      key: i.email,
      email: i.email,
      name: '',
      status: 'pending',
      roles: rolesFromClaim(i.roles),
      createdAt: i.createdAt,
      activationCode: i.activationCode,
    }));
  return [...pending, ...activated].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
};
