import { CachePolicy } from 'aws-cdk-lib/aws-cloudfront';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ROUTES,
  SCHEDULED,
  TRIGGERS,
  type FunctionDefinition,
  type RouteDefinition,
  ALL_FUNCTIONS,
} from '../../../lambdas/routes';
import { ROLE_GROUPS, WEBAUTHN_RP_NAME } from '../../../shared/constants';
import { ACTIVATION_IP_ATTEMPTS, SIGNIN_IP_STARTS } from '../../../shared/limits';
import {
  AUTHORIZER_CACHE_MINUTES,
  ACCESS_TOKEN_VALIDITY_MINUTES,
  AUTH_SESSION_VALIDITY_MINUTES,
  ID_TOKEN_VALIDITY_MINUTES,
  REFRESH_TOKEN_GRACE_SECONDS,
  REFRESH_TOKEN_VALIDITY_DAYS,
} from '../../../shared/session-policy';
import { TABLE_KEYS, TABLES, type TableDefinition, type TableKey } from '../../../shared/tables';
import { SESSION_TTL_MS } from '../../../infra/local/cognito/sessions';
import { BUNDLING, LOADED_ON_DEMAND, NEVER_LOADED_IN_LAMBDA } from '../../../infra/constructs/app-function';
import {
  API_REQUESTS_PER_IP_PER_5_MIN,
  ACTIVATION_POSTS_PER_IP_PER_5_MIN,
  AUTH_REQUESTS_PER_IP_PER_5_MIN,
  USER_POOL_REQUESTS_PER_IP_PER_5_MIN,
} from '../../../infra/constructs/waf-limits';
import { STACK_OUTPUTS } from '../../../infra/stacks/outputs';
import { stackNameFor } from '../../../infra/stacks/stage-config';
import { securityHeaders } from '../../../infra/security-headers';
import {
  actionsOf,
  findMethod,
  flatten,
  isAllowed,
  leadingKeyPatterns,
  logicalIdOf,
  resourcesOf,
  resourcesOfStatement,
  statementsOfRole,
  synthPlatform,
  type CfnResource,
  type Json,
  type Statement,
  type Synthesized,
} from './platform-template';

/** Someone's id, as the handlers build keys from it. */
const SOMEONE = '5a7e2c1d-8b3f-4c6a-9d2e-1f0b3a4c5d6e';
const PUBLIC_ROUTES = ROUTES.filter((route) => route.auth === 'public');
const PROTECTED_ROUTES = ROUTES.filter((route) => route.auth !== 'public');

let prod: Synthesized;
let dev: Synthesized;
let customDomain: Synthesized;

beforeAll(() => {
  prod = synthPlatform({ stage: 'prod' });
  dev = synthPlatform({ stage: 'dev' });
  customDomain = synthPlatform({
    stage: 'prod',
    domainName: 'app.example.com',
    certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/00000000-0000-0000-0000-000000000000',
  });
});

const only = (resources: Record<string, CfnResource>): [string, CfnResource] => {
  const entries = Object.entries(resources);
  expect(entries).toHaveLength(1);
  return entries[0] as [string, CfnResource];
};
const functionResource = ({ stack, template }: Synthesized, id: string): CfnResource => {
  const fn = stack.functions[id];
  if (!fn) throw new Error(`No function ${id}`);
  const resource = resourcesOf(template, 'AWS::Lambda::Function')[logicalIdOf(stack, fn.function)];
  if (!resource) throw new Error(`No Lambda resource for ${id}`);
  return resource;
};
const environmentOf = (synth: Synthesized, id: string): Record<string, Json> =>
  (functionResource(synth, id).Properties.Environment as { Variables: Record<string, Json> }).Variables;
const tableLogicalId = ({ stack }: Synthesized, key: TableKey): string =>
  logicalIdOf(stack, stack.tables.table(key));
const distributionDomain = ({ stack }: Synthesized): string =>
  `\${${logicalIdOf(stack, stack.site.distribution)}.DomainName}`;
const appOrigin = (synth: Synthesized): string => `https://${distributionDomain(synth)}`;
const stageMethodSettings = ({ template }: Synthesized): Record<string, Json>[] =>
  only(resourcesOf(template, 'AWS::ApiGateway::Stage'))[1].Properties.MethodSettings as Record<
    string,
    Json
  >[];
const cfnResourcePath = (path: string): string => `/${path.replaceAll('/', '~1')}`;

describe('stage', () => {
  it('names the stack after the stage and deploys to us-west-2 by default', () => {
    expect(prod.stack.stackName).toBe('MetabolicCoaching-prod');
    expect(prod.stack.region).toBe('us-west-2');
    expect(dev.stack.stackName).toBe('MetabolicCoaching-dev');
  });

  it('protects every stage except dev from termination', () => {
    expect(prod.stack.terminationProtection).toBe(true);
    expect(dev.stack.terminationProtection).toBe(false);
  });

  it('uses the API stage named after the stage', () => {
    expect(only(resourcesOf(prod.template, 'AWS::ApiGateway::Stage'))[1].Properties.StageName).toBe('prod');
  });
});

describe('Cognito user pool', () => {
  const pool = (synth: Synthesized) => only(resourcesOf(synth.template, 'AWS::Cognito::UserPool'))[1];
  const client = (synth: Synthesized) => only(resourcesOf(synth.template, 'AWS::Cognito::UserPoolClient'))[1];

  it('lets only admins create users', () => {
    expect(pool(prod).Properties.AdminCreateUserConfig).toEqual({ AllowAdminCreateUserOnly: true });
  });

  it('signs in by the opaque, case-insensitive username only: an email cannot be probed for membership', () => {
    // With an email alias, InitiateAuth(CUSTOM_AUTH, USERNAME=<email>) answers members and
    // non-members differently.
    for (const synth of [prod, dev, customDomain]) {
      expect(pool(synth).Properties.AliasAttributes).toBeUndefined();
      expect(pool(synth).Properties.UsernameAttributes).toBeUndefined();
      expect(pool(synth).Properties.UsernameConfiguration).toEqual({ CaseSensitive: false });
    }
  });

  it('requires an email on every user and sends no verification message', () => {
    expect(pool(prod).Properties.Schema).toContainEqual({ Name: 'email', Required: true, Mutable: true });
    expect(pool(prod).Properties.AutoVerifiedAttributes).toBeUndefined();
  });

  it('has deletion protection and is retained outside dev only', () => {
    expect(pool(prod).Properties.DeletionProtection).toBe('ACTIVE');
    expect(pool(prod).DeletionPolicy).toBe('Retain');
    expect(pool(dev).Properties.DeletionProtection).toBe('INACTIVE');
    expect(pool(dev).DeletionPolicy).toBe('Delete');
  });

  it('has exactly the role groups of shared/constants.ts, highest precedence (0) first', () => {
    const groups = Object.values(resourcesOf(prod.template, 'AWS::Cognito::UserPoolGroup'));
    expect(
      groups
        .map((group) => [group.Properties.GroupName, group.Properties.Precedence])
        .sort((a, b) => Number(a[1]) - Number(b[1])),
    ).toEqual(ROLE_GROUPS.map((name, precedence) => [name, precedence]));
    expect(ROLE_GROUPS).toEqual(['admins', 'coaches', 'users']);
  });

  const triggerArn = (id: string): Json => {
    const fn = prod.stack.functions[id];
    expect(fn, id).toBeDefined();
    return { 'Fn::GetAtt': [logicalIdOf(prod.stack, fn!.function), 'Arn'] };
  };

  it('wires the Define, Create and Verify triggers to the functions built from TRIGGERS', () => {
    const lambdaConfig = pool(prod).Properties.LambdaConfig as Record<string, Json>;
    const expected = {
      DefineAuthChallenge: TRIGGERS.defineAuthChallenge.id,
      CreateAuthChallenge: TRIGGERS.createAuthChallenge.id,
      VerifyAuthChallengeResponse: TRIGGERS.verifyAuthChallengeResponse.id,
    };
    expect(Object.keys(lambdaConfig).sort()).toEqual(
      [...Object.keys(expected), 'PreTokenGenerationConfig'].sort(),
    );
    for (const [trigger, id] of Object.entries(expected)) {
      expect(lambdaConfig[trigger]).toEqual(triggerArn(id));
    }
  });

  it('runs pre token generation with the V2_0 event, the one that can change access tokens (ADR 063)', () => {
    const lambdaConfig = pool(prod).Properties.LambdaConfig as Record<string, Json>;
    expect(lambdaConfig['PreTokenGenerationConfig']).toEqual({
      LambdaArn: triggerArn(TRIGGERS.preTokenGeneration.id),
      LambdaVersion: 'V2_0',
    });
    // Access-token customization needs the Essentials (or Plus) plan.
    expect(pool(prod).Properties.UserPoolTier).toBe('ESSENTIALS');
  });

  it('lets Cognito invoke each trigger only from this pool', () => {
    const poolId = logicalIdOf(prod.stack, prod.stack.auth.userPool);
    const permissions = Object.values(resourcesOf(prod.template, 'AWS::Lambda::Permission')).filter(
      (permission) => permission.Properties.Principal === 'cognito-idp.amazonaws.com',
    );
    expect(permissions).toHaveLength(Object.keys(TRIGGERS).length);
    expect(Object.keys(TRIGGERS)).toHaveLength(4);
    for (const permission of permissions) {
      expect(permission.Properties.SourceArn).toEqual({ 'Fn::GetAtt': [poolId, 'Arn'] });
    }
  });

  it('has an app client with exactly the custom auth flow: refreshes use GetTokensFromRefreshToken', () => {
    // Cognito refuses REFRESH_TOKEN_AUTH on a client with refresh-token rotation.
    for (const synth of [prod, dev]) {
      expect(client(synth).Properties.ExplicitAuthFlows).toEqual(['ALLOW_CUSTOM_AUTH']);
    }
  });

  it('gives a sign-in 3 minutes between its challenge and its answer, as the local Cognito endpoint does', () => {
    expect(AUTH_SESSION_VALIDITY_MINUTES).toBe(3);
    expect(SESSION_TTL_MS).toBe(3 * 60 * 1000);
    for (const synth of [prod, dev]) expect(client(synth).Properties.AuthSessionValidity).toBe(3);
  });

  it('issues id and access tokens for 15 minutes and refresh tokens for 7 days (shared/session-policy.ts)', () => {
    expect([ID_TOKEN_VALIDITY_MINUTES, ACCESS_TOKEN_VALIDITY_MINUTES, REFRESH_TOKEN_VALIDITY_DAYS]).toEqual([
      15, 15, 7,
    ]);
    for (const synth of [prod, dev]) {
      const props = client(synth).Properties;
      expect(props.TokenValidityUnits).toEqual({
        IdToken: 'minutes',
        AccessToken: 'minutes',
        RefreshToken: 'minutes',
      });
      expect(props.IdTokenValidity).toBe(15);
      expect(props.AccessTokenValidity).toBe(15);
      expect(props.RefreshTokenValidity).toBe(7 * 24 * 60);
    }
  });

  it('rotates refresh tokens, the replaced one usable for the grace period of shared/session-policy.ts', () => {
    expect(REFRESH_TOKEN_GRACE_SECONDS).toBe(10);
    for (const synth of [prod, dev]) {
      expect(client(synth).Properties.RefreshTokenRotation).toEqual({
        Feature: 'ENABLED',
        RetryGracePeriodSeconds: REFRESH_TOKEN_GRACE_SECONDS,
      });
    }
  });

  it('has an app client without secret or OAuth that hides user existence and can revoke tokens', () => {
    const props = client(prod).Properties;
    expect(props.GenerateSecret).toBe(false);
    expect(props.PreventUserExistenceErrors).toBe('ENABLED');
    expect(props.EnableTokenRevocation).toBe(true);
    expect(props.AllowedOAuthFlowsUserPoolClient).toBe(false);
    expect(props.AllowedOAuthFlows).toBeUndefined();
  });

  it('does not let a signed-in user change their own email', () => {
    expect(client(prod).Properties.WriteAttributes).not.toContain('email');
    expect(client(prod).Properties.ReadAttributes).toContain('email');
  });
});

