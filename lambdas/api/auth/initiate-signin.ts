/**
 * POST /v1/auth/initiate-signin: starts a discoverable-credential sign-in. The challenge stays on the
 * server under a random session id, valid for a few minutes and usable once. One source IP may start
 * 300 sign-ins in 5 minutes (SPEC-2 section 5).
 */
import { randomBytes } from 'node:crypto';
import { SIGNIN_SESSION_TTL_SECONDS, WEBAUTHN_TIMEOUT_MS } from '../../../shared/constants';
import { initiateSigninRequestSchema } from '../../../shared/schemas';
import { webauthnConfig } from '../../common/env';
import { originOf } from '../../common/audit';
import { httpHandler, ok } from '../../common/http';
import { limitSigninStart } from '../../common/limits';
import { putSigninSession, expiresIn } from '../../common/repositories/auth-challenges';
import { simpleWebAuthn } from '../../common/webauthn';

export const handler = httpHandler(
  { auth: 'public', body: initiateSigninRequestSchema },
  async ({ event }) => {
    // SPEC-2 section 5: 300 starts per 5 minutes per source IP, then 429.
    await limitSigninStart(originOf(event));
    const { generateAuthenticationOptions } = await simpleWebAuthn();
    const authenticationOptions = await generateAuthenticationOptions({
      rpID: webauthnConfig().rpId,
      allowCredentials: [],
      userVerification: 'required',
      timeout: WEBAUTHN_TIMEOUT_MS,
    });
    const sessionId = randomBytes(32).toString('base64url');
    await putSigninSession({
      sessionId,
      challenge: authenticationOptions.challenge,
      expiresAt: expiresIn(SIGNIN_SESSION_TTL_SECONDS),
    });
    return ok({ sessionId, authenticationOptions });
  },
);
