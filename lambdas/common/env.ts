/**
 * Configuration of a Lambda, read once from the environment through zod. A function asks only for
 * what it needs (`tableName('profiles')`, `webauthnConfig()`), and a missing variable fails fast
 * with its name rather than surfacing later as an AWS error.
 */
import { z } from 'zod';
import { TABLES, type TableKey } from '../../shared/tables';

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

const read = <T extends z.ZodType>(schema: T, source: Record<string, string | undefined>): z.infer<T> => {
  const result = schema.safeParse(source);
  if (!result.success) {
    const names = result.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new ConfigurationError(`Missing or invalid environment variables: ${names}`);
  }
  return result.data;
};

const required = z.string().trim().min(1);

export const tableName = (key: TableKey): string => {
  const variable = TABLES[key].envVar;
  return read(z.object({ [variable]: required }), process.env)[variable] as string;
};

export const userPoolId = (): string => read(z.object({ USER_POOL_ID: required }), process.env).USER_POOL_ID;

/** The app client whose id tokens the API accepts (the `aud` claim). */
export const userPoolClientId = (): string =>
  read(z.object({ USER_POOL_CLIENT_ID: required }), process.env).USER_POOL_CLIENT_ID;

export interface WebauthnConfig {
  readonly rpId: string;
  readonly rpName: string;
  readonly origins: string[];
}

const webauthnSchema = z.object({
  WEBAUTHN_RP_ID: required,
  WEBAUTHN_RP_NAME: required,
  WEBAUTHN_ORIGINS: required.transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  ),
});

export const webauthnConfig = (): WebauthnConfig => {
  const env = read(webauthnSchema, process.env);
  return { rpId: env.WEBAUTHN_RP_ID, rpName: env.WEBAUTHN_RP_NAME, origins: env.WEBAUTHN_ORIGINS };
};
