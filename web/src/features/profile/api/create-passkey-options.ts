import { registrationOptionsSchema } from '../../../../../shared/schemas';
import { apiRequest } from '../../../lib/api-client';

/** Options for one more passkey; `excludeCredentials` lists the ones the person has already. */
export const createPasskeyOptions = () =>
  apiRequest('/v1/users/me/passkeys/options', { method: 'POST', schema: registrationOptionsSchema });
