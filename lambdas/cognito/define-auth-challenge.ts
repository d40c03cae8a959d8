/**
 * DefineAuthChallenge: exactly one custom challenge, and tokens only after it was answered
 * correctly. Any other session shape (a second attempt, SRP or password challenges, an unknown user's
 * answer) fails the authentication.
 */
import type { DefineAuthChallengeTriggerEvent } from 'aws-lambda';

type Decision = Pick<
  DefineAuthChallengeTriggerEvent['response'],
  'challengeName' | 'issueTokens' | 'failAuthentication'
>;

const customChallenge = (): Decision => ({
  challengeName: 'CUSTOM_CHALLENGE',
  issueTokens: false,
  failAuthentication: false,
});
const allow = (): Decision => ({ challengeName: '', issueTokens: true, failAuthentication: false });
const deny = (): Decision => ({ challengeName: '', issueTokens: false, failAuthentication: true });

const decide = (request: DefineAuthChallengeTriggerEvent['request']): Decision => {
  const session = request.session ?? [];
  // An unknown user gets the same first step as a member, so InitiateAuth tells no one who is a
  // member; VerifyAuthChallengeResponse never accepts an answer for an unknown user.
  if (session.length === 0) return customChallenge();
  if (request.userNotFound) return deny();
  const [only] = session;
  if (session.length === 1 && only?.challengeName === 'CUSTOM_CHALLENGE' && only.challengeResult === true)
    return allow();
  return deny();
};

export const handler = async (
  event: DefineAuthChallengeTriggerEvent,
): Promise<DefineAuthChallengeTriggerEvent> => {
  Object.assign(event.response, decide(event.request));
  return event;
};
