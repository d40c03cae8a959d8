/**
 * The first admin of a fresh stack: while no admin exists, make sure a pending admin invitation
 * exists for the bootstrap email and answer its activation link.
 */
import { ListUsersInGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { cognito } from '../../lambdas/common/aws';
import { anyActivated } from '../../lambdas/common/cognito-users';
import { userPoolId } from '../../lambdas/common/env';
import { invite, newActivationCode, SYSTEM_CREATOR } from '../../lambdas/common/invite';
import {
  getInvitation,
  invitationExpired,
  resendInvitation,
  type InvitationRecord,
} from '../../lambdas/common/repositories/invitations';
import { formatActivationCode } from '../../shared/activation-code';
import { normalizedEmailSchema } from '../../shared/schemas';

export { SYSTEM_CREATOR };

export const activationLink = (origin: string, code: string): string =>
  `${origin}/activate?code=${formatActivationCode(code)}`;

/**
 * Whether someone completed activation as an admin. Group membership alone is not enough: a
 * registration that failed after verification leaves its reserved user in the group with no passkey.
 */
export const adminExists = async (): Promise<boolean> => {
  let token: string | undefined;
  do {
    const page = await cognito.send(
      new ListUsersInGroupCommand({
        UserPoolId: userPoolId(),
        GroupName: 'admins',
        Limit: 60,
        NextToken: token,
      }),
    );
    if (await anyActivated(page.Users ?? [])) return true;
    token = page.NextToken;
  } while (token);
  return false;
};

/**
 * A pending invitation whose code has expired, given a new code and 7 more days by the operator (as an
 * admin's 'Resend' would): no admin may exist yet to resend it. Answers the invitation as it now is,
 * or undefined when it was activated or deleted meanwhile.
 */
export const renewedIfExpired = async (
  invitation: InvitationRecord,
): Promise<InvitationRecord | undefined> => {
  if (invitation.codeUsed) return undefined;
  if (!invitationExpired(invitation)) return invitation;
  const renewed = await resendInvitation(invitation.email, newActivationCode(), SYSTEM_CREATOR);
  return renewed.outcome === 'resent' ? renewed.invitation : undefined;
};

export const ensureBootstrapAdmin = async (email: string, origin: string): Promise<string | undefined> => {
  if (await adminExists()) return undefined;
  const normalized = normalizedEmailSchema.parse(email);
  const existing = await getInvitation(normalized);
  if (existing) {
    // A stack started again after a week would otherwise print a link that no longer works.
    const pending = await renewedIfExpired(existing);
    return pending && activationLink(origin, pending.activationCode);
  }
  const invitation = await invite({ email: normalized, roles: ['admins'], createdBy: SYSTEM_CREATOR });
  return activationLink(origin, invitation.activationCode);
};
