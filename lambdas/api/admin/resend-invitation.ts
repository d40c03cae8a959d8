/**
 * POST /internal/v1/admin/invitations/{email}/resend: a pending or expired invitation gets a new code
 * and 7 more days; the old code stops working at once (an activation still using it fails). The new
 * code and its event commit together, and only while the acting admin is still an active admin
 * (`whileStillAdmin`, else 403): the resend makes them the invitation's issuer (decision 047).
 */
import { ACCOUNT_MESSAGES } from '../../../shared/account';
import { API_MESSAGES } from '../../../shared/messages';
import { whileStillAdmin } from '../../common/account-admin';
import { auditTransactItem, originOf } from '../../common/audit';
import { Conflict, NotFound } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { newActivationCode } from '../../common/invite';
import { invitationEmailOf, toInvitation } from '../../common/invitation-view';
import { resendInvitation } from '../../common/repositories/invitations';

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  const email = invitationEmailOf(pathParameters);
  const resent = await resendInvitation(
    email,
    newActivationCode(),
    caller.sub,
    [
      auditTransactItem(originOf(event), {
        type: 'invitation.resent',
        actorId: caller.sub,
        details: { email },
      }),
    ],
    whileStillAdmin(caller.sub),
  );
  if (resent.outcome !== 'resent') {
    throw resent.outcome === 'activated'
      ? new Conflict(ACCOUNT_MESSAGES.notResendable)
      : new NotFound(API_MESSAGES.invitationNotFound);
  }
  return ok(toInvitation(resent.invitation));
});
