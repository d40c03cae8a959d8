import {
  passkeyVerifyResponseSchema,
  verifyWebauthnRequestSchema,
  type PasskeyVerifyResponse,
} from '../../../../../shared/schemas';
import { apiRequest, validateRequest } from '../../../lib/api-client';

/** Step 3 of passkey sign-in: the server checks the assertion and answers a single-use proof. */
export const verifyWebauthn = (input: {
  sessionId: string;
  authenticationResponse: unknown;
}): Promise<PasskeyVerifyResponse> =>
  apiRequest('/v1/auth/verify-webauthn', {
    method: 'POST',
    body: validateRequest(verifyWebauthnRequestSchema, input),
    auth: false,
    schema: passkeyVerifyResponseSchema,
  });
