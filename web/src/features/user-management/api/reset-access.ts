import { issuedCodeSchema, type IssuedCode } from '../../../../../shared/account';
import { apiRequest } from '../../../lib/api-client';
import { useAdminListMutation } from './admin-lists';
import { adminUserPath } from './get-users';

/** A recovery code for a lost device (SPEC-2 section 3.2): 201, the code and when it stops working. */
export const resetAccess = (userId: string): Promise<IssuedCode> =>
  apiRequest(`${adminUserPath(userId)}/recovery`, { method: 'POST', schema: issuedCodeSchema });

export const useResetAccess = () => useAdminListMutation(resetAccess);
