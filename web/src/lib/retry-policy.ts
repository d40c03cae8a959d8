/**
 * When a failed call is tried again (SPEC sections 8 and 9): within the number of retries allowed,
 * only for failures SPEC section 8 calls retryable (docs/decisions/023-retry-only-retryable-failures.md),
 * after the section 9 backoff. The query client's defaults and the activation page, which runs without
 * the query client (docs/decisions/060-activate-alone.md), both take it from here.
 */
import { MUTATION_RETRY } from '../../../shared/constants';
import { isRetryableError } from './api-error';
import { retryDelay } from './retry-delay';

/** TanStack Query's `retry`: `failureCount` failures so far (0 after the first), at most `retries` retries. */
export const retryRetryable =
  (retries: number) =>
  (failureCount: number, error: unknown): boolean =>
    failureCount < retries && isRetryableError(error);

const mutationMayRetry = retryRetryable(MUTATION_RETRY);

/** Runs `call` as the query client runs a mutation: retried as `retryRetryable(MUTATION_RETRY)` allows. */
export const withMutationRetry = async <T>(call: () => Promise<T>): Promise<T> => {
  for (let failureCount = 0; ; failureCount += 1) {
    try {
      return await call();
    } catch (error) {
      if (!mutationMayRetry(failureCount, error)) throw error;
      await new Promise((wait) => setTimeout(wait, retryDelay(failureCount)));
    }
  }
};
