/**
 * Token lifecycle: id and access tokens with Cognito's claims, opaque refresh tokens kept only as
 * hashes (rotated on every refresh when the client rotates them), and revocation by `origin_jti`
 * (the sign-in every token of a family descends from), which is how Cognito's RevokeToken and
 * GlobalSignOut reach access tokens already handed out.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { notAuthorized, refreshTokenReuse, userDisabled, userNotFound } from './errors';
import { isClientOf, type Pool } from './pool';
import { usernameKey, type RefreshRecord, type UserRecord } from './state';
import { attributeClaims, findUserBySub, groupsOf } from './users';

export interface AuthenticationResult {
  AccessToken: string;
  IdToken: string;
  RefreshToken?: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
}

interface Lineage {
  readonly originJti: string;
  readonly eventId: string;
  readonly authTime: number;
  readonly clientId: string;
}

const SELF_SERVICE_SCOPE = 'aws.cognito.signin.user.admin';

/** What Cognito puts in the access token of an API sign-in, before a pre token generation trigger. */
export const DEFAULT_ACCESS_SCOPES: readonly string[] = [SELF_SERVICE_SCOPE];

export const hashRefreshToken = (token: string): string => createHash('sha256').update(token).digest('hex');

const mintTokens = (
  pool: Pool,
  user: UserRecord,
  lineage: Lineage,
  scopes: readonly string[],
): Omit<AuthenticationResult, 'RefreshToken'> => {
  const { config } = pool;
  const iat = pool.nowSeconds();
  const groups = groupsOf(pool.state, user).map((g) => g.name);
  const groupClaim = groups.length > 0 ? { 'cognito:groups': groups } : {};
  // A token whose every scope a trigger suppressed carries no `scope` claim at all.
  const scopeClaim = scopes.length > 0 ? { scope: scopes.join(' ') } : {};
  const common = {
    iss: config.issuer,
    origin_jti: lineage.originJti,
    event_id: lineage.eventId,
    auth_time: lineage.authTime,
  };
  const idToken = pool.key.sign({
    sub: user.sub,
    ...groupClaim,
    ...attributeClaims(user),
    ...common,
    'cognito:username': user.username,
    aud: lineage.clientId,
    token_use: 'id',
    exp: iat + config.idTokenValiditySeconds,
    iat,
    jti: randomUUID(),
  });
  const accessToken = pool.key.sign({
    sub: user.sub,
    ...groupClaim,
    ...common,
    client_id: lineage.clientId,
    token_use: 'access',
    ...scopeClaim,
    exp: iat + config.accessTokenValiditySeconds,
    iat,
    jti: randomUUID(),
    username: user.username,
  });
  return {
    AccessToken: accessToken,
    IdToken: idToken,
    ExpiresIn: config.accessTokenValiditySeconds,
    TokenType: 'Bearer',
  };
};

const newRefreshToken = (): string => randomBytes(64).toString('base64url');

/**
 * A completed sign-in: a new token family with its refresh token, its access token carrying `scopes`.
 * Call `pool.save()` afterwards.
 */
export const signIn = (
  pool: Pool,
  user: UserRecord,
  clientId: string,
  scopes: readonly string[],
): AuthenticationResult => {
  pruneTokens(pool);
  const refreshToken = newRefreshToken();
  const now = pool.nowSeconds();
  const record: RefreshRecord = {
    tokenHash: hashRefreshToken(refreshToken),
    originJti: randomUUID(),
    sub: user.sub,
    clientId,
    eventId: randomUUID(),
    authTime: now,
    expiresAt: now + pool.config.refreshTokenValiditySeconds,
  };
  pool.state.refreshTokens.set(record.tokenHash, record);
  return { ...mintTokens(pool, user, record, scopes), RefreshToken: refreshToken };
};

/** Whether a rotated-out refresh token's retry grace period is over (at once with a grace of 0). */
const graceOver = (pool: Pool, record: RefreshRecord): boolean =>
  record.rotatedAt !== undefined &&
  pool.nowMs() >= record.rotatedAt + pool.config.refreshTokenRotation.retryGracePeriodSeconds * 1000;

/** The refresh token's record and its user, with Cognito's refusals; changes nothing. */
const redeemable = (
  pool: Pool,
  refreshToken: string,
  clientId: string,
): { record: RefreshRecord; user: UserRecord } => {
  const record = pool.state.refreshTokens.get(hashRefreshToken(refreshToken));
  if (!record || record.clientId !== clientId) throw notAuthorized('Invalid Refresh Token');
  if (record.revokedAt !== undefined) throw notAuthorized('Refresh Token has been revoked');
  if (record.expiresAt <= pool.nowSeconds()) throw notAuthorized('Refresh Token has expired');
  if (graceOver(pool, record)) throw refreshTokenReuse('Refresh Token has been rotated');
  const user = findUserBySub(pool.state, record.sub);
  if (!user) throw notAuthorized('Refresh Token has been revoked');
  if (!user.enabled) throw userDisabled();
  return { record, user };
};

