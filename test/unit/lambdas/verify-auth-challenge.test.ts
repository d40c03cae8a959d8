import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../../lambdas/cognito/verify-auth-challenge';
import { ddb } from '../../../lambdas/common/aws';
import { verifyEvent } from '../../fixtures/cognito-events';

const wellFormedProof = 'A'.repeat(43);

describe('VerifyAuthChallengeResponse', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('treats any failure while redeeming the proof as a wrong answer, never a crash', async () => {
    // No table configured: redeeming throws inside the trigger.
    vi.stubEnv('AUTH_CHALLENGES_TABLE', '');
    const answer = await handler(verifyEvent(wellFormedProof));
    expect(answer.response.answerCorrect).toBe(false);
  });

  it('looks a well-formed answer up, once, and refuses it when no proof matches', async () => {
    vi.stubEnv('AUTH_CHALLENGES_TABLE', 'auth-challenges');
    // DynamoDB answers the conditional delete with nothing deleted.
    const send = vi.spyOn(ddb, 'send').mockResolvedValue({} as never);
    const answer = await handler(verifyEvent(wellFormedProof));
    expect(answer.response.answerCorrect).toBe(false);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['an empty answer', ''],
    ['a short answer', 'abc'],
    ['an answer with padding', `${'A'.repeat(42)}=`],
    ['a JSON answer', '{"proof":"x"}'],
  ])('refuses %s without a database call', async (_, challengeAnswer) => {
    const send = vi.spyOn(ddb, 'send');
    const answer = await handler(verifyEvent(challengeAnswer));
    expect(answer.response.answerCorrect).toBe(false);
    expect(send).not.toHaveBeenCalled();
  });

  it('refuses every answer for an unknown user without a database call', async () => {
    const send = vi.spyOn(ddb, 'send');
    const answer = await handler(verifyEvent(wellFormedProof, 'nobody', true));
    expect(answer.response.answerCorrect).toBe(false);
    expect(send).not.toHaveBeenCalled();
  });
});
