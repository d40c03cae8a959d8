/**
 * Capacity in the cloud (issue 12, docs/decisions/054-capacity.md): the throttles on the template, and the
 * arithmetic, recomputed here on its own, that 100 sign-ins a second overall and 300 people behind one
 * address signing in within 5 minutes fit under every layer while one address guessing codes is stopped.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { UserPool } from 'aws-cdk-lib/aws-cognito';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteDefinition } from '../../../lambdas/routes';
import { ACTIVATION_CODE_ALPHABET } from '../../../shared/activation-code';
import { INVITATION_TTL_SECONDS } from '../../../shared/account';
import { ACTIVATION_CODE_LENGTH } from '../../../shared/constants';
import { ACTIVATION_EMAIL_FAILURES, ACTIVATION_IP_ATTEMPTS, SIGNIN_IP_STARTS } from '../../../shared/limits';
import { ID_TOKEN_VALIDITY_MINUTES } from '../../../shared/session-policy';
import {
  ACCOUNT_BURST,
  ACCOUNT_REQUESTS_PER_SECOND,
  ACTIVATION_BURST,
  ACTIVATIONS_PER_SECOND,
  API_REQUESTS_PER_SESSION,
  DEFAULT_THROTTLE,
  LAMBDA_CONCURRENCY_DEFAULT,
  LAMBDA_CONCURRENCY_NEEDED,
  PEAK_API_BURST,
  PEAK_API_REQUESTS_PER_SECOND,
  PEAK_AUTH_CHALLENGE_WRITES_PER_SECOND,
  PEAK_LAMBDA_CONCURRENCY,
  PUBLIC_ROUTE_THROTTLES,
  SIGN_IN_BURST,
  SIGN_INS_PER_SECOND,
  THROTTLE_HEADROOM,
  USER_AUTHENTICATION_DEFAULT_RPS,
  USER_AUTHENTICATION_RPS_NEEDED,
  type Throttle,
} from '../../../infra/constructs/capacity';
import { PlatformApi } from '../../../infra/constructs/platform-api';
import {
  ACTIVATION_POSTS_PER_IP_PER_5_MIN,
  ACTIVATION_POSTS_WITHIN_LAMBDA_LIMITS,
  API_REQUESTS_PER_IP_PER_5_MIN,
  AUTH_REQUESTS_PER_IP_PER_5_MIN,
  AUTH_REQUESTS_WITHIN_LAMBDA_LIMITS,
  USER_POOL_REQUESTS_PER_IP_PER_5_MIN,
  WAF_WINDOW_SECONDS,
} from '../../../infra/constructs/waf-limits';
import { resourcesOf, synthPlatform, type Json, type Synthesized } from './platform-template';

const MINUTE_MS = 60_000;
const PUBLIC_ROUTES = ROUTES.filter((route) => route.auth === 'public');

/** The numbers ADR 054 writes down, here as literals: a change on either side fails a test. */
const EXPECTED_PUBLIC_THROTTLES: Record<string, Throttle> = {
  '/v1/auth/initiate-signin': { rateLimit: 150, burstLimit: 300 },
  '/v1/auth/verify-webauthn': { rateLimit: 150, burstLimit: 300 },
  '/v1/auth/verify-activation': { rateLimit: 15, burstLimit: 30 },
  '/v1/auth/register-passkey': { rateLimit: 15, burstLimit: 30 },
};
const EXPECTED_DEFAULT_THROTTLE: Throttle = { rateLimit: 330, burstLimit: 660 };

// What a sign-in is, counted again here rather than imported.
/** initiate-signin, verify-webauthn (or verify-activation, register-passkey). */
const PUBLIC_CALLS_PER_SIGN_IN = 2;
/** Each cross-origin call with a JSON body or a token goes after its CORS preflight, when not cached. */
const PREFLIGHTS_PER_CALL = 1;
/** InitiateAuth and RespondToAuthChallenge with the passkey proof. */
const COGNITO_SIGN_IN_CALLS = 2;
/** The dashboard's first load: GET /v1/users/me and its preflight. */
const DASHBOARD_LOAD_REQUESTS = 2;
/** Activations arrive at a tenth of the sign-ins' rate. */
const SIGN_IN_FLOWS_PER_SECOND = 100 + 10;

type MethodSetting = Record<string, Json>;
const cfnResourcePath = (path: string): string => `/${path.replaceAll('/', '~1')}`;
const methodSettings = ({ template }: Synthesized): MethodSetting[] => {
  const stages = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'));
  expect(stages).toHaveLength(1);
  return stages[0]!.Properties.MethodSettings as MethodSetting[];
};
const stageWide = (settings: MethodSetting[]): MethodSetting | undefined =>
  settings.find((s) => s.ResourcePath === '/*' && s.HttpMethod === '*');
