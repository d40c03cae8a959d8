import { queryOptions, useQuery } from '@tanstack/react-query';
import { activityListSchema, type ActivityEvent } from '../../../../../shared/audit';
import { apiRequest } from '../../../lib/api-client';
import { myActivityQueryKey } from '../../../lib/query-keys';

/** The signed-in person's last 20 sign-ins and security events, newest first (SPEC-2 section 4). */
export const getMyActivity = async (): Promise<ActivityEvent[]> =>
  (await apiRequest('/v1/users/me/activity', { schema: activityListSchema })).events;

export const myActivityQueryOptions = () =>
  queryOptions({ queryKey: myActivityQueryKey, queryFn: getMyActivity });

export const useMyActivity = () => useQuery(myActivityQueryOptions());
