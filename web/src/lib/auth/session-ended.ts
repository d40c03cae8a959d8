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

/** Not worded by SPEC (docs/decisions/048-sessions-that-end.md). */
export const SESSION_ENDED_NOTICE = 'Your session has ended. Please sign in again.';

/**
 * Whose session ended without them signing out (the API refused it, Cognito refused its refresh,
 * another tab signed out or signed someone else in): /signin then says why it is shown, and the
 * guard sends the same person's next sign-in back to the page they were on, instead of a bare
 * sign-in page and the dashboard's first page. Forgotten once a page is reached signed in. Kept in
 * memory like 'Sign in again''s return (return-to.ts); a reload forgets it.
 */
let endedFor: string | undefined;

export const noteSessionEnded = (userId: string): void => {
  endedFor = userId;
};

export const forgetSessionEnded = (): void => {
  endedFor = undefined;
};

/** The person whose session ended under them, until a page is reached signed in. */
export const sessionEndedFor = (): string | undefined => endedFor;

export const sessionEndedNotice = (): string | undefined =>
  endedFor === undefined ? undefined : SESSION_ENDED_NOTICE;
