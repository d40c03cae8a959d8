import { API_ANSWER_HEADERS } from '../../shared/api-headers';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  CognitoUserPoolsAuthorizer,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseType,
  RestApi,
  type MethodDeploymentOptions,
} from 'aws-cdk-lib/aws-apigateway';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../../lambdas/routes';
import { IDEMPOTENCY_KEY_HEADER } from '../../shared/constants';
import { AUTHORIZER_CACHE_MINUTES } from '../../shared/session-policy';
import { DEFAULT_THROTTLE, PUBLIC_ROUTE_CALLS, PUBLIC_ROUTE_THROTTLES, type Throttle } from './capacity';
import {
  ACTIVATION_POSTS_PER_IP_PER_5_MIN,
  API_REQUESTS_PER_IP_PER_5_MIN,
  AUTH_REQUESTS_PER_IP_PER_5_MIN,
  WAF_WINDOW_SECONDS,
} from './waf-limits';

export type { Throttle } from './capacity';

export interface PlatformApiProps {
  /** Stage name, also the first segment of every API path. */
  readonly stageName: string;
  /** The pool whose id tokens the authorizer accepts. */
  readonly userPool: IUserPool;
  /** The route manifest; methods are added by `connect` once the handlers and the app origin exist. */
  readonly routes: readonly RouteDefinition[];
  /**
   * Throttle of every public (`/v1/auth/*`) method, one value for all.
   * @default - each method's own, sized for the target in capacity.ts (`PUBLIC_ROUTE_THROTTLES`)
   */
  readonly publicRouteThrottle?: Throttle;
  /**
   * Throttle of every other method, each on its own (the CORS preflights of the public routes included).
   * @default DEFAULT_THROTTLE (capacity.ts): 330 per second, bursts of 660
   */
  readonly defaultThrottle?: Throttle;
  /**
   * Requests one IP may make to `/v1/auth/` in 5 minutes before WAF blocks it.
   * @default AUTH_REQUESTS_PER_IP_PER_5_MIN (waf-limits.ts)
   */
  readonly authRequestsPerIpPer5Min?: number;
  /**
   * Requests one IP may make to the whole API in 5 minutes before WAF blocks it; `/v1/auth/` requests
   * count here too, so it may not be below `authRequestsPerIpPer5Min`.
   * @default API_REQUESTS_PER_IP_PER_5_MIN (waf-limits.ts)
   */
  readonly requestsPerIpPer5Min?: number;
  /** Retention of the access and execution logs. @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** What happens to the access and execution log groups when the stack is deleted. @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
}

export interface ConnectOptions {
  /** The only origin allowed to call the API from a browser (`https://<app host>`). */
  readonly allowedOrigin: string;
  /** The function that handles a route. */
  readonly handlerFor: (route: RouteDefinition) => IFunction;
}

/** The public routes' prefix: the passkey ceremonies, before the caller has a token. */
const AUTH_PATH = '/v1/auth/';
/** The public routes an activation calls (verify-activation, register-passkey): their throttles are the small ones. */
const ACTIVATION_PATHS = Object.entries(PUBLIC_ROUTE_CALLS)
  .filter(([, calls]) => calls.perActivation > 0)
  .map(([path]) => path);
/** What the SPA sends beyond the CORS-safelisted headers (Idempotency-Key: decision 061). */
const PREFLIGHT_HEADERS = ['Content-Type', 'Authorization', IDEMPOTENCY_KEY_HEADER];
const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait a few minutes and try again.';

