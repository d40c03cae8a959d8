/**
 * The text to show for a failure: the error's own message (an answer of the API, a passkey failure,
 * one of the SPEC's texts), or the screen's fallback. A request that never reached the server (fetch
 * rejects with a TypeError, worded by each browser: 'Failed to fetch', 'Load failed') shows the
 * fallback, as does a TypeError of the page's own code.
 */
export const errorMessage = (error: unknown, fallback: string): string =>
  error instanceof Error && !(error instanceof TypeError) && error.message.trim() ? error.message : fallback;