describe('DynamoDB tables', () => {
  const tableOf = (synth: Synthesized, key: TableKey): CfnResource => {
    const table = resourcesOf(synth.template, 'AWS::DynamoDB::Table')[tableLogicalId(synth, key)];
    if (!table) throw new Error(`No table ${key}`);
    return table;
  };

  it('creates exactly one table per shared table definition', () => {
    expect(Object.keys(resourcesOf(prod.template, 'AWS::DynamoDB::Table'))).toHaveLength(TABLE_KEYS.length);
  });

  it.each(TABLE_KEYS)('%s has the keys and indexes of its definition', (key) => {
    const definition: TableDefinition = TABLES[key];
    const props = tableOf(prod, key).Properties;
    expect(props.KeySchema).toEqual([
      { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
      ...(definition.sortKey ? [{ AttributeName: definition.sortKey.name, KeyType: 'RANGE' }] : []),
    ]);
    const indexes = (props.GlobalSecondaryIndexes ?? []) as { IndexName: string; KeySchema: Json }[];
    expect(indexes.map((index) => index.IndexName)).toEqual(
      (definition.globalSecondaryIndexes ?? []).map((index) => index.indexName),
    );
  });

  it.each(TABLE_KEYS)('%s is on demand, encrypted with KMS and has point-in-time recovery', (key) => {
    const props = tableOf(prod, key).Properties;
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
    expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    const encryptionKey = prod.stack.tables.encryptionKey(key);
    if ((TABLES[key] as TableDefinition).customerManagedKey) {
      expect(encryptionKey).toBeDefined();
      expect(props.SSESpecification).toEqual({
        SSEEnabled: true,
        SSEType: 'KMS',
        KMSMasterKeyId: { 'Fn::GetAtt': [logicalIdOf(prod.stack, encryptionKey!), 'Arn'] },
      });
    } else {
      expect(encryptionKey).toBeUndefined();
      // SSEEnabled without a key id: KMS with the AWS-managed key aws/dynamodb.
      expect(props.SSESpecification).toEqual({ SSEEnabled: true });
    }
  });

  it.each(TABLE_KEYS)('%s has TTL exactly when its definition names a TTL attribute', (key) => {
    const definition: TableDefinition = TABLES[key];
    const ttl = tableOf(prod, key).Properties.TimeToLiveSpecification;
    if (definition.timeToLiveAttribute) {
      expect(ttl).toEqual({ AttributeName: definition.timeToLiveAttribute, Enabled: true });
    } else {
      expect(ttl).toBeUndefined();
    }
  });

  it('puts TTL on the auth challenges table', () => {
    expect(tableOf(prod, 'authChallenges').Properties.TimeToLiveSpecification).toEqual({
      AttributeName: 'expiresAt',
      Enabled: true,
    });
  });

  it.each(TABLE_KEYS)('%s is retained and deletion-protected outside dev, disposable in dev', (key) => {
    expect(tableOf(prod, key).DeletionPolicy).toBe('Retain');
    expect(tableOf(prod, key).UpdateReplacePolicy).toBe('Retain');
    expect(tableOf(prod, key).Properties.DeletionProtectionEnabled).toBe(true);
    expect(tableOf(dev, key).DeletionPolicy).toBe('Delete');
    expect(tableOf(dev, key).Properties.DeletionProtectionEnabled).toBe(false);
  });
});

describe('Lambda functions', () => {
  it('creates one function per route and trigger of the manifest, and no other', () => {
    expect(Object.keys(prod.stack.functions).sort()).toEqual(ALL_FUNCTIONS.map((fn) => fn.id).sort());
    expect(Object.keys(resourcesOf(prod.template, 'AWS::Lambda::Function'))).toHaveLength(
      ALL_FUNCTIONS.length,
    );
  });

  it.each(ALL_FUNCTIONS.map((fn) => fn.id))(
    '%s runs Node.js 22 on arm64 with tracing and a bounded timeout',
    (id) => {
      const props = functionResource(prod, id).Properties;
      expect(props.Runtime).toBe('nodejs22.x');
      expect(props.Architectures).toEqual(['arm64']);
      expect(props.TracingConfig).toEqual({ Mode: 'Active' });
      expect(props.Handler).toBe('index.handler');
      expect(props.Timeout).toBeGreaterThan(0);
      // A request's function stops at API Gateway's 10 s; a scheduled one has its own, at most 5 minutes.
      const scheduled = Object.values(SCHEDULED).find((definition) => definition.id === id);
      expect(props.Timeout).toBeLessThanOrEqual(scheduled ? scheduled.timeoutSeconds : 10);
      expect(props.Timeout).toBeLessThanOrEqual(300);
    },
  );

  it('runs FinishErases every 5 minutes, one run at a time, never retried (the next run retries), within the interval', () => {
    const rules = Object.values(resourcesOf(prod.template, 'AWS::Events::Rule'));
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties).toMatchObject({
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Targets: [
        {
          Arn: {
            'Fn::GetAtt': [logicalIdOf(prod.stack, prod.stack.functions['FinishErases']!.function), 'Arn'],
          },
          RetryPolicy: { MaximumRetryAttempts: 0 },
        },
      ],
    });
    const props = functionResource(prod, 'FinishErases').Properties;
    expect(props.Timeout).toBe(240);
    expect(props.ReservedConcurrentExecutions).toBe(1);
    const [invokeConfig, ...others] = Object.values(
      resourcesOf(prod.template, 'AWS::Lambda::EventInvokeConfig'),
    );
    expect(others).toEqual([]);
    expect(invokeConfig?.Properties).toMatchObject({
      FunctionName: { Ref: logicalIdOf(prod.stack, prod.stack.functions['FinishErases']!.function) },
      MaximumRetryAttempts: 0,
    });
  });

  it('gives Cognito triggers at most the 5 seconds Cognito waits', () => {
    for (const trigger of Object.values(TRIGGERS)) {
      expect(functionResource(prod, trigger.id).Properties.Timeout).toBeLessThanOrEqual(5);
    }
  });

  it.each(ALL_FUNCTIONS.map((fn) => fn.id))('%s logs to a log group of its own with a retention', (id) => {
    const logGroupRef = (functionResource(prod, id).Properties.LoggingConfig as { LogGroup: { Ref: string } })
      .LogGroup.Ref;
    const logGroup = resourcesOf(prod.template, 'AWS::Logs::LogGroup')[logGroupRef];
    expect(logGroup?.Properties.RetentionInDays).toBeGreaterThan(0);
  });

  it('bundles with the local esbuild, minified, with source maps, for Node 22 as ESM', () => {
    expect(BUNDLING).toMatchObject({
      minify: true,
      sourceMap: true,
      sourcesContent: false,
      target: 'node22',
      format: 'esm',
      mainFields: ['module', 'main'],
      forceDockerBundling: false,
    });
    // No option that would make bundles bigger or slower to load (055-cold-starts.md).
    expect(BUNDLING).not.toHaveProperty('keepNames');
    expect(BUNDLING).not.toHaveProperty('sourceMapMode');
  });

  it('bundles the AWS SDK, leaving out only what it loads on paths a Lambda never takes', () => {
    expect(BUNDLING.bundleAwsSDK).toBe(true);
    // Given, externalModules replaces CDK's default (`@aws-sdk/*` left to the runtime). SimpleWebAuthn
    // is left out too, and built beside the bundles that import it (build-on-demand.test.ts).
    expect(BUNDLING.externalModules).toEqual([...NEVER_LOADED_IN_LAMBDA, ...LOADED_ON_DEMAND]);
    for (const external of NEVER_LOADED_IN_LAMBDA) {
      // Never a client, the SDK core or the credential chain's first link (the environment).
      expect(external).not.toMatch(/^@aws-sdk\/(\*|client-|lib-|core|credential-provider-(env|node)$)/);
      expect(external).not.toMatch(/^@smithy\/(\*|core$)/);
    }
  });

  it.each(ALL_FUNCTIONS)('$id has exactly the environment its manifest entry implies', (definition) => {
    const route = definition as Partial<RouteDefinition>;
    const expected = [
      'LOG_LEVEL',
      ...Object.keys(definition.tables).map((key) => TABLES[key as TableKey].envVar),
      ...(definition.cognitoActions.length > 0 ? ['USER_POOL_ID'] : []),
      ...(definition.webauthn ? ['WEBAUTHN_RP_ID', 'WEBAUTHN_RP_NAME', 'WEBAUTHN_ORIGINS'] : []),
      ...(route.method ? ['CORS_ALLOW_ORIGIN'] : []),
      ...(route.auth && route.auth !== 'public' ? ['USER_POOL_CLIENT_ID'] : []),
      ...(definition.pageCursors ? ['CURSOR_SIGNING_KEY'] : []),
    ];
    const environment = environmentOf(prod, definition.id);
    expect(Object.keys(environment).sort()).toEqual(expected.sort());
    expect(environment.LOG_LEVEL).toBe('INFO');
    // No `--enable-source-maps`: it cost every cold start about 11 ms (ADR 055); `errorAt` is mapped when logged.
  });

  it.each(ALL_FUNCTIONS)(
    "$id finds each of its tables' names in the variable the definition names",
    (definition) => {
      const environment = environmentOf(prod, definition.id);
      for (const key of Object.keys(definition.tables) as TableKey[]) {
        expect(environment[TABLES[key].envVar]).toEqual({ Ref: tableLogicalId(prod, key) });
      }
    },
  );

  it('gives USER_POOL_ID of this pool to every function that calls Cognito', () => {
    const poolRef = { Ref: logicalIdOf(prod.stack, prod.stack.auth.userPool) };
    for (const definition of ALL_FUNCTIONS.filter((fn) => fn.cognitoActions.length > 0)) {
      expect(environmentOf(prod, definition.id).USER_POOL_ID).toEqual(poolRef);
    }
  });

  it('gives every authenticated route the app client id to check the token audience against', () => {
    const clientRef = { Ref: logicalIdOf(prod.stack, prod.stack.auth.client) };
    for (const route of ROUTES.filter((r) => r.auth !== 'public')) {
      expect(environmentOf(prod, route.id).USER_POOL_CLIENT_ID).toEqual(clientRef);
    }
  });

  it('gives WebAuthn functions the CloudFront host as RP id and https://host as the only origin', () => {
    for (const definition of ALL_FUNCTIONS.filter((fn) => fn.webauthn)) {
      const environment = environmentOf(prod, definition.id);
      expect(flatten(environment.WEBAUTHN_RP_ID)).toBe(distributionDomain(prod));
      expect(flatten(environment.WEBAUTHN_ORIGINS)).toBe(appOrigin(prod));
      expect(environment.WEBAUTHN_RP_NAME).toBe(WEBAUTHN_RP_NAME);
    }
  });

  it('gives WebAuthn functions the custom domain as RP id and origin when one is configured', () => {
    for (const definition of ALL_FUNCTIONS.filter((fn) => fn.webauthn)) {
      const environment = environmentOf(customDomain, definition.id);
      expect(environment.WEBAUTHN_RP_ID).toBe('app.example.com');
      expect(environment.WEBAUTHN_ORIGINS).toBe('https://app.example.com');
    }
  });
});

