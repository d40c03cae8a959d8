import type { QueryClient } from '@tanstack/react-query';
import { signalAcceptedPasskeys } from '../../lib/passkey-signal';
import { passkeysQueryKey } from './api/get-passkeys';
import type { PasskeyList } from '../../../../shared/account';
import { invalidateEvents } from '../../lib/query-keys';

/**
 * After the account is erased: tells the browser, where it has the Signal API, that no passkey of this
 * user handle works any more, so the password manager drops the ones labelled with the person's email
 * rather than keep offering them. The handle comes from the list the Profile page has read (the account
 * is gone: nothing can be read now).
 */
export const signalAccountGone = async (queryClient: QueryClient): Promise<void> => {
  const userHandle = queryClient.getQueryData<PasskeyList>(passkeysQueryKey)?.userHandle;
  if (userHandle) await signalAcceptedPasskeys({ userHandle, credentialIds: [] });
};

/**
 * After an add or a removal, done or refused: reads the list again (and the events, which may now
 * hold the change's) and, where the browser has the Signal API, tells it every passkey that still works,
 * under the user handle the list carries. Only a list read after the change is signalled: a stale one
 * could hide a passkey that was just added.
 */
export const refreshPasskeys = async (queryClient: QueryClient): Promise<void> => {
  void invalidateEvents(queryClient);
  await queryClient.invalidateQueries({ queryKey: passkeysQueryKey });
  const state = queryClient.getQueryState<PasskeyList>(passkeysQueryKey);
  const list = state?.data;
  if (state?.status !== 'success' || state.isInvalidated || !list?.userHandle) return;
  await signalAcceptedPasskeys({
    userHandle: list.userHandle,
    credentialIds: list.passkeys.map((passkey) => passkey.credentialId),
  });
};
