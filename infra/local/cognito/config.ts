/**
 * Options of the local user pool, checked once when it is created so a wrong pool id or URL fails
 * at start with a clear message instead of as odd token errors later.
 */
import type {
  Callback,
  Context,
  CreateAuthChallengeTriggerEvent,
  DefineAuthChallengeTriggerEvent,
  PreTokenGenerationV2TriggerEvent,
  VerifyAuthChallengeResponseTriggerEvent,
} from 'aws-lambda';
import { z } from 'zod';
import { generateCredentials, type AwsCredentials } from './sigv4';

/**
 * A Lambda handler as the product exports it: async `(event, context) => event`, or the older
 * callback style, which the Node.js 22 runtime still honours.
 */
export type TriggerHandler<E> = (
  event: E,
  context: Context,
  callback: Callback<E>,
) => void | Promise<E | void>;

export interface PoolTriggers {
  readonly defineAuthChallenge: TriggerHandler<DefineAuthChallengeTriggerEvent>;
  readonly createAuthChallenge: TriggerHandler<CreateAuthChallengeTriggerEvent>;
  readonly verifyAuthChallengeResponse: TriggerHandler<VerifyAuthChallengeResponseTriggerEvent>;
  /**
   * The pre token generation trigger with the V2_0 event, run before every token is made (sign-in and
   * refresh). This endpoint applies the access token's `scopesToAdd` and `scopesToSuppress`; an answer
   * asking for any other change fails the call, rather than leave a token unlike the cloud's.
   */
  readonly preTokenGeneration?: TriggerHandler<PreTokenGenerationV2TriggerEvent>;
}

export type PersistenceOption =
  { readonly kind: 'memory' } | { readonly kind: 'directory'; readonly path: string };

/** The app client's refresh-token rotation, as Cognito's `RefreshTokenRotationType`. */
export interface RefreshTokenRotation {
  /** Cognito's `Feature: ENABLED`: every refresh answers a new refresh token. */
  readonly enabled: boolean;
  /** How long a rotated-out refresh token still works after its first use, 0 to 60 s (0: not at all). */
  readonly retryGracePeriodSeconds: number;
}

export interface LocalCognitoOptions {
  /** AWS region the pool pretends to live in, e.g. `us-west-2`. */
  readonly region: string;
  /** Must look like a real pool id (`us-west-2_xxxx`, same region): Amplify checks the shape. */
  readonly userPoolId: string;
  /** The app client; it allows CUSTOM_AUTH and refresh only, like the product's client. */
  readonly clientId: string;
  /**
   * Whether a verified email works as a sign-in alias (`signInAliases.email` in CDK). Default false,
   * like the product's pool: with the alias, InitiateAuth tells members from strangers.
   */
  readonly emailAlias?: boolean;
  /** More app clients of the same pool, with the same flows (tests use one to mint another audience). */
  readonly additionalClientIds?: readonly string[];
  /** Origin (optionally with a path) clients reach this endpoint at; the issuer is `${publicUrl}/${userPoolId}`. */
  readonly publicUrl: string;
  /** Path the JSON protocol is served on. Default `/`. */
  readonly endpointPath?: string;
  /** Groups to create when missing, e.g. `['admins', 'coaches', 'users']`. */
  readonly groups?: readonly string[];
  /**
   * The Lambda handlers, run in-process: the three of custom auth (without them CUSTOM_AUTH is refused
   * as in Cognito) and optionally pre token generation.
   */
  readonly triggers?: PoolTriggers;
  /** Default `{ kind: 'memory' }`. A directory keeps users, tokens and the signing key across restarts. */
  readonly persistence?: PersistenceOption;
  /** Default 3600 (Cognito allows 300 to 86400). */
  readonly idTokenValiditySeconds?: number;
  /** Default 3600 (Cognito allows 300 to 86400). */
  readonly accessTokenValiditySeconds?: number;
  /** Default 30 days (Cognito allows 1 hour to 10 years). */
  readonly refreshTokenValiditySeconds?: number;
  /**
   * Refresh-token rotation. Default disabled, as in Cognito. Enabled, GetTokensFromRefreshToken
   * answers a new refresh token of the same family (same `origin_jti`, `auth_time` and expiry) and
   * InitiateAuth refuses REFRESH_TOKEN_AUTH, as Cognito does (decision 052).
   */
  readonly refreshTokenRotation?: RefreshTokenRotation;
  /**
   * The IAM access key pair admin calls must be signed with (SigV4). Default: a fresh random pair,
   * readable as `credentials` on what `createLocalCognito` and `startLocalCognitoServer` return.
   */
  readonly credentials?: AwsCredentials;
  /** Clock in epoch milliseconds, for tests. Default `Date.now`. */
  readonly now?: () => number;
  /** Where trigger failures and internal errors are reported. Default `console`. */
  readonly logger?: Pick<Console, 'error'>;
}

