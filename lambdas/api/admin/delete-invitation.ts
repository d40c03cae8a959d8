/**
 * DELETE /internal/v1/admin/invitations/{email}: deletes a pending invitation, and the Cognito user
 * an unfinished activation may have reserved for it, so the email can be invited again. Activated
 * invitations stay.
 */
import { AUDIT_MESSAGES } from '../../../shared/audit';
import { API_MESSAGES } from '../../../shared/messages';
import { normalizedEmailSchema } from '../../../shared/schemas';
import { originOf, recordAudit } from '../../common/audit';
import { deleteReservedUser } from '../../common/cognito-users';
import { BadRequest, Conflict, NotFound } from '../../common/errors';
import { httpHandler, noContent } from '../../common/http';
import { deletePendingInvitation } from '../../common/repositories/invitations';

const decode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  const parsed = normalizedEmailSchema.safeParse(decode(pathParameters.email ?? ''));
  if (!parsed.success) throw new BadRequest(parsed.error.issues[0]?.message ?? API_MESSAGES.invalidRequest);
  const deleted = await deletePendingInvitation(parsed.data);
  if (deleted.outcome !== 'deleted') {
    throw deleted.outcome === 'activated'
      ? new Conflict(API_MESSAGES.invitationActivated)
      : new NotFound(API_MESSAGES.invitationNotFound);
  }
  // An activation that checked the code but never registered a passkey reserved a Cognito user.
  if (deleted.invitation.cognitoUsername) await deleteReservedUser(deleted.invitation.cognitoUsername);
  await recordAudit(
    originOf(event),
    { type: 'invitation.deleted', actorId: caller.sub, details: { email: parsed.data } },
    AUDIT_MESSAGES.unrecorded,
  );
  return noContent();
});
