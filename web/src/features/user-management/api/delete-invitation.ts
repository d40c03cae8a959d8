import { apiRequest } from '../../../lib/api-client';
import { useAdminListMutation } from './admin-lists';

/** Only pending invitations can be deleted; the answer is empty (204). */
export const deleteInvitation = (email: string): Promise<void> =>
  apiRequest(`/internal/v1/admin/invitations/${encodeURIComponent(email)}`, { method: 'DELETE' });

export const useDeleteInvitation = () => useAdminListMutation(deleteInvitation);
