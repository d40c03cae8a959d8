import { ID_TOKEN_VALIDITY_MINUTES } from '../../shared/session-policy';
import { AUTH_CALLS_PER_SIGN_IN, REQUESTS_PER_BROWSER_CALL } from './waf-limits';

/**
 * Capacity in the cloud (issue 12, docs/decisions/054-capacity.md): the traffic the stack is sized for,
 * the API Gateway throttles derived from it, and what that traffic needs from the account's regional
 * quotas (API Gateway, Cognito, Lambda, DynamoDB). The template tests recompute every number here.
 *
 * API Gateway (REST) throttles each method on its own, with a token bucket: `rateLimit` requests a second
 * refill it, `burstLimit` is its size. The stage's `throttlingRateLimit` is the default of every method
 * (`/*` `/*` in the stage's method settings), not a budget the methods share; a method's own settings
 * replace it. All APIs of the account in the Region share one more bucket, the account throttle.
 */

/** Requests per second API Gateway lets through one method, steady and in a burst. */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

// The target ------------------------------------------------------------------------------------------

/** Passkey sign-ins per second, every caller together, sustained: the target of issue 12. */
export const SIGN_INS_PER_SECOND = 100;

/** The 9 o'clock peak: sign-ins that may start in the same instant, two seconds of the target. */
export const SIGN_IN_BURST = 200;

/**
 * Activations per second (a first passkey, or a new one after a recovery), a tenth of the sign-ins: a
 * person activates once and signs in every day after. 10 a second is 36,000 new people an hour.
 */
export const ACTIVATIONS_PER_SECOND = 10;

/** Activations that may start in the same instant, two seconds of their rate. */
export const ACTIVATION_BURST = 20;

/**
 * Each throttle sits this far above the traffic it carries: a cancelled or failed passkey prompt starts
 * over with both calls, and API Gateway applies throttles on a best-effort basis, as targets rather than
 * exact ceilings.
 */
export const THROTTLE_HEADROOM = 1.5;

// API Gateway throttles -------------------------------------------------------------------------------

/** How many calls one sign-in and one activation make to a method. */
export interface CallsPerFlow {
  readonly perSignIn: number;
  readonly perActivation: number;
}

/**
 * The public methods (`POST /v1/auth/*`) and their calls. A sign-in is initiate-signin then
 * verify-webauthn; an activation is verify-activation then register-passkey, whose proof signs the new
 * person in without initiate-signin. Every public route must be here (platform-api.ts refuses one that is
 * not), so a new one is sized before it is deployed.
 */
export const PUBLIC_ROUTE_CALLS: Readonly<Record<string, CallsPerFlow>> = {
  '/v1/auth/initiate-signin': { perSignIn: 1, perActivation: 0 },
  '/v1/auth/verify-webauthn': { perSignIn: 1, perActivation: 0 },
  '/v1/auth/verify-activation': { perSignIn: 0, perActivation: 1 },
  '/v1/auth/register-passkey': { perSignIn: 0, perActivation: 1 },
};

/** The throttle that carries `calls` at the target, with its headroom, steady and in the 9 o'clock burst. */
export const throttleFor = ({ perSignIn, perActivation }: CallsPerFlow): Throttle => ({
  rateLimit: Math.ceil(
    (SIGN_INS_PER_SECOND * perSignIn + ACTIVATIONS_PER_SECOND * perActivation) * THROTTLE_HEADROOM,
  ),
  burstLimit: Math.ceil((SIGN_IN_BURST * perSignIn + ACTIVATION_BURST * perActivation) * THROTTLE_HEADROOM),
});

/**
 * Each public method's throttle: initiate-signin and verify-webauthn 150 a second, bursts of 300;
 * verify-activation and register-passkey 15, bursts of 30.
 */
export const PUBLIC_ROUTE_THROTTLES: Readonly<Record<string, Throttle>> = Object.fromEntries(
  Object.entries(PUBLIC_ROUTE_CALLS).map(([path, calls]) => [path, throttleFor(calls)]),
);

