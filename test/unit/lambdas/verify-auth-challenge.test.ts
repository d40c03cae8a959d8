import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../../lambdas/cognito/verify-auth-challenge';
import { verifyEvent } from '../../fixtures/cognito-events';

const wellFormedProof = 'A'.repeat(43);

describe('VerifyAuthChallengeResponse', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('treats any failure while redeeming the proof as a wrong answer, never a crash', async () => {
    // No table configured: redeeming throws inside the trigger.
    vi.stubEnv('AUTH_CHALLENGES_TABLE', '');
    const answer = await handler(verifyEvent(wellFormedProof));
    expect(answer.response.answerCorrect).toBe(false);
  });

  it.each([
    ['an empty answer', ''],
    ['a short answer', 'abc'],
    ['an answer with padding', `${'A'.repeat(42)}=`],
    ['a JSON answer', '{"proof":"x"}'],
  ])('refuses %s', async (_, challengeAnswer) => {
    vi.stubEnv('AUTH_CHALLENGES_TABLE', '');
    const answer = await handler(verifyEvent(challengeAnswer));
    expect(answer.response.answerCorrect).toBe(false);
  });

  it('refuses every answer for an unknown user', async () => {
    const answer = await handler(verifyEvent(wellFormedProof, 'nobody', true));
    expect(answer.response.answerCorrect).toBe(false);
  });
});
