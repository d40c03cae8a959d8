/**
 * The counts' shards (docs/decisions/058-admin-lists-at-scale.md): a transaction tried again after a
 * collision adds to another shard, so that one busy shard cannot cancel every try.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  COUNT_SHARDS,
  countsOnAnotherShard,
  countsUpdateItem,
} from '../../../lambdas/common/repositories/directory';
import type { TransactItem } from '../../../lambdas/common/aws';

const shardOf = (item: TransactItem | undefined): number =>
  Number(String(item?.Update?.Key?.userId).replace('directory#counts#', ''));

describe('countsOnAnotherShard', () => {
  beforeEach(() => vi.stubEnv('ACCOUNTS_TABLE', 'accounts'));
  afterEach(() => vi.unstubAllEnvs());

  it('moves the counts to a shard other than the one tried, spread over all the others, and leaves every other item as it is', () => {
    const put: TransactItem = { Put: { TableName: 'accounts', Item: { userId: 'u1' } } };
    const update: TransactItem = {
      Update: { TableName: 'accounts', Key: { userId: 'u1' }, UpdateExpression: 'SET a = :a' },
    };
    for (let from = 0; from < COUNT_SHARDS; from += 1) {
      const [counts] = countsUpdateItem({ people: 1 }, from);
      const reached = new Set<number>();
      for (let round = 0; round < 400; round += 1) {
        const moved = countsOnAnotherShard([put, counts as TransactItem, update]);
        expect(moved[0]).toBe(put);
        expect(moved[2]).toBe(update);
        expect({ ...moved[1]?.Update, Key: undefined }).toEqual({ ...counts?.Update, Key: undefined });
        reached.add(shardOf(moved[1]));
      }
      expect(reached.has(from), `from ${from}`).toBe(false);
      expect(
        [...reached].sort((a, b) => a - b),
        `from ${from}`,
      ).toEqual(Array.from({ length: COUNT_SHARDS }, (_, shard) => shard).filter((shard) => shard !== from));
    }
  });
});
