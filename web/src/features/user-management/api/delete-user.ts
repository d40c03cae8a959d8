import { apiRequest } from '../../../lib/api-client';
import { useAdminListMutation } from './admin-lists';
import { adminUserPath } from './get-users';

/** Erases the account and everything it holds (204); 409 for oneself. */
export const deleteUser = (userId: string): Promise<void> =>
  apiRequest(adminUserPath(userId), { method: 'DELETE' });

export const useDeleteUser = () => useAdminListMutation(deleteUser);
