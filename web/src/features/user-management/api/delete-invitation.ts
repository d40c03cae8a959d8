import { deleteResource } from '../../../lib/api-client';
import { useAdminListMutation } from './admin-lists';

/** Only pending invitations can be deleted (204; 409 once activated). Gone already (404) is done too. */
export const deleteInvitation = (email: string): Promise<void> =>
  deleteResource(`/internal/v1/admin/invitations/${encodeURIComponent(email)}`);

export const useDeleteInvitation = () => useAdminListMutation(deleteInvitation);
