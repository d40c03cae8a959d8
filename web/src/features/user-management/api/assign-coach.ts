import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  assignCoachRequestSchema,
  assignCoachResponseSchema,
  type AssignCoachRequest,
} from '../../../../../shared/coaching';
import { apiRequest, validateRequest } from '../../../lib/api-client';
import { auditQueryKey } from '../../audit/api/get-audit-events';
import { coachClientsQueryKey } from '../../coaching/api/get-coach-clients';
import { adminUserPath, usersQueryKey } from './get-users';

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

/**
 * Either way the list is read again (a refusal may mean someone else changed it meanwhile), and the
 * Audit Log is marked stale for the event; so is My Clients, as the admin may be the coach concerned.
 */
const readAgain = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: usersQueryKey }),
    queryClient.invalidateQueries({ queryKey: auditQueryKey }),
    queryClient.invalidateQueries({ queryKey: coachClientsQueryKey }),
  ]);

export const useAssignCoach = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: assignCoach, onSettled: () => readAgain(queryClient) });
};

export const useUnassignCoach = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: unassignCoach, onSettled: () => readAgain(queryClient) });
};
