/**
 * The product's Cognito triggers (TRIGGERS in lambdas/routes.ts) for the local pool: the real
 * handlers, so `npm start` and the integration tests sign in through the code the stage deploys.
 */
import { handler as createAuthChallenge } from '../../lambdas/cognito/create-auth-challenge';
import { handler as defineAuthChallenge } from '../../lambdas/cognito/define-auth-challenge';
import { handler as preTokenGeneration } from '../../lambdas/cognito/pre-token-generation';
import { handler as verifyAuthChallengeResponse } from '../../lambdas/cognito/verify-auth-challenge';
import type { PoolTriggers } from './cognito/config';

export const PRODUCT_TRIGGERS: PoolTriggers = {
  defineAuthChallenge,
  createAuthChallenge,
  verifyAuthChallengeResponse,
  preTokenGeneration,
};
