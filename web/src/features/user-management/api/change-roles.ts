import * as z from 'zod/mini';
import type { RoleGroup } from '../../../../../shared/constants';
import { changeRolesRequestSchema } from '../../../../../shared/account';
import { apiRequest, validateRequest } from '../../../lib/api-client';
import { useAdminListMutation } from './admin-lists';
import { adminUserPath } from './get-users';

export interface ChangeRolesInput {
  userId: string;
  roles: RoleGroup[];
}

/** 200 `{userId, roles}` (shared/ has no schema for it yet). */
const changeRolesResponseSchema = z.object({ userId: z.string(), roles: z.array(z.string()) });

/** The person's groups become exactly `roles`; 409 when an admin drops their own admin role. */
export const changeRoles = async ({ userId, roles }: ChangeRolesInput): Promise<void> => {
  await apiRequest(`${adminUserPath(userId)}/roles`, {
    method: 'PUT',
    body: validateRequest(changeRolesRequestSchema, { roles }),
    schema: changeRolesResponseSchema,
  });
};

/**
 * As every admin change, the lists are read again, success or not; but not after a change of one's own
 * roles (`ownUserId`): it ends one's own session (decision 044), and the read would only meet the 401.
 */
export const useChangeRoles = (ownUserId: string) =>
  useAdminListMutation(changeRoles, (input) => input.userId === ownUserId);
