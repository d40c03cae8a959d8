/**
 * VerifyAuthChallengeResponse: the ANSWER must be a passkey proof issued to this user. Cognito does
 * not pass InitiateAuth's ClientMetadata here, and ClientMetadata is the caller's word anyway: only the
 * answer is trusted, and only after it is consumed. Any failure is a wrong answer, never a crash.
 */
import type { VerifyAuthChallengeResponseTriggerEvent } from 'aws-lambda';
import { logger } from '../common/logger';
import { redeemPasskeyProof } from './passkey-proof';

export const handler = async (
  event: VerifyAuthChallengeResponseTriggerEvent,
): Promise<VerifyAuthChallengeResponseTriggerEvent> => {
  try {
    event.response.answerCorrect =
      !event.request.userNotFound &&
      (await redeemPasskeyProof(event.request.challengeAnswer, event.userName));
  } catch (error) {
    logger.error('proof verification failed', {
      errorName: error instanceof Error ? error.name : typeof error,
    });
    event.response.answerCorrect = false;
  }
  return event;
};
