import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  profileUpdateSchema,
  userProfileSchema,
  type ProfileUpdate,
  type UserProfile,
} from '../../../../../shared/schemas';
import { apiRequest, validateRequest } from '../../../lib/api-client';
import { profileQueryKey } from './get-profile';

/** PUT /v1/users/me with only the keys the profile-update schema allows. */
export const updateProfile = (update: ProfileUpdate): Promise<UserProfile> =>
  apiRequest('/v1/users/me', {
    method: 'PUT',
    body: validateRequest(profileUpdateSchema, update),
    schema: userProfileSchema,
  });

/** Saves and puts the answer straight into the cached profile. */
export const useUpdateProfile = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey, profile),
  });
};
