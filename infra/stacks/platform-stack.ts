import { API_FUNCTION_TIMEOUT_SECONDS } from '../../shared/constants';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { ROUTES, SCHEDULED, TRIGGERS, type FunctionDefinition, type TableAccess } from '../../lambdas/routes';
import { WEBAUTHN_RP_NAME } from '../../shared/constants';
import { TABLE_KEYS, TABLES, type TableKey } from '../../shared/tables';
import { OperationsAlarms } from '../constructs/alarms';
import { AppFunction } from '../constructs/app-function';
import { DataTables } from '../constructs/data-tables';
import { PasskeyUserPool } from '../constructs/passkey-user-pool';
import { PlatformApi } from '../constructs/platform-api';
import { SpaSite } from '../constructs/spa-site';
import { STACK_OUTPUTS } from './outputs';
import type { StageConfig } from './stage-config';

/** Cognito gives a trigger 5 seconds; an API handler gets well under API Gateway's 29. */
const TRIGGER_TIMEOUT = Duration.seconds(5);
const API_TIMEOUT = Duration.seconds(API_FUNCTION_TIMEOUT_SECONDS);

export interface PlatformStackProps extends StackProps {
  readonly config: StageConfig;
}

/**
 * One stage of the platform, built from the manifests: a table per `shared/tables.ts` entry, a function
 * per route and trigger of `lambdas/routes.ts` with exactly the table actions (and item keys) and
 * user-pool actions it lists, the Cognito user pool, the REST API, the SPA hosting, and the page-cursor
 * signing key for the functions that set `pageCursors`. Adding a route to the manifest needs no change here.
 */
export class PlatformStack extends Stack {
  /** Every function, by its manifest id (routes, triggers and scheduled functions). */
  readonly functions: Record<string, AppFunction> = {};
  readonly tables: DataTables;
  /** The key page cursors are signed with (`CURSOR_SIGNING_KEY` of the `pageCursors` routes). */
  readonly cursorSigningKey: Secret;
  readonly auth: PasskeyUserPool;
  readonly api: PlatformApi;
  readonly site: SpaSite;
  readonly alarms: OperationsAlarms;

  private functionOf(id: string) {
    const fn = this.functions[id];
    if (!fn) throw new Error(`No function ${id}.`);
    return fn.function;
  }

