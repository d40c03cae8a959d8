import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  assignCoachRequestSchema,
  assignCoachResponseSchema,
  type AssignCoachRequest,
} from '../../../../../shared/coaching';
import { apiRequest, validateRequest } from '../../../lib/api-client';
import { invalidatePeople } from './admin-lists';
import { adminUserPath } from './get-users';

export interface AssignCoachInput extends AssignCoachRequest {
  /** The client's id. */
  userId: string;
}

const coachPath = (userId: string) => `${adminUserPath(userId)}/coach`;

/** Makes `coachId` the client's coach; 400 with the reason when either is not what it must be. */
export const assignCoach = async ({ userId, coachId }: AssignCoachInput): Promise<void> => {
  await apiRequest(coachPath(userId), {
    method: 'PUT',
    body: validateRequest(assignCoachRequestSchema, { coachId }),
    schema: assignCoachResponseSchema,
  });
};

/** The client has no coach afterwards (204). */
export const unassignCoach = (userId: string): Promise<void> =>
  apiRequest(coachPath(userId), { method: 'DELETE' });

// Either way the people are read again (a refusal may mean someone else changed them meanwhile); an
// assignment changes no invitation.
export const useAssignCoach = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: assignCoach, onSettled: () => invalidatePeople(queryClient) });
};

export const useUnassignCoach = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: unassignCoach, onSettled: () => invalidatePeople(queryClient) });
};
