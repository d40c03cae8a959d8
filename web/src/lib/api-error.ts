/**
 * What a failed API call throws, and whether it is worth another try. Apart from the API client
 * because the query client (in the first load of every page) needs only this: /signin does not
 * carry the client it never calls (docs/decisions/022-signin-bundle-budget.md).
 */
import { RETRYABLE_STATUS_CODES } from '../../../shared/constants';
import { isNetworkFailure } from './errors';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    /** The answer's other JSON fields, when it had any (e.g. verify-webauthn's `unknownCredential`). */
    readonly fields: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

/**
 * Worth one more try (SPEC section 8): throttling and server-side failures, and network errors
 * (fetch rejects with a TypeError; Amplify's token refresh throws its own `NetworkError`, and keeps
 * the tokens). A 4xx answer will not change on a retry.
 */
export const isRetryableError = (error: unknown): boolean => {
  if (error instanceof ApiError) return RETRYABLE_STATUS_CODES.includes(error.status);
  return isNetworkFailure(error);
};

/**
 * For a delete: the thing is not there (404), so what the delete was for is done, whether an earlier
 * try of the same delete removed it (its answer lost, then retried: SPEC section 9) or another tab did.
 */
export const isAlreadyGone = (error: unknown): boolean => error instanceof ApiError && error.status === 404;
