/**
 * DELETE /internal/v1/admin/invitations/{email}: deletes a pending invitation, and the Cognito user
 * an unfinished activation may have reserved for it, so the email can be invited again. Activated
 * invitations stay. Deleted only while the acting admin is still an active admin (`whileStillAdmin`,
 * else 403).
 */
import { API_MESSAGES } from '../../../shared/messages';
import { whileStillAdmin } from '../../common/account-admin';
import { auditTransactItem, originOf } from '../../common/audit';
import { deleteCognitoUser } from '../../common/cognito-users';
import { Conflict, NotFound } from '../../common/errors';
import { httpHandler, noContent } from '../../common/http';
import { invitationEmailOf } from '../../common/invitation-view';
import { deletePendingInvitation } from '../../common/repositories/invitations';

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  const email = invitationEmailOf(pathParameters);
  // The deletion and its event commit together.
  const deleted = await deletePendingInvitation(
    email,
    [
      auditTransactItem(originOf(event), {
        type: 'invitation.deleted',
        actorId: caller.sub,
        details: { email },
      }),
    ],
    whileStillAdmin(caller.sub),
  );
  if (deleted.outcome !== 'deleted') {
    throw deleted.outcome === 'activated'
      ? new Conflict(API_MESSAGES.invitationActivated)
      : new NotFound(API_MESSAGES.invitationNotFound);
  }
  // An activation that checked the code but never registered a passkey reserved a Cognito user.
  // Should this fail, the user stays, unable to sign in (no passkey, no account), and blocks no new
  // invitation of the email (`accountExists` counts only activated users).
  if (deleted.invitation.cognitoUsername) await deleteCognitoUser(deleted.invitation.cognitoUsername);
  return noContent();
});