const throttleOf = (setting: MethodSetting | undefined): Throttle => ({
  rateLimit: setting?.ThrottlingRateLimit as number,
  burstLimit: setting?.ThrottlingBurstLimit as number,
});

describe('API Gateway throttles on the template (ADR 054)', () => {
  let prod: Synthesized;
  beforeAll(() => {
    prod = synthPlatform({ stage: 'prod' });
  });

  it('reads the four public routes the throttles are sized for', () => {
    expect(PUBLIC_ROUTES.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      Object.keys(EXPECTED_PUBLIC_THROTTLES)
        .map((path) => `POST ${path}`)
        .sort(),
    );
  });

  it.each(PUBLIC_ROUTES)('throttles $method $path with its own numbers', (route) => {
    const own = methodSettings(prod).find(
      (s) => s.ResourcePath === cfnResourcePath(route.path) && s.HttpMethod === route.method,
    );
    expect(throttleOf(own)).toEqual(EXPECTED_PUBLIC_THROTTLES[route.path]);
    expect(throttleOf(own)).toEqual(PUBLIC_ROUTE_THROTTLES[route.path]);
  });

  it('gives every other method, each on its own, 330 a second and bursts of 660', () => {
    expect(throttleOf(stageWide(methodSettings(prod)))).toEqual(EXPECTED_DEFAULT_THROTTLE);
    expect(DEFAULT_THROTTLE).toEqual(EXPECTED_DEFAULT_THROTTLE);
  });

  it('has settings of their own on the public methods only, so every preflight runs under the default', () => {
    const own = methodSettings(prod)
      .filter((s) => s !== stageWide(methodSettings(prod)))
      .map((s) => `${s.HttpMethod as string} ${s.ResourcePath as string}`)
      .sort();
    expect(own).toEqual(PUBLIC_ROUTES.map((r) => `${r.method} ${cfnResourcePath(r.path)}`).sort());
  });

  describe('the construct', () => {
    const build = (props: Partial<ConstructorParameters<typeof PlatformApi>[2]>) => {
      const stack = new Stack(new App(), 'Test', { env: { region: 'us-west-2', account: '111111111111' } });
      const api = new PlatformApi(stack, 'Api', {
        stageName: 'test',
        userPool: UserPool.fromUserPoolId(stack, 'Pool', 'us-west-2_example'),
        // One route behind the authorizer, which must be attached to a method.
        routes: [...PUBLIC_ROUTES, ROUTES.find((route) => route.id === 'GetMe')!],
        ...props,
      });
      const handler = LambdaFunction.fromFunctionArn(
        stack,
        'Handler',
        'arn:aws:lambda:us-west-2:111111111111:function:handler',
      );
      api.connect({ allowedOrigin: 'https://app.example.com', handlerFor: () => handler });
      return { template: Template.fromStack(stack) } as Synthesized;
    };

    it('keeps both throttles overridable', () => {
      const settings = methodSettings(
        build({
          publicRouteThrottle: { rateLimit: 7, burstLimit: 9 },
          defaultThrottle: { rateLimit: 70, burstLimit: 90 },
        }),
      );
      expect(throttleOf(stageWide(settings))).toEqual({ rateLimit: 70, burstLimit: 90 });
      for (const route of PUBLIC_ROUTES) {
        const own = settings.find((s) => s.ResourcePath === cfnResourcePath(route.path));
        expect(throttleOf(own)).toEqual({ rateLimit: 7, burstLimit: 9 });
      }
    });

    it('refuses a public route nobody sized', () => {
      const unsized: RouteDefinition = { ...PUBLIC_ROUTES[0]!, id: 'Unsized', path: '/v1/auth/unsized' };
      expect(() => build({ routes: [unsized] })).toThrow(
        'POST /v1/auth/unsized is public but has no throttle: size it in infra/constructs/capacity.ts.',
      );
    });
  });
});

