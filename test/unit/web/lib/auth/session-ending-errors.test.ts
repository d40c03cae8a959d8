/**
 * `onSessionRevoked` keeps its own list of the refresh failures after which Amplify drops the stored
 * tokens, because Amplify's list is private to its token orchestrator (ADR 052). This runs the real
 * orchestrator of the installed Amplify, unmocked, against every error Cognito documents for a refresh
 * (`InitiateAuth` and `GetTokensFromRefreshToken` in the installed SDK) and a network failure: the app
 * must end the session exactly when Amplify cleared the tokens. An Amplify upgrade that changes its list
 * fails here instead of leaving a person signed in with no tokens, or signed out with good ones.
 */
import { TokenOrchestrator } from 'aws-amplify/auth/cognito';
import { afterEach, describe, expect, it } from 'vitest';
import { onSessionRevoked } from '../../../../../web/src/lib/auth/cognito';

/** Every exception the installed SDK documents for the two refresh calls, and what a failed fetch throws. */
const REFRESH_FAILURES = [
  'CognitoIdentityProviderServiceException',
  'FeatureUnavailableInTierException',
  'ForbiddenException',
  'InternalErrorException',
  'InvalidEmailRoleAccessPolicyException',
  'InvalidLambdaResponseException',
  'InvalidParameterException',
  'InvalidSmsRoleAccessPolicyException',
  'InvalidSmsRoleTrustRelationshipException',
  'InvalidUserPoolConfigurationException',
  'NotAuthorizedException',
  'OperationNotEnabledException',
  'PasswordResetRequiredException',
  'RefreshTokenReuseException',
  'ResourceNotFoundException',
  'TooManyRequestsException',
  'UnexpectedLambdaException',
  'UnsupportedOperationException',
  'UserLambdaValidationException',
  'UserNotConfirmedException',
  'UserNotFoundException',
  'NetworkError',
];

const expiredToken = (exp: number) => ({ toString: () => 'token', payload: { exp } });

/** Refreshes once through a real orchestrator whose refresher fails with `name`. */
const refreshFailingWith = async (name: string) => {
  let cleared = false;
  const orchestrator = new TokenOrchestrator();
  orchestrator.setAuthConfig({ Cognito: { userPoolId: 'us-west-2_TestPool1', userPoolClientId: 'client' } });
  orchestrator.setAuthTokenStore({
    loadTokens: () =>
      Promise.resolve({
        accessToken: expiredToken(1),
        idToken: expiredToken(1),
        refreshToken: 'refresh',
        clockDrift: 0,
        username: 'person',
      }),
    getLastAuthUser: () => Promise.resolve('person'),
    storeTokens: () => Promise.resolve(),
    clearTokens: () => {
      cleared = true;
      return Promise.resolve();
    },
    setKeyValueStorage: () => undefined,
    getDeviceMetadata: () => Promise.resolve(null),
    clearDeviceMetadata: () => Promise.resolve(),
    setOAuthMetadata: () => Promise.resolve(),
    getOAuthMetadata: () => Promise.resolve(null),
  });
  orchestrator.setTokenRefresher(() => {
    const error = new Error(`${name} from the refresh`);
    error.name = name;
    return Promise.reject(error);
  });
  await orchestrator.getTokens().catch(() => undefined);
  return cleared;
};

describe('the refresh failures that end the session', () => {
  let unsubscribe = () => {};
  afterEach(() => unsubscribe());

  it.each(REFRESH_FAILURES)('%s ends the session exactly when Amplify drops the tokens', async (name) => {
    let ended = false;
    unsubscribe = onSessionRevoked(() => {
      ended = true;
    });
    const cleared = await refreshFailingWith(name);
    expect(ended).toBe(cleared);
  });

  it('the installed Amplify drops the tokens on the failures the app knows, and keeps them on throttling', async () => {
    // The comparison above would hold trivially if the orchestrator never cleared or never failed.
    expect(await refreshFailingWith('NotAuthorizedException')).toBe(true);
    expect(await refreshFailingWith('RefreshTokenReuseException')).toBe(true);
    expect(await refreshFailingWith('TooManyRequestsException')).toBe(false);
    expect(await refreshFailingWith('NetworkError')).toBe(false);
  });
});