describe('least-privilege IAM', () => {
  const roleOf = (synth: Synthesized, id: string): string => {
    const fn = synth.stack.functions[id];
    if (!fn) throw new Error(`No function ${id}`);
    return logicalIdOf(synth.stack, fn.role);
  };
  const dynamoStatements = (synth: Synthesized, id: string): Statement[] =>
    statementsOfRole(synth.template, roleOf(synth, id)).filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith('dynamodb:')),
    );
  /** `<action> <table>[/index/<name>] [key patterns]`, one line per action and resource. */
  const permission = (action: string, resource: string, keys?: readonly string[]): string =>
    [action, resource, ...(keys ? [[...keys].sort().join(' | ')] : [])].join(' ');
  /** The DynamoDB permissions of a function's role, with each table ARN named by its table key. */
  const dynamoPermissions = (synth: Synthesized, id: string): string[] => {
    const byLogicalId = new Map(TABLE_KEYS.map((key) => [tableLogicalId(synth, key), key] as const));
    return dynamoStatements(synth, id)
      .flatMap((statement) => {
        expect(statement.Effect).toBe('Allow');
        const keys = leadingKeyPatterns(statement);
        return actionsOf(statement).flatMap((action) =>
          resourcesOfStatement(statement).map((resource) => {
            const match = /^\$\{([A-Za-z0-9]+)\.Arn\}(\/index\/[A-Za-z0-9_.-]+)?$/.exec(flatten(resource));
            const key = match?.[1] ? byLogicalId.get(match[1]) : undefined;
            if (!key) throw new Error(`${id}: DynamoDB statement on something else: ${flatten(resource)}`);
            return permission(action, `${key}${match?.[2] ?? ''}`, keys);
          }),
        );
      })
      .sort();
  };
  /**
   * The same lines, as the manifest entry says they should be: once each, as IAM reads them (a route's
   * own GetItem on accounts is the session check's too).
   */
  const manifestPermissions = (definition: FunctionDefinition): string[] =>
    [
      ...new Set(
        (Object.entries(definition.tables) as [TableKey, FunctionDefinition['tables'][TableKey]][]).flatMap(
          ([key, access]) =>
            (access ?? []).flatMap((grant) => {
              const indexes = grant.actions.some((action) => action === 'Query' || action === 'Scan')
                ? ((TABLES[key] as TableDefinition).globalSecondaryIndexes ?? []).map(
                    (index) => `${key}/index/${index.indexName}`,
                  )
                : [];
              // An index-only grant reads that index and nothing of the table's own items; a grant
              // limited to keys of the table reads no index (its keys would mean nothing there).
              const resources =
                grant.index !== undefined
                  ? [`${key}/index/${grant.index}`]
                  : grant.keys
                    ? [key]
                    : [key, ...indexes];
              return grant.actions.flatMap((action) =>
                resources.map((resource) => permission(`dynamodb:${action}`, resource, grant.keys)),
              );
            }),
        ),
      ),
    ].sort();
  const tableArn = (synth: Synthesized, key: TableKey) => `\${${tableLogicalId(synth, key)}.Arn}`;

  it('has no Allow statement with a wildcard action anywhere in the template', () => {
    const documents = [
      ...Object.values(resourcesOf(prod.template, 'AWS::IAM::Policy')),
      ...Object.values(resourcesOf(prod.template, 'AWS::S3::BucketPolicy')),
    ].map((resource) => resource.Properties.PolicyDocument as unknown as { Statement: Statement[] });
    const allowed = documents.flatMap((document) => document.Statement).filter((s) => s.Effect === 'Allow');
    expect(allowed.length).toBeGreaterThan(0);
    for (const statement of allowed) {
      for (const action of actionsOf(statement)) expect(action).not.toContain('*');
    }
  });

  it('limits by key only on the table itself, and only requests that carry a key', () => {
    // On an index, `dynamodb:LeadingKeys` is not the table's key, and ForAllValues holds for a request
    // without any: ExportMe's `notes#*` grant once also let it Query every coach's clients (byCoach).
    let limited = 0;
    for (const definition of ALL_FUNCTIONS) {
      for (const statement of dynamoStatements(prod, definition.id)) {
        if (statement.Condition === undefined) continue;
        limited += 1;
        expect(
          resourcesOfStatement(statement)
            .map(flatten)
            .filter((resource) => resource.includes('/index/')),
          definition.id,
        ).toEqual([]);
        expect((statement.Condition as Record<string, Json>)['Null'], definition.id).toEqual({
          'dynamodb:LeadingKeys': 'false',
        });
      }
    }
    expect(limited).toBeGreaterThan(20);
    expect(dynamoPermissions(prod, 'ExportMe').filter((line) => line.includes('byCoach'))).toEqual([]);
  });

  it('gives no function role a managed policy', () => {
    for (const definition of ALL_FUNCTIONS) {
      const role = resourcesOf(prod.template, 'AWS::IAM::Role')[roleOf(prod, definition.id)];
      expect(role?.Properties.ManagedPolicyArns, definition.id).toBeUndefined();
    }
  });

  it.each(ALL_FUNCTIONS)(
    '$id may take exactly the DynamoDB actions of its manifest entry, on those tables and keys only',
    (definition) => {
      expect(dynamoPermissions(prod, definition.id)).toEqual(manifestPermissions(definition));
      expect(dynamoPermissions(dev, definition.id)).toEqual(manifestPermissions(definition));
    },
  );

  it('limits each function to the auth-challenge items it uses, by key prefix (as reviewed)', () => {
    // Items: registration#<email>, recovery#<email>, passkey#<userId>, session#<id>, proof#<sha256 hex>,
    // limit#<scope>#<digest>
    // (lambdas/common/repositories/auth-challenges.ts).
    const ERASE = ['dynamodb:DeleteItem authChallenges passkey#* | recovery#* | registration#*'];
    const reviewed: Record<string, string[]> = {
      // Every counter of the abuse limits is one UpdateItem (lambdas/common/repositories/limit-counters.ts).
      InitiateSignin: [
        'dynamodb:PutItem authChallenges session#*',
        'dynamodb:UpdateItem authChallenges limit#*',
      ],
      VerifyWebauthn: [
        'dynamodb:DeleteItem authChallenges session#*',
        'dynamodb:PutItem authChallenges proof#*',
        'dynamodb:UpdateItem authChallenges limit#*',
      ],
      // An invitation's registration challenge, or first the recovery code that opens one.
      VerifyActivation: [
        'dynamodb:GetItem authChallenges recovery#*',
        'dynamodb:PutItem authChallenges registration#*',
        'dynamodb:UpdateItem authChallenges limit#*',
      ],
      // The challenge read and spent; a recovery's code read and spent in the same transaction, which
      // also deletes the challenge of a passkey an earlier session was adding.
      RegisterPasskey: [
        'dynamodb:DeleteItem authChallenges passkey#*',
        'dynamodb:DeleteItem authChallenges recovery#*',
        'dynamodb:DeleteItem authChallenges registration#*',
        'dynamodb:GetItem authChallenges recovery#*',
        'dynamodb:GetItem authChallenges registration#*',
        'dynamodb:PutItem authChallenges proof#*',
        'dynamodb:UpdateItem authChallenges limit#*',
      ],
      VerifyAuthChallengeResponse: ['dynamodb:DeleteItem authChallenges proof#*'],
      // A signed-in person's challenge for another passkey: stored, then read and spent.
      PasskeyOptions: ['dynamodb:PutItem authChallenges passkey#*'],
      AddPasskey: [
        'dynamodb:DeleteItem authChallenges passkey#*',
        'dynamodb:GetItem authChallenges passkey#*',
      ],
      // An admin's recovery code, replacing any earlier one.
      ResetAccess: ['dynamodb:PutItem authChallenges recovery#*'],
      // Whatever is pending for the erased person, and never a session or a proof.
      DeleteUser: ERASE,
      DeleteMe: ERASE,
      FinishErases: ERASE,
    };
    for (const definition of ALL_FUNCTIONS) {
      const onChallenges = dynamoPermissions(prod, definition.id).filter((line) =>
        line.includes(' authChallenges'),
      );
      expect(onChallenges, definition.id).toEqual(reviewed[definition.id] ?? []);
    }
  });

  it('lets only VerifyWebauthn and RegisterPasskey issue a passkey proof, and only the Verify trigger redeem one', () => {
    const proof = { resource: tableArn(prod, 'authChallenges'), leadingKeys: [`proof#${'ab'.repeat(32)}`] };
    const allowed = (action: string) =>
      ALL_FUNCTIONS.filter((definition) =>
        isAllowed(statementsOfRole(prod.template, roleOf(prod, definition.id)), { ...proof, action }),
      )
        .map((definition) => definition.id)
        .sort();
    expect(allowed('dynamodb:PutItem')).toEqual(['RegisterPasskey', 'VerifyWebauthn']);
    expect(allowed('dynamodb:UpdateItem')).toEqual([]);
    expect(allowed('dynamodb:BatchWriteItem')).toEqual([]);
    expect(allowed('dynamodb:DeleteItem')).toEqual(['VerifyAuthChallengeResponse']);
    expect(allowed('dynamodb:GetItem')).toEqual([]);
  });

  it('lets no function touch an auth challenge outside its prefixes, nor scan that table', () => {
    const resource = tableArn(prod, 'authChallenges');
    const statements = statementsOfRole(prod.template, roleOf(prod, 'InitiateSignin'));
    expect(isAllowed(statements, { action: 'dynamodb:PutItem', resource, leadingKeys: ['session#x'] })).toBe(
      true,
    );
    for (const leadingKeys of [
      ['proof#x'],
      ['registration#a@example.com'],
      ['xsession#x'],
      ['session#x', 'proof#x'],
    ]) {
      expect(isAllowed(statements, { action: 'dynamodb:PutItem', resource, leadingKeys })).toBe(false);
    }
    for (const definition of ALL_FUNCTIONS) {
      const role = statementsOfRole(prod.template, roleOf(prod, definition.id));
      for (const action of ['dynamodb:Scan', 'dynamodb:Query']) {
        expect(isAllowed(role, { action, resource }), `${definition.id} ${action}`).toBe(false);
      }
    }
  });

  it('lets no function scan a table: the admin lists read one page of one index at a time', () => {
    const scanners = ALL_FUNCTIONS.filter((definition) =>
      dynamoPermissions(prod, definition.id).some((line) => line.startsWith('dynamodb:Scan ')),
    );
    expect(scanners.map((definition) => definition.id)).toEqual([]);
    // Besides the session check's read of the caller's account.
    expect(dynamoPermissions(prod, 'ListInvitations')).toEqual([
      'dynamodb:GetItem accounts',
      'dynamodb:Query invitations/index/byCreated',
      'dynamodb:Query invitations/index/byEmail',
      'dynamodb:Query invitations/index/byState',
      'dynamodb:Query invitations/index/byStateEmail',
    ]);
    expect(dynamoPermissions(prod, 'ListUsers')).toEqual([
      'dynamodb:BatchGetItem accounts directory#counts#*',
      'dynamodb:BatchGetItem coaching client#*',
      'dynamodb:BatchGetItem profiles',
      'dynamodb:GetItem accounts',
      'dynamodb:Query accounts/index/byCoachRole',
      'dynamodb:Query accounts/index/byCreated',
      'dynamodb:Query accounts/index/byEmail',
      'dynamodb:Query accounts/index/byStatus',
    ]);
    // Inviting and deleting an invitation move the counts, and may change no account: they only check
    // that their admin is still an active admin.
    for (const id of ['CreateInvitation', 'DeleteInvitation'])
      expect(
        dynamoPermissions(prod, id).filter((line) => / accounts/.test(line)),
        id,
      ).toEqual([
        'dynamodb:ConditionCheckItem accounts',
        'dynamodb:GetItem accounts',
        'dynamodb:UpdateItem accounts directory#counts#*',
      ]);
  });

  it('lets every authenticated route read accounts for its session check, and no public route but the three that need an account', () => {
    const read = { action: 'dynamodb:GetItem', resource: tableArn(prod, 'accounts'), leadingKeys: [SOMEONE] };
    for (const route of PROTECTED_ROUTES) {
      expect(route.tables.accounts?.[0], route.id).toEqual({ actions: ['GetItem'] });
      for (const synth of [prod, dev]) {
        expect(isAllowed(statementsOfRole(synth.template, roleOf(synth, route.id)), read), route.id).toBe(
          true,
        );
      }
    }
    const onAccounts = (id: string) =>
      dynamoPermissions(prod, id).filter((line) => /^\S+ accounts(\/| |$)/.test(line));
    const unauthenticated = [...PUBLIC_ROUTES, ...Object.values(TRIGGERS)];
    expect(
      Object.fromEntries(
        unauthenticated
          .map((fn): [string, string[]] => [fn.id, onAccounts(fn.id)])
          .filter(([, lines]) => lines.length > 0),
      ),
    ).toEqual({
      // The account a recovery code is for.
      VerifyActivation: ['dynamodb:GetItem accounts'],
      // Created at activation; read and updated by a recovery, which also checks that the admin who
      // issued its code is still an active admin.
      RegisterPasskey: [
        'dynamodb:ConditionCheckItem accounts',
        'dynamodb:GetItem accounts',
        'dynamodb:PutItem accounts',
        'dynamodb:UpdateItem accounts',
      ],
      // A disabled person gets no proof.
      VerifyWebauthn: ['dynamodb:GetItem accounts'],
      // A proof issued before the account changed opens no session.
      VerifyAuthChallengeResponse: ['dynamodb:GetItem accounts'],
    });
  });

  it('lets only activation, passkey management, sign-out and the admin actions change an account, and only the erase remove one', () => {
    const resource = tableArn(prod, 'accounts');
    const allowed = (action: string) =>
      ALL_FUNCTIONS.filter((definition) =>
        isAllowed(statementsOfRole(prod.template, roleOf(prod, definition.id)), {
          action,
          resource,
          leadingKeys: [SOMEONE],
        }),
      )
        .map((definition) => definition.id)
        .sort();
    expect(allowed('dynamodb:PutItem')).toEqual(['RegisterPasskey']);
    expect(allowed('dynamodb:UpdateItem')).toEqual([
      'AddPasskey',
      'ChangeRoles',
      'DeleteMe',
      'DeleteUser',
      'DisableUser',
      'EnableUser',
      'RegisterPasskey',
      'RemovePasskey',
      'SignOut',
    ]);
    // The guarded transactions check that the acting admin (or, for the last admin leaving, another
    // admin) is still an active admin when the change commits (lambdas/common/account-admin.ts), an
    // unassignment and an invitation created, resent or deleted too; an
    // assignment, that the client and the coach still hold their roles and its admin is still one; a
    // recovery, that the admin who issued its code still is one (and, issuing it, that the account is
    // still active); a health record's create or delete and a profile update,
    // that its owner's session still passes the session check; a coach's read of a client or note to
    // them, that the coach's session still does and the client is still in `users`; the coach's client
    // list and the person's export, that the reader's session still passes it; a passkey's rename, that
    // the renaming session still does (its add and removal check it on the account's own update).
    expect(allowed('dynamodb:ConditionCheckItem')).toEqual([
      'AssignCoach',
      'ChangeRoles',
      'CreateClientNote',
      'CreateInvitation',
      'CreateLog',
      'CreateMeasurement',
      'DeleteInvitation',
      'DeleteLog',
      'DeleteMe',
      'DeleteMeasurement',
      'DeleteUser',
      'DisableUser',
      'EnableUser',
      'ExportMe',
      'ListClientLogs',
      'ListClientMeasurements',
      'ListClientNotes',
      'ListCoachClients',
      'RegisterPasskey',
      'RenamePasskey',
      'ResendInvitation',
      'ResetAccess',
      'UnassignCoach',
      'UpdateMe',
    ]);
    // Only the erase removes an account, one item by key: no function may batch-write (so put) one.
    expect(allowed('dynamodb:DeleteItem')).toEqual(['DeleteMe', 'DeleteUser', 'FinishErases']);
    for (const action of [
      'dynamodb:BatchWriteItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:Scan',
    ]) {
      expect(allowed(action), action).toEqual([]);
    }
  });

  it('lets only registration and passkey management add, rename or remove a passkey, and the sign-in move its counter', () => {
    const resource = tableArn(prod, 'passkeys');
    const allowed = (action: string) =>
      ALL_FUNCTIONS.filter((definition) =>
        isAllowed(statementsOfRole(prod.template, roleOf(prod, definition.id)), { action, resource }),
      )
        .map((definition) => definition.id)
        .sort();
    expect(allowed('dynamodb:PutItem')).toEqual(['AddPasskey', 'RegisterPasskey']);
    expect(allowed('dynamodb:UpdateItem')).toEqual(['RenamePasskey', 'VerifyWebauthn']);
    expect(allowed('dynamodb:DeleteItem')).toEqual([
      'DeleteMe',
      'DeleteUser',
      'FinishErases',
      'RegisterPasskey',
      'RemovePasskey',
    ]);
    // Nobody batch-writes a passkey (a batch could put one).
    expect(allowed('dynamodb:BatchWriteItem')).toEqual([]);
    // The list, and the export that holds it.
    expect(allowed('dynamodb:BatchGetItem')).toEqual(['ExportMe', 'ListPasskeys']);
    expect(allowed('dynamodb:GetItem')).toEqual(['AddPasskey', 'RenamePasskey', 'VerifyWebauthn']);
    // A person's passkeys are found by their account's list; byUser only by the erase.
    expect(allowed('dynamodb:Query')).toEqual([]);
    const byUser = { action: 'dynamodb:Query', resource: `${resource}/index/byUser` };
    expect(
      ALL_FUNCTIONS.filter((definition) =>
        isAllowed(statementsOfRole(prod.template, roleOf(prod, definition.id)), byUser),
      )
        .map((definition) => definition.id)
        .sort(),
    ).toEqual(['DeleteMe', 'DeleteUser', 'FinishErases']);
  });

  it.each(ALL_FUNCTIONS)('$id may call exactly its Cognito actions, on this pool only', (definition) => {
    const poolArn = { 'Fn::GetAtt': [logicalIdOf(prod.stack, prod.stack.auth.userPool), 'Arn'] };
    const statements = statementsOfRole(prod.template, roleOf(prod, definition.id)).filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith('cognito-idp:')),
    );
    expect(statements.flatMap(actionsOf).sort()).toEqual(
      definition.cognitoActions.map((action) => `cognito-idp:${action}`).sort(),
    );
    for (const statement of statements) expect(resourcesOfStatement(statement)).toEqual([poolArn]);
  });

  it.each(ALL_FUNCTIONS)(
    '$id may use no other service than its logs, X-Ray, DynamoDB, Cognito and the keys of its tables',
    (definition) => {
      const services = statementsOfRole(prod.template, roleOf(prod, definition.id))
        .flatMap(actionsOf)
        .map((action) => action.split(':')[0]);
      const ownKeys = (Object.keys(definition.tables) as TableKey[]).some(
        (key) => (TABLES[key] as TableDefinition).customerManagedKey,
      );
      const allowed = ['logs', 'xray', 'dynamodb', 'cognito-idp', ...(ownKeys ? ['kms'] : [])];
      for (const service of services) expect(allowed).toContain(service);
    },
  );

  it('lets each function write to its own log group only', () => {
    for (const definition of ALL_FUNCTIONS) {
      const fn = prod.stack.functions[definition.id]!;
      const logStatements = statementsOfRole(prod.template, roleOf(prod, definition.id)).filter((statement) =>
        actionsOf(statement).some((action) => action.startsWith('logs:')),
      );
      expect(logStatements.flatMap(resourcesOfStatement)).toEqual([
        { 'Fn::GetAtt': [logicalIdOf(prod.stack, fn.logGroup), 'Arn'] },
      ]);
    }
  });
});

