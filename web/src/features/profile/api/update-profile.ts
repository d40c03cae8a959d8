import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  profileUpdateSchema,
  userProfileSchema,
  type ProfileUpdate,
  type UserProfile,
} from '../../../../../shared/schemas';
import { apiRequest, validateRequest } from '../../../lib/api-client';
import { profileQueryKey } from './get-profile';
import { usersQueryKey } from '../../../lib/query-keys';

/** PUT /v1/users/me with only the keys the profile-update schema allows. */
export const updateProfile = (update: ProfileUpdate): Promise<UserProfile> =>
  apiRequest('/v1/users/me', {
    method: 'PUT',
    body: validateRequest(profileUpdateSchema, update),
    schema: userProfileSchema,
  });

/**
 * Saves and puts the answer straight into the cached profile. An admin's User Management names them
 * too (their row, the coach picker): read again when next shown.
 */
export const useUpdateProfile = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQueryKey, profile);
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
  });
};
