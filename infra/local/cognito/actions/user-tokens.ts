/**
 * The signed-in user's own calls: refresh, revoke, sign out everywhere, read own attributes, delete
 * oneself.
 */
import { z } from 'zod';
import { unsupportedTokenType } from '../errors';
import { clientIdSchema, parseInput, stringMapSchema, tokenSchema } from '../input';
import { requireClient, type Pool } from '../pool';
import { refreshThroughTrigger } from '../token-generation';
import { authenticateAccessToken, removeUser, revokeRefreshToken, revokeUserTokens } from '../tokens';
import type { TriggerCall } from '../triggers';
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
  const call: TriggerCall = {
    clientId: input.ClientId,
    awsSdkVersion: request.awsSdkVersion,
    clientMetadata: input.ClientMetadata,
  };
  return { AuthenticationResult: await refreshThroughTrigger(pool, input.RefreshToken, call) };
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

/** Removes the caller's own user, as AdminDeleteUser does: Cognito's self-service DeleteUser. */
const deleteOwnUser = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(accessTokenInput, request.body);
  removeUser(pool, authenticateAccessToken(pool, input.AccessToken));
  await pool.save();
  return {};
};

export const userTokenActions = {
  GetTokensFromRefreshToken: publicAction(getTokensFromRefreshToken),
  RevokeToken: publicAction(revokeToken),
  GlobalSignOut: publicAction(globalSignOut),
  GetUser: publicAction(getUser),
  DeleteUser: publicAction(deleteOwnUser),
};
