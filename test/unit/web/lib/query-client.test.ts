import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../web/src/lib/api-error';
import { createQueryClient } from '../../../../web/src/lib/query-client';

vi.mock('../../../../web/src/lib/auth/cognito', () => import('../support/cognito-mock'));

describe('query defaults (SPEC sections 7 and 9)', () => {
  const { queries, mutations } = createQueryClient().getDefaultOptions();

  it('keeps data fresh 60 s, retains it 5 minutes, no refetch on focus, refetch on mount', () => {
    expect(queries?.staleTime).toBe(60_000);
    expect(queries?.gcTime).toBe(300_000);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.refetchOnMount).toBe(true);
  });

  it('retries a query once, for retryable failures', () => {
    const retry = queries?.retry as (count: number, error: unknown) => boolean;
    expect(retry(0, new ApiError(503, 'x'))).toBe(true);
    expect(retry(1, new ApiError(503, 'x'))).toBe(false);
    expect(retry(0, new ApiError(404, 'x'))).toBe(false);
  });

  it('retries a mutation once, for retryable failures', () => {
    const retry = mutations?.retry as (count: number, error: unknown) => boolean;
    expect(retry(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(retry(1, new TypeError('Failed to fetch'))).toBe(false);
    expect(retry(0, new ApiError(409, 'x'))).toBe(false);
  });

  it('waits the SPEC section 9 backoff before a retry: 2^n * 100 ms plus up to 100 ms', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    for (const delay of [queries?.retryDelay, mutations?.retryDelay]) {
      const wait = delay as (failureCount: number, error: unknown) => number;
      expect(wait(0, new ApiError(503, 'x'))).toBe(150);
      expect(wait(1, new TypeError('Failed to fetch'))).toBe(250);
    }
  });
});

describe('profile query', () => {
  it('stays fresh for 5 minutes', async () => {
    const { profileQueryOptions } = await import('../../../../web/src/features/profile/api/get-profile');
    expect(profileQueryOptions().staleTime).toBe(300_000);
  });
});
