import {
  activationVerifyResponseSchema,
  verifyActivationRequestSchema,
  type ActivationVerifyResponse,
} from '../../../../../shared/schemas';
import { apiRequest, validateRequest } from '../../../lib/api-client';

export interface ActivationInput {
  email: string;
  /** As typed: with or without dashes. */
  activationCode: string;
}

/** Checks email and code; a valid pair answers the passkey creation options. */
export const verifyActivation = (input: ActivationInput): Promise<ActivationVerifyResponse> =>
  apiRequest('/v1/auth/verify-activation', {
    method: 'POST',
    body: validateRequest(verifyActivationRequestSchema, input),
    auth: false,
    schema: activationVerifyResponseSchema,
  });
