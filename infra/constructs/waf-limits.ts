import { ACTIVATION_IP_ATTEMPTS, SIGNIN_IP_STARTS } from '../../shared/limits';

/**
 * The per-IP limits of the WAF rate-based rules (docs/decisions/050-waf-and-token-policy.md).
 *
 * They are coarse shields against floods, not the product's limits: the Lambdas enforce SPEC-2 section 5
 * (`shared/limits.ts`) and answer with the product's 429 message. Each WAF limit is derived from those
 * limits and set above the most traffic they let through from one address, so a clinic behind one NAT
 * address meets the Lambda's message first and never a WAF block.
 */

/** Every rate-based rule here counts over 5 minutes (WAF also accepts 60, 120 and 600 seconds). */
export const WAF_WINDOW_SECONDS = 300;
const WAF_WINDOW_MS = WAF_WINDOW_SECONDS * 1000;

/** A per-IP counter of `shared/limits.ts`: at most `limit` in `windowMs`. */
interface CounterLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The most requests a Lambda counter lets through from one address in any WAF window. WAF counts over a
 * sliding window; a counter in fixed windows lets its whole allowance through just before a window
 * boundary and again just after, so one WAF window can hold the allowance of two counter windows (or
 * more, when the counter's window is shorter than WAF's).
 */
export const mostAllowedInWafWindow = ({ limit, windowMs }: CounterLimit): number =>
  limit * (Math.ceil(WAF_WINDOW_MS / windowMs) + 1);

const roundUp = (value: number, step: number): number => Math.ceil(value / step) * step;

/**
 * Room above the computed traffic for the requests the Lambdas refuse with 429 (WAF counts those too):
 * people who read the message and try once more.
 */
export const REFUSED_RETRY_ROOM = 100;

/** API calls to `/v1/auth/` per passkey sign-in: initiate-signin, then verify-webauthn. */
export const AUTH_CALLS_PER_SIGN_IN = 2;

/**
 * API calls per counted activation attempt. Verify-activation always counts; register-passkey counts only
 * when it fails (docs/decisions/049-abuse-limits.md), so each counted attempt can bring one uncounted,
 * successful registration. Each such registration is one new passkey, which then signs in once.
 */
export const ACTIVATION_CALLS_PER_COUNTED_ATTEMPT = 2;

/**
 * Requests WAF counts per API call a browser makes: the call and, before it, its CORS preflight
 * (`OPTIONS`). The SPA calls the API on another origin with a JSON body (and, signed in, an
 * `Authorization` header), so the browser asks first unless it cached the answer for that URL within the
 * hour (`Access-Control-Max-Age`, platform-api.ts); at 9 o'clock nobody has. Preflights never reach a
 * Lambda, so no Lambda limit counts them, but WAF sees every one (docs/decisions/054-capacity.md).
 */
export const REQUESTS_PER_BROWSER_CALL = 2;

/**
 * The most `/v1/auth/` requests one address makes in any WAF window while the Lambdas answer (rather
 * than refuse) every call: (2 x 600 sign-in calls + 2 x 200 activation calls) x 2 with the preflights
 * = 3,200.
 */
export const AUTH_REQUESTS_WITHIN_LAMBDA_LIMITS =
  REQUESTS_PER_BROWSER_CALL *
  (AUTH_CALLS_PER_SIGN_IN * mostAllowedInWafWindow(SIGNIN_IP_STARTS) +
    ACTIVATION_CALLS_PER_COUNTED_ATTEMPT * mostAllowedInWafWindow(ACTIVATION_IP_ATTEMPTS));

/** Requests one address may make to `/v1/auth/` in 5 minutes before WAF blocks it: 3,500. */
export const AUTH_REQUESTS_PER_IP_PER_5_MIN = roundUp(
  AUTH_REQUESTS_WITHIN_LAMBDA_LIMITS + REFUSED_RETRY_ROOM,
  500,
);

/**
 * The most activation calls (`POST` to verify-activation and register-passkey) one address makes in any
 * WAF window while the Lambdas answer every one: 2 x 200 = 400. Their preflights are not counted: they
 * run under another method's throttle, so they cannot use up the activation methods' own.
 */
export const ACTIVATION_POSTS_WITHIN_LAMBDA_LIMITS =
  ACTIVATION_CALLS_PER_COUNTED_ATTEMPT * mostAllowedInWafWindow(ACTIVATION_IP_ATTEMPTS);

/**
 * Activation calls one address may make in 5 minutes before WAF blocks it: 500, under 2 a second. The
 * activation methods' throttles are small (15 a second, capacity.ts) and shared by everyone, so under
 * the `/v1/auth/` limit alone (12 a second) two addresses could keep every invitee out; at this one it
 * takes nine (docs/decisions/054-capacity.md).
 */
export const ACTIVATION_POSTS_PER_IP_PER_5_MIN = roundUp(
  ACTIVATION_POSTS_WITHIN_LAMBDA_LIMITS + REFUSED_RETRY_ROOM,
  100,
);

/**
 * The clinic the limits are sized for: this many staff behind one public address, all working at once
 * (issue 12's clinic; ADR 050 sized for 30).
 */
export const CLINIC_STAFF_BEHIND_ONE_IP = 50;

/**
 * API requests one person makes in 5 busy minutes: a screen every 10 seconds, each a few queries and,
 * for a path the browser has not seen within the hour, its CORS preflight.
 */
export const API_REQUESTS_PER_PERSON_PER_5_MIN = 200;

/**
 * Requests one address may make to the whole API in 5 minutes before WAF blocks it: the `/v1/auth/`
 * allowance (those requests count here too) plus the clinic's work, 3,500 + 50 x 200 = 13,500.
 */
export const API_REQUESTS_PER_IP_PER_5_MIN =
  AUTH_REQUESTS_PER_IP_PER_5_MIN + CLINIC_STAFF_BEHIND_ONE_IP * API_REQUESTS_PER_PERSON_PER_5_MIN;

/**
 * Cognito calls per passkey sign-in from the browser: InitiateAuth (CUSTOM_AUTH) and
 * RespondToAuthChallenge with the proof, then RevokeToken when that session signs out.
 */
export const COGNITO_CALLS_PER_SIGN_IN = 3;

/**
 * Tabs one person keeps open. Each refreshes its tokens (GetTokensFromRefreshToken) when they expire,
 * every 15 minutes (`shared/session-policy.ts`); counted as once per 5 minutes.
 */
export const OPEN_TABS_PER_PERSON = 3;

/**
 * The most user-pool calls one address makes in any WAF window while within the Lambda limits: every
 * sign-in those limits allow (600 started + 200 new passkeys) x 3 calls, plus the clinic's refreshes
 * (50 x 3): 2,550.
 */
export const USER_POOL_REQUESTS_WITHIN_LAMBDA_LIMITS =
  (mostAllowedInWafWindow(SIGNIN_IP_STARTS) + mostAllowedInWafWindow(ACTIVATION_IP_ATTEMPTS)) *
    COGNITO_CALLS_PER_SIGN_IN +
  CLINIC_STAFF_BEHIND_ONE_IP * OPEN_TABS_PER_PERSON;

/** Requests one address may make to the user pool's public API in 5 minutes before WAF blocks it: 3,000. */
export const USER_POOL_REQUESTS_PER_IP_PER_5_MIN = roundUp(
  USER_POOL_REQUESTS_WITHIN_LAMBDA_LIMITS + REFUSED_RETRY_ROOM,
  500,
);
