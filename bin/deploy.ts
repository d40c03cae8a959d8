/**
 * Deploys one stage end to end (docs/decisions/030-deploy.md):
 *   1. infrastructure: `cdk deploy` of the stage's stack;
 *   2. the SPA: read the stack outputs, build web/ with them (VITE_*), upload web/dist to the bucket
 *      (hashed assets first, index.html last), prune what no build needs any more, invalidate CloudFront.
 *
 *   npm run deploy -- --stage dev [--region us-west-2] [--skip-infra] [--approve] [--dry-run]
 *                     [-c domainName=app.example.com -c certificateArn=arn:aws:acm:us-east-1:...]
 *                     [-c alarmEmail=ops@example.com]
 *
 * Needs AWS credentials in the usual places (AWS_PROFILE, environment, SSO) and the AWS CLI v2.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { LAMBDA_CONCURRENCY_NEEDED } from '../infra/constructs/capacity';
import { STACK_OUTPUTS, type StackOutputKey } from '../infra/stacks/outputs';
import { stackNameFor } from '../infra/stacks/stage-config';
import { SCHEDULED } from '../lambdas/routes';
import { DEFAULT_REGION } from '../shared/constants';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST_DIR = join(REPO_ROOT, 'web', 'dist');
/** Vite writes content-hashed files under assets/: their names change whenever their content does. */
const HASHED_PREFIX = 'assets/';
/** Build by-products that are not served (Vite's manifest). */
const NOT_SERVED = '.vite/*';
/** Old hashed assets stay this long, for tabs still running the previous build (lazy-loaded chunks). */
const KEEP_OLD_ASSETS_DAYS = 7;

export const CACHE_CONTROL = {
  hashed: 'public, max-age=31536000, immutable',
  entry: 'no-cache',
  other: 'public, max-age=300',
} as const;

export interface DeployOptions {
  readonly stage: string;
  readonly region: string;
  readonly skipInfra: boolean;
  readonly approve: boolean;
  readonly dryRun: boolean;
  /** Extra `-c key=value` context for cdk deploy (custom domain). */
  readonly context: readonly string[];
}

export function parseDeployArgs(argv: readonly string[]): DeployOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      stage: { type: 'string' },
      region: { type: 'string' },
      'skip-infra': { type: 'boolean', default: false },
      approve: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      context: { type: 'string', short: 'c', multiple: true, default: [] },
    },
    strict: true,
  });
  if (!values.stage) throw new Error('Missing --stage, for example: npm run deploy -- --stage dev');
  for (const entry of values.context) {
    if (!/^[A-Za-z][\w:-]*=.+$/.test(entry)) throw new Error(`Context must look like key=value: ${entry}`);
    if (/^(stage|region)=/.test(entry)) throw new Error('Pass the stage and region as --stage and --region.');
  }
  return {
    stage: values.stage,
    region: values.region ?? DEFAULT_REGION,
    skipInfra: values['skip-infra'],
    approve: values.approve,
    dryRun: values['dry-run'],
    context: values.context,
  };
}

export type StackOutputs = Record<StackOutputKey, string>;

/** Maps CloudFormation's `[{OutputKey, OutputValue}]` to our keys; names every missing output. */
export function readStackOutputs(raw: readonly { OutputKey?: string; OutputValue?: string }[]): StackOutputs {
  const byName = new Map(raw.map((output) => [output.OutputKey, output.OutputValue]));
  const missing = Object.values(STACK_OUTPUTS).filter((name) => !byName.get(name));
  if (missing.length > 0)
    throw new Error(`The stack has no output ${missing.join(', ')}: deploy the infrastructure first.`);
  return Object.fromEntries(
    Object.entries(STACK_OUTPUTS).map(([key, name]) => [key, byName.get(name) ?? '']),
  ) as StackOutputs;
}

/** The SPA's build-time configuration, from the stack outputs. */
export const viteEnvironment = (outputs: StackOutputs): Record<string, string> => ({
  VITE_USER_POOL_ID: outputs.userPoolId,
  VITE_USER_POOL_CLIENT_ID: outputs.userPoolClientId,
  VITE_AWS_REGION: outputs.region,
  VITE_API_BASE_URL: outputs.apiUrl.replace(/\/+$/, ''),
});

