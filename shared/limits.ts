/**
 * SPEC-2 section 5: the abuse limits the Lambdas enforce with DynamoDB counters, locally and in the
 * cloud alike. WAF's rate rules in front of them (infra) are looser, so a person meets these first
 * and reads the product's message.
 */
const MINUTE_MS = 60_000;

/** Wrong activation codes for one email before that email is locked for the window. */
export const ACTIVATION_EMAIL_FAILURES = { limit: 5, windowMs: 15 * MINUTE_MS } as const;
/** Activation attempts (verify-activation and register-passkey) from one source IP. */
export const ACTIVATION_IP_ATTEMPTS = { limit: 100, windowMs: 15 * MINUTE_MS } as const;
/** Sign-in starts (initiate-signin) from one source IP. */
export const SIGNIN_IP_STARTS = { limit: 300, windowMs: 5 * MINUTE_MS } as const;

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait 15 minutes and try again.';
/** SPEC-2 gives no text for the sign-in limit; this one names its own window (ADR 049). */
export const TOO_MANY_SIGNIN_STARTS = 'Too many sign-in attempts. Please wait 5 minutes and try again.';