describe('REST API', () => {
  const authorizerId = (synth: Synthesized) =>
    only(resourcesOf(synth.template, 'AWS::ApiGateway::Authorizer'))[0];

  it('is a regional REST API (v1)', () => {
    const [, api] = only(resourcesOf(prod.template, 'AWS::ApiGateway::RestApi'));
    expect(api.Properties.EndpointConfiguration).toEqual({ Types: ['REGIONAL'] });
  });

  it('has a Cognito user-pool authorizer on this pool reading the Authorization header', () => {
    const [, authorizer] = only(resourcesOf(prod.template, 'AWS::ApiGateway::Authorizer'));
    expect(authorizer.Properties.Type).toBe('COGNITO_USER_POOLS');
    expect(authorizer.Properties.IdentitySource).toBe('method.request.header.Authorization');
    // The local gateway keeps verified tokens as long (infra/local/api-gateway.ts).
    expect(authorizer.Properties.AuthorizerResultTtlInSeconds).toBe(AUTHORIZER_CACHE_MINUTES * 60);
    expect(authorizer.Properties.ProviderARNs).toEqual([
      { 'Fn::GetAtt': [logicalIdOf(prod.stack, prod.stack.auth.userPool), 'Arn'] },
    ]);
  });

  it.each(ROUTES)('routes $method $path to the $id function through a Lambda proxy', (route) => {
    const method = findMethod(prod.template, route.method, route.path);
    expect(method, `${route.method} ${route.path}`).toBeDefined();
    const integration = method!.Properties.Integration as Record<string, Json>;
    expect(integration.Type).toBe('AWS_PROXY');
    expect(flatten(integration.Uri)).toContain(
      `\${${logicalIdOf(prod.stack, prod.stack.functions[route.id]!.function)}.Arn}`,
    );
  });

  it.each(PROTECTED_ROUTES)('requires a valid id token on $method $path', (route) => {
    const method = findMethod(prod.template, route.method, route.path)!;
    expect(method.Properties.AuthorizationType).toBe('COGNITO_USER_POOLS');
    expect(method.Properties.AuthorizerId).toEqual({ Ref: authorizerId(prod) });
  });

  it('has exactly four public routes, all under /v1/auth/', () => {
    expect(PUBLIC_ROUTES.map((route) => route.path).sort()).toEqual([
      '/v1/auth/initiate-signin',
      '/v1/auth/register-passkey',
      '/v1/auth/verify-activation',
      '/v1/auth/verify-webauthn',
    ]);
  });

  it.each(PUBLIC_ROUTES)('has no authorizer on $method $path', (route) => {
    const method = findMethod(prod.template, route.method, route.path)!;
    expect(method.Properties.AuthorizationType).toBe('NONE');
    expect(method.Properties.AuthorizerId).toBeUndefined();
  });

  it.each(PUBLIC_ROUTES)('throttles $method $path below the stage default', (route) => {
    const settings = stageMethodSettings(prod);
    const stageWide = settings.find((s) => s.ResourcePath === '/*' && s.HttpMethod === '*')!;
    const own = settings.find(
      (s) => s.ResourcePath === cfnResourcePath(route.path) && s.HttpMethod === route.method,
    );
    expect(own?.ThrottlingRateLimit).toBeGreaterThan(0);
    expect(own?.ThrottlingRateLimit).toBeLessThan(stageWide.ThrottlingRateLimit as number);
    expect(own?.ThrottlingBurstLimit).toBeLessThan(stageWide.ThrottlingBurstLimit as number);
  });

  it('throttles the whole stage', () => {
    const stageWide = stageMethodSettings(prod).find((s) => s.ResourcePath === '/*' && s.HttpMethod === '*');
    expect(stageWide?.ThrottlingRateLimit).toBeGreaterThan(0);
    expect(stageWide?.ThrottlingBurstLimit).toBeGreaterThan(0);
  });

  it('declares the path parameter of DELETE /internal/v1/admin/invitations/{email}', () => {
    const method = findMethod(prod.template, 'DELETE', '/internal/v1/admin/invitations/{email}')!;
    expect(method.Properties.RequestParameters).toEqual({ 'method.request.path.email': true });
  });

  it('lets every request reach the handler, which validates it and answers with the product messages', () => {
    // An API Gateway validator would answer a malformed body itself with "Invalid request body",
    // not with the handler's {message: 'Request body must be valid JSON'} (lambdas/common/http.ts).
    expect(resourcesOf(prod.template, 'AWS::ApiGateway::RequestValidator')).toEqual({});
    expect(resourcesOf(prod.template, 'AWS::ApiGateway::Model')).toEqual({});
    for (const route of ROUTES) {
      const method = findMethod(prod.template, route.method, route.path)!;
      expect(method.Properties.RequestValidatorId, route.id).toBeUndefined();
      expect(method.Properties.RequestModels, route.id).toBeUndefined();
    }
  });

  it('answers CORS preflights for the app origin only, on every route path', () => {
    const paths = new Set(ROUTES.map((route) => route.path));
    for (const path of paths) {
      const preflight = findMethod(prod.template, 'OPTIONS', path);
      expect(preflight, path).toBeDefined();
      const [response] = (
        preflight!.Properties.Integration as { IntegrationResponses: Record<string, Json>[] }
      ).IntegrationResponses;
      const headers = response!.ResponseParameters as Record<string, Json>;
      expect(flatten(headers['method.response.header.Access-Control-Allow-Origin'])).toBe(
        `'${appOrigin(prod)}'`,
      );
    }
  });

  it('allows in each preflight exactly the methods the manifest declares for that path', () => {
    const allowedMethods = (path: string) => {
      const preflight = findMethod(prod.template, 'OPTIONS', path)!;
      const [response] = (
        preflight.Properties.Integration as { IntegrationResponses: Record<string, Json>[] }
      ).IntegrationResponses;
      return (response!.ResponseParameters as Record<string, Json>)[
        'method.response.header.Access-Control-Allow-Methods'
      ];
    };
    expect(allowedMethods('/v1/users/me')).toBe("'GET,PUT,DELETE'");
    // The rename is a PATCH: a browser sends it only if the preflight names it.
    expect(allowedMethods('/v1/users/me/passkeys/{credentialId}')).toBe("'PATCH,DELETE'");
    expect(allowedMethods('/v1/users/me/passkeys')).toBe("'GET,POST'");
    for (const path of new Set(ROUTES.map((route) => route.path))) {
      const declared = ROUTES.filter((route) => route.path === path).map((route) => route.method);
      expect(allowedMethods(path), path).toBe(`'${declared.join(',')}'`);
    }
  });

  it("allows in each preflight the headers the SPA sends: the token, JSON, and a create's Idempotency-Key", () => {
    for (const path of new Set(ROUTES.map((route) => route.path))) {
      const preflight = findMethod(prod.template, 'OPTIONS', path)!;
      const [response] = (
        preflight.Properties.Integration as { IntegrationResponses: Record<string, Json>[] }
      ).IntegrationResponses;
      const headers = (response!.ResponseParameters as Record<string, Json>)[
        'method.response.header.Access-Control-Allow-Headers'
      ];
      expect(headers, path).toBe("'Content-Type,Authorization,Idempotency-Key'");
    }
  });

  it("adds the app origin to API Gateway's own error responses and to each handler's environment", () => {
    const responses = Object.values(resourcesOf(prod.template, 'AWS::ApiGateway::GatewayResponse'));
    expect(responses.map((response) => response.Properties.ResponseType).sort()).toEqual([
      'DEFAULT_4XX',
      'DEFAULT_5XX',
      'WAF_FILTERED',
    ]);
    for (const response of responses) {
      const headers = response.Properties.ResponseParameters as Record<string, Json>;
      expect(flatten(headers['gatewayresponse.header.Access-Control-Allow-Origin'])).toBe(
        `'${appOrigin(prod)}'`,
      );
      // As every handler's answer: never cached, nothing in it runs, is sniffed or is framed.
      expect(headers).toMatchObject({
        'gatewayresponse.header.Cache-Control': "'no-store'",
        'gatewayresponse.header.Content-Security-Policy':
          "'default-src \\'none\\'; frame-ancestors \\'none\\''",
        'gatewayresponse.header.X-Content-Type-Options': "'nosniff'",
        'gatewayresponse.header.X-Frame-Options': "'DENY'",
        'gatewayresponse.header.Referrer-Policy': "'no-referrer'",
      });
    }
    for (const route of ROUTES) {
      expect(flatten(environmentOf(prod, route.id).CORS_ALLOW_ORIGIN)).toBe(appOrigin(prod));
    }
  });

  it('allows the custom domain as the CORS origin when one is configured', () => {
    const preflight = findMethod(customDomain.template, 'OPTIONS', '/v1/users/me')!;
    const [response] = (preflight.Properties.Integration as { IntegrationResponses: Record<string, Json>[] })
      .IntegrationResponses;
    expect(
      (response!.ResponseParameters as Record<string, Json>)[
        'method.response.header.Access-Control-Allow-Origin'
      ],
    ).toBe("'https://app.example.com'");
  });

  it("keeps the execution logs in a group it makes, with the stage's retention, and names the API after the stack", () => {
    for (const [synth, stageName, days, policy] of [
      [prod, 'prod', 90, 'Retain'],
      [dev, 'dev', 7, 'Delete'],
    ] as const) {
      const restApi = logicalIdOf(synth.stack, synth.stack.api.restApi);
      // API Gateway writes to this name; a group it made itself would never expire nor go with the stack.
      const groups = Object.entries(resourcesOf(synth.template, 'AWS::Logs::LogGroup')).filter(
        ([, group]) =>
          flatten(group.Properties.LogGroupName) === `API-Gateway-Execution-Logs_\${${restApi}}/${stageName}`,
      );
      expect(groups, stageName).toHaveLength(1);
      const [[groupId, group]] = groups as [[string, CfnResource]];
      expect(group.Properties.RetentionInDays, stageName).toBe(days);
      expect(group.DeletionPolicy, stageName).toBe(policy);
      // Made before the stage that logs to it.
      const [, stage] = only(resourcesOf(synth.template, 'AWS::ApiGateway::Stage'));
      expect((stage as CfnResource & { DependsOn?: string[] }).DependsOn, stageName).toContain(groupId);
      // API Gateway's metrics, and so the 5XX alarm, are keyed by this name.
      const [, api] = only(resourcesOf(synth.template, 'AWS::ApiGateway::RestApi'));
      expect(api.Properties.Name, stageName).toBe(stackNameFor(stageName));
    }
  });

  it('writes JSON access logs to its own log group, with no bodies and no raw paths', () => {
    const [, stage] = only(resourcesOf(prod.template, 'AWS::ApiGateway::Stage'));
    const accessLog = stage.Properties.AccessLogSetting as { DestinationArn: Json; Format: string };
    expect(flatten(accessLog.DestinationArn)).toContain(
      `\${${logicalIdOf(prod.stack, prod.stack.api.accessLogs)}}`,
    );
    const format = JSON.parse(accessLog.Format) as Record<string, string>;
    expect(format.requestId).toBe('$context.requestId');
    expect(format.status).toBe('$context.status');
    expect(accessLog.Format.toLowerCase()).not.toContain('body');
    expect(Object.values(format)).not.toContain('$context.path');
    for (const setting of stageMethodSettings(prod)) expect(setting.DataTraceEnabled).toBe(false);
  });

  it('logs execution errors, and keeps request URLs out of X-Ray (emails travel in invitation paths)', () => {
    const [, stage] = only(resourcesOf(prod.template, 'AWS::ApiGateway::Stage'));
    // API Gateway's trace records the whole URL: `/internal/v1/admin/invitations/{email}` with the email.
    expect(stage.Properties.TracingEnabled).toBe(false);
    // The functions still trace their own work, which records no URL.
    for (const definition of ALL_FUNCTIONS)
      expect(functionResource(prod, definition.id).Properties.TracingConfig, definition.id).toEqual({
        Mode: 'Active',
      });
    for (const setting of stageMethodSettings(prod)) expect(setting.LoggingLevel).toBe('ERROR');
  });
});