/**
 * The uploads, in order: hashed assets (immutable) before anything references them, then the other
 * files, then index.html, the entry that switches clients to the new build.
 */
export function uploadCommands(bucket: string, distDir: string): string[][] {
  const target = `s3://${bucket}/`;
  return [
    [
      's3',
      'cp',
      distDir,
      target,
      '--recursive',
      '--exclude',
      '*',
      '--include',
      `${HASHED_PREFIX}*`,
      '--cache-control',
      CACHE_CONTROL.hashed,
    ],
    [
      's3',
      'cp',
      distDir,
      target,
      '--recursive',
      '--exclude',
      `${HASHED_PREFIX}*`,
      '--exclude',
      'index.html',
      '--exclude',
      NOT_SERVED,
      '--cache-control',
      CACHE_CONTROL.other,
    ],
    [
      's3',
      'cp',
      join(distDir, 'index.html'),
      `${target}index.html`,
      '--cache-control',
      CACHE_CONTROL.entry,
      '--content-type',
      'text/html; charset=utf-8',
    ],
  ];
}

export interface ListedObject {
  readonly Key: string;
  readonly LastModified: string;
}

/**
 * Objects to delete after an upload: anything the new build does not contain, except hashed assets
 * younger than `keepDays`, which open tabs of the previous build may still load.
 */
export function staleObjects(
  listed: readonly ListedObject[],
  currentKeys: ReadonlySet<string>,
  now: Date,
  keepDays = KEEP_OLD_ASSETS_DAYS,
): string[] {
  const cutoff = now.getTime() - keepDays * 24 * 60 * 60 * 1000;
  return listed
    .filter((object) => !currentKeys.has(object.Key))
    .filter((object) => !object.Key.startsWith(HASHED_PREFIX) || Date.parse(object.LastModified) < cutoff)
    .map((object) => object.Key);
}

/** Every file of the build that is served, as bucket keys (dot-directories such as .vite/ are not). */
export function distKeys(distDir: string): Set<string> {
  const keys = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!name.startsWith('.')) walk(path);
      } else keys.add(relative(distDir, path).split(sep).join('/'));
    }
  };
  walk(distDir);
  return keys;
}

/** Quotes an argument for display, so a printed command can be pasted into a shell. */
const shellQuote = (arg: string): string =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;

class Runner {
  constructor(private readonly dryRun: boolean) {}

  /** Runs a command with inherited output; throws when it fails. */
  run(command: string, args: readonly string[], options: SpawnSyncOptions = {}): void {
    console.log(`$ ${[command, ...args].map(shellQuote).join(' ')}`);
    if (this.dryRun) return;
    const result = spawnSync(command, args, { cwd: REPO_ROOT, stdio: 'inherit', ...options });
    if (result.error) throw result.error;
    if (result.status !== 0)
      throw new Error(`${command} ${args[0] ?? ''} failed with exit code ${result.status}.`);
  }

