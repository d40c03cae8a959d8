import type { QueryClient } from '@tanstack/react-query';
import { signalAcceptedPasskeys } from '../../lib/passkey-signal';
import { passkeysQueryKey } from './api/get-passkeys';
import { myActivityQueryKey } from './api/get-my-activity';
import type { Passkey } from '../../../../shared/account';

/** Who the browser is told about: the WebAuthn user handle and the relying party's id. */
export interface SignalTarget {
  userHandle: string;
  rpId: string | undefined;
}

/**
 * The user handle is only in the registration options (the passkey list does not carry it), so it
 * is known once the person has added a passkey in this session. Kept in the query cache, which
 * sign-out clears, and never collected while the session lasts.
 */
const signalTargetKey = ['profile', 'passkeys', 'signal-target'] as const;

export const rememberSignalTarget = (queryClient: QueryClient, target: SignalTarget): void => {
  queryClient.setQueryDefaults(signalTargetKey, { gcTime: Infinity });
  queryClient.setQueryData(signalTargetKey, target);
};

/**
 * After an add or a removal: reads the list again (and 'Recent activity', which now holds the
 * change's event) and, where the browser has the Signal API and the user handle is known, tells it
 * every passkey that still works. Only a list read after the change is signalled: a stale one could
 * hide a passkey that was just added.
 */
export const refreshPasskeys = async (queryClient: QueryClient): Promise<void> => {
  void queryClient.invalidateQueries({ queryKey: myActivityQueryKey });
  await queryClient.invalidateQueries({ queryKey: passkeysQueryKey });
  const target = queryClient.getQueryData<SignalTarget>(signalTargetKey);
  const state = queryClient.getQueryState<Passkey[]>(passkeysQueryKey);
  if (!target || state?.status !== 'success' || state.isInvalidated || !state.data) return;
  await signalAcceptedPasskeys({
    rpId: target.rpId,
    userHandle: target.userHandle,
    credentialIds: state.data.map((passkey) => passkey.credentialId),
  });
};
