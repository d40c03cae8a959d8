/** Refreshes that run the pre token generation trigger between checking the token and minting. */
import { refresh, refreshTokenUser, type AuthenticationResult } from './tokens';
import { accessTokenScopes, type TriggerCall } from './triggers';
import type { Pool } from './pool';

/**
 * New tokens from a refresh token, through the pre token generation trigger. The token is checked
 * before the trigger runs and again after, as it may have been revoked meanwhile. With rotation the
 * answer carries the new refresh token (the state changed: saved here), and the old one starts its
 * grace period.
 */
export const refreshThroughTrigger = async (
  pool: Pool,
  refreshToken: string,
  call: TriggerCall,
): Promise<AuthenticationResult> => {
  const user = refreshTokenUser(pool, refreshToken, call.clientId);
  const scopes = await accessTokenScopes(pool, user, call, 'TokenGeneration_RefreshTokens');
  const result = refresh(pool, refreshToken, call.clientId, scopes);
  if (result.RefreshToken !== undefined) await pool.save();
  return result;
};
