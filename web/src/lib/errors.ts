/**
 * A request that failed on the way: fetch rejects with a TypeError (worded by each browser: 'Failed
 * to fetch', 'Load failed'), Amplify's token refresh throws its own `NetworkError`, and a request whose
 * answer did not begin in time is given up with a 'TimeoutError' (`fetchAnswer`). Here,
 * without imports, because /signin carries this module and nothing of the API client
 * (docs/decisions/022-signin-bundle-budget.md).
 */
export const isNetworkFailure = (error: unknown): boolean => {
  if (error instanceof TypeError) return true;
  // By name: a DOMException is not an Error in every environment.
  const name = typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  return name === 'NetworkError' || name === 'TimeoutError';
};

/**
 * The text to show for a failure: the error's own message (an answer of the API, a passkey failure,
 * one of the SPEC's texts), or the screen's fallback. A request that never reached the server
 * (`isNetworkFailure`: the browser's or Amplify's wording) shows the fallback, which says what could
 * not be done, as does a TypeError of the page's own code.
 */
export const errorMessage = (error: unknown, fallback: string): string =>
  error instanceof Error && !isNetworkFailure(error) && error.message.trim() ? error.message : fallback;
