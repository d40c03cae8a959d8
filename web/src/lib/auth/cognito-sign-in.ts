import { confirmSignIn, signIn } from 'aws-amplify/auth';
import { TOO_MANY_SIGNIN_STARTS } from '../../../../shared/limits';
import { MESSAGES } from '../../../../shared/messages';

/**
 * What Cognito answers when the user pool's web ACL blocks the address (docs/decisions/050-waf-and-token-policy.md):
 * a 403 with no message of ours. Its rate rule counts 5 minutes, as the API's sign-in limit does, so the
 * person reads that limit's text rather than Cognito's.
 */
const BLOCKED_BY_WAF = 'ForbiddenException';

const blockedAsLimit = (error: unknown): never => {
  if (error instanceof Error && error.name === BLOCKED_BY_WAF) throw new Error(TOO_MANY_SIGNIN_STARTS);
  throw error;
};

/**
 * Cognito custom auth without SRP: the proof and the user id go along as client metadata, and
 * the proof is the answer to the one custom challenge (DESIGN section 4).
 */
export const customSignInWithProof = async (
  cognitoUsername: string,
  proof: string,
  userId: string,
): Promise<void> => {
  const clientMetadata = { passkeyProof: proof, userId };
  const started = await signIn({
    username: cognitoUsername,
    options: { authFlowType: 'CUSTOM_WITHOUT_SRP', clientMetadata },
  }).catch(blockedAsLimit);
  if (started.nextStep.signInStep !== 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE') {
    throw new Error(MESSAGES.passkeySignInFailed);
  }
  const confirmed = await confirmSignIn({ challengeResponse: proof, options: { clientMetadata } }).catch(
    blockedAsLimit,
  );
  if (!confirmed.isSignedIn) throw new Error(MESSAGES.passkeySignInFailed);
};
