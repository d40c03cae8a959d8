import { QueryClient } from '@tanstack/react-query';
import {
  MUTATION_RETRY,
  QUERY_GC_TIME_MS,
  QUERY_RETRY,
  QUERY_STALE_TIME_MS,
} from '../../../shared/constants';
import { retryDelay } from './retry-delay';
import { retryRetryable } from './retry-policy';

/** TanStack Query calls `retryDelay(failureCount, error)`; the backoff only needs the count. */
const backoff = (failureCount: number) => retryDelay(failureCount);

/**
 * Cache policy of SPEC sections 7 and 9: 60 s stale, 5-minute retention, one retry, no refetch
 * on focus, refetch on mount; mutations retry once. The single retry is spent only on failures
 * SPEC section 8 calls retryable (see docs/decisions/023-retry-only-retryable-failures.md), after
 * the SPEC section 9 backoff (docs/decisions/027-retry-backoff-and-cookie-storage.md).
 */
export const createQueryClient = (): QueryClient =>
  new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_TIME_MS,
        gcTime: QUERY_GC_TIME_MS,
        retry: retryRetryable(QUERY_RETRY),
        retryDelay: backoff,
        refetchOnWindowFocus: false,
        refetchOnMount: true,
      },
      mutations: {
        retry: retryRetryable(MUTATION_RETRY),
        retryDelay: backoff,
        // Sent whatever the browser says of its connection: TanStack's default holds a mutation
        // 'pending' while offline, and a dialog that stays until its save settles (docs/decisions/
        // 045-account-screens.md) would stay with it. Offline, the save fails and says so.
        networkMode: 'always',
      },
    },
  });