  constructor(scope: Construct, id: string, props: PlatformStackProps) {
    super(scope, id, props);
    const { config } = props;
    const logRetention = config.retain ? RetentionDays.THREE_MONTHS : RetentionDays.ONE_WEEK;
    const logRemovalPolicy = config.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.tables = new DataTables(this, 'Data', { retain: config.retain });

    this.cursorSigningKey = new Secret(this, 'CursorSigningKey', {
      description:
        'HMAC key the paged list routes (health records, coach views, audit log) sign cursors with',
      // 64 letters and digits: about 380 bits, well over the 32 characters the Lambdas require.
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: config.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    NagSuppressions.addResourceSuppressions(this.cursorSigningKey, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'The cursor signing key is not rotated automatically: rotating it would only invalidate the page cursors in flight (a client starts its list again), and a new value can be put at any time; it reaches the functions with the next deploy that updates them.',
      },
    ]);
    // A CloudFormation dynamic reference: the template holds `{{resolve:secretsmanager:...}}`, never the
    // key, and the functions need no Secrets Manager permission at run time. CloudFormation resolves it
    // when it creates or updates a function (so a new value reaches a function with the next deploy that
    // updates it), and the resolved value is visible to whoever may read the function's configuration
    // (lambda:GetFunctionConfiguration). That is acceptable for this key: it protects only the integrity
    // of page cursors, and the repositories also check that a cursor's key lies in a partition the query
    // reads anyway: the caller's own, or that of a client whose coach the caller is
    // (lambdas/common/repositories/health-records.ts), or one the audit filter names (audit-events.ts,
    // admins only). So a forged cursor reads nothing more.
    const cursorSigningKey = this.cursorSigningKey.secretValue.unsafeUnwrap();

    const functionsScope = new Construct(this, 'Functions');
    const createFunction = (definition: FunctionDefinition, timeout: Duration): AppFunction => {
      if (this.functions[definition.id]) throw new Error(`Duplicate function id "${definition.id}".`);
      const fn = new AppFunction(functionsScope, definition.id, {
        entry: definition.entry,
        timeout,
        logRetention,
        logRemovalPolicy,
      });
      for (const [key, access] of Object.entries(definition.tables) as [TableKey, TableAccess][]) {
        fn.bindTable(this.tables.table(key), TABLES[key], access);
      }
      if (definition.pageCursors) fn.function.addEnvironment('CURSOR_SIGNING_KEY', cursorSigningKey);
      this.functions[definition.id] = fn;
      return fn;
    };

    const trigger = (definition: FunctionDefinition) => {
      // The pool depends on its triggers, so a trigger cannot also be granted actions on the pool ARN
      // (a circular reference). Triggers receive the pool id in their event instead.
      if (definition.cognitoActions.length > 0) {
        throw new Error(`Trigger ${definition.id} cannot be granted user-pool actions; see TRIGGERS.`);
      }
      return createFunction(definition, TRIGGER_TIMEOUT).function;
    };
    this.auth = new PasskeyUserPool(this, 'Auth', {
      retain: config.retain,
      triggers: {
        defineAuthChallenge: trigger(TRIGGERS.defineAuthChallenge),
        createAuthChallenge: trigger(TRIGGERS.createAuthChallenge),
        verifyAuthChallengeResponse: trigger(TRIGGERS.verifyAuthChallengeResponse),
      },
      preTokenGeneration: trigger(TRIGGERS.preTokenGeneration),
    });

    // The scheduled functions: each on an EventBridge rule of its own.
    for (const definition of Object.values(SCHEDULED)) {
      if (definition.timeoutSeconds >= definition.everyMinutes * 60)
        throw new Error(`${definition.id} could still run when the next run starts.`);
      const fn = createFunction(definition, Duration.seconds(definition.timeoutSeconds));
      fn.allowUserPool(this.auth.userPool, definition.cognitoActions);
      // One run at a time, and no retry by EventBridge or by Lambda's asynchronous invocation: the next
      // run is the retry, so two runs never work on the same thing at once.
      (fn.function.node.defaultChild as CfnFunction).reservedConcurrentExecutions = 1;
      fn.function.configureAsyncInvoke({ retryAttempts: 0 });
      new Rule(functionsScope, `${definition.id}Schedule`, {
        description: `Runs ${definition.id} every ${definition.everyMinutes} minutes`,
        schedule: Schedule.rate(Duration.minutes(definition.everyMinutes)),
        targets: [new LambdaFunction(fn.function, { retryAttempts: 0 })],
      });
    }

    this.api = new PlatformApi(this, 'Api', {
      stageName: config.stage,
      userPool: this.auth.userPool,
      routes: ROUTES,
      logRetention,
      logRemovalPolicy,
    });

    const cognitoEndpoint = `https://cognito-idp.${this.region}.${this.urlSuffix}`;
    this.site = new SpaSite(this, 'Site', {
      connectSources: [this.api.origin, cognitoEndpoint],
      customDomain: config.customDomain,
      retain: config.retain,
    });

    const webauthnEnvironment = {
      WEBAUTHN_RP_ID: this.site.host,
      WEBAUTHN_RP_NAME,
      WEBAUTHN_ORIGINS: this.site.origin,
    };
    this.api.connect({
      allowedOrigin: this.site.origin,
      handlerFor: (route) => {
        const fn = createFunction(route, API_TIMEOUT);
        fn.allowUserPool(this.auth.userPool, route.cognitoActions);
        // API Gateway proxies the Lambda's response as is: the handler must add the CORS header itself.
        fn.function.addEnvironment('CORS_ALLOW_ORIGIN', this.site.origin);
        // API Gateway's Cognito authorizer accepts an id token of any client of the pool: the
        // handler checks the audience is this app's client (lambdas/common/http.ts).
        if (route.auth !== 'public') {
          fn.function.addEnvironment('USER_POOL_CLIENT_ID', this.auth.client.userPoolClientId);
        }
        if (route.webauthn) {
          for (const [name, value] of Object.entries(webauthnEnvironment))
            fn.function.addEnvironment(name, value);
        }
        return fn.function;
      },
    });

    this.alarms = new OperationsAlarms(this, 'Alarms', {
      stage: config.stage,
      namePrefix: this.stackName,
      email: config.alarmEmail,
      logGroups: Object.values(this.functions).map((fn) => fn.logGroup),
      signInTriggers: Object.values(TRIGGERS).map((definition) => this.functionOf(definition.id)),
      scheduled: Object.values(SCHEDULED).map((definition) => this.functionOf(definition.id)),
      apiStage: this.api.restApi.deploymentStage,
    });

    const output = (key: keyof typeof STACK_OUTPUTS, value: string, description: string) =>
      new CfnOutput(this, STACK_OUTPUTS[key], { value, description });
    output('appUrl', this.site.origin, 'URL of the app');
    output('apiUrl', this.api.url, 'Base URL of the API, without a trailing slash (VITE_API_BASE_URL)');
    output('userPoolId', this.auth.userPool.userPoolId, 'Cognito user pool id (VITE_USER_POOL_ID)');
    output('userPoolClientId', this.auth.client.userPoolClientId, 'App client id (VITE_USER_POOL_CLIENT_ID)');
    output('region', this.region, 'Region of the stack (VITE_AWS_REGION)');
    output('siteBucketName', this.site.bucket.bucketName, 'Bucket the deploy script uploads web/dist to');
    output(
      'tableNames',
      this.toJsonString(Object.fromEntries(TABLE_KEYS.map((key) => [key, this.tables.table(key).tableName]))),
      'Every table, by its key in shared/tables.ts: what npm run invite writes to',
    );
    output('alarmTopicArn', this.alarms.topic.topicArn, 'SNS topic of the alarms: subscribe to be told');
    output(
      'distributionId',
      this.site.distribution.distributionId,
      'Distribution the deploy script invalidates',
    );
  }
}