describe('100 sign-ins a second fit under every layer', () => {
  it('reads the target', () => {
    expect([SIGN_INS_PER_SECOND, SIGN_IN_BURST, ACTIVATIONS_PER_SECOND, ACTIVATION_BURST]).toEqual([
      100, 200, 10, 20,
    ]);
    expect(THROTTLE_HEADROOM).toBe(1.5);
  });

  it.each([
    ['/v1/auth/initiate-signin', 100, 200],
    ['/v1/auth/verify-webauthn', 100, 200],
    ['/v1/auth/verify-activation', 10, 20],
    ['/v1/auth/register-passkey', 10, 20],
  ])('lets %s carry %i calls a second and %i at once, with room', (path, rate, burst) => {
    const throttle = PUBLIC_ROUTE_THROTTLES[path]!;
    expect(throttle.rateLimit).toBeGreaterThanOrEqual(rate * 1.5);
    expect(throttle.burstLimit).toBeGreaterThanOrEqual(burst * 1.5);
    expect(throttle).toEqual(EXPECTED_PUBLIC_THROTTLES[path]);
  });

  it("never throttles a public route's preflight before the route: the default is above every public throttle", () => {
    for (const throttle of Object.values(PUBLIC_ROUTE_THROTTLES)) {
      expect(DEFAULT_THROTTLE.rateLimit).toBeGreaterThanOrEqual(throttle.rateLimit);
      expect(DEFAULT_THROTTLE.burstLimit).toBeGreaterThanOrEqual(throttle.burstLimit);
    }
  });

  it('lets each authenticated method take two calls per sign-in and activation, with room', () => {
    // The dashboard's GET /v1/users/me after every sign-in and activation, once more for a second visit.
    expect(DEFAULT_THROTTLE.rateLimit).toBeGreaterThanOrEqual(SIGN_IN_FLOWS_PER_SECOND * 2 * 1.5);
    expect(DEFAULT_THROTTLE.burstLimit).toBeGreaterThanOrEqual((200 + 20) * 2 * 1.5);
  });

  it('stays under the account throttle of API Gateway in the Region, 10,000 a second and bursts of 5,000', () => {
    expect([ACCOUNT_REQUESTS_PER_SECOND, ACCOUNT_BURST]).toEqual([10_000, 5_000]);
    // Per session: 2 public calls and 20 authenticated ones, each with its preflight.
    const perSession = (PUBLIC_CALLS_PER_SIGN_IN + 20) * (1 + PREFLIGHTS_PER_CALL);
    expect(perSession).toBe(44);
    expect(API_REQUESTS_PER_SESSION).toBe(perSession);
    expect(PEAK_API_REQUESTS_PER_SECOND).toBe(SIGN_IN_FLOWS_PER_SECOND * perSession);
    expect(PEAK_API_REQUESTS_PER_SECOND).toBe(4_840);
    expect(PEAK_API_REQUESTS_PER_SECOND).toBeLessThanOrEqual(ACCOUNT_REQUESTS_PER_SECOND);
    // The 9 o'clock instant: every start of the burst with its preflight.
    expect(PEAK_API_BURST).toBe(440);
    expect(PEAK_API_BURST).toBeLessThanOrEqual(ACCOUNT_BURST);
    // Everything the public throttles let through together.
    const publicCeiling = Object.values(PUBLIC_ROUTE_THROTTLES).reduce((sum, t) => sum + t.rateLimit, 0);
    expect(publicCeiling).toBe(330);
  });

  it("needs Cognito's UserAuthentication quota raised from 120 to 440 a second, a deploy prerequisite", () => {
    expect(USER_AUTHENTICATION_DEFAULT_RPS).toBe(120);
    // Tokens last 15 minutes; a session used for 30 refreshes twice.
    expect(ID_TOKEN_VALIDITY_MINUTES).toBe(15);
    const refreshes = 30 / 15;
    expect(USER_AUTHENTICATION_RPS_NEEDED).toBe(
      SIGN_IN_FLOWS_PER_SECOND * (COGNITO_SIGN_IN_CALLS + refreshes),
    );
    expect(USER_AUTHENTICATION_RPS_NEEDED).toBe(440);
    // Even the narrowest reading (Cognito counts RespondToAuthChallenge apart, up to 3 x the quota) is over.
    expect(SIGN_IN_FLOWS_PER_SECOND * (1 + refreshes)).toBeGreaterThan(USER_AUTHENTICATION_DEFAULT_RPS);
  });

  it("keeps activations under Cognito's user-creation (50) and group-update (25, fixed) quotas", () => {
    // verify-activation creates the user (AdminCreateUser); register-passkey adds the group.
    expect(PUBLIC_ROUTE_THROTTLES['/v1/auth/verify-activation']!.rateLimit).toBeLessThanOrEqual(50);
    expect(PUBLIC_ROUTE_THROTTLES['/v1/auth/register-passkey']!.rateLimit).toBeLessThanOrEqual(25);
  });

  it('needs Lambda concurrency raised from the default 1,000 to 2,000, a deploy prerequisite', () => {
    expect(LAMBDA_CONCURRENCY_DEFAULT).toBe(1_000);
    expect(LAMBDA_CONCURRENCY_NEEDED).toBe(2_000);
    // 2 public calls + 5 trigger invocations (Define twice, Create, Verify, pre token generation) at 1 s
    // each; pre token generation at each of the 2 refreshes, 0.25 s; 20 authenticated calls at 0.1 s each.
    const concurrency = SIGN_IN_FLOWS_PER_SECOND * (7 * 1 + 2 * 0.25 + 20 * 0.1);
    expect(concurrency).toBeCloseTo(1_045, 9);
    expect(PEAK_LAMBDA_CONCURRENCY).toBeCloseTo(1_045, 9);
    expect(PEAK_LAMBDA_CONCURRENCY).toBeGreaterThan(LAMBDA_CONCURRENCY_DEFAULT);
    expect(PEAK_LAMBDA_CONCURRENCY).toBeLessThanOrEqual(LAMBDA_CONCURRENCY_NEEDED);
    // Lambda adds 1,000 environments every 10 seconds to each function: the busiest, verify-webauthn at
    // its throttle, needs 150 a second x 1 second each.
    const busiest = PUBLIC_ROUTE_THROTTLES['/v1/auth/verify-webauthn']!.rateLimit * 1;
    expect(busiest).toBe(150);
    expect(busiest).toBeLessThanOrEqual(1_000);
  });

  it('fits in what a new on-demand DynamoDB table takes, 4,000 writes a second', () => {
    expect(PEAK_AUTH_CHALLENGE_WRITES_PER_SECOND).toBe(100 * 5 + 10 * 12);
    expect(PEAK_AUTH_CHALLENGE_WRITES_PER_SECOND).toBeLessThanOrEqual(4_000);
  });
});

