/**
 * POST /v1/auth/verify-activation: checks an activation code and, when it is right, prepares a passkey
 * registration. The code is an invitation's (pending, unexpired) or an admin's recovery code for an
 * activated person (SPEC-2 section 3.2). Every wrong answer (unknown email, wrong, used or expired code,
 * deleted invitation, one whose admin is no longer an active admin) is the same `{valid:false}`, so the
 * endpoint tells an attacker nothing about who is invited.
 */
import { randomUUID } from 'node:crypto';
import { REGISTRATION_CHALLENGE_TTL_SECONDS } from '../../../shared/constants';
import { verifyActivationRequestSchema, type ActivationVerifyResponse } from '../../../shared/schemas';
import { originOf } from '../../common/audit';
import { ensureCognitoUser } from '../../common/cognito-users';
import { httpHandler, ok } from '../../common/http';
import { issuerStillAdmin, stillAdmin } from '../../common/invite';
import { recordActivationFailure, startActivationAttempt } from '../../common/limits';
import { getAccount } from '../../common/repositories/accounts';
import {
  expiresIn,
  findRecovery,
  isRecoveryCode,
  issuedBeforeDisable,
  putRegistrationChallenge,
  type RegistrationChallenge,
} from '../../common/repositories/auth-challenges';
import { bindCognitoUsername, getInvitation, invitationExpired } from '../../common/repositories/invitations';
import { secretsEqual } from '../../common/secrets';
import { newUserHandle, registrationOptionsFor } from '../../common/webauthn';

const INVALID: ActivationVerifyResponse = { valid: false };

type Registration = Omit<RegistrationChallenge, 'challenge' | 'expiresAt'>;

/** Why an activation code was refused, as the audit log names it (never shown to the caller). */
type Refusal =
  'no-invitation' | 'wrong-code' | 'code-used' | 'expired' | 'issuer-not-admin' | 'recovery-refused';

/** The registration an invitation's code opens (the invitation's own reserved Cognito user), or why not. */
const invitationRegistration = async (email: string, code: string): Promise<Registration | Refusal> => {
  const invitation = await getInvitation(email);
  if (!invitation) return 'no-invitation';
  if (!secretsEqual(invitation.activationCode, code)) return 'wrong-code';
  if (invitation.codeUsed) return 'code-used';
  if (invitationExpired(invitation)) return 'expired';
  if (!(await issuerStillAdmin(invitation))) return 'issuer-not-admin';
  const cognitoUsername = await bindCognitoUsername(invitation.email, randomUUID());
  if (!cognitoUsername) return 'code-used';
  const userId = await ensureCognitoUser(cognitoUsername, invitation.email);
  return {
    purpose: 'invitation',
    email: invitation.email,
    cognitoUsername,
    userId,
    userHandle: newUserHandle(),
  };
};

/**
 * The registration a recovery code opens: a new passkey for the same account, only while the admin who
 * issued the code is still an active admin (as for invitations: docs/decisions/047).
 */
const recoveryRegistration = async (
  email: string,
  code: string,
): Promise<Registration | 'recovery-refused' | undefined> => {
  const recovery = await findRecovery(email);
  if (!recovery || !isRecoveryCode(recovery, code)) return undefined;
  // The code is right from here on: a refusal is not a wrong code.
  if (!(await stillAdmin(recovery.issuedBy))) return 'recovery-refused';
  const account = await getAccount(recovery.userId);
  // A disabled account takes no new passkey, whatever code was issued before the disable.
  if (!account || account.email !== email || account.status !== 'active') return 'recovery-refused';
  if (issuedBeforeDisable(recovery, account)) return 'recovery-refused';
  return {
    purpose: 'recovery',
    email,
    cognitoUsername: account.cognitoUsername,
    userId: account.userId,
    userHandle: account.userHandle,
  };
};

/** The registration the code opens, an invitation's or else a recovery's; or why the invitation refused it. */
const registrationFor = async (
  email: string,
  code: string,
): Promise<
  { registration: Registration; refusal?: undefined } | { registration?: undefined; refusal: Refusal }
> => {
  const byInvitation = await invitationRegistration(email, code);
  if (typeof byInvitation !== 'string') return { registration: byInvitation };
  const byRecovery = await recoveryRegistration(email, code);
  if (byRecovery === undefined) return { refusal: byInvitation };
  return typeof byRecovery === 'string' ? { refusal: byRecovery } : { registration: byRecovery };
};

export const handler = httpHandler(
  { auth: 'public', body: verifyActivationRequestSchema },
  async ({ body, event }) => {
    const origin = originOf(event);
    // SPEC-2 section 5: 429 before the code is even looked at, when the email or the address is over.
    const attempt = await startActivationAttempt(origin, body.email, { addressCountsOnlyFailures: false });
    const { registration, refusal } = await registrationFor(body.email, body.activationCode ?? '').catch(
      async (error: unknown) => {
        // A server error is not a wrong code: the attempt does not count against the email.
        await attempt.succeeded();
        throw error;
      },
    );
    if (!registration) {
      // Every failed attempt leaves a trace (issue 11): the reason, and the email when someone was
      // invited with it.
      await recordActivationFailure(origin, body.email, refusal);
      const invited = refusal !== 'no-invitation';
      // SPEC-2 section 5 locks an email after 5 wrong codes: a right code refused for being used,
      // expired or from a former admin is not one (an unknown email's code is wrong, as any other).
      await (refusal === 'wrong-code' || refusal === 'no-invitation'
        ? attempt.failed(invited)
        : attempt.refused());
      return ok(INVALID);
    }
    await attempt.succeeded();

    const registrationOptions = await registrationOptionsFor(registration);
    await putRegistrationChallenge({
      ...registration,
      challenge: registrationOptions.challenge,
      expiresAt: expiresIn(REGISTRATION_CHALLENGE_TTL_SECONDS),
    });
    return ok({ valid: true, cognitoUsername: registration.cognitoUsername, registrationOptions });
  },
);
