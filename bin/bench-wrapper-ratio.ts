/**
 * `npm run bench` (issue 12): what our request path costs against DynamoDB itself. In one run, on one
 * DynamoDB Local, the throughput of `GET /v1/users/me` through the local stack (HTTP, the gateway's JWT
 * check, the wrapper with its session check, the handler's profile read) against a bare loop of the
 * same profile GetItem, and against a loop of the two reads it makes (what our code adds to DynamoDB).
 * Loopback only, bounded.
 *
 * Measured warm and interleaved (docs/decisions/059-wrapper-ratio-measured-warm.md): DynamoDB Local is a
 * JVM whose speed keeps changing while it compiles, and the machine is shared, so two loops run one
 * after the other compare two different machines. Both kinds first run `WARM_BLOCKS` blocks, then
 * `BLOCKS` blocks of `BLOCK` requests each, alternating which goes first; each kind's throughput is its
 * requests over its own summed time. Prints both and the ratio; fails under `MIN_RATIO`, a guard
 * against regressions of the path, which is not issue 12's 0.5 (not met: see the decision record).
 */
import { resolve } from 'node:path';
import { hardLimit, startBenchStack } from './bench-support';
import { loopbackClient } from '../test/fixtures/loopback-client';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';
const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
const { DynamoDBDocumentClient, GetCommand } = await import('@aws-sdk/lib-dynamodb');

const WARM_BLOCKS = Number(process.env.WARM_BLOCKS ?? 10);
const BLOCKS = Number(process.env.BLOCKS ?? 40);
const BLOCK = Number(process.env.BLOCK ?? 50);
// One at a time: the cost of one request's path. (With 4 or 16 in flight the ratio measured the same.)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 1);
const HARD_LIMIT_MS = 4 * 60_000;
/**
 * Measured 0.38 to 0.42 warm (decision 059): the session check is a second consistent read on every
 * request. Under this, about a millisecond was added to every request's path (a read one after the
 * other, a key fetch, a synchronous log write); it sits 0.08 under the lowest figure, about the spread
 * of the runs.
 */
const MIN_RATIO = 0.3;
/** What issue 12 asks, printed beside the figure so that nobody reads the guard as the target. */
const ISSUE_TARGET = 0.5;
const root = resolve(import.meta.dirname, '..');
hardLimit(HARD_LIMIT_MS);

/** Milliseconds for `count` calls of `call`, `width` in flight at a time. */
const timeBlock = async (count: number, width: number, call: () => Promise<void>): Promise<number> => {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        next += 1;
        await call();
      }
    }),
  );
  return performance.now() - started;
};

const { stack, admin, stop } = await startBenchStack(root);
// The same HTTP client on both sides: the SDK sends the bare GetItems over node:http with keep-alive, and
// so does this (fetch cost about 0.8 ms a request more here, which is the client's, not our path's).
const client = loopbackClient(stack.origin, '127.0.0.1');
const authorization = { authorization: `Bearer ${admin.idToken}` };
const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
    region: 'us-west-2',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
);
try {
  const key = { TableName: stack.tables.profiles, Key: { userId: admin.userId }, ConsistentRead: true };
  const kinds = {
    bare: async () => {
      const { Item } = await documents.send(new GetCommand(key));
      if (!Item) throw new Error('the profile is missing');
    },
    // The two reads GET /v1/users/me makes (the session check's and the profile), at once as it makes them.
    pair: async () => {
      const [gate, profile] = await Promise.all([
        documents.send(new GetCommand({ ...key, TableName: stack.tables.accounts })),
        documents.send(new GetCommand(key)),
      ]);
      if (!gate.Item || !profile.Item) throw new Error('the account or the profile is missing');
    },
    api: async () => {
      const { status } = await client.send('GET', '/v1/users/me', { headers: authorization });
      if (status !== 200) throw new Error(`GET /v1/users/me answered ${status}`);
    },
  };
  const spent = { bare: 0, pair: 0, api: 0 };
  const order = ['bare', 'pair', 'api'] as const;
  for (let block = 0; block < WARM_BLOCKS + BLOCKS; block += 1) {
    // Each kind goes first, second and third in turn.
    for (const kind of [...order.slice(block % 3), ...order.slice(0, block % 3)]) {
      const ms = await timeBlock(BLOCK, CONCURRENCY, kinds[kind]);
      if (block >= WARM_BLOCKS) spent[kind] += ms;
    }
  }
  const perSecond = (ms: number) => (BLOCKS * BLOCK) / (ms / 1000);
  const bare = perSecond(spent.bare);
  const api = perSecond(spent.api);
  const pair = perSecond(spent.pair);
  console.log(
    `Throughput, ${BLOCKS} interleaved blocks of ${BLOCK} requests each way after ${WARM_BLOCKS} warm-up blocks, ` +
      `${CONCURRENCY} at a time, one DynamoDB Local: bare GetItem ${bare.toFixed(0)}/s, ` +
      `GET /v1/users/me ${api.toFixed(0)}/s, ratio ${(api / bare).toFixed(2)} ` +
      `(issue 12 asks ${ISSUE_TARGET}; regression guard ${MIN_RATIO})`,
  );
  console.log(
    `  against the two reads it makes, at once, on the same client: ${pair.toFixed(0)}/s, ratio ` +
      `${(api / pair).toFixed(2)} (HTTP, the JWT check, the wrapper and the handler: ` +
      `${(1000 / api - 1000 / pair).toFixed(2)} ms a request)`,
  );
  if (api / bare < MIN_RATIO) {
    console.error(`The ratio is under ${MIN_RATIO}: something was added to every request's path.`);
    process.exitCode = 1;
  }
} finally {
  documents.destroy();
  client.close();
  await stop();
}