describe('300 people behind one address sign in within 5 minutes', () => {
  const PEOPLE = 300;

  it("fits the Lambda's 300 sign-in starts per address per 5 minutes exactly, with no start to spare", () => {
    expect(SIGNIN_IP_STARTS).toEqual({ limit: 300, windowMs: 5 * MINUTE_MS });
    expect(PEOPLE).toBeLessThanOrEqual(SIGNIN_IP_STARTS.limit);
    expect(SIGNIN_IP_STARTS.limit - PEOPLE).toBe(0);
  });

  it('fits the WAF /v1/auth/ rule, preflights included', () => {
    expect(WAF_WINDOW_SECONDS).toBe(300);
    const requests = PEOPLE * PUBLIC_CALLS_PER_SIGN_IN * (1 + PREFLIGHTS_PER_CALL);
    expect(requests).toBe(1_200);
    expect(AUTH_REQUESTS_PER_IP_PER_5_MIN).toBeGreaterThan(requests);
  });

  it('fits the whole-API rule with their dashboards loaded, and leaves 50 people room to work', () => {
    const requests =
      PEOPLE * (PUBLIC_CALLS_PER_SIGN_IN * (1 + PREFLIGHTS_PER_CALL) + DASHBOARD_LOAD_REQUESTS);
    expect(requests).toBe(1_800);
    expect(API_REQUESTS_PER_IP_PER_5_MIN).toBeGreaterThan(requests);
    // ADR 050's busy person: 200 requests in 5 minutes; issue 12's clinic: 50 people.
    expect(API_REQUESTS_PER_IP_PER_5_MIN).toBeGreaterThanOrEqual(AUTH_REQUESTS_PER_IP_PER_5_MIN + 50 * 200);
  });

  it("fits the user pool's WAF rule, and their sign-outs too", () => {
    expect(PEOPLE * (COGNITO_SIGN_IN_CALLS + 1)).toBe(900);
    expect(USER_POOL_REQUESTS_PER_IP_PER_5_MIN).toBeGreaterThan(900);
  });

  it('fits the throttles when all 300 press Sign In in the same instant', () => {
    expect(PUBLIC_ROUTE_THROTTLES['/v1/auth/initiate-signin']!.burstLimit).toBeGreaterThanOrEqual(PEOPLE);
    // Their preflights of initiate-signin arrive together too, under the default.
    expect(DEFAULT_THROTTLE.burstLimit).toBeGreaterThanOrEqual(PEOPLE);
  });

  it("fits one DynamoDB item's 1,000 writes a second: the address's sign-in counter takes all 300 at once", () => {
    expect(PEOPLE).toBeLessThanOrEqual(1_000);
    // WAF lets one address send at most 3,500 /v1/auth/ requests in 5 minutes: under 12 a second.
    expect(AUTH_REQUESTS_PER_IP_PER_5_MIN / WAF_WINDOW_SECONDS).toBeLessThan(12);
  });

  it('pins the WAF limits: 3,500 on /v1/auth/, 13,500 on the whole API, 3,000 on the user pool', () => {
    expect([
      AUTH_REQUESTS_PER_IP_PER_5_MIN,
      API_REQUESTS_PER_IP_PER_5_MIN,
      USER_POOL_REQUESTS_PER_IP_PER_5_MIN,
    ]).toEqual([3_500, 13_500, 3_000]);
  });

  it("keeps WAF above everything the Lambda limits answer one address, preflights included (ADR 050's rule)", () => {
    // Fixed windows: any 5 minutes can hold two windows' sign-in starts and two windows' activation
    // attempts (5 minutes touch at most two 15-minute windows).
    const signInStarts = 2 * SIGNIN_IP_STARTS.limit;
    const activationAttempts = 2 * ACTIVATION_IP_ATTEMPTS.limit;
    // Each start is 2 calls; each counted activation attempt can bring one uncounted registration.
    const answered = (2 * signInStarts + 2 * activationAttempts) * (1 + PREFLIGHTS_PER_CALL);
    expect(answered).toBe(3_200);
    expect(AUTH_REQUESTS_WITHIN_LAMBDA_LIMITS).toBe(answered);
    expect(AUTH_REQUESTS_PER_IP_PER_5_MIN).toBeGreaterThan(answered);
  });
});

