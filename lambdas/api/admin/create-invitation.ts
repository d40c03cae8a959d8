/**
 * POST /internal/v1/admin/invitations: invites an email with roles (default users). Sent again with the
 * same `Idempotency-Key` by the same admin, it answers the invitation the first one made (ADR 061), and
 * records the event again: the first try may have answered 503 because its event could not be written.
 * The same key with other roles is 422, with nothing written and no event. The invitation is created
 * only while the acting admin is still an active admin (`whileStillAdmin`, else 403).
 */
import { AUDIT_MESSAGES } from '../../../shared/audit';
import { createInvitationRequestSchema } from '../../../shared/schemas';
import { whileStillAdmin } from '../../common/account-admin';
import { originOf, recordAudit } from '../../common/audit';
import { created, httpHandler, idempotencyKeyOf } from '../../common/http';
import { invite } from '../../common/invite';
import { toInvitation } from '../../common/invitation-view';

export const handler = httpHandler(
  { auth: 'admin', body: createInvitationRequestSchema },
  async ({ body, caller, event }) => {
    const requestKey = idempotencyKeyOf(event);
    const invitation = await invite({
      email: body.email,
      roles: body.roles,
      createdBy: caller.sub,
      ...(requestKey !== undefined && { requestKey }),
      onlyIf: whileStillAdmin(caller.sub),
    });
    // An invitation is keyed by its email: that is its id in the log (never the code).
    await recordAudit(
      originOf(event),
      {
        type: 'invitation.created',
        actorId: caller.sub,
        details: { email: invitation.email, roles: invitation.roles },
      },
      { message: AUDIT_MESSAGES.unrecorded },
    );
    return created(toInvitation(invitation));
  },
);
