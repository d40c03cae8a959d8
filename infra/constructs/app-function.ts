import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { TableAccess, TableAction } from '../../lambdas/routes';
import type { TableDefinition } from '../../shared/tables';

/** Repository root: handler entries in the route manifest are relative to it. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What the bundled AWS SDK loads only with a dynamic `import()`, on paths a deployed function never
 * takes: left out of every bundle (docs/decisions/055-cold-starts.md). Lambda always sets AWS_REGION
 * and the role's credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), and the
 * stack sets no AWS_PROFILE, so the SDK's default credential chain stops at its first link, the
 * environment, which is bundled. The rest of the chain (SSO, ini files, credential processes, web
 * identity, container and instance metadata, and the STS and SSO clients they bring) is never loaded,
 * nor are event streams, which no DynamoDB or Cognito call has. Bundled, these would still be parsed at
 * every cold start, and their dynamic imports make esbuild wrap most of the SDK in lazy initialisers
 * that V8 parses twice: about 150 KB and 15 to 20 ms of import per function. Should one ever be
 * needed, its import fails loudly (or finds the runtime's own copy of the SDK).
 */
export const NEVER_LOADED_IN_LAMBDA = [
  '@aws-sdk/credential-provider-http',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-web-identity',
  '@smithy/credential-provider-imds',
  '@smithy/core/event-streams',
] as const;

/**
 * Packages a function imports only when a request needs them (a dynamic `import()`), and which are big
 * enough to matter at a cold start: left out of the function's bundle, and built beside it as a package
 * of its own in the function's `node_modules`, so that Node neither parses nor maps them when the
 * function starts (docs/decisions/055-cold-starts.md). SimpleWebAuthn with its ASN.1/X.509 dependencies
 * is about half of each WebAuthn function's code; a request refused before its ceremony never loads it.
 */
export const LOADED_ON_DEMAND = ['@simplewebauthn/server'] as const;

/** The build settings the bundles and the packages loaded on demand share. */
const TARGET = 'node22';
// The ES module builds (the SDK's dist-es), which esbuild can tree-shake; CommonJS only as a fallback.
const MAIN_FIELDS = ['module', 'main'];
// ESM output still meets CommonJS dependencies that call `require` for Node built-ins.
const BANNER =
  "import { createRequire as topLevelCreateRequire } from 'node:module'; const require = topLevelCreateRequire(import.meta.url);";

/**
 * How `infra/bundling/build-on-demand.mjs` builds a package of LOADED_ON_DEMAND (esbuild's options):
 * as the bundles are built, without a source map (a frame inside it names the package's file).
 */
export const ON_DEMAND_BUILD = {
  platform: 'node',
  format: 'esm',
  target: TARGET,
  minify: true,
  mainFields: MAIN_FIELDS,
  banner: { js: BANNER },
} as const;

/**
 * How every Lambda is bundled. `bin/measure-infra.ts` reports the size and cold import time of exactly
 * these bundles, so change bundling here and nowhere else.
 */
export const BUNDLING = {
  minify: true,
  sourceMap: true,
  // The place a logged error was thrown maps back to file and line (lambdas/common/source-position.ts);
  // embedding the sources would only add weight.
  sourcesContent: false,
  target: TARGET,
  format: OutputFormat.ESM,
  mainFields: MAIN_FIELDS,
  banner: BANNER,
  // The AWS SDK is bundled, tree-shaken, with the function (055-cold-starts.md): loading the runtime's
  // copy took about 110 ms of every cold start, and its version is whatever the runtime ships that day.
  bundleAwsSDK: true,
  externalModules: [...NEVER_LOADED_IN_LAMBDA, ...LOADED_ON_DEMAND],
  // Synth must work offline with no Docker: the esbuild in node_modules does the bundling.
  forceDockerBundling: false,
  // After esbuild (055-cold-starts.md): the packages loaded on demand are built beside the bundle, and
  // the bundle's source map keeps only our own code's share (read when an error is logged).
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir: string, outputDir: string) => [
      `"${process.execPath}" "${join(REPO_ROOT, 'infra', 'bundling', 'after-bundling.mjs')}" "${outputDir}" ${Buffer.from(
        JSON.stringify({ packages: LOADED_ON_DEMAND, options: ON_DEMAND_BUILD }),
      ).toString('base64url')}`,
    ],
  },
} as const satisfies BundlingOptions;

export interface AppFunctionProps {
  /** Handler file relative to the repository root; its export is `handler`. */
  readonly entry: string;
  /** What the function is for, shown in the console. @default - the entry path */
  readonly description?: string;
  /** Upper bound of one invocation. @default Duration.seconds(10) */
  readonly timeout?: Duration;
  /** Memory, which also sets the CPU share. @default 512 */
  readonly memorySize?: number;
  /** How long its logs are kept. @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** What happens to its log group when the stack is deleted. @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
  /** Extra environment, beside the defaults every function gets. @default - none */
  readonly environment?: Record<string, string>;
}

/**
 * What DynamoDB asks KMS for on the caller's behalf when a table has a customer-managed key: the
 * caller's role needs these on the key as well as the table actions. They are what CDK's own
 * `Table.grantReadData` and `grantWriteData` add (aws-dynamodb `perms.ts`: `KEY_READ_ACTIONS`, and
 * `KEY_WRITE_ACTIONS` on top for writes), with CDK's `kms:ReEncrypt*` and `kms:GenerateDataKey*` written
 * out: the template holds no wildcard action, and the `GenerateDataKeyPair*` actions that wildcard also
 * matches make asymmetric key pairs, which a symmetric table key never does.
 */
