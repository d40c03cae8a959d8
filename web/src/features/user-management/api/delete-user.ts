import { deleteResource } from '../../../lib/api-client';
import { useAdminListMutation } from './admin-lists';
import { adminUserPath } from './get-users';

/** Erases the account and everything it holds (204); 409 for oneself. Gone already (404) is done too. */
export const deleteUser = (userId: string): Promise<void> => deleteResource(adminUserPath(userId));

export const useDeleteUser = () => useAdminListMutation(deleteUser);
