import { queryOptions, useQuery } from '@tanstack/react-query';
import { PROFILE_STALE_TIME_MS } from '../../../../../shared/constants';
import { userProfileSchema, type UserProfile } from '../../../../../shared/schemas';
import { apiRequest } from '../../../lib/api-client';

export const profileQueryKey = ['profile', 'me'] as const;

export const getProfile = (): Promise<UserProfile> =>
  apiRequest('/v1/users/me', { schema: userProfileSchema });

/** The signed-in person's profile; stays fresh for 5 minutes (SPEC section 7). */
export const profileQueryOptions = () =>
  queryOptions({ queryKey: profileQueryKey, queryFn: getProfile, staleTime: PROFILE_STALE_TIME_MS });

export const useProfile = () => useQuery(profileQueryOptions());
