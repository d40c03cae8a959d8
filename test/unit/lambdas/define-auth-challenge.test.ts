import { describe, expect, it } from 'vitest';
import { handler } from '../../../lambdas/cognito/define-auth-challenge';
import { customResult, defineEvent } from '../../fixtures/cognito-events';

const issue = { challengeName: 'CUSTOM_CHALLENGE', issueTokens: false, failAuthentication: false };
const tokens = { issueTokens: true, failAuthentication: false };
const fail = { issueTokens: false, failAuthentication: true };

describe('DefineAuthChallenge', () => {
  it.each([
    ['a fresh sign-in', defineEvent([]), issue],
    ['a fresh sign-in of an unknown user (looks the same)', defineEvent([], true), issue],
    ['one correct custom answer', defineEvent([customResult(true)]), tokens],
    ['one wrong custom answer', defineEvent([customResult(false)]), fail],
    ['an unknown user whose answer somehow passed', defineEvent([customResult(true)], true), fail],
    ['a second attempt after a wrong answer', defineEvent([customResult(false), customResult(false)]), fail],
    ['two answers, the last correct', defineEvent([customResult(false), customResult(true)]), fail],
    [
      'an SRP step instead of the custom challenge',
      defineEvent([{ challengeName: 'SRP_A', challengeResult: true }]),
      fail,
    ],
    [
      'a password verifier',
      defineEvent([{ challengeName: 'PASSWORD_VERIFIER', challengeResult: true }]),
      fail,
    ],
  ])('%s', async (_, event, expected) => {
    const answer = await handler(event);
    expect(answer.response).toMatchObject(expected);
  });
});