const KEY_READ_ACTIONS = ['kms:Decrypt', 'kms:DescribeKey'] as const;
const KEY_WRITE_ACTIONS = [
  'kms:Encrypt',
  'kms:ReEncryptFrom',
  'kms:ReEncryptTo',
  'kms:GenerateDataKey',
  'kms:GenerateDataKeyWithoutPlaintext',
] as const;
/** The actions that write items: a batch write puts or deletes, as PutItem and DeleteItem do. */
const WRITE_ACTIONS: readonly TableAction[] = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];

/**
 * The project-default Lambda: Node.js 22 on arm64, bundled and minified by esbuild with source maps,
 * X-Ray tracing, a log group of its own with bounded retention, and a role that starts with nothing but
 * writing to that log group. Tables and user-pool actions are added with `bindTable` and `allowUserPool`,
 * which set the environment variable and the least-privilege grant together.
 */
export class AppFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });

    // An explicit role instead of the default one: the default attaches AWSLambdaBasicExecutionRole,
    // which may write to every log group in the account.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.entry}`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: join(REPO_ROOT, props.entry),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      description: props.description ?? props.entry,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      role: this.role,
      logGroup: this.logGroup,
      bundling: BUNDLING,
      environment: {
        LOG_LEVEL: 'INFO',
        // No `--enable-source-maps`: Node would read the map and count every line of the bundle at each
        // cold start (about 11 ms); the place an error was thrown is mapped when it is logged
        // (lambdas/common/source-position.ts, docs/decisions/055-cold-starts.md).
        ...props.environment,
      },
    });

    NagSuppressions.addResourceSuppressions(this.function, [
      {
        id: 'AwsSolutions-L1',
        reason:
          'Node.js 22 is the runtime the handlers are written, bundled (target node22) and tested for (DESIGN section 9); moving to a newer runtime is a deliberate upgrade, not a default.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(
      this.role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions, so their resource must be "*".',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );
  }

  /**
   * Sets the table's environment variable (`definition.envVar`) to its name and allows exactly the
   * manifest's access: per grant, its actions on this table only (Query and Scan also on the table's
   * indexes, by name, or on the grant's one `index` only), limited with `dynamodb:LeadingKeys` to the grant's key patterns when it has any.
   * On a table with a customer-managed key it also allows the key actions those calls need, on that key
   * only: reading for every access, writing too when a grant writes.
   */
  bindTable(table: ITable, definition: TableDefinition, access: TableAccess): void {
    this.function.addEnvironment(definition.envVar, table.tableName);
    if (access.length === 0) throw new Error(`Empty access to the ${definition.id} table.`);
    for (const grant of access) {
      if (grant.actions.length === 0) throw new Error(`A grant on the ${definition.id} table has no action.`);
      if (grant.keys) {
        if (grant.keys.length === 0) throw new Error(`A grant on the ${definition.id} table has no key.`);
        // A Scan carries no leading key, so the condition would not limit it at all.
        if (grant.actions.includes('Scan')) {
          throw new Error(`A Scan of the ${definition.id} table cannot be limited to keys.`);
        }
      }
      const reads = grant.actions.some((action) => action === 'Query' || action === 'Scan');
      const indexes = reads
        ? (definition.globalSecondaryIndexes ?? []).map(
            (index) => `${table.tableArn}/index/${index.indexName}`,
          )
        : [];
      // Key patterns name the table's own partition keys: a key-limited grant reaches no index, where
      // `dynamodb:LeadingKeys` would mean another attribute, or nothing.
      let resources = grant.keys ? [table.tableArn] : [table.tableArn, ...indexes];
      if (grant.index !== undefined) {
        // An index-only grant: Query or Scan of that index, and nothing of the table's own items.
        if (!grant.actions.every((action) => action === 'Query' || action === 'Scan'))
          throw new Error(`A grant on an index of the ${definition.id} table may only Query or Scan.`);
        const index = `${table.tableArn}/index/${grant.index}`;
        if (!indexes.includes(index))
          throw new Error(`The ${definition.id} table has no index ${grant.index}.`);
        resources = [index];
      }
      this.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: grant.actions.map((action) => `dynamodb:${action}`),
          resources,
          ...(grant.keys && {
            conditions: {
              // LeadingKeys is multivalued (BatchGetItem names many keys): every one must match.
              'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...grant.keys] },
              // ForAllValues holds for a request with no leading key at all: refuse such a request.
              Null: { 'dynamodb:LeadingKeys': 'false' },
            },
          }),
        }),
      );
    }
    if (definition.customerManagedKey && !table.encryptionKey) {
      throw new Error(`The ${definition.id} table is defined with a customer-managed key but has none.`);
    }
    if (table.encryptionKey) {
      const writes = access.some((grant) => grant.actions.some((action) => WRITE_ACTIONS.includes(action)));
      this.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [...KEY_READ_ACTIONS, ...(writes ? KEY_WRITE_ACTIONS : [])],
          resources: [table.encryptionKey.keyArn],
          // Through DynamoDB only, as AWS's own DynamoDB key allows: the role cannot use the key to
          // decrypt or encrypt anything itself.
          conditions: {
            StringEquals: { 'kms:ViaService': `dynamodb.${Stack.of(this).region}.amazonaws.com` },
          },
        }),
      );
    }
  }

  /** Sets `USER_POOL_ID` and allows exactly these `cognito-idp:` actions on this pool only. */
  allowUserPool(userPool: IUserPool, actions: readonly string[]): void {
    if (actions.length === 0) return;
    this.function.addEnvironment('USER_POOL_ID', userPool.userPoolId);
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: actions.map((action) => `cognito-idp:${action}`),
        resources: [userPool.userPoolArn],
      }),
    );
  }
}
