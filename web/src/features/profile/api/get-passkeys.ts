import { queryOptions, useQuery } from '@tanstack/react-query';
import { passkeyListSchema, type Passkey } from '../../../../../shared/account';
import { apiRequest } from '../../../lib/api-client';

export const passkeysQueryKey = ['profile', 'passkeys'] as const;

/** The signed-in person's passkeys (SPEC-2 section 3.1). */
export const getPasskeys = async (): Promise<Passkey[]> =>
  (await apiRequest('/v1/users/me/passkeys', { schema: passkeyListSchema })).passkeys;

export const passkeysQueryOptions = () => queryOptions({ queryKey: passkeysQueryKey, queryFn: getPasskeys });

export const usePasskeys = () => useQuery(passkeysQueryOptions());
