/**
 * Structured JSON logs. Callers pass only what is safe to log: ids, routes, outcomes, error names.
 * As a second line of defence, any field whose name suggests a secret or health data is redacted.
 */

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

const SENSITIVE_PART =
  /^code$|activationcode|proof|token|answer|challenge|secret|password|authorization|cookie|signature|publickey|body/i;
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
  ].map((field) => field.toLowerCase()),
);
const isSensitive = (key: string): boolean =>
  SENSITIVE_PART.test(key) || SENSITIVE_FIELDS.has(key.toLowerCase());

const threshold = (): number => {
  const configured = (process.env.LOG_LEVEL ?? 'info').toLowerCase() as Level | 'silent';
  return ORDER[configured] ?? ORDER.info;
};

const redact = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, isSensitive(key) ? '[redacted]' : value]),
  );

const write = (level: Level, message: string, fields: Record<string, unknown> = {}): void => {
  if (ORDER[level] < threshold()) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...redact(fields) });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
};

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
