import { confirmSignIn, signIn } from 'aws-amplify/auth';
import { MESSAGES } from '../../../../shared/messages';

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
  });
  if (started.nextStep.signInStep !== 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE') {
    throw new Error(MESSAGES.passkeySignInFailed);
  }
  const confirmed = await confirmSignIn({ challengeResponse: proof, options: { clientMetadata } });
  if (!confirmed.isSignedIn) throw new Error(MESSAGES.passkeySignInFailed);
};
