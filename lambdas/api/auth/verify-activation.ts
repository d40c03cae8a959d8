/**
 * POST /v1/auth/verify-activation: checks an invitation's code and, when it is right, prepares a
 * passkey registration. Every wrong answer (unknown email, wrong or used code, deleted invitation)
 * is the same `{valid:false}`, so the endpoint tells an attacker nothing about who is invited.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { generateRegistrationOptions } from '@simplewebauthn/server';
import { REGISTRATION_CHALLENGE_TTL_SECONDS, WEBAUTHN_TIMEOUT_MS } from '../../../shared/constants';
import { verifyActivationRequestSchema, type ActivationVerifyResponse } from '../../../shared/schemas';
import { ensureCognitoUser } from '../../common/cognito-users';
import { webauthnConfig } from '../../common/env';
import { httpHandler, ok } from '../../common/http';
import { putRegistrationChallenge, expiresIn } from '../../common/repositories/auth-challenges';
import { bindCognitoUsername, getInvitation } from '../../common/repositories/invitations';
import { secretsEqual } from '../../common/secrets';
import { SUPPORTED_ALGORITHM_IDS } from '../../common/webauthn';

const INVALID: ActivationVerifyResponse = { valid: false };

export const handler = httpHandler(
  { auth: 'public', body: verifyActivationRequestSchema },
  async ({ body }) => {
    const invitation = await getInvitation(body.email);
    const code = body.activationCode ?? '';
    if (!invitation || invitation.codeUsed || !secretsEqual(invitation.activationCode, code))
      return ok(INVALID);

    const cognitoUsername = await bindCognitoUsername(invitation.email, randomUUID());
    if (!cognitoUsername) return ok(INVALID);
    const userId = await ensureCognitoUser(cognitoUsername, invitation.email);

    const { rpId, rpName } = webauthnConfig();
    const userHandle = randomBytes(32);
    const registrationOptions = await generateRegistrationOptions({
      rpName,
      rpID: rpId,
      userID: userHandle,
      userName: invitation.email,
      userDisplayName: invitation.email,
      timeout: WEBAUTHN_TIMEOUT_MS,
      attestationType: 'none',
      authenticatorSelection: {
        authenticatorAttachment: 'platform',
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'required',
      },
      supportedAlgorithmIDs: SUPPORTED_ALGORITHM_IDS,
    });

    await putRegistrationChallenge({
      email: invitation.email,
      challenge: registrationOptions.challenge,
      cognitoUsername,
      userId,
      userHandle: userHandle.toString('base64url'),
      expiresAt: expiresIn(REGISTRATION_CHALLENGE_TTL_SECONDS),
    });

    return ok({ valid: true, cognitoUsername, registrationOptions });
  },
);