describe('a single address guessing codes is still stopped', () => {
  /** The fixed-window counter of ADR 049: the n-th wrong code of a window is admitted while n <= limit. */
  const admitted = (attempt: number, rule: { limit: number }): boolean => attempt <= rule.limit;

  it('refuses the sixth guess at one email within 15 minutes, a right code included', () => {
    expect(ACTIVATION_EMAIL_FAILURES).toEqual({ limit: 5, windowMs: 15 * MINUTE_MS });
    const guesses = [1, 2, 3, 4, 5, 6].map((n) => admitted(n, ACTIVATION_EMAIL_FAILURES));
    expect(guesses).toEqual([true, true, true, true, true, false]);
  });

  it('lets one address have at most 200 codes looked at in any 15 minutes, whatever WAF lets through', () => {
    expect(ACTIVATION_IP_ATTEMPTS).toEqual({ limit: 100, windowMs: 15 * MINUTE_MS });
    const evaluated = 2 * ACTIVATION_IP_ATTEMPTS.limit;
    const wafAllows = AUTH_REQUESTS_PER_IP_PER_5_MIN * 3;
    expect(evaluated).toBe(200);
    expect(wafAllows).toBe(10_500);
    // WAF is the coarse shield against floods; the Lambda is what stops the guessing.
    expect(wafAllows / evaluated).toBeGreaterThan(50);
  });

  it("keeps one address's activation calls under 2 a second: nine addresses to use up a method's shared throttle, not two", () => {
    // What the Lambda answers one address in any 5 minutes: 200 counted attempts, each with at most one
    // uncounted registration; WAF is above it, so a clinic meets the Lambda's message first.
    const answered = 2 * (2 * ACTIVATION_IP_ATTEMPTS.limit);
    expect(answered).toBe(400);
    expect(ACTIVATION_POSTS_WITHIN_LAMBDA_LIMITS).toBe(answered);
    expect(ACTIVATION_POSTS_PER_IP_PER_5_MIN).toBe(500);
    expect(ACTIVATION_POSTS_PER_IP_PER_5_MIN).toBeGreaterThan(answered);
    for (const path of ['/v1/auth/verify-activation', '/v1/auth/register-passkey']) {
      const throttle = PUBLIC_ROUTE_THROTTLES[path]!.rateLimit;
      expect(throttle, path).toBe(15);
      const perAddress = ACTIVATION_POSTS_PER_IP_PER_5_MIN / WAF_WINDOW_SECONDS;
      expect(Math.ceil(throttle / perAddress), path).toBe(9);
      // Under the /v1/auth/ limit alone, all of it aimed at one method, two addresses were enough.
      expect(Math.ceil(throttle / (AUTH_REQUESTS_PER_IP_PER_5_MIN / WAF_WINDOW_SECONDS)), path).toBe(2);
    }
  });

  it('leaves a guesser less than one chance in 10^21 at one invitation over its 7 days', () => {
    const windows = (INVITATION_TTL_SECONDS * 1000) / ACTIVATION_EMAIL_FAILURES.windowMs;
    const guesses = ACTIVATION_EMAIL_FAILURES.limit * windows;
    expect(guesses).toBe(3_360);
    const codes = ACTIVATION_CODE_ALPHABET.length ** ACTIVATION_CODE_LENGTH;
    expect(guesses / codes).toBeLessThan(1e-21);
  });
});
