/**
 * The API's word that the signed-in session is over: 401 'Unauthorized' on an authenticated call
 * (the person was disabled, deleted, reset, or their roles changed; docs/decisions/044-account-lifecycle.md).
 * The API client reports it; the auth provider then signs out, and the guard shows /signin.
 */
const listeners = new Set<() => void>();

export const reportSessionEnded = (): void => {
  for (const listener of listeners) listener();
};

export const onSessionEnded = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