const pathParameters = (path: string): string[] =>
  [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');

/**
 * The REST API (API Gateway v1) in front of the route manifest: a Cognito user-pool authorizer on every
 * non-public route, per-method throttling on the public auth routes, a regional WAF web ACL with
 * per-IP rate limits, execution logs at ERROR level, and JSON access logs that carry no bodies, no query
 * strings and no raw paths (a path can hold an email address); no X-Ray on the stage (below).
 */
export class PlatformApi extends Construct {
  readonly restApi: RestApi;
  readonly authorizer: CognitoUserPoolsAuthorizer;
  readonly webAcl: CfnWebACL;
  readonly accessLogs: LogGroup;
  /** `https://<api id>.execute-api.<region>.<suffix>`: what the SPA's CSP must allow. */
  readonly origin: string;
  /** The stage's base URL without a trailing slash: what the SPA prefixes every call with. */
  readonly url: string;
  private readonly routes: readonly RouteDefinition[];
  private connected = false;

  constructor(scope: Construct, id: string, props: PlatformApiProps) {
    super(scope, id);
    this.routes = props.routes;
    const publicThrottleOf = (route: RouteDefinition): Throttle => {
      const throttle = props.publicRouteThrottle ?? PUBLIC_ROUTE_THROTTLES[route.path];
      if (!throttle) {
        throw new Error(
          `${route.method} ${route.path} is public but has no throttle: size it in infra/constructs/capacity.ts.`,
        );
      }
      return throttle;
    };
    const defaultThrottle = props.defaultThrottle ?? DEFAULT_THROTTLE;

    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });

    const methodOptions: Record<string, MethodDeploymentOptions> = {};
    for (const route of props.routes.filter((r) => r.auth === 'public')) {
      const publicThrottle = publicThrottleOf(route);
      // A method's settings replace the stage-wide ones, so logging is repeated here.
      methodOptions[`${route.path}/${route.method}`] = {
        throttlingRateLimit: publicThrottle.rateLimit,
        throttlingBurstLimit: publicThrottle.burstLimit,
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: false,
      };
    }

    this.restApi = new RestApi(this, 'RestApi', {
      // API Gateway's metrics (and so the 5XX alarm) are keyed by the API's name, not its id: named
      // after the stack, no other API of the account and Region shares them.
      restApiName: Stack.of(this).stackName,
      description: 'Metabolic health coaching API',
      endpointTypes: [EndpointType.REGIONAL],
      // Logging to CloudWatch needs the account-wide API Gateway role. Retained so that deleting one
      // stage never pulls the role from under another stage's API (see docs/decisions/031-cdk-stack.md).
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: props.stageName,
        // No X-Ray on the stage: its trace records each request's whole URL, and invitation paths carry
        // an email (`/internal/v1/admin/invitations/{email}`), which would sit in X-Ray for 30 days
        // outside every retention here. The functions trace their own work, with no URL.
        tracingEnabled: false,
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: false,
        // Each method's default (`/*/*`), not a budget the methods share: REST APIs have no stage-wide
        // throttle, only the account's, across every API in the Region (docs/decisions/054-capacity.md).
        throttlingRateLimit: defaultThrottle.rateLimit,
        throttlingBurstLimit: defaultThrottle.burstLimit,
        methodOptions,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            extendedRequestId: AccessLogField.contextExtendedRequestId(),
            requestTime: AccessLogField.contextRequestTime(),
            ip: AccessLogField.contextIdentitySourceIp(),
            userAgent: AccessLogField.contextIdentityUserAgent(),
            httpMethod: AccessLogField.contextHttpMethod(),
            resourcePath: AccessLogField.contextResourcePath(),
            protocol: AccessLogField.contextProtocol(),
            status: AccessLogField.contextStatus(),
            responseLength: AccessLogField.contextResponseLength(),
            responseLatency: AccessLogField.contextResponseLatency(),
            integrationStatus: AccessLogField.contextIntegrationStatus(),
            integrationLatency: AccessLogField.contextIntegrationLatency(),
            errorType: AccessLogField.contextErrorResponseType(),
            errorMessage: AccessLogField.contextErrorMessage(),
            authorizerError: AccessLogField.contextAuthorizerError(),
            wafResponseCode: AccessLogField.contextWafResponseCode(),
            userSub: AccessLogField.contextAuthorizerClaims('sub'),
            xrayTraceId: AccessLogField.contextXrayTraceId(),
          }),
        ),
      },
    });

    // RestApi adds an "Endpoint" output with a trailing slash; the stack's ApiUrl output replaces it.
    this.restApi.node.tryRemoveChild('Endpoint');

    // The execution log (errors only, no bodies) goes to a group API Gateway names itself, which it
    // would create with no expiry and leave behind a deleted stack: made here first, kept as the
    // access logs are.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.restApi.restApiId}/${props.stageName}`,
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.restApi.deploymentStage.node.addDependency(executionLogs);

    this.origin = `https://${this.restApi.restApiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;
    this.url = `${this.origin}/${props.stageName}`;

    this.authorizer = new CognitoUserPoolsAuthorizer(this, 'Authorizer', {
      cognitoUserPools: [props.userPool],
      identitySource: IdentitySource.header('Authorization'),
      resultsCacheTtl: Duration.minutes(AUTHORIZER_CACHE_MINUTES),
    });

    const authLimit = props.authRequestsPerIpPer5Min ?? AUTH_REQUESTS_PER_IP_PER_5_MIN;
    const apiLimit = props.requestsPerIpPer5Min ?? API_REQUESTS_PER_IP_PER_5_MIN;
    if (apiLimit < authLimit) {
      throw new Error(
        `The whole-API WAF limit (${apiLimit}) is below the /v1/auth/ one (${authLimit}), which it also counts.`,
      );
    }
    this.webAcl = this.createWebAcl(authLimit, apiLimit);
    new CfnWebACLAssociation(this, 'WebAclAssociation', {
      resourceArn: this.restApi.deploymentStage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });

    NagSuppressions.addResourceSuppressions(
      this.restApi,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason:
            'The account-level API Gateway logging role uses AmazonAPIGatewayPushToCloudWatchLogs, the AWS-documented policy for that role; it is assumable by apigateway.amazonaws.com only.',
          appliesTo: [
            'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs',
          ],
        },
      ],
      true,
    );
    // No request validator and no models: every request reaches the handler, whose HTTP wrapper
    // validates it with the shared zod schemas and answers with the product's own messages
    // (`Request body must be valid JSON`, ...), as the local API does. An API Gateway validator would
    // answer malformed bodies first, with its own `Invalid request body`.
    NagSuppressions.addResourceSuppressions(this.restApi, [
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Validation happens in the handler with the shared zod schemas (lambdas/common/http.ts), which answer with the product contract messages; an API Gateway validator would answer malformed bodies first with its own "Invalid request body".',
      },
    ]);
  }

  /**
   * Adds every route of the manifest with its handler, the CORS preflights for `allowedOrigin`, and
   * CORS headers on API Gateway's own error responses (401, 403, 429, 5xx) so the SPA can read them.
   */
  connect(options: ConnectOptions): void {
    if (this.connected) throw new Error('PlatformApi.connect may be called once.');
    this.connected = true;
    // API Gateway's own errors carry what every handler's answer carries (API_ANSWER_HEADERS), and
    // CORS. A static value is written in single quotes; a quote inside it is escaped with a backslash.
    const staticValue = (value: string) => `'${value.replaceAll("'", "\\'")}'`;
    const corsHeaders = {
      'Access-Control-Allow-Origin': staticValue(options.allowedOrigin),
      'Cache-Control': staticValue('no-store'),
      ...Object.fromEntries(
        Object.entries(API_ANSWER_HEADERS).map(([name, value]) => [name, staticValue(value)]),
      ),
    };
    const errorTemplate = { 'application/json': '{"message":$context.error.messageString}' };

    this.restApi.addGatewayResponse('Default4xx', {
      type: ResponseType.DEFAULT_4XX,
      responseHeaders: corsHeaders,
      templates: errorTemplate,
    });
    this.restApi.addGatewayResponse('Default5xx', {
      type: ResponseType.DEFAULT_5XX,
      responseHeaders: corsHeaders,
      templates: errorTemplate,
    });
    // The web ACL holds rate-based rules only, so a WAF block means "too many requests".
    this.restApi.addGatewayResponse('WafFiltered', {
      type: ResponseType.WAF_FILTERED,
      statusCode: '429',
      responseHeaders: corsHeaders,
      templates: { 'application/json': JSON.stringify({ message: RATE_LIMITED_MESSAGE }) },
    });

    const methodsByPath = new Map<string, string[]>();
    for (const route of this.routes) {
      methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
      this.addRoute(route, options.handlerFor(route));
    }

    for (const [path, methods] of methodsByPath) {
      const preflight = this.restApi.root.resourceForPath(path).addCorsPreflight({
        allowOrigins: [options.allowedOrigin],
        allowMethods: methods,
        allowHeaders: PREFLIGHT_HEADERS,
        maxAge: Duration.hours(1),
      });
      NagSuppressions.addResourceSuppressions(preflight, [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            'CORS preflight (OPTIONS): browsers send it without credentials, so it cannot be authorized.',
        },
        {
          id: 'AwsSolutions-COG4',
          reason:
            'CORS preflight (OPTIONS): browsers send it without credentials, so it cannot be authorized.',
        },
      ]);
    }
  }

  private addRoute(route: RouteDefinition, handler: IFunction): void {
    const requestParameters = Object.fromEntries(
      pathParameters(route.path).map((name) => [`method.request.path.${name}`, true]),
    );
    const method = this.restApi.root
      .resourceForPath(route.path)
      .addMethod(route.method, new LambdaIntegration(handler, { allowTestInvoke: false }), {
        operationName: route.id,
        // Declared for the method's documentation; the handler checks the value.
        requestParameters,
        ...(route.auth === 'public'
          ? { authorizationType: AuthorizationType.NONE }
          : { authorizationType: AuthorizationType.COGNITO, authorizer: this.authorizer }),
      });

    if (route.auth === 'public') {
      const reason = `${route.method} ${route.path} is a passkey ceremony step that runs before the caller has any token; it is rate-limited per IP by WAF and throttled per method instead.`;
      NagSuppressions.addResourceSuppressions(method, [
        { id: 'AwsSolutions-APIG4', reason },
        { id: 'AwsSolutions-COG4', reason },
      ]);
    }
  }

  private createWebAcl(authLimit: number, apiLimit: number): CfnWebACL {
    const visibility = (metricName: string, sampledRequestsEnabled: boolean) => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled,
    });
    // On the execute-api host the path WAF sees starts with the stage (`/prod/v1/auth/...`); on a custom
    // domain it starts with the base path, if any. CONTAINS matches under any prefix. The path is
    // percent-decoded first, so an encoded letter (`/v1/%61uth/`) cannot slip past should API Gateway
    // decode it before routing; then `//`, `/./` and `/x/../` are folded and the case is lowered. A
    // crafted path that matches without reaching a public route only counts against the tighter limit.
    const pathContains = (searchString: string): CfnWebACL.StatementProperty => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'CONTAINS',
        searchString,
        textTransformations: [
          { priority: 0, type: 'URL_DECODE' },
          { priority: 1, type: 'NORMALIZE_PATH' },
          { priority: 2, type: 'LOWERCASE' },
        ],
      },
    });
    const authPathStatement = pathContains(AUTH_PATH);
    // The activation calls themselves (`POST`): their preflights (`OPTIONS`) run under the default
    // throttle and do not count against these methods'.
    const activationPostStatement: CfnWebACL.StatementProperty = {
      andStatement: {
        statements: [
          {
            byteMatchStatement: {
              fieldToMatch: { method: {} },
              positionalConstraint: 'EXACTLY',
              searchString: 'POST',
              textTransformations: [{ priority: 0, type: 'NONE' }],
            },
          },
          { orStatement: { statements: ACTIVATION_PATHS.map(pathContains) } },
        ],
      },
    };

    return new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'Per-IP rate limits for the API, stricter on the passkey endpoints',
      defaultAction: { allow: {} },
      // Sampled requests show headers, and the authenticated routes carry id tokens in them.
      visibilityConfig: visibility('Api', false),
      rules: [
        {
          name: 'ActivationRoutesRateLimit',
          priority: 0,
          action: { block: {} },
          visibilityConfig: visibility('ActivationRoutesRateLimit', true),
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              evaluationWindowSec: WAF_WINDOW_SECONDS,
              limit: ACTIVATION_POSTS_PER_IP_PER_5_MIN,
              scopeDownStatement: activationPostStatement,
            },
          },
        },
        {
          name: 'AuthRoutesRateLimit',
          priority: 1,
          action: { block: {} },
          visibilityConfig: visibility('AuthRoutesRateLimit', true),
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              evaluationWindowSec: WAF_WINDOW_SECONDS,
              limit: authLimit,
              scopeDownStatement: authPathStatement,
            },
          },
        },
        {
          name: 'ApiRateLimit',
          priority: 2,
          action: { block: {} },
          visibilityConfig: visibility('ApiRateLimit', false),
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              evaluationWindowSec: WAF_WINDOW_SECONDS,
              limit: apiLimit,
            },
          },
        },
      ],
    });
  }
}
