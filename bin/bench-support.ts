/**
 * What the `npm run bench` scripts share: a hard time limit, timed runs reported as a median, a
 * throwaway local stack, the bulk writes of their seeders and the count of the calls a request makes.
 */
import type { BatchWriteCommandOutput, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { InitializeMiddleware, MetadataBearer } from '@smithy/types';
import type { RecordOwner } from '../lambdas/common/repositories/health-records';
import { createMeasurementRequestSchema } from '../shared/health-schemas';

/** Ends the process with an error when the benchmark runs longer than `ms`. */
export const hardLimit = (ms: number): void => {
  const timer = setTimeout(() => {
    console.error(`The benchmark did not finish within ${ms / 60_000} minutes.`);
    process.exit(1);
  }, ms);
  timer.unref();
};

export interface Timing<T> {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly last: T;
}

/**
 * Runs `run` `runs + 2` times and times all but the first two, which warm the handler modules and
 * DynamoDB Local's JIT, as a warm Lambda would be.
 */
export const timeRuns = async <T>(runs: number, run: () => Promise<T>): Promise<Timing<T>> => {
  const times: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < runs + 2; i += 1) {
    const started = performance.now();
    last = await run();
    if (i >= 2) times.push(performance.now() - started);
  }
  return { ...summarize(times), last: last as T };
};

/** The median, the fastest and the slowest of some timings (0 for none). */
export const summarize = (times: readonly number[]): Omit<Timing<never>, 'last'> => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? 0, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0 };
};

export const ms = (value: number): string => `${value.toFixed(1)} ms`;

/**
 * A throwaway local stack (API only, in memory, loopback) with its bootstrap admin activated over HTTP,
 * as every bench starts. Loaded on call, so a bench sets its environment before the AWS SDK loads.
 */
export const startBenchStack = async (repositoryRoot: string) => {
  const { freePort } = await import('../infra/local/dynamodb-local');
  const { LOCAL_CLIENT_ID, startLocalStack } = await import('../infra/local/stack');
  const { codeFromLink, createHttpClient } = await import('../test/fixtures/http-client');
  const stack = await startLocalStack({
    repositoryRoot,
    port: await freePort(),
    web: 'none',
    bootstrapAdminEmail: 'admin@example.com',
  });
  const http = createHttpClient(stack.origin, LOCAL_CLIENT_ID);
  const stop = async () => {
    http.close();
    await stack.stop();
  };
  try {
    const admin = await http.activate('admin@example.com', codeFromLink(stack.adminActivationLink ?? ''));
    return { stack, http, admin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};

/** A seed reading exactly as the create route parses it (units, conversion, context). */
export const seedReading = (body: Record<string, unknown>) => {
  const parsed = createMeasurementRequestSchema.safeParse(body);
  if (!parsed.success) throw new Error(`Bad seed reading: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
};

/**
 * A seeder writing a person's records through the create path: it has no session, so it checks the
 * account is active. Loaded on call, so that a bench sets its environment before the AWS SDK loads.
 */
export const seedOwner = async (userId: string): Promise<RecordOwner> => {
  const { activeAccountCheckItem } = await import('../lambdas/common/repositories/accounts');
  return { userId, check: activeAccountCheckItem(userId) };
};

/** An item for `bulkPut`: the table's name and the item as the write paths store it. */
export interface BulkItem {
  readonly table: string;
  readonly item: Record<string, unknown>;
}

/**
 * Writes items with BatchWriteItem, 25 a call and 8 calls at once, until DynamoDB has taken every one
 * (what it leaves unprocessed is sent again). For seeders: no condition is checked, nothing is audited.
 */
export const bulkPut = async (client: DynamoDBDocumentClient, items: readonly BulkItem[]): Promise<void> => {
  const { BatchWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  type Requests = NonNullable<BatchWriteCommandOutput['UnprocessedItems']>;
  const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, i) =>
    items.slice(i * 25, i * 25 + 25),
  );
  for (let i = 0; i < batches.length; i += 8) {
    await Promise.all(
      batches.slice(i, i + 8).map(async (batch) => {
        let requests: Requests = {};
        for (const { table, item } of batch) (requests[table] ??= []).push({ PutRequest: { Item: item } });
        while (Object.keys(requests).length > 0) {
          const result = await client.send(new BatchWriteCommand({ RequestItems: requests }));
          requests = result.UnprocessedItems ?? {};
        }
      }),
    );
  }
};

/** An AWS SDK client whose middleware stack can count its calls (the handlers' shared clients). */
interface Countable {
  readonly middlewareStack: {
    add(
      middleware: InitializeMiddleware<object, MetadataBearer>,
      options: { step: 'initialize'; name: string },
    ): void;
    remove(name: string): boolean;
  };
}

/**
 * Counts every call made through `clients`, by command name (`GetItem`, `ListUsers`, ...), until `stop`.
 * `take` answers the calls since the last `take` (or the start), sorted, as `GetItem 1, Query 1`.
 */
export const countCalls = (clients: readonly Countable[]) => {
  const name = 'benchCallCounter';
  const calls = new Map<string, number>();
  const counter: InitializeMiddleware<object, MetadataBearer> = (next, context) => (args) => {
    const command = (context.commandName ?? '?').replace(/Command$/, '');
    calls.set(command, (calls.get(command) ?? 0) + 1);
    return next(args);
  };
  for (const client of clients) client.middlewareStack.add(counter, { step: 'initialize', name });
  return {
    take: (): string => {
      const taken = [...calls]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([command, count]) => `${command} ${count}`)
        .join(', ');
      calls.clear();
      return taken;
    },
    stop: (): void => {
      for (const client of clients) client.middlewareStack.remove(name);
    },
  };
};
