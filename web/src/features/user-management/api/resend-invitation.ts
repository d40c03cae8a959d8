import { invitationSchema, type Invitation } from '../../../../../shared/schemas';
import { apiRequest } from '../../../lib/api-client';
import { useAdminListMutation } from './admin-lists';

/** A new activation code for a pending or expired invitation; the old code stops working. */
export const resendInvitation = (email: string): Promise<Invitation> =>
  apiRequest(`/internal/v1/admin/invitations/${encodeURIComponent(email)}/resend`, {
    method: 'POST',
    schema: invitationSchema,
  });

export const useResendInvitation = () => useAdminListMutation(resendInvitation);
