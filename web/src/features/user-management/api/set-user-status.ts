import * as z from 'zod/mini';
import { adminUserListItemSchema } from '../../../../../shared/schemas';
import { apiRequest } from '../../../lib/api-client';
import { useAdminListMutation } from './admin-lists';
import { adminUserPath } from './get-users';

export interface SetUserStatusInput {
  userId: string;
  change: 'disable' | 'enable';
}

/** 200 `{userId, status}` (shared/ has no schema for it yet). */
const userStatusSchema = z.object({ userId: z.string(), status: adminUserListItemSchema.shape.status });

/** Disables (signed out at once, sign-in refused) or enables the person; 409 for oneself. */
export const setUserStatus = async ({ userId, change }: SetUserStatusInput): Promise<void> => {
  await apiRequest(`${adminUserPath(userId)}/${change}`, { method: 'POST', schema: userStatusSchema });
};

export const useSetUserStatus = () => useAdminListMutation(setUserStatus);
