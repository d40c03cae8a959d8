import type { SessionUser } from '../../../../web/src/lib/auth/session-user';
import * as cognito from './cognito-mock';
import { authenticationOptions, authenticationResponse, passkeyProof } from './factories';
import type { fakeApi } from './fake-api';
import * as passkey from './passkey-mock';

/**
 * The next passkey sign-in on /signin succeeds as `who`: the API's two sign-in calls answer, the
 * browser gives an assertion, and Cognito's session is then `who`'s.
 */
export const givenPasskeySignInAs = (api: ReturnType<typeof fakeApi>, who: SessionUser): void => {
  api.set('POST /v1/auth/initiate-signin', {
    sessionId: 'session-1',
    authenticationOptions: authenticationOptions(),
  });
  api.set('POST /v1/auth/verify-webauthn', passkeyProof());
  passkey.getPasskeyAssertion.mockResolvedValue(authenticationResponse());
  cognito.signInWithPasskeyProof.mockImplementation(() => {
    cognito.givenSession(who);
    return Promise.resolve(who);
  });
};
