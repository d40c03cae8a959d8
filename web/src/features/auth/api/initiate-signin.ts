import { signInStartResponseSchema, type SignInStartResponse } from '../../../../../shared/schemas';
import { apiRequest } from '../../../lib/api-client';

/** Step 1 of passkey sign-in: a fresh challenge for a discoverable credential. */
export const initiateSignIn = (): Promise<SignInStartResponse> =>
  apiRequest('/v1/auth/initiate-signin', {
    method: 'POST',
    body: {},
    auth: false,
    schema: signInStartResponseSchema,
  });
