/**
 * The pool's durable state and its record shapes. The schemas double as the on-disk format, so a
 * hand-edited or truncated file is refused at start instead of surfacing as odd behaviour later.
 */
import { z } from 'zod';

export const USER_STATUSES = [
  'UNCONFIRMED',
  'CONFIRMED',
  'EXTERNAL_PROVIDER',
  'RESET_REQUIRED',
  'FORCE_CHANGE_PASSWORD',
] as const;

export const userRecordSchema = z.object({
  username: z.string(),
  sub: z.string(),
  /** Attribute name to value, as Cognito stores them: all strings. `sub` lives here too. */
  attributes: z.record(z.string(), z.string()),
  enabled: z.boolean(),
  status: z.enum(USER_STATUSES),
  /** Epoch milliseconds. */
  createdAt: z.number(),
  modifiedAt: z.number(),
  groups: z.array(z.string()),
});
export type UserRecord = z.infer<typeof userRecordSchema>;

export const groupRecordSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  precedence: z.number().optional(),
  createdAt: z.number(),
  modifiedAt: z.number(),
});
export type GroupRecord = z.infer<typeof groupRecordSchema>;

/**
 * One refresh token. Only its SHA-256 is kept: a leaked state folder yields no usable token. With
 * rotation, every refresh adds a record to the sign-in's family: same `originJti`, `authTime` and
 * `expiresAt`.
 */
export const refreshRecordSchema = z.object({
  tokenHash: z.string(),
  /** Shared by every token minted from this sign-in (the family); revocation works on it. */
  originJti: z.string(),
  sub: z.string(),
  clientId: z.string(),
  eventId: z.string(),
  /** Epoch seconds of the sign-in, carried into refreshed tokens as `auth_time`. */
  authTime: z.number(),
  /** Epoch seconds; the family's, counted from the sign-in: rotation does not extend it. */
  expiresAt: z.number(),
  revokedAt: z.number().optional(),
  /**
   * Epoch milliseconds of this token's first use with rotation on: it has been rotated out and works
   * only for the client's retry grace period after that.
   */
  rotatedAt: z.number().optional(),
});
export type RefreshRecord = z.infer<typeof refreshRecordSchema>;

/** A revoked `origin_jti`, kept until every access token that carries it has expired anyway. */
export const revocationSchema = z.object({ originJti: z.string(), keepUntil: z.number() });
export type Revocation = z.infer<typeof revocationSchema>;

export const signingKeySchema = z.object({
  kid: z.string(),
  privateKeyPem: z.string(),
  createdAt: z.number(),
});
export type SigningKeyRecord = z.infer<typeof signingKeySchema>;

export interface PoolState {
  /** Keyed by lower-cased username: the pool is case-insensitive. */
  readonly users: Map<string, UserRecord>;
  readonly groups: Map<string, GroupRecord>;
  /** Keyed by token hash. */
  readonly refreshTokens: Map<string, RefreshRecord>;
  /** Keyed by origin_jti. */
  readonly revocations: Map<string, Revocation>;
}

export const emptyState = (): PoolState => ({
  users: new Map(),
  groups: new Map(),
  refreshTokens: new Map(),
  revocations: new Map(),
});

export const usernameKey = (username: string): string => username.toLowerCase();
