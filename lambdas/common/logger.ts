/**
 * Structured JSON logs. Callers pass only what is safe to log: ids, routes, outcomes, error names.
 * As a second line of defence, any field whose name suggests a secret or health data is redacted.
 */

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * Parts of a field's name that mark it sensitive: a code, a proof or its parts, a credential, a sign-in
 * session (Cognito's `Session`), a list cursor or idempotency key, health data.
 */
const SENSITIVE_PART =
  /^codes?$|activationcode|recoverycode|proof|token|answer|challenge|secret|password|authorization|cookie|signature|publickey|body|^session$|sessionid|cursor|idempotency|jwt|clientdata|authenticatordata|attestation|userhandle|glucose|weight|pressure|measurement|reading|height|birth|^dob$|^notes?$|condition/i;
const SENSITIVE_FIELDS = new Set(
  [
    'email',
    'name',
    'preferredName',
    'familyName',
    'dateOfBirth',
    'heightCm',
    'sexAssignedAtBirth',
    'phoneNumber',
    // Health records (SPEC-2 section 1): readings, notes and what a person ate, did or slept.
    'value',
    'systolic',
    'diastolic',
    'note',
    'description',
    'carbsGrams',
    'activity',
    'minutes',
    'quality',
    'text',
  ].map((field) => field.toLowerCase()),
);
const isSensitive = (key: string): boolean =>
  SENSITIVE_PART.test(key) || SENSITIVE_FIELDS.has(key.toLowerCase());

const threshold = (): number => {
  const configured = (process.env.LOG_LEVEL ?? 'info').toLowerCase() as Level | 'silent';
  return ORDER[configured] ?? ORDER.info;
};

/** Redacts sensitive keys at any depth (objects and arrays), so nesting cannot smuggle a secret out. */
const redact = (value: unknown, depth = 0): unknown => {
  if (depth > 8) return '[truncated]';
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        isSensitive(key) ? '[redacted]' : redact(inner, depth + 1),
      ]),
    );
  }
  return value;
};

const write = (level: Level, message: string, fields: Record<string, unknown> = {}): void => {
  if (ORDER[level] < threshold()) return;
  // The caller's fields come first so they can never overwrite level, time or message.
  const line = JSON.stringify({
    ...(redact(fields) as object),
    level,
    time: new Date().toISOString(),
    message,
  });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
};

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
