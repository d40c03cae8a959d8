/** The signed-in user's own calls: refresh, revoke, sign out everywhere, read own attributes. */
import { z } from 'zod';
import { unsupportedTokenType } from '../errors';
import { clientIdSchema, parseInput, stringMapSchema, tokenSchema } from '../input';
import { requireClient, type Pool } from '../pool';
import { authenticateAccessToken, refresh, revokeRefreshToken, revokeUserTokens } from '../tokens';
import { attributeList } from '../users';
import { publicAction, type ActionRequest } from './action';

const refreshInput = z.object({
  RefreshToken: tokenSchema,
  ClientId: clientIdSchema,
  ClientSecret: z.string().optional(),
  ClientMetadata: stringMapSchema.optional(),
  DeviceKey: z.string().optional(),
});
const revokeInput = z.object({
  Token: tokenSchema,
  ClientId: clientIdSchema,
  ClientSecret: z.string().optional(),
});
const accessTokenInput = z.object({ AccessToken: tokenSchema });

const looksLikeJwt = (token: string): boolean => token.split('.').length === 3;

const getTokensFromRefreshToken = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(refreshInput, request.body);
  requireClient(pool, input.ClientId);
  // With rotation the answer carries the new refresh token, and the old one starts its grace period.
  const result = refresh(pool, input.RefreshToken, input.ClientId);
  if (result.RefreshToken !== undefined) await pool.save();
  return { AuthenticationResult: result };
};

const revokeToken = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(revokeInput, request.body);
  requireClient(pool, input.ClientId);
  if (looksLikeJwt(input.Token)) throw unsupportedTokenType('Only refresh tokens can be revoked.');
  // Any token of a rotated family ends the whole family. An unknown or already revoked token
  // answers success, as RFC 7009 revocation does.
  if (revokeRefreshToken(pool, input.Token, input.ClientId)) await pool.save();
  return {};
};

const globalSignOut = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(accessTokenInput, request.body);
  const user = authenticateAccessToken(pool, input.AccessToken);
  revokeUserTokens(pool, user.sub);
  await pool.save();
  return {};
};

const getUser = (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(accessTokenInput, request.body);
  const user = authenticateAccessToken(pool, input.AccessToken);
  return Promise.resolve({ Username: user.username, UserAttributes: attributeList(user) });
};

export const userTokenActions = {
  GetTokensFromRefreshToken: publicAction(getTokensFromRefreshToken),
  RevokeToken: publicAction(revokeToken),
  GlobalSignOut: publicAction(globalSignOut),
  GetUser: publicAction(getUser),
};
