/**
 * PreTokenGeneration (trigger event version V2_0): takes Cognito's self-service scope out of every
 * access token, at sign-in and at each refresh.
 *
 * Tokens of an API sign-in (InitiateAuth, then RespondToAuthChallenge) carry
 * `aws.cognito.signin.user.admin`, which lets the person call Cognito's own user API with the access
 * token alone: DeleteUser above all, which would remove their Cognito user without the product's
 * erase, its audit event or the last-admin rule. The SPA makes none of those calls (its sign-out
 * revokes the refresh token, and everything else goes through the product's API), so no token needs
 * the scope. Claims and groups are left as Cognito made them. Decision 063.
 */
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';

/** The scope that authorizes Cognito's user self-service API (GetUser, DeleteUser, GlobalSignOut, ...). */
export const COGNITO_SELF_SERVICE_SCOPE = 'aws.cognito.signin.user.admin';

export const handler = async (
  event: PreTokenGenerationV2TriggerEvent,
): Promise<PreTokenGenerationV2TriggerEvent> => {
  // Whatever the event lists: a suppressed scope the token would not carry changes nothing.
  event.response = {
    claimsAndScopeOverrideDetails: {
      accessTokenGeneration: { scopesToSuppress: [COGNITO_SELF_SERVICE_SCOPE] },
    },
  };
  return event;
};
