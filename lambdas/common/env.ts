/**
 * Configuration of a Lambda, from its environment. A function asks only for what it needs
 * (`tableName('profiles')`, `webauthnConfig()`), and a missing variable fails fast, naming every
 * missing one, rather than surfacing later as an AWS error.
 *
 * Plain code rather than a zod schema on purpose: zod is about 90 KB gzip in a bundle, and the
 * VerifyAuthChallengeResponse trigger, which runs on every sign-in, needs nothing else from it.
 */
import { TABLES, type TableKey } from '../../shared/tables';

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

const read = <N extends string>(...names: N[]): Record<N, string> => {
  const values = names.map((name) => [name, process.env[name]?.trim() ?? ''] as const);
  const missing = values.filter(([, value]) => value === '').map(([name]) => name);
  if (missing.length > 0)
    throw new ConfigurationError(`Missing environment variables: ${missing.join(', ')}`);
  return Object.fromEntries(values) as Record<N, string>;
};

export const tableName = (key: TableKey): string => {
  const variable = TABLES[key].envVar;
  return read(variable)[variable];
};

export const userPoolId = (): string => read('USER_POOL_ID').USER_POOL_ID;

/** The app client whose id tokens the API accepts (the `aud` claim). */
export const userPoolClientId = (): string => read('USER_POOL_CLIENT_ID').USER_POOL_CLIENT_ID;

export interface WebauthnConfig {
  readonly rpId: string;
  readonly rpName: string;
  readonly origins: string[];
}

export const webauthnConfig = (): WebauthnConfig => {
  const env = read('WEBAUTHN_RP_ID', 'WEBAUTHN_RP_NAME', 'WEBAUTHN_ORIGINS');
  return {
    rpId: env.WEBAUTHN_RP_ID,
    rpName: env.WEBAUTHN_RP_NAME,
    origins: env.WEBAUTHN_ORIGINS.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  };
};

/** Minimum length of the cursor signing key: 32 random bytes, hex or base64. */
const CURSOR_KEY_MIN_LENGTH = 32;

/**
 * The key page cursors are signed with (lambdas/common/cursor.ts). In the cloud it is a generated
 * Secrets Manager secret the stack resolves into the environment; locally `npm start` draws one per run.
 */
export const cursorSigningKey = (): string => {
  const key = read('CURSOR_SIGNING_KEY').CURSOR_SIGNING_KEY;
  if (key.length < CURSOR_KEY_MIN_LENGTH)
    throw new ConfigurationError(`CURSOR_SIGNING_KEY must be at least ${CURSOR_KEY_MIN_LENGTH} characters.`);
  return key;
};