const regionPattern = /^[a-z]{2}(-[a-z]+)+-\d$/;
const DAY = 86_400;

const fn = <T>(name: string) =>
  z.custom<T>((value) => typeof value === 'function', { message: `${name} must be a function` });

const optionsSchema = z
  .object({
    region: z.string().regex(regionPattern, 'region must look like us-west-2'),
    userPoolId: z.string(),
    clientId: z.string().regex(/^[\w+]{1,128}$/, 'clientId must be 1 to 128 word characters'),
    emailAlias: z.boolean().default(false),
    additionalClientIds: z
      .array(z.string().regex(/^[\w+]{1,128}$/, 'clientId must be 1 to 128 word characters'))
      .default([]),
    publicUrl: z.url({ protocol: /^https?$/ }),
    endpointPath: z.string().startsWith('/').default('/'),
    groups: z.array(z.string().regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]{1,128}$/u)).default([]),
    triggers: z
      .object({
        defineAuthChallenge: fn<PoolTriggers['defineAuthChallenge']>('defineAuthChallenge'),
        createAuthChallenge: fn<PoolTriggers['createAuthChallenge']>('createAuthChallenge'),
        verifyAuthChallengeResponse: fn<PoolTriggers['verifyAuthChallengeResponse']>(
          'verifyAuthChallengeResponse',
        ),
        preTokenGeneration:
          fn<NonNullable<PoolTriggers['preTokenGeneration']>>('preTokenGeneration').optional(),
      })
      .optional(),
    persistence: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('memory') }),
        z.object({ kind: z.literal('directory'), path: z.string().min(1) }),
      ])
      .default({ kind: 'memory' }),
    idTokenValiditySeconds: z.int().min(300).max(DAY).default(3600),
    accessTokenValiditySeconds: z.int().min(300).max(DAY).default(3600),
    refreshTokenValiditySeconds: z
      .int()
      .min(3600)
      .max(3650 * DAY)
      .default(30 * DAY),
    refreshTokenRotation: z
      .object({ enabled: z.boolean(), retryGracePeriodSeconds: z.int().min(0).max(60) })
      .default({ enabled: false, retryGracePeriodSeconds: 0 }),
    credentials: z
      .object({
        // Like AWS's: 16 to 128 word characters, never a `/` (it separates the credential scope).
        accessKeyId: z.string().regex(/^\w{16,128}$/, 'accessKeyId must be 16 to 128 word characters'),
        secretAccessKey: z.string().min(16, 'secretAccessKey must be at least 16 characters'),
      })
      .default(generateCredentials),
    // Read at every call, so a test that fakes the process clock moves the pool's with the Lambdas'.
    now: fn<() => number>('now').default(() => () => Date.now()),
    logger: z
      .custom<Pick<Console, 'error'>>((v) => typeof v === 'object' && v !== null)
      .default(() => console),
  })
  .refine((o) => new RegExp(`^${o.region}_[0-9a-zA-Z]+$`).test(o.userPoolId), {
    message: 'userPoolId must look like <region>_xxxx (Amplify rejects other shapes)',
    path: ['userPoolId'],
  });

export interface PoolConfig extends Omit<z.output<typeof optionsSchema>, 'publicUrl'> {
  /** `publicUrl` without a trailing slash. */
  readonly publicUrl: string;
  readonly issuer: string;
  readonly jwksPath: string;
}

export const resolveConfig = (options: LocalCognitoOptions): PoolConfig => {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'options'}: ${i.message}`)
      .join('; ');
    throw new Error(`Invalid local Cognito options: ${detail}`);
  }
  const publicUrl = parsed.data.publicUrl.replace(/\/+$/, '');
  const issuer = `${publicUrl}/${parsed.data.userPoolId}`;
  return {
    ...parsed.data,
    publicUrl,
    issuer,
    jwksPath: `${new URL(issuer).pathname}/.well-known/jwks.json`,
  };
};
