/**
 * POST /internal/v1/admin/invitations/{email}/resend: a pending or expired invitation gets a new code
 * and 7 more days; the old code stops working at once (an activation still using it fails).
 */
import { ACCOUNT_MESSAGES } from '../../../shared/account';
import { AUDIT_MESSAGES } from '../../../shared/audit';
import { API_MESSAGES } from '../../../shared/messages';
import { originOf, recordAudit } from '../../common/audit';
import { Conflict, NotFound } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { newActivationCode } from '../../common/invite';
import { invitationEmailOf, toInvitation } from '../../common/invitation-view';
import { getInvitation, resendInvitation } from '../../common/repositories/invitations';

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  const email = invitationEmailOf(pathParameters);
  const resent = await resendInvitation(email, newActivationCode(), caller.sub);
  if (!resent) {
    if (await getInvitation(email)) throw new Conflict(ACCOUNT_MESSAGES.notResendable);
    throw new NotFound(API_MESSAGES.invitationNotFound);
  }
  await recordAudit(
    originOf(event),
    { type: 'invitation.resent', actorId: caller.sub, details: { email: resent.email } },
    { message: AUDIT_MESSAGES.unrecorded },
  );
  return ok(toInvitation(resent));
});
