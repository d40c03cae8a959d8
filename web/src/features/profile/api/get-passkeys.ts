import { useQuery } from '@tanstack/react-query';
import { passkeyListSchema, type PasskeyList } from '../../../../../shared/account';
import { apiRequest } from '../../../lib/api-client';

export const passkeysQueryKey = ['profile', 'passkeys'] as const;

/** The signed-in person's passkeys (SPEC-2 section 3.1) and their WebAuthn user handle. */
export const getPasskeys = (): Promise<PasskeyList> =>
  apiRequest('/v1/users/me/passkeys', { schema: passkeyListSchema });

/** The passkeys alone, as the Profile page lists them. */
export const usePasskeys = () =>
  useQuery({ queryKey: passkeysQueryKey, queryFn: getPasskeys, select: (list) => list.passkeys });
