/** DynamoDB transactions that may meet another one on a shared item. */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb, type TransactItem } from './aws';
import { countsOnAnotherShard } from './repositories/directory';

/** Why each item of a cancelled transaction failed (`None` for one that did not); none for another error. */
const cancellationCodes = (error: unknown): string[] =>
  error instanceof TransactionCanceledException
    ? (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None')
    : [];

/**
 * Whether a cancelled transaction met another one committing on the same items right now (DynamoDB's
 * `TransactionConflict`), whatever else failed with it.
 */
export const collided = (error: unknown): boolean => cancellationCodes(error).includes('TransactionConflict');

/** Whether any item of a cancelled transaction failed its condition. */
const anyConditionFailed = (error: unknown): boolean =>
  cancellationCodes(error).includes('ConditionalCheckFailed');

/**
 * Whether a cancelled transaction only collided with another one on the same item, with no condition
 * failing: trying again is safe and will usually succeed.
 */
const onlyConflicted = (error: unknown): boolean => collided(error) && !anyConditionFailed(error);

/** Whether a cancelled transaction's item `index` failed its condition (DynamoDB reports each item). */
export const conditionFailedAt = (error: unknown, index: number): boolean =>
  error instanceof TransactionCanceledException &&
  error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';

const TRANSACTION_ATTEMPTS = 4;

/**
 * Commits a transaction, trying again (with a short random pause) when it only collided with another
 * transaction on a shared item, such as the client's coaching state that every health write updates;
 * each try adds to another shard of the counts. A failed condition is never retried: the caller sees
 * it as before.
 */
export const transactWrite = async (input: TransactWriteCommandInput): Promise<void> => {
  let items = input.TransactItems ?? [];
  for (let attempt = 1; ; attempt += 1) {
    try {
      await ddb.send(new TransactWriteCommand({ ...input, TransactItems: items }));
      return;
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !onlyConflicted(error)) throw error;
      await new Promise((done) => setTimeout(done, Math.random() * 25 * 2 ** attempt));
      items = countsOnAnotherShard(items);
    }
  }
};

/**
 * Conditions a write commits under, as items of its own transaction (the acting admin still an active
 * admin, the caller's session still passing the session check), and what the request answers instead
 * when one of them no longer holds: `refused(failed)`, `failed` telling which of `checks` (by index)
 * failed.
 */
export interface CommitChecks {
  readonly checks: readonly TransactItem[];
  readonly refused: (failed: (index: number) => boolean) => Error;
}

/**
 * The refusal a cancelled transaction answers when one of `onlyIf`'s checks, placed from item `first`
 * on, failed; undefined when none did (or there were none), so the caller reads its own conditions.
 */
export const refusalOf = (error: unknown, onlyIf: CommitChecks | undefined, first = 0): Error | undefined => {
  const failed = (index: number) => conditionFailedAt(error, first + index);
  return onlyIf?.checks.some((_, index) => failed(index)) ? onlyIf.refused(failed) : undefined;
};

/**
 * Commits a transaction whose conditions say whether it may happen: false when a condition failed,
 * true when it was committed. With `onlyIf`, its checks commit first in the same transaction, and one
 * that failed is the request's refusal (`refusalOf`), never a false that the caller would read as its
 * own condition failing. A cancellation with no condition failed (a transaction that kept colliding
 * through `transactWrite`'s tries, or was throttled) is thrown: false would tell the caller something
 * untrue, such as an invitation that exists.
 */
export const transactIf = async (
  input: TransactWriteCommandInput,
  onlyIf?: CommitChecks,
): Promise<boolean> => {
  const checks = onlyIf?.checks ?? [];
  try {
    await transactWrite(
      checks.length > 0 ? { ...input, TransactItems: [...checks, ...(input.TransactItems ?? [])] } : input,
    );
    return true;
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const refusal = refusalOf(error, onlyIf);
    if (refusal) throw refusal;
    if (!anyConditionFailed(error)) throw error;
    return false;
  }
};
