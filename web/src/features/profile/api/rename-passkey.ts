import { useMutation, useQueryClient } from '@tanstack/react-query';
import { passkeySchema, renamePasskeyRequestSchema, type Passkey } from '../../../../../shared/account';
import { apiRequest, validateRequest } from '../../../lib/api-client';
import { passkeysQueryKey } from './get-passkeys';
import { invalidateEvents } from '../../../lib/query-keys';

export interface RenamePasskeyInput {
  credentialId: string;
  name: string;
}

/** 1 to 64 characters; answers the renamed passkey. */
export const renamePasskey = ({ credentialId, name }: RenamePasskeyInput): Promise<Passkey> =>
  apiRequest(`/v1/users/me/passkeys/${encodeURIComponent(credentialId)}`, {
    method: 'PATCH',
    body: validateRequest(renamePasskeyRequestSchema, { name }),
    schema: passkeySchema,
  });

// A name changes no credential, so the browser is not signalled.
export const useRenamePasskey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renamePasskey,
    // The list, and the events, which hold the rename's.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
        invalidateEvents(queryClient),
      ]),
  });
};
