import { RETRY_BASE_DELAY_MS, RETRY_JITTER_MS, RETRY_MAX_DELAY_MS } from '../../../shared/constants';

/**
 * The retry backoff of SPEC section 9: 2^n * 100 ms plus a random 0-100 ms, capped at 300000 ms.
 * `attempt` is n, the number of failures before this wait minus one: 0 before the first retry
 * (100-200 ms), 1 before the second (200-300 ms). It is what TanStack Query passes to `retryDelay`
 * as `failureCount`. `random` answers in [0, 1), like Math.random.
 */
export const retryDelay = (attempt: number, random: () => number = Math.random): number =>
  Math.min(2 ** attempt * RETRY_BASE_DELAY_MS + random() * RETRY_JITTER_MS, RETRY_MAX_DELAY_MS);