/** Whom a refresh token would make tokens for now (for the pre token generation trigger). */
export const refreshTokenUser = (pool: Pool, refreshToken: string, clientId: string): UserRecord =>
  redeemable(pool, refreshToken, clientId).user;

/**
 * New id and access tokens from a refresh token, the access token carrying `scopes`. With rotation,
 * also a new refresh token of the same family (same `origin_jti`, `auth_time` and expiry: the session
 * is counted from the sign-in), and the submitted one works only for the retry grace period after its
 * first use. When the answer carries a `RefreshToken`, the state changed: call `pool.save()`.
 */
export const refresh = (
  pool: Pool,
  refreshToken: string,
  clientId: string,
  scopes: readonly string[],
): AuthenticationResult => {
  const { record, user } = redeemable(pool, refreshToken, clientId);
  const tokens = mintTokens(pool, user, record, scopes);
  if (!pool.config.refreshTokenRotation.enabled) return tokens;

  pruneTokens(pool);
  record.rotatedAt ??= pool.nowMs();
  const next = newRefreshToken();
  const successor: RefreshRecord = {
    tokenHash: hashRefreshToken(next),
    originJti: record.originJti,
    sub: record.sub,
    clientId: record.clientId,
    eventId: record.eventId,
    authTime: record.authTime,
    expiresAt: record.expiresAt,
  };
  pool.state.refreshTokens.set(successor.tokenHash, successor);
  return { ...tokens, RefreshToken: next };
};

/** Revokes the whole family of `record`: every refresh token of its sign-in, and the access tokens. */
const revokeFamily = (pool: Pool, record: RefreshRecord): void => {
  const now = pool.nowSeconds();
  for (const member of pool.state.refreshTokens.values()) {
    if (member.originJti === record.originJti) member.revokedAt ??= now;
  }
  // Tokens minted before now expire within one lifetime; after that the entry is dead weight.
  const keepUntil =
    now + Math.max(pool.config.idTokenValiditySeconds, pool.config.accessTokenValiditySeconds);
  pool.state.revocations.set(record.originJti, { originJti: record.originJti, keepUntil });
};

/**
 * RevokeToken: any refresh token of a family (a rotated-out one too) revokes the whole family. False
 * when the token is unknown to this client (nothing to revoke).
 */
export const revokeRefreshToken = (pool: Pool, refreshToken: string, clientId: string): boolean => {
  const record = pool.state.refreshTokens.get(hashRefreshToken(refreshToken));
  if (!record || record.clientId !== clientId) return false;
  revokeFamily(pool, record);
  return true;
};

/** GlobalSignOut and friends: every token family of the user, on every client. */
export const revokeUserTokens = (pool: Pool, sub: string): void => {
  for (const record of pool.state.refreshTokens.values()) {
    if (record.sub === sub && record.revokedAt === undefined) revokeFamily(pool, record);
  }
};

/** AdminDeleteUser and DeleteUser: the user is gone, and so is every token of theirs. Then `pool.save()`. */
export const removeUser = (pool: Pool, user: UserRecord): void => {
  revokeUserTokens(pool, user.sub);
  pool.state.users.delete(usernameKey(user.username));
};

/**
 * The user behind an access token presented to the self-service calls (GetUser, GlobalSignOut,
 * DeleteUser), with Cognito's refusals: each needs the token to carry `aws.cognito.signin.user.admin`.
 */
export const authenticateAccessToken = (pool: Pool, token: string): UserRecord => {
  const claims = pool.key.verify(token);
  if (
    !claims ||
    claims['token_use'] !== 'access' ||
    claims['iss'] !== pool.config.issuer ||
    !isClientOf(pool, claims['client_id']) ||
    typeof claims['sub'] !== 'string' ||
    typeof claims['exp'] !== 'number' ||
    typeof claims['origin_jti'] !== 'string'
  ) {
    throw notAuthorized('Invalid Access Token');
  }
  if (claims['exp'] <= pool.nowSeconds()) throw notAuthorized('Access Token has expired');
  if (pool.state.revocations.has(claims['origin_jti'])) throw notAuthorized('Access Token has been revoked');
  const scopes = typeof claims['scope'] === 'string' ? claims['scope'].split(' ') : [];
  if (!scopes.includes(SELF_SERVICE_SCOPE)) throw notAuthorized('Access Token does not have required scopes');
  const user = findUserBySub(pool.state, claims['sub']);
  if (!user) throw userNotFound();
  if (!user.enabled) throw userDisabled();
  return user;
};

/** Drops refresh tokens past their expiry and revocations no live token can need. */
export const pruneTokens = (pool: Pool): void => {
  const now = pool.nowSeconds();
  for (const [hash, record] of pool.state.refreshTokens)
    if (record.expiresAt <= now) pool.state.refreshTokens.delete(hash);
  for (const [jti, revocation] of pool.state.revocations)
    if (revocation.keepUntil <= now) pool.state.revocations.delete(jti);
};