  /** Runs a command and returns its standard output. */
  read(command: string, args: readonly string[]): string {
    const result = spawnSync(command, args, {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (result.error) throw result.error;
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.trim()}`);
    return result.stdout;
  }
}

function checkPrerequisites(runner: Runner): void {
  try {
    runner.read('aws', ['--version']);
  } catch {
    throw new Error('The AWS CLI v2 is required (https://docs.aws.amazon.com/cli/): `aws --version` failed.');
  }
  try {
    const identity = JSON.parse(runner.read('aws', ['sts', 'get-caller-identity', '--output', 'json'])) as {
      Account: string;
      Arn: string;
    };
    console.log(`Deploying as ${identity.Arn} (account ${identity.Account}).`);
  } catch {
    throw new Error('No usable AWS credentials: set AWS_PROFILE or run `aws sso login`, then try again.');
  }
}

/** What `aws lambda get-account-settings` says of the account's concurrency in the Region. */
export interface LambdaAccountSettings {
  readonly AccountLimit?: {
    readonly ConcurrentExecutions?: number;
    readonly UnreservedConcurrentExecutions?: number;
  };
}

/** Lambda keeps this much of an account's concurrency unreserved (all of it, when the limit is lower). */
const UNRESERVED_MINIMUM = 100;

/**
 * Whether the stack can be deployed into an account with this Lambda concurrency, checked before
 * `cdk deploy`: the stack reserves one run for each scheduled function (FinishErases), which Lambda
 * refuses when it would leave less than its unreserved minimum, and CloudFormation then rolls the
 * whole deploy back (new accounts may start at a limit of 10; other stages and workloads may hold
 * reservations too). `newReservations` is what this deploy adds: none when the stack exists already
 * (it holds its reservation). Below what decision 054 needs at the peak, the stage works, at less than
 * the capacity it is sized for: a warning.
 */
export const concurrencyCheck = (
  settings: LambdaAccountSettings,
  region: string,
  newReservations: number,
): { refused?: string; warning?: string } => {
  const limit = settings.AccountLimit?.ConcurrentExecutions;
  const unreserved = settings.AccountLimit?.UnreservedConcurrentExecutions ?? limit;
  if (limit === undefined || unreserved === undefined)
    return { warning: `Could not read the Lambda concurrency of ${region}.` };
  const raise = `raise "Concurrent executions" for Lambda in Service Quotas (${region}) to ${LAMBDA_CONCURRENCY_NEEDED.toLocaleString('en-US')} (docs/decisions/054-capacity.md)`;
  const minimum = Math.min(UNRESERVED_MINIMUM, limit);
  if (unreserved - newReservations < minimum)
    return {
      refused: `The account's Lambda concurrency in ${region} is ${limit}, ${unreserved} of it unreserved: the stack reserves ${newReservations} more for FinishErases and Lambda keeps ${minimum} unreserved, so the deploy would roll back. First ${raise}, or free reserved concurrency.`,
    };
  if (limit < LAMBDA_CONCURRENCY_NEEDED)
    return {
      warning: `The account's Lambda concurrency in ${region} is ${limit}: the stage works, below the peak it is sized for; ${raise}.`,
    };
  return {};
};

/** Whether the stage's stack exists in the Region already. */
function stackExists(runner: Runner, stackName: string, region: string): boolean {
  try {
    runner.read('aws', ['cloudformation', 'describe-stacks', '--stack-name', stackName, '--region', region]);
    return true;
  } catch {
    return false;
  }
}

function checkConcurrency(runner: Runner, stackName: string, region: string): void {
  let settings: LambdaAccountSettings;
  try {
    settings = JSON.parse(
      runner.read('aws', ['lambda', 'get-account-settings', '--region', region, '--output', 'json']),
    ) as LambdaAccountSettings;
  } catch {
    settings = {};
  }
  const newReservations = stackExists(runner, stackName, region) ? 0 : Object.keys(SCHEDULED).length;
  const { refused, warning } = concurrencyCheck(settings, region, newReservations);
  if (refused) throw new Error(refused);
  if (warning) console.warn(`Warning: ${warning}`);
}

function fetchOutputs(runner: Runner, stackName: string, region: string): StackOutputs {
  const raw = runner.read('aws', [
    'cloudformation',
    'describe-stacks',
    '--stack-name',
    stackName,
    '--region',
    region,
    '--query',
    'Stacks[0].Outputs',
    '--output',
    'json',
  ]);
  return readStackOutputs((JSON.parse(raw) as { OutputKey?: string; OutputValue?: string }[] | null) ?? []);
}

function pruneBucket(runner: Runner, bucket: string, region: string, currentKeys: Set<string>): void {
  const raw = runner.read('aws', [
    's3api',
    'list-objects-v2',
    '--bucket',
    bucket,
    '--region',
    region,
    '--query',
    'Contents[].{Key: Key, LastModified: LastModified}',
    '--output',
    'json',
  ]);
  const stale = staleObjects((JSON.parse(raw) as ListedObject[] | null) ?? [], currentKeys, new Date());
  for (let i = 0; i < stale.length; i += 1000) {
    const batch = { Objects: stale.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true };
    runner.run('aws', [
      's3api',
      'delete-objects',
      '--bucket',
      bucket,
      '--region',
      region,
      '--delete',
      JSON.stringify(batch),
    ]);
  }
  console.log(`Pruned ${stale.length} object(s) no build needs any more.`);
}

export function deploy(options: DeployOptions): void {
  const runner = new Runner(options.dryRun);
  const stackName = stackNameFor(options.stage);
  if (!options.dryRun) checkPrerequisites(runner);
  if (!options.dryRun && !options.skipInfra) checkConcurrency(runner, stackName, options.region);

  // Phase 1: infrastructure. The stack's outputs are what phase 2 builds the SPA with.
  if (!options.skipInfra) {
    runner.run('npx', [
      'cdk',
      'deploy',
      stackName,
      '-c',
      `stage=${options.stage}`,
      '-c',
      `region=${options.region}`,
      ...options.context.flatMap((entry) => ['-c', entry]),
      ...(options.approve ? ['--require-approval', 'never'] : []),
    ]);
  }

  // Phase 2: the SPA, built for exactly this stack.
  const outputs: StackOutputs = options.dryRun
    ? (Object.fromEntries(Object.keys(STACK_OUTPUTS).map((key) => [key, `<${key}>`])) as StackOutputs)
    : fetchOutputs(runner, stackName, options.region);
  const buildEnvironment = viteEnvironment(outputs);
  console.log(
    `Building web/ with ${Object.entries(buildEnvironment)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  runner.run('npm', ['run', 'build:web'], { env: { ...process.env, ...buildEnvironment } });
  if (!options.dryRun && !existsSync(join(DIST_DIR, 'index.html'))) {
    throw new Error('The SPA build wrote no web/dist/index.html.');
  }

  for (const args of uploadCommands(outputs.siteBucketName, DIST_DIR)) {
    runner.run('aws', [...args, '--region', options.region, '--only-show-errors']);
  }
  if (!options.dryRun) pruneBucket(runner, outputs.siteBucketName, options.region, distKeys(DIST_DIR));

  // CloudFront may hold the previous index.html (and other unhashed files) at the edges.
  const invalidation = [
    'cloudfront',
    'create-invalidation',
    '--distribution-id',
    outputs.distributionId,
    '--paths',
    '/*',
    '--query',
    'Invalidation.Id',
    '--output',
    'text',
  ];
  if (options.dryRun) {
    runner.run('aws', invalidation);
  } else {
    const invalidationId = runner.read('aws', invalidation).trim();
    runner.run('aws', [
      'cloudfront',
      'wait',
      'invalidation-completed',
      '--distribution-id',
      outputs.distributionId,
      '--id',
      invalidationId,
    ]);
  }

  if (options.dryRun) {
    console.log('\nDry run: nothing was deployed.');
    return;
  }
  console.log(`\nStage ${options.stage} is live at ${outputs.appUrl}`);
  console.log(`API: ${buildEnvironment.VITE_API_BASE_URL}`);
  const alarmEmail = options.context
    .find((entry) => entry.startsWith('alarmEmail='))
    ?.slice('alarmEmail='.length);
  console.log(
    alarmEmail
      ? `Alarms are emailed to ${alarmEmail} (confirm AWS's first email), through ${outputs.alarmTopicArn}.`
      : `Alarms go to ${outputs.alarmTopicArn}. No -c alarmEmail was given${
          options.skipInfra ? '' : ', so any email subscription of an earlier deploy was removed'
        }: make sure someone is subscribed to the topic (docs/decisions/064-alarms.md).`,
  );
  console.log(
    `First deploy of this stage? Invite the first admin:\n  npm run invite -- --stage ${options.stage}${
      options.region === DEFAULT_REGION ? '' : ` --region ${options.region}`
    } --email you@example.com --role admins`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    deploy(parseDeployArgs(process.argv.slice(2)));
  } catch (error) {
    console.error(`Deploy failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