describe('WAF', () => {
  interface ByteMatch {
    FieldToMatch: Json;
    PositionalConstraint: string;
    SearchString: string;
    TextTransformations: { Priority: number; Type: string }[];
  }
  interface WafStatement {
    ByteMatchStatement?: ByteMatch;
    OrStatement?: { Statements: WafStatement[] };
    AndStatement?: { Statements: WafStatement[] };
    NotStatement?: { Statement: WafStatement };
  }
  interface RateBasedStatement {
    AggregateKeyType: string;
    EvaluationWindowSec: number;
    Limit: number;
    ScopeDownStatement?: WafStatement;
  }
  interface Rule {
    Name: string;
    Priority: number;
    Action: Json;
    Statement: { RateBasedStatement?: RateBasedStatement };
    VisibilityConfig: Record<string, Json>;
  }
  const apiAclId = ({ stack }: Synthesized) => logicalIdOf(stack, stack.api.webAcl);
  const poolAclId = ({ stack }: Synthesized) => logicalIdOf(stack, stack.auth.webAcl);
  const acl = (synth: Synthesized, logicalId: string): CfnResource => {
    const resource = resourcesOf(synth.template, 'AWS::WAFv2::WebACL')[logicalId];
    if (!resource) throw new Error(`No web ACL ${logicalId}`);
    return resource;
  };
  const rulesOf = (synth: Synthesized, logicalId: string) =>
    acl(synth, logicalId).Properties.Rules as unknown as Rule[];
  const rateRule = (synth: Synthesized, logicalId: string, name: string): RateBasedStatement => {
    const rule = rulesOf(synth, logicalId).find((r) => r.Name === name);
    if (!rule?.Statement.RateBasedStatement) throw new Error(`No rate-based rule ${name}`);
    return rule.Statement.RateBasedStatement;
  };
  const associationOf = (synth: Synthesized, aclLogicalId: string): CfnResource => {
    const associations = Object.values(resourcesOf(synth.template, 'AWS::WAFv2::WebACLAssociation')).filter(
      (association) =>
        JSON.stringify(association.Properties.WebACLArn) ===
        JSON.stringify({ 'Fn::GetAtt': [aclLogicalId, 'Arn'] }),
    );
    expect(associations).toHaveLength(1);
    return associations[0]!;
  };

  /** WAF's text transformations as its developer guide describes them (the ones this stack uses). */
  const TRANSFORMATIONS: Record<string, (value: string) => string> = {
    URL_DECODE: (value) =>
      value.replace(/%([0-9a-f]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    // Folds repeated slashes, drops `.` segments and resolves `..` ones, except at the very beginning.
    NORMALIZE_PATH: (value) => {
      const segments: string[] = [];
      for (const segment of value.replace(/\/{2,}/g, '/').split('/')) {
        if (segment === '.') continue;
        if (segment === '..' && segments.length > 1) segments.pop();
        else segments.push(segment);
      }
      return segments.join('/');
    },
    LOWERCASE: (value) => value.toLowerCase(),
    NONE: (value) => value,
  };
  /**
   * Whether a statement matches a `method` request for `path` (URI path and method statements only;
   * anything else throws).
   */
  const matchesPath = (statement: WafStatement, path: string, method = 'POST'): boolean => {
    const matches = (inner: WafStatement) => matchesPath(inner, path, method);
    if (statement.OrStatement) return statement.OrStatement.Statements.some(matches);
    if (statement.AndStatement) return statement.AndStatement.Statements.every(matches);
    if (statement.NotStatement) return !matches(statement.NotStatement.Statement);
    const match = statement.ByteMatchStatement;
    const field = JSON.stringify(match?.FieldToMatch);
    if (!match || (field !== '{"UriPath":{}}' && field !== '{"Method":{}}')) {
      throw new Error(`Unsupported statement: ${JSON.stringify(statement)}`);
    }
    const value = [...match.TextTransformations]
      .sort((a, b) => a.Priority - b.Priority)
      .reduce(
        (current, { Type }) => {
          const transform = TRANSFORMATIONS[Type];
          if (!transform) throw new Error(`Unsupported text transformation ${Type}`);
          return transform(current);
        },
        field === '{"Method":{}}' ? method : path,
      );
    switch (match.PositionalConstraint) {
      case 'CONTAINS':
        return value.includes(match.SearchString);
      case 'STARTS_WITH':
        return value.startsWith(match.SearchString);
      case 'EXACTLY':
        return value === match.SearchString;
      default:
        throw new Error(`Unsupported positional constraint ${match.PositionalConstraint}`);
    }
  };
  const withParameters = (path: string) => path.replace(/\{[^}]+\}/g, 'someone%40example.com');

  it('has two regional web ACLs that allow by default, one on the API stage and one on the user pool', () => {
    expect(Object.keys(resourcesOf(prod.template, 'AWS::WAFv2::WebACL')).sort()).toEqual(
      [apiAclId(prod), poolAclId(prod)].sort(),
    );
    expect(Object.keys(resourcesOf(prod.template, 'AWS::WAFv2::WebACLAssociation'))).toHaveLength(2);
    for (const id of [apiAclId(prod), poolAclId(prod)]) {
      expect(acl(prod, id).Properties.Scope).toBe('REGIONAL');
      expect(acl(prod, id).Properties.DefaultAction).toEqual({ Allow: {} });
    }
  });

  it('blocks per IP every rule over 5 minutes, with CloudWatch metrics on the ACLs and every rule', () => {
    for (const id of [apiAclId(prod), poolAclId(prod)]) {
      // Sampled requests would show request headers: not at the ACL level, where id tokens pass.
      expect(acl(prod, id).Properties.VisibilityConfig).toMatchObject({
        CloudWatchMetricsEnabled: true,
        SampledRequestsEnabled: false,
      });
      for (const rule of rulesOf(prod, id)) {
        expect(rule.Action, rule.Name).toEqual({ Block: {} });
        expect(rule.Statement.RateBasedStatement?.AggregateKeyType, rule.Name).toBe('IP');
        expect(rule.Statement.RateBasedStatement?.EvaluationWindowSec, rule.Name).toBe(300);
        expect(rule.VisibilityConfig.CloudWatchMetricsEnabled, rule.Name).toBe(true);
        expect(rule.VisibilityConfig.MetricName, rule.Name).toBe(rule.Name);
      }
    }
  });

  it('limits the activation calls, then /v1/auth/, then the whole API, per IP', () => {
    expect(rulesOf(prod, apiAclId(prod)).map((rule) => [rule.Name, rule.Priority])).toEqual([
      ['ActivationRoutesRateLimit', 0],
      ['AuthRoutesRateLimit', 1],
      ['ApiRateLimit', 2],
    ]);
    expect(rateRule(prod, apiAclId(prod), 'ActivationRoutesRateLimit').Limit).toBe(
      ACTIVATION_POSTS_PER_IP_PER_5_MIN,
    );
    expect(ACTIVATION_POSTS_PER_IP_PER_5_MIN).toBe(500);
  });

  it("counts every spelling of an activation call's POST against the activation limit, and nothing else", () => {
    const activation = PUBLIC_ROUTES.filter((route) => /verify-activation|register-passkey/.test(route.path));
    expect(activation.map((route) => route.path).sort()).toEqual([
      '/v1/auth/register-passkey',
      '/v1/auth/verify-activation',
    ]);
    for (const synth of [prod, dev]) {
      const scopeDown = rateRule(synth, apiAclId(synth), 'ActivationRoutesRateLimit').ScopeDownStatement!;
      const stage = synth.stack.api.restApi.deploymentStage.stageName;
      for (const route of activation) {
        const rest = route.path.slice('/v1/auth/'.length);
        for (const path of [
          route.path,
          `/${stage}${route.path}`,
          `/${stage}//v1//auth/${rest}`,
          `/${stage}/v1/%61uth/${rest}`,
          `/${stage.toUpperCase()}/V1/Auth/${rest.toUpperCase()}`,
        ]) {
          expect(matchesPath(scopeDown, path, 'POST'), path).toBe(true);
          // Its preflight runs under the default throttle, not the activation method's.
          expect(matchesPath(scopeDown, path, 'OPTIONS'), `OPTIONS ${path}`).toBe(false);
        }
      }
      // A sign-in's calls and the authenticated routes count against the wider limits only.
      for (const route of ROUTES.filter((route) => !activation.includes(route))) {
        const path = `/${stage}${withParameters(route.path)}`;
        expect(matchesPath(scopeDown, path, route.method), `${route.method} ${path}`).toBe(false);
      }
    }
  });

  it('limits /v1/auth/ to AUTH_REQUESTS_PER_IP_PER_5_MIN per IP, before the whole-API rule', () => {
    const auth = rateRule(prod, apiAclId(prod), 'AuthRoutesRateLimit');
    expect(auth.Limit).toBe(AUTH_REQUESTS_PER_IP_PER_5_MIN);
    expect(auth.Limit).toBe(3_500);
    expect(auth.ScopeDownStatement).toEqual({
      ByteMatchStatement: {
        FieldToMatch: { UriPath: {} },
        PositionalConstraint: 'CONTAINS',
        SearchString: '/v1/auth/',
        TextTransformations: [
          { Priority: 0, Type: 'URL_DECODE' },
          { Priority: 1, Type: 'NORMALIZE_PATH' },
          { Priority: 2, Type: 'LOWERCASE' },
        ],
      },
    });
  });

  it.each(PUBLIC_ROUTES)(
    'counts $method $path against the auth limit with or without the stage, however it is spelled',
    (route) => {
      for (const synth of [prod, dev]) {
        const scopeDown = rateRule(synth, apiAclId(synth), 'AuthRoutesRateLimit').ScopeDownStatement!;
        const stage = synth.stack.api.restApi.deploymentStage.stageName;
        const rest = route.path.slice('/v1/auth/'.length);
        for (const path of [
          route.path, // a custom domain without base path
          `/${stage}${route.path}`, // the execute-api host the SPA calls
          `/${stage}//v1//auth/${rest}`,
          `/${stage}/v1/./auth/${rest}`,
          `/${stage}/v1/users/../auth/${rest}`,
          `/${stage}/v1/%61uth/${rest}`,
          `/${stage}/v1%2Fauth%2F${rest}`,
          `/${stage.toUpperCase()}/V1/Auth/${rest}`,
          `/base-path${route.path}`,
        ]) {
          expect(matchesPath(scopeDown, path), path).toBe(true);
        }
      }
    },
  );

  it('does not count the authenticated routes against the auth limit', () => {
    const scopeDown = rateRule(prod, apiAclId(prod), 'AuthRoutesRateLimit').ScopeDownStatement!;
    expect(PROTECTED_ROUTES.length).toBeGreaterThan(0);
    for (const route of PROTECTED_ROUTES) {
      for (const path of [withParameters(route.path), `/prod${withParameters(route.path)}`]) {
        expect(matchesPath(scopeDown, path), path).toBe(false);
      }
    }
  });

  it('limits every API request to API_REQUESTS_PER_IP_PER_5_MIN per IP', () => {
    const api = rateRule(prod, apiAclId(prod), 'ApiRateLimit');
    expect(api.ScopeDownStatement).toBeUndefined();
    expect(api.Limit).toBe(API_REQUESTS_PER_IP_PER_5_MIN);
    expect(api.Limit).toBe(13_500);
  });

  it('associates the API web ACL with the API stage', () => {
    const association = associationOf(prod, apiAclId(prod));
    const stageId = only(resourcesOf(prod.template, 'AWS::ApiGateway::Stage'))[0];
    expect(flatten(association.Properties.ResourceArn)).toMatch(
      new RegExp(`/restapis/.+/stages/\\$\\{${stageId}\\}$`),
    );
  });

  it('associates the user-pool web ACL with the pool, by its ARN', () => {
    for (const synth of [prod, dev]) {
      const association = associationOf(synth, poolAclId(synth));
      expect(association.Properties.ResourceArn).toEqual({
        'Fn::GetAtt': [logicalIdOf(synth.stack, synth.stack.auth.userPool), 'Arn'],
      });
    }
  });

  it('limits every call to the user pool to USER_POOL_REQUESTS_PER_IP_PER_5_MIN per IP, in one rule', () => {
    expect(rulesOf(prod, poolAclId(prod)).map((rule) => rule.Name)).toEqual(['UserPoolRateLimit']);
    const pool = rateRule(prod, poolAclId(prod), 'UserPoolRateLimit');
    // Every Cognito API call is a POST to `/`: a path scope-down would mean nothing here.
    expect(pool.ScopeDownStatement).toBeUndefined();
    expect(pool.Limit).toBe(USER_POOL_REQUESTS_PER_IP_PER_5_MIN);
    expect(pool.Limit).toBe(3_000);
  });

  it('answers a WAF block on the API with 429 and a JSON message the SPA can show', () => {
    const response = Object.values(resourcesOf(prod.template, 'AWS::ApiGateway::GatewayResponse')).find(
      (r) => r.Properties.ResponseType === 'WAF_FILTERED',
    );
    expect(response?.Properties.StatusCode).toBe('429');
    const template = (response?.Properties.ResponseTemplates as Record<string, string>)['application/json'];
    expect(JSON.parse(template!)).toHaveProperty('message');
  });
});

describe('WAF limits are looser than the Lambda limits (shared/limits.ts)', () => {
  // WAF counts over a sliding 5 minutes. A Lambda counter in fixed windows can allow its whole limit
  // just before a window boundary and again just after, so 5 minutes can hold two windows' allowance.
  const FIVE_MINUTES = 5 * 60_000;
  const signInStarts = 2 * SIGNIN_IP_STARTS.limit;
  const activationAttempts = 2 * ACTIVATION_IP_ATTEMPTS.limit;

  it('reads the limits of SPEC-2 section 5', () => {
    expect(SIGNIN_IP_STARTS).toEqual({ limit: 300, windowMs: FIVE_MINUTES });
    expect(ACTIVATION_IP_ATTEMPTS).toEqual({ limit: 100, windowMs: 3 * FIVE_MINUTES });
  });

  it('lets one IP make every /v1/auth/ call the Lambdas answer it in any 5 minutes, and some refused ones', () => {
    // Each sign-in is initiate-signin then verify-webauthn. Verify-activation always counts against the
    // address, register-passkey only when it fails: each counted attempt can bring one successful,
    // uncounted registration.
    const answered = 2 * signInStarts + 2 * activationAttempts;
    expect(answered).toBe(1_600);
    expect(AUTH_REQUESTS_PER_IP_PER_5_MIN).toBeGreaterThan(answered);
    // SPEC-2's plain reading (one window, no boundary, every call counted) is far below.
    expect(AUTH_REQUESTS_PER_IP_PER_5_MIN).toBeGreaterThan(
      2 * SIGNIN_IP_STARTS.limit + ACTIVATION_IP_ATTEMPTS.limit,
    );
  });

  it('lets one IP make all of that plus the work of a 50-person clinic to the whole API', () => {
    // 200 requests a person in 5 busy minutes: a screen every 10 seconds, a few queries and preflights
    // each; 50 people behind one office address (docs/decisions/054-capacity.md).
    expect(API_REQUESTS_PER_IP_PER_5_MIN).toBeGreaterThanOrEqual(AUTH_REQUESTS_PER_IP_PER_5_MIN + 50 * 200);
  });

  it('lets one IP make every Cognito call the sign-ins the Lambdas allow need, plus a clinic refreshing tokens', () => {
    // InitiateAuth + RespondToAuthChallenge, and RevokeToken at sign-out, per sign-in: the passkey
    // sign-ins started, and one for each new passkey an activation attempt can bring.
    const signIns = signInStarts + activationAttempts;
    // 30 people with 3 tabs each, refreshing at most once in 5 minutes (tokens last 15).
    const refreshes = 30 * 3;
    const needed = 3 * signIns + refreshes;
    expect(needed).toBe(2_490);
    expect(USER_POOL_REQUESTS_PER_IP_PER_5_MIN).toBeGreaterThan(needed);
  });
});

describe('SPA hosting', () => {
  const assetsBucketId = (synth: Synthesized) => logicalIdOf(synth.stack, synth.stack.site.bucket);
  const assetsBucket = (synth: Synthesized) =>
    resourcesOf(synth.template, 'AWS::S3::Bucket')[assetsBucketId(synth)]!;
  const distribution = (synth: Synthesized) =>
    only(resourcesOf(synth.template, 'AWS::CloudFront::Distribution'))[1].Properties
      .DistributionConfig as Record<string, Json>;
  const headers = (synth: Synthesized) =>
    (
      only(resourcesOf(synth.template, 'AWS::CloudFront::ResponseHeadersPolicy'))[1].Properties
        .ResponseHeadersPolicyConfig as Record<string, Record<string, Json>>
    ).SecurityHeadersConfig!;
  const csp = (synth: Synthesized) =>
    flatten((headers(synth).ContentSecurityPolicy as { ContentSecurityPolicy: Json }).ContentSecurityPolicy);

  it('keeps the bucket private, owner-enforced and encrypted', () => {
    const props = assetsBucket(prod).Properties;
    expect(props.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(props.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    // SSE-S3 (BucketEncryption.S3_MANAGED): CloudFront's origin access control reads it without a KMS grant.
    expect(props.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    });
  });

  it('keeps a file’s earlier versions for 30 days after a deploy or a hand overwrites or deletes it', () => {
    for (const synth of [prod, dev]) {
      const props = assetsBucket(synth).Properties;
      expect(props.VersioningConfiguration).toEqual({ Status: 'Enabled' });
      expect(props.LifecycleConfiguration).toEqual({
        Rules: [
          {
            NoncurrentVersionExpiration: { NoncurrentDays: 30 },
            ExpiredObjectDeleteMarker: true,
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
            Status: 'Enabled',
          },
        ],
      });
    }
  });

  it('lets only this distribution read the bucket, and only over TLS', () => {
    const [, policy] = Object.entries(resourcesOf(prod.template, 'AWS::S3::BucketPolicy')).find(
      ([, p]) => (p.Properties.Bucket as { Ref: string }).Ref === assetsBucketId(prod),
    )!;
    const statements = (policy.Properties.PolicyDocument as unknown as { Statement: Statement[] }).Statement;
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]!.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect(allows[0]!.Action).toBe('s3:GetObject');
    const distributionId = logicalIdOf(prod.stack, prod.stack.site.distribution);
    expect(
      flatten((allows[0]!.Condition as { StringEquals: Record<string, Json> }).StringEquals['AWS:SourceArn']),
    ).toMatch(new RegExp(`:cloudfront::.+:distribution/\\$\\{${distributionId}\\}$`));
    const denyInsecure = statements.find((s) => s.Effect === 'Deny');
    expect(denyInsecure?.Condition).toEqual({ Bool: { 'aws:SecureTransport': 'false' } });
  });

  it('reads the bucket through an origin access control, not an identity', () => {
    const [origin] = distribution(prod).Origins as Record<string, Json>[];
    expect(origin!.OriginAccessControlId).toBeDefined();
    expect(origin!.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    const [, oac] = only(resourcesOf(prod.template, 'AWS::CloudFront::OriginAccessControl'));
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
  });

  it('serves HTTPS only, redirecting HTTP', () => {
    expect((distribution(prod).DefaultCacheBehavior as Record<string, Json>).ViewerProtocolPolicy).toBe(
      'redirect-to-https',
    );
  });

  it('answers unknown paths with index.html and status 200 (SPA fallback)', () => {
    expect(distribution(prod).DefaultRootObject).toBe('index.html');
    expect(distribution(prod).CustomErrorResponses).toEqual([
      { ErrorCode: 403, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 },
      { ErrorCode: 404, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 },
    ]);
  });

  it('serves a custom domain with TLS 1.2 or later when one is configured', () => {
    expect(distribution(customDomain).Aliases).toEqual(['app.example.com']);
    expect(distribution(customDomain).ViewerCertificate).toMatchObject({
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
  });

  it('sends a CSP allowing only itself, the API and Cognito, and no framing, written out in full', () => {
    const restApiId = logicalIdOf(prod.stack, prod.stack.api.restApi);
    // Written out apart from the definition (infra/security-headers.ts): a source added there, such as
    // 'unsafe-inline', fails here, where the tests below only tie the template and the local server to it.
    expect(csp(prod).split('; ')).toEqual([
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "font-src 'self'",
      `connect-src 'self' https://\${${restApiId}}.execute-api.us-west-2.\${AWS::URLSuffix} https://cognito-idp.us-west-2.\${AWS::URLSuffix}`,
      "manifest-src 'self'",
      "worker-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      'upgrade-insecure-requests',
    ]);
  });

  it('sends HSTS for at least a year, nosniff, frame DENY and no referrer', () => {
    const config = headers(prod);
    const hsts = config.StrictTransportSecurity as Record<string, Json>;
    expect(hsts.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
    expect(hsts.IncludeSubdomains).toBe(true);
    expect(hsts.Override).toBe(true);
    expect(config.ContentTypeOptions).toEqual({ Override: true });
    expect(config.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(config.ReferrerPolicy).toEqual({ ReferrerPolicy: 'no-referrer', Override: true });
  });

  it('allows passkeys for this origin only and no other powerful feature, and isolates its window', () => {
    const custom = (
      only(resourcesOf(prod.template, 'AWS::CloudFront::ResponseHeadersPolicy'))[1].Properties
        .ResponseHeadersPolicyConfig as { CustomHeadersConfig: { Items: Record<string, Json>[] } }
    ).CustomHeadersConfig.Items;
    expect(custom).toEqual([
      {
        Header: 'Permissions-Policy',
        Value:
          'publickey-credentials-create=(self), publickey-credentials-get=(self), camera=(), microphone=(), geolocation=(), payment=(), usb=()',
        Override: true,
      },
      { Header: 'Cross-Origin-Opener-Policy', Value: 'same-origin', Override: true },
    ]);
  });

  it('sends exactly the headers of infra/security-headers.ts, the definition the local server sends too', () => {
    const config = only(resourcesOf(prod.template, 'AWS::CloudFront::ResponseHeadersPolicy'))[1].Properties
      .ResponseHeadersPolicyConfig as Record<string, Record<string, Json>>;
    const security = headers(prod);
    const hsts = security.StrictTransportSecurity as Record<string, Json>;
    const custom = (config.CustomHeadersConfig as { Items: Record<string, Json>[] }).Items;
    const restApiId = logicalIdOf(prod.stack, prod.stack.api.restApi);
    // The two tests above are the floor, written out apart from the definition; this one ties the
    // template to it. The template's header values, as the browser receives them:
    const sent = {
      'content-security-policy': csp(prod),
      'strict-transport-security': `max-age=${flatten(hsts.AccessControlMaxAgeSec)}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}${hsts.Preload ? '; preload' : ''}`,
      'x-content-type-options': security.ContentTypeOptions ? 'nosniff' : undefined,
      'x-frame-options': (security.FrameOptions as Record<string, Json>).FrameOption,
      'referrer-policy': (security.ReferrerPolicy as Record<string, Json>).ReferrerPolicy,
      ...Object.fromEntries(custom.map((item) => [flatten(item.Header).toLowerCase(), item.Value])),
    };

    expect(sent).toEqual(
      securityHeaders([
        `https://\${${restApiId}}.execute-api.us-west-2.\${AWS::URLSuffix}`,
        `https://cognito-idp.us-west-2.\${AWS::URLSuffix}`,
      ]),
    );
    // Each one replaces whatever the origin might send.
    for (const setting of [...Object.values(security), ...custom])
      expect((setting as Record<string, Json>).Override).toBe(true);
  });

  it('uses the headers policy on the default behavior', () => {
    const policyId = logicalIdOf(prod.stack, prod.stack.site.headersPolicy);
    expect((distribution(prod).DefaultCacheBehavior as Record<string, Json>).ResponseHeadersPolicyId).toEqual(
      {
        Ref: policyId,
      },
    );
  });

  it('keeps the buckets outside dev and empties and deletes them with a dev stack', () => {
    expect(assetsBucket(prod).DeletionPolicy).toBe('Retain');
    expect(assetsBucket(dev).DeletionPolicy).toBe('Delete');
    expect(Object.keys(resourcesOf(prod.template, 'Custom::S3AutoDeleteObjects'))).toHaveLength(0);
  });
});

describe('no log can hold a query string (activation links are /activate?code=...)', () => {
  const distributionConfig = (synth: Synthesized) =>
    only(resourcesOf(synth.template, 'AWS::CloudFront::Distribution'))[1].Properties
      .DistributionConfig as Record<string, Json>;
  const behaviors = (synth: Synthesized) => [
    distributionConfig(synth).DefaultCacheBehavior as Record<string, Json>,
    ...((distributionConfig(synth).CacheBehaviors ?? []) as Record<string, Json>[]),
  ];
  const ALL = { prod: () => prod, dev: () => dev, 'custom domain': () => customDomain };

  it.each(Object.entries(ALL))('%s: CloudFront writes no access log of any kind', (_name, synth) => {
    // Standard (legacy) logging always records cs-uri-query; v2 and real-time logs are not set up either.
    expect(distributionConfig(synth()).Logging).toBeUndefined();
    for (const type of [
      'AWS::CloudFront::RealtimeLogConfig',
      'AWS::Logs::DeliverySource',
      'AWS::Logs::DeliveryDestination',
      'AWS::Logs::Delivery',
    ]) {
      expect(resourcesOf(synth().template, type), type).toEqual({});
    }
  });

  it.each(Object.entries(ALL))(
    '%s: CloudFront forwards no query string to S3, so the bucket access logs never see one',
    (_name, synth) => {
      const customPolicies = resourcesOf(synth().template, 'AWS::CloudFront::CachePolicy');
      for (const behavior of behaviors(synth())) {
        expect(behavior.ForwardedValues).toBeUndefined();
        expect(behavior.OriginRequestPolicyId).toBeUndefined();
        const policyId = behavior.CachePolicyId as Json;
        if (typeof policyId === 'string') {
          // A managed policy: CachingOptimized has QueryStringBehavior none.
          expect(policyId).toBe(CachePolicy.CACHING_OPTIMIZED.cachePolicyId);
        } else {
          const policy = customPolicies[(policyId as { Ref: string }).Ref]!;
          expect(JSON.stringify(policy.Properties)).toContain('"QueryStringBehavior":"none"');
        }
      }
    },
  );

  it('keeps S3 server access logs of the assets bucket only, in a bucket with ACLs off', () => {
    const buckets = resourcesOf(prod.template, 'AWS::S3::Bucket');
    const logBucketId = logicalIdOf(prod.stack, prod.stack.site.logBucket);
    const logging = Object.entries(buckets).filter(([, bucket]) => bucket.Properties.LoggingConfiguration);
    expect(logging.map(([id]) => id)).toEqual([logicalIdOf(prod.stack, prod.stack.site.bucket)]);
    expect(logging[0]![1].Properties.LoggingConfiguration).toMatchObject({
      DestinationBucketName: { Ref: logBucketId },
    });
    expect(buckets[logBucketId]!.Properties.OwnershipControls).toEqual({
      Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }],
    });
  });

  it('logs API requests without query strings, paths or bodies, and WAF logs nothing', () => {
    const [, stage] = only(resourcesOf(prod.template, 'AWS::ApiGateway::Stage'));
    const format = (stage.Properties.AccessLogSetting as { Format: string }).Format;
    const variables = Object.values(JSON.parse(format) as Record<string, string>);
    for (const variable of variables) expect(variable).toMatch(/^\$context\.[A-Za-z.]+$/);
    expect(variables).not.toContain('$context.path');
    expect(format).not.toMatch(/querystring|\$input|\$method\.request|\$request/i);
    expect(resourcesOf(prod.template, 'AWS::WAFv2::LoggingConfiguration')).toEqual({});
  });
});

describe('outputs', () => {
  const outputs = (synth: Synthesized) => synth.template.toJSON().Outputs as Record<string, { Value: Json }>;

  it('exports app URL, API URL, user pool id, client id, region, bucket and distribution', () => {
    expect(Object.keys(outputs(prod)).sort()).toEqual(Object.values(STACK_OUTPUTS).sort());
  });

  it('gives the app URL, and the API URL without a trailing slash', () => {
    const restApiId = logicalIdOf(prod.stack, prod.stack.api.restApi);
    expect(flatten(outputs(prod).AppUrl!.Value)).toBe(appOrigin(prod));
    expect(flatten(outputs(prod).ApiUrl!.Value)).toBe(
      `https://\${${restApiId}}.execute-api.us-west-2.\${AWS::URLSuffix}/prod`,
    );
    expect(flatten(outputs(customDomain).AppUrl!.Value)).toBe('https://app.example.com');
  });

  it('gives the ids the SPA build and the deploy script need', () => {
    const o = outputs(prod);
    expect(o.UserPoolId!.Value).toEqual({ Ref: logicalIdOf(prod.stack, prod.stack.auth.userPool) });
    expect(o.UserPoolClientId!.Value).toEqual({ Ref: logicalIdOf(prod.stack, prod.stack.auth.client) });
    expect(o.Region!.Value).toBe('us-west-2');
    expect(o.SiteBucketName!.Value).toEqual({ Ref: logicalIdOf(prod.stack, prod.stack.site.bucket) });
    expect(o.DistributionId!.Value).toEqual({ Ref: logicalIdOf(prod.stack, prod.stack.site.distribution) });
  });

  it('names every table by its key, for npm run invite, which writes to more than the invitations', () => {
    expect(JSON.parse(flatten(outputs(prod).TableNames!.Value))).toEqual(
      Object.fromEntries(TABLE_KEYS.map((key) => [key, `\${${tableLogicalId(prod, key)}}`])),
    );
  });
});