/**
 * The most calls one sign-in, or one activation, brings to any single other method: the dashboard's
 * `GET /v1/users/me` once and the list read of a screen opened twice, say. The CORS preflight of each
 * public route is such a method too (`OPTIONS` runs under the default throttle, not its `POST`'s): one
 * call per sign-in from a browser that has not cached it, which at 9 o'clock is every browser.
 */
export const AUTHENTICATED_CALLS_PER_METHOD_PER_SIGN_IN = 2;

/** The throttle of every other method, each on its own: 330 a second, bursts of 660. */
export const DEFAULT_THROTTLE: Throttle = throttleFor({
  perSignIn: AUTHENTICATED_CALLS_PER_METHOD_PER_SIGN_IN,
  perActivation: AUTHENTICATED_CALLS_PER_METHOD_PER_SIGN_IN,
});

// The account's API Gateway throttle ------------------------------------------------------------------

/** API Gateway's throttle for all APIs of an account in one Region (us-west-2 and most Regions); adjustable. */
export const ACCOUNT_REQUESTS_PER_SECOND = 10_000;

/** API Gateway's burst for the account in the Region, set by AWS from the rate (5,000 at 10,000). */
export const ACCOUNT_BURST = 5_000;

/** Requests a sign-in (or an activation) makes to `/v1/auth/`: its two calls, each after its preflight. */
export const PUBLIC_REQUESTS_PER_SIGN_IN = AUTH_CALLS_PER_SIGN_IN * REQUESTS_PER_BROWSER_CALL;

/**
 * Authenticated calls each sign-in brings over its session: the dashboard load (`GET /v1/users/me`) and a
 * few screens of a reading or two each, an entry or two. An assumption, not a measurement.
 */
export const AUTHENTICATED_CALLS_PER_SESSION = 20;

/** API Gateway requests per session, preflights included (at most one per call): 4 + 20 x 2 = 44. */
export const API_REQUESTS_PER_SESSION =
  PUBLIC_REQUESTS_PER_SIGN_IN + AUTHENTICATED_CALLS_PER_SESSION * REQUESTS_PER_BROWSER_CALL;

/**
 * API Gateway requests a second at the target: sessions start at most 110 times a second, so however
 * long they last, their requests come at most 110 x 44 = 4,840 a second (Little's law).
 */
export const PEAK_API_REQUESTS_PER_SECOND =
  (SIGN_INS_PER_SECOND + ACTIVATIONS_PER_SECOND) * API_REQUESTS_PER_SESSION;

/** The 9 o'clock instant: every sign-in and activation of the burst sends its first call and preflight. */
export const PEAK_API_BURST = (SIGN_IN_BURST + ACTIVATION_BURST) * REQUESTS_PER_BROWSER_CALL;

// Cognito ----------------------------------------------------------------------------------------------

/** Cognito's default `UserAuthentication` quota (InitiateAuth, RespondToAuthChallenge, ...) per account and Region. */
export const USER_AUTHENTICATION_DEFAULT_RPS = 120;

/**
 * `UserAuthentication` calls per sign-in and per activation: InitiateAuth (CUSTOM_AUTH) and
 * RespondToAuthChallenge with the passkey proof, from the browser.
 */
export const USER_AUTHENTICATION_CALLS_PER_SIGN_IN = 2;

/** How long a session is used after its sign-in, at most, for the token refreshes it makes. */
export const SESSION_MINUTES = 30;

/** Token refreshes per session: one each time the 15-minute tokens run out while it is used. */
export const REFRESHES_PER_SESSION = Math.ceil(SESSION_MINUTES / ID_TOKEN_VALIDITY_MINUTES);

/**
 * The `UserAuthentication` quota the target needs, counting RespondToAuthChallenge and every refresh
 * (GetTokensFromRefreshToken) in the category: 110 x (2 + 2) = 440 a second. A deploy prerequisite.
 */
