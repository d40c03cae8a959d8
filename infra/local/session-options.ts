/**
 * The product's session policy (shared/session-policy.ts, decision 048) as options of the local user
 * pool, so `npm start` and the tests that stand in for it run the lifetimes and the refresh-token
 * rotation the deployed app client has (decision 052).
 */
import {
  ACCESS_TOKEN_VALIDITY_MINUTES,
  ID_TOKEN_VALIDITY_MINUTES,
  REFRESH_TOKEN_GRACE_SECONDS,
  REFRESH_TOKEN_VALIDITY_DAYS,
} from '../../shared/session-policy';
import type { LocalCognitoOptions } from './cognito/local-cognito';

export const PRODUCT_SESSION_OPTIONS = {
  idTokenValiditySeconds: ID_TOKEN_VALIDITY_MINUTES * 60,
  accessTokenValiditySeconds: ACCESS_TOKEN_VALIDITY_MINUTES * 60,
  refreshTokenValiditySeconds: REFRESH_TOKEN_VALIDITY_DAYS * 86_400,
  refreshTokenRotation: { enabled: true, retryGracePeriodSeconds: REFRESH_TOKEN_GRACE_SECONDS },
} as const satisfies Partial<LocalCognitoOptions>;
