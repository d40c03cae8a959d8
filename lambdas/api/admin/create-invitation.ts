/** POST /internal/v1/admin/invitations: invites an email with roles (default users). */
import { createInvitationRequestSchema } from '../../../shared/schemas';
import { created, httpHandler } from '../../common/http';
import { invite } from '../../common/invite';
import { toInvitation } from '../../common/invitation-view';

export const handler = httpHandler(
  { auth: 'admin', body: createInvitationRequestSchema },
  async ({ body, caller }) => {
    const invitation = await invite({ email: body.email, roles: body.roles, createdBy: caller.sub });
    return created(toInvitation(invitation));
  },
);
