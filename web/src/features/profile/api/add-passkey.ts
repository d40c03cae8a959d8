import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  addPasskeyRequestSchema,
  passkeyNameSchema,
  passkeySchema,
  type Passkey,
} from '../../../../../shared/account';
import { apiRequest, readAgainIfSent, validateRequest } from '../../../lib/api-client';
import { createPasskey, type RegistrationResponseJSON } from '../../../lib/passkey';
import { signalRefusedPasskey } from '../../../lib/passkey-signal';
import { refreshPasskeys } from '../passkey-signal';
import { createPasskeyOptions } from './create-passkey-options';

interface AddPasskeyInput {
  registrationResponse: RegistrationResponseJSON;
  /** Left out: the server names it after the authenticator, else 'Passkey'. */
  name?: string | undefined;
}

/** Stores the new passkey (201, the passkey). */
export const addPasskey = ({ registrationResponse, name }: AddPasskeyInput): Promise<Passkey> =>
  apiRequest('/v1/users/me/passkeys', {
    method: 'POST',
    body: validateRequest(addPasskeyRequestSchema, { registrationResponse, ...(name ? { name } : {}) }),
    schema: passkeySchema,
  });

/** Names the adds under way (`queryClient.isMutating`). */
export const addPasskeyMutationKey = ['passkeys', 'add'] as const;

/**
 * Options, the device's prompt, then the new passkey stored. Never retried: each attempt would
 * prompt the person again.
 */
export const useAddPasskey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: addPasskeyMutationKey,
    mutationFn: async (name: string | undefined) => {
      // A bad name is refused before the device prompts, not after.
      const checkedName = name === undefined ? undefined : validateRequest(passkeyNameSchema, name);
      const options = await createPasskeyOptions();
      const registrationResponse = await createPasskey(options);
      return addPasskey({ registrationResponse, name: checkedName }).catch(async (error: unknown) => {
        await signalRefusedPasskey(error, { rpId: options.rp.id, credentialId: registrationResponse.id });
        throw error;
      });
    },
    retry: false,
    // Failed after the request left too: a lost answer or a 5xx may come after the passkey was stored.
    onSettled: (_passkey, error) => readAgainIfSent(error, () => refreshPasskeys(queryClient)),
  });
};