export const USER_AUTHENTICATION_RPS_NEEDED =
  (SIGN_INS_PER_SECOND + ACTIVATIONS_PER_SECOND) *
  (USER_AUTHENTICATION_CALLS_PER_SIGN_IN + REFRESHES_PER_SESSION);

// Lambda -----------------------------------------------------------------------------------------------

/** Lambda's default concurrency per account and Region (new accounts start lower); adjustable. */
export const LAMBDA_CONCURRENCY_DEFAULT = 1_000;

/** The concurrency the stage's account must have for the target: a deploy prerequisite (no charge). */
export const LAMBDA_CONCURRENCY_NEEDED = 2_000;

/**
 * Invocations of one sign-in (or activation) before the dashboard: its two public calls, then Cognito's
 * triggers, DefineAuthChallenge and CreateAuthChallenge on InitiateAuth, VerifyAuthChallengeResponse,
 * DefineAuthChallenge and PreTokenGeneration on RespondToAuthChallenge.
 */
export const SIGN_IN_INVOCATIONS = AUTH_CALLS_PER_SIGN_IN + 5;

/** How long each of those runs, taken pessimistically: a cold start (about half a second) and more. */
export const SIGN_IN_INVOCATION_MS = 1_000;

/**
 * How long pre token generation runs at a refresh, 15 and 30 minutes into a session: it rewrites its
 * event and loads nothing (about 5 ms to import here, README), and its environments are warm from the
 * sign-ins by then; taken as a quarter second. (At the sign-in it counts among SIGN_IN_INVOCATIONS.)
 */
export const REFRESH_TRIGGER_INVOCATION_MS = 250;

/** How long an authenticated call runs: a session check, a query or two (tens of milliseconds warm). */
export const AUTHENTICATED_INVOCATION_MS = 100;

/**
 * Lambda concurrency at the target: 110 x 7 invocations of a second each, 110 x 2 refreshes' pre token
 * generation of a quarter second each (steady state), and 110 x 20 authenticated calls of a tenth of a
 * second each: 770 + 55 + 220 = 1,045. Over the default 1,000: LAMBDA_CONCURRENCY_NEEDED.
 */
export const PEAK_LAMBDA_CONCURRENCY =
  ((SIGN_INS_PER_SECOND + ACTIVATIONS_PER_SECOND) *
    (SIGN_IN_INVOCATIONS * SIGN_IN_INVOCATION_MS +
      REFRESHES_PER_SESSION * REFRESH_TRIGGER_INVOCATION_MS +
      AUTHENTICATED_CALLS_PER_SESSION * AUTHENTICATED_INVOCATION_MS)) /
  1_000;

// DynamoDB ---------------------------------------------------------------------------------------------

/** Writes a new on-demand table takes a second before it has seen more (12,000 reads). */
export const ON_DEMAND_NEW_TABLE_WRITES_PER_SECOND = 4_000;

/** Writes one item takes a second: a partition's limit, and one item lives in one partition. */
export const ITEM_WRITES_PER_SECOND = 1_000;

/**
 * Write units on the auth-challenges table per sign-in: the address's sign-in counter and the session
 * (initiate-signin), the session's delete and the proof (verify-webauthn), the proof's delete (trigger).
 */
export const AUTH_CHALLENGE_WRITES_PER_SIGN_IN = 5;

/**
 * Write units there per activation: two counters, a refund and the challenge (verify-activation); two
 * counters, two refunds, the challenge's delete in the transaction (2 units) and the proof
 * (register-passkey); the proof's delete (trigger).
 */
export const AUTH_CHALLENGE_WRITES_PER_ACTIVATION = 12;

/** Writes a second on the auth-challenges table at the target: 500 + 120 = 620. */
export const PEAK_AUTH_CHALLENGE_WRITES_PER_SECOND =
  SIGN_INS_PER_SECOND * AUTH_CHALLENGE_WRITES_PER_SIGN_IN +
  ACTIVATIONS_PER_SECOND * AUTH_CHALLENGE_WRITES_PER_ACTIVATION;
