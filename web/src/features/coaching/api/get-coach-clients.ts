import { queryOptions, useQuery } from '@tanstack/react-query';
import { coachClientListSchema, type CoachClient } from '../../../../../shared/coaching';
import { apiRequest } from '../../../lib/api-client';
import { coachClientsQueryKey } from '../../../lib/query-keys';

/** The signed-in coach's clients, with what My Clients counts (SPEC-2 section 2). */
export const getCoachClients = async (): Promise<CoachClient[]> =>
  (await apiRequest('/v1/coach/clients', { schema: coachClientListSchema })).clients;

export const coachClientsQueryOptions = () =>
  queryOptions({ queryKey: coachClientsQueryKey, queryFn: getCoachClients });

export const useCoachClients = () => useQuery(coachClientsQueryOptions());
