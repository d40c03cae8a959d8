/** Business constants of SPEC section 9. Every number here is part of the product contract. */

export const APP_VERSION = '0.6.0';

export const ROLE_GROUPS = ['admins', 'coaches', 'users'] as const;
export type RoleGroup = (typeof ROLE_GROUPS)[number];
export const ROLES = ['admin', 'coach', 'user'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_INVITATION_ROLES: readonly RoleGroup[] = ['users'];

export const ACTIVATION_CODE_LENGTH = 16;
export const ACTIVATION_CODE_FORMATTED_LENGTH = 19;
export const ACTIVATION_CODE_PLACEHOLDER = 'XXXX-XXXX-XXXX-XXXX';

export const NAME_MAX = 200;
export const PREFERRED_NAME_MAX = 100;
export const FAMILY_NAME_MAX = 100;
export const HEIGHT_CM_MIN = 50;
export const HEIGHT_CM_MAX = 300;
export const HEIGHT_FEET_MIN = 1;
export const HEIGHT_FEET_MAX = 9;
export const HEIGHT_INCHES_MIN = 0;
export const HEIGHT_INCHES_MAX = 11;
export const ONBOARDING_AGE_MIN = 13;
export const ONBOARDING_AGE_MAX = 120;

export const CM_PER_FOOT = 30.48;
export const CM_PER_INCH = 2.54;

export const DEFAULT_TIMEZONE = 'UTC';
export const DEFAULT_LOCALE = 'en-US';
/** The longest IANA time zone name and BCP 47 language tag a profile keeps (RFC 5646's 35 for a tag). */
export const TIMEZONE_MAX_LENGTH = 64;
export const LOCALE_MAX_LENGTH = 35;
export const DEFAULT_SEX_ASSIGNED_AT_BIRTH = 'prefer-not-to-say';
export const DEFAULT_MEASUREMENT_SYSTEM = 'metric';
/** The browser language that makes imperial the default measurement system. */
export const IMPERIAL_DEFAULT_LANGUAGE = 'en-US';

export const QUERY_STALE_TIME_MS = 60_000;
export const PROFILE_STALE_TIME_MS = 300_000;
export const QUERY_GC_TIME_MS = 300_000;
export const QUERY_RETRY = 1;
export const MUTATION_RETRY = 1;

export const TOKEN_EXPIRY_TOLERANCE_MS = 5_000;
export const CREDENTIALS_CACHE_LIFETIME_MS = 3_000_000;
export const COOKIE_STORAGE_EXPIRES_DAYS = 365;
export const COPY_CONFIRMATION_MS = 3_000;

export const RETRY_DEFAULT_ATTEMPTS = 3;
export const RETRY_BASE_DELAY_MS = 100;
export const RETRY_JITTER_MS = 100;
export const RETRY_MAX_DELAY_MS = 300_000;
export const RETRYABLE_STATUS_CODES: readonly number[] = [429, 500, 502, 503, 504];

export const DEFAULT_REGION = 'us-west-2';

/** The relying-party name passkey managers show next to the passkey. */
export const WEBAUTHN_RP_NAME = 'Metabolic Health Coaching';

/**
 * The request header that makes a create safe to send again (docs/decisions/061-idempotent-creates.md):
 * a UUID the SPA makes once per create and sends with each try.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * A lowercase UUID of RFC 9562 (version 1 to 8, its variant): the ids of records and the idempotency
 * keys that become them. As strict as the answer schemas' `z.uuid()`, so that no key is stored as an id
 * the app then refuses to read (a page holding it would fail for the person and their coach).
 */
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(value);

/** A recovery code works for 24 hours (SPEC-2 section 3.2). */
export const RECOVERY_CODE_TTL_SECONDS = 24 * 60 * 60;

/** Server-side limits (SPEC leaves them open; see docs/decisions/002-server-limits.md). */
export const MAX_REQUEST_BODY_BYTES = 32 * 1024;
/**
 * Lambda's limit on what a synchronous invocation answers: the proxy result, serialized, at most 6 MB
 * (AWS Lambda quotas, "Invocation payload (request and response)"). Over it the function's answer is
 * lost and API Gateway answers 502, as the local gateway does.
 */
export const LAMBDA_RESPONSE_MAX_BYTES = 6 * 1024 * 1024;
/**
 * How long an API function may run in the stage before Lambda stops it (API Gateway's own limit is 29 s)
 * and API Gateway answers 502; the local gateway answers the same 502 when a handler runs longer.
 */
export const API_FUNCTION_TIMEOUT_SECONDS = 10;
export const REGISTRATION_CHALLENGE_TTL_SECONDS = 300;
export const SIGNIN_SESSION_TTL_SECONDS = 300;
export const PASSKEY_PROOF_TTL_SECONDS = 120;
/**
 * A person has at most this many passkeys (docs/decisions/044-account-lifecycle.md): a recovery removes
 * every one of them in one transaction, which DynamoDB caps at 100 items, and no person needs more.
 */
export const MAX_PASSKEYS = 20;
export const WEBAUTHN_TIMEOUT_MS = 120_000;
