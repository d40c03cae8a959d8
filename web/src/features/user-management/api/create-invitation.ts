import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoleGroup } from '../../../../../shared/constants';
import {
  createInvitationRequestSchema,
  invitationSchema,
  type Invitation,
} from '../../../../../shared/schemas';
import { apiRequest, readAgainIfSent, validateRequest } from '../../../lib/api-client';
import { idempotencyKeyFor } from '../../../lib/idempotency';
import { invalidateAdminLists } from './admin-lists';

export interface CreateInvitationInput {
  email: string;
  roles: RoleGroup[];
}

/** Answers the invitation with its activation code. */
export const createInvitation = (input: CreateInvitationInput): Promise<Invitation> =>
  apiRequest('/internal/v1/admin/invitations', {
    method: 'POST',
    body: validateRequest(createInvitationRequestSchema, input),
    schema: invitationSchema,
    // The retry of SPEC section 9 sends the same key: a lost answer is answered again, not with a 409.
    idempotencyKey: idempotencyKeyFor(input),
  });

export const useCreateInvitation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvitation,
    // Refused too: a 409 may mean another admin invited the same person meanwhile.
    onSettled: (_invitation, error) => readAgainIfSent(error, () => invalidateAdminLists(queryClient)),
  });
};
