import { queryOptions, useQuery } from '@tanstack/react-query';
import { myCoachSchema, type MyCoach } from '../../../../../shared/coaching';
import { apiRequest } from '../../../lib/api-client';
import { myCoachQueryKey } from '../../../lib/query-keys';

/** The signed-in client's coach (or null) and the notes written to them, newest first. */
export const getMyCoach = (): Promise<MyCoach> => apiRequest('/v1/users/me/coach', { schema: myCoachSchema });

export const myCoachQueryOptions = () => queryOptions({ queryKey: myCoachQueryKey, queryFn: getMyCoach });

export const useMyCoach = () => useQuery(myCoachQueryOptions());
