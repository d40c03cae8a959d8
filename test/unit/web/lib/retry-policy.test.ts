import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../web/src/lib/api-error';
import { withMutationRetry } from '../../../../web/src/lib/retry-policy';

/** A call that fails with each of `failures` in turn, then answers 'done'; counts its calls. */
const failingWith = (...failures: Error[]) => {
  const call = vi.fn(async () => {
    const failure = failures.shift();
    if (failure !== undefined) throw failure;
    return 'done';
  });
  return call;
};

describe('withMutationRetry (SPEC sections 8 and 9, as the query client retries a mutation)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tries once more after a retryable failure, after the backoff of 100 to 200 ms', async () => {
    vi.useFakeTimers();
    const call = failingWith(new ApiError(503, 'Service unavailable'));
    const answer = withMutationRetry(call);
    await vi.advanceTimersByTimeAsync(99);
    expect(call).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(101);
    await expect(answer).resolves.toBe('done');
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('retries a network error once, and gives up on the second failure', async () => {
    const second = new TypeError('Failed to fetch');
    const call = failingWith(new TypeError('Failed to fetch'), second);
    await expect(withMutationRetry(call)).rejects.toBe(second);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('does not retry an answer that will not change (a 4xx other than 429)', async () => {
    const refused = new ApiError(400, 'Invalid activation code');
    const call = failingWith(refused);
    await expect(withMutationRetry(call)).rejects.toBe(refused);
    expect(call).toHaveBeenCalledTimes(1);
  });
});
