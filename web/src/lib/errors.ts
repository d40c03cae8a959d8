/**
 * A request that never reached the server: fetch rejects with a TypeError (worded by each browser:
 * 'Failed to fetch', 'Load failed'), and Amplify's token refresh throws its own `NetworkError`. Here,
 * without imports, because /signin carries this module and nothing of the API client
 * (docs/decisions/022-signin-bundle-budget.md).
 */
export const isNetworkFailure = (error: unknown): boolean =>
  error instanceof TypeError || (error instanceof Error && error.name === 'NetworkError');

/**
 * The text to show for a failure: the error's own message (an answer of the API, a passkey failure,
 * one of the SPEC's texts), or the screen's fallback. A request that never reached the server
 * (`isNetworkFailure`: the browser's or Amplify's wording) shows the fallback, which says what could
 * not be done, as does a TypeError of the page's own code.
 */
export const errorMessage = (error: unknown, fallback: string): string =>
  error instanceof Error && !isNetworkFailure(error) && error.message.trim() ? error.message : fallback;
