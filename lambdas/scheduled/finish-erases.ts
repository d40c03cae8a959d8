/**
 * FinishErases, run every few minutes by EventBridge (and by `npm start` locally): finishes the erases
 * that were cut short. Both erases (an admin's delete, a person's own) disable the account first and mark
 * it `erasing`; the erase then runs in the request, and a request past its 10-second timeout, or one
 * that met a failure, leaves a disabled account holding part of its data. The person cannot retry (their
 * tokens ended with the disable), and nothing told an admin. Each such account, marked more than
 * `ERASE_GRACE_MS` ago, is erased again (the erase finishes what it finds), and its deletion recorded as
 * the request would have, in the transaction that deletes the account item: by whichever run deletes
 * it, exactly once (docs/decisions/044-account-lifecycle.md).
 */
import type { RequestOrigin } from '../common/audit';
import { eraseAccount } from '../common/erase-account';
import { logger } from '../common/logger';
import { findErasingAccountIds, getAccount, isUnfinishedErase } from '../common/repositories/accounts';

/** An erase younger than this may still be running in its request (10 s at most): left to it. */
export const ERASE_GRACE_MS = 2 * 60_000;

/** Where the events this function records come from: no request, no address. */
const SCHEDULED_ORIGIN: RequestOrigin = { ip: 'scheduled', userAgent: 'FinishErases' };

export interface FinishedErases {
  readonly finished: number;
  readonly failed: number;
}

export const finishUnfinishedErases = async (now = Date.now()): Promise<FinishedErases> => {
  let finished = 0;
  let failed = 0;
  for (const userId of await findErasingAccountIds()) {
    // Read again right before: the index lags its table, and the run may be minutes in.
    const account = await getAccount(userId);
    if (!isUnfinishedErase(account, now - ERASE_GRACE_MS)) continue;
    try {
      // False when another run finished it first: its event is the one.
      if (await eraseAccount(account, SCHEDULED_ORIGIN)) finished += 1;
    } catch (error) {
      // Tried again at the next run; the ids only, never the person's data.
      logger.error('an unfinished erase could not be finished', {
        userId: account.userId,
        errorName: error instanceof Error ? error.name : typeof error,
      });
      failed += 1;
    }
  }
  if (finished + failed > 0) logger.info('unfinished erases', { finished, failed });
  return { finished, failed };
};

export const handler = async (): Promise<FinishedErases> => finishUnfinishedErases();
