/**
 * POST /v1/auth/register-passkey: verifies a new passkey against the challenge the server stored for
 * this invitation (never one the client sends), puts the reserved user in the invitation's groups,
 * then commits everything in one transaction: the credential, the code marked used, the profile, the
 * challenge consumed. The transaction is the commit point: groups go first so that a committed
 * registration always has them; a failure after that leaves a user in groups but with no passkey or
 * profile, who cannot sign in and counts nowhere (docs/decisions/001-passkey-chain.md). It answers a
 * single-use passkey proof so the new user signs in without a second biometric prompt.
 */
import { UserNotFoundException } from '@aws-sdk/client-cognito-identity-provider';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { verifyRegistrationResponse, type VerifiedRegistrationResponse } from '@simplewebauthn/server';
import {
  DEFAULT_LOCALE,
  DEFAULT_MEASUREMENT_SYSTEM,
  DEFAULT_SEX_ASSIGNED_AT_BIRTH,
  DEFAULT_TIMEZONE,
} from '../../../shared/constants';
import { API_MESSAGES } from '../../../shared/messages';
import { registerPasskeyRequestSchema, type UserProfile } from '../../../shared/schemas';
import { issuePasskeyProof } from '../../cognito/passkey-proof';
import { auditTransactItem, originOf } from '../../common/audit';
import { ddb } from '../../common/aws';
import { addUserToGroups } from '../../common/cognito-users';
import { webauthnConfig } from '../../common/env';
import { BadRequest, Conflict } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import {
  consumeRegistrationChallengeItem,
  findRegistrationChallenge,
  type RegistrationChallenge,
} from '../../common/repositories/auth-challenges';
import { getInvitation, markCodeUsedItem } from '../../common/repositories/invitations';
import { putPasskeyItem } from '../../common/repositories/passkeys';
import { createProfileItem } from '../../common/repositories/profiles';
import { secretsEqual } from '../../common/secrets';
import { SUPPORTED_ALGORITHM_IDS } from '../../common/webauthn';

const rejected = () => new BadRequest(API_MESSAGES.registrationFailed);

const verify = async (
  response: Parameters<typeof verifyRegistrationResponse>[0]['response'],
  pending: RegistrationChallenge,
): Promise<NonNullable<VerifiedRegistrationResponse['registrationInfo']>> => {
  const { rpId, origins } = webauthnConfig();
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: pending.challenge,
      expectedOrigin: origins,
      expectedRPID: rpId,
      requireUserPresence: true,
      requireUserVerification: true,
      supportedAlgorithmIDs: SUPPORTED_ALGORITHM_IDS,
    });
    if (result.verified && result.registrationInfo.userVerified) return result.registrationInfo;
  } catch {
    // A malformed or mismatched attestation is a rejected registration, not a server error.
  }
  throw rejected();
};

/**
 * A registration whose challenge is gone lost a race with one that used the code (409), or came too
 * late or without a ceremony (400): the invitation, read again, tells which.
 */
const rejectedOrUsed = async (email: string) =>
  (await getInvitation(email))?.codeUsed ? new Conflict(API_MESSAGES.activationCodeUsed) : rejected();

export const handler = httpHandler(
  { auth: 'public', body: registerPasskeyRequestSchema },
  async ({ body, event }) => {
    const invitation = await getInvitation(body.email);
    if (!invitation || !secretsEqual(invitation.activationCode, body.activationCode)) throw rejected();
    if (invitation.codeUsed) throw new Conflict(API_MESSAGES.activationCodeUsed);

    const pending = await findRegistrationChallenge(invitation.email);
    if (!pending) throw await rejectedOrUsed(invitation.email);
    if (pending.cognitoUsername !== body.cognitoUsername) throw rejected();
    if (body.expectedChallenge !== undefined && !secretsEqual(body.expectedChallenge, pending.challenge))
      throw rejected();

    const registration = await verify(body.registrationResponse, pending);
    try {
      await addUserToGroups(pending.cognitoUsername, invitation.roles);
    } catch (error) {
      // The invitation was deleted (and its reserved user with it) after this request read it.
      if (error instanceof UserNotFoundException) throw rejected();
      throw error;
    }

    const now = new Date().toISOString();
    const profile: UserProfile = {
      userId: pending.userId,
      email: invitation.email,
      name: body.name ?? invitation.email,
      createdAt: now,
      updatedAt: now,
      sexAssignedAtBirth: DEFAULT_SEX_ASSIGNED_AT_BIRTH,
      measurementSystem: DEFAULT_MEASUREMENT_SYSTEM,
      phoneNumber: body.phoneNumber,
      timezone: body.timezone ?? DEFAULT_TIMEZONE,
      locale: body.locale ?? DEFAULT_LOCALE,
      metadata: { onboardingCompleted: false },
    };
    // Kept by name: its cancellation reason tells a used code from an expired challenge.
    const markCodeUsed = markCodeUsedItem(invitation.email, invitation.activationCode, pending.userId, now);
    const items = [
      consumeRegistrationChallengeItem(invitation.email, pending.challenge),
      markCodeUsed,
      putPasskeyItem({
        credentialId: registration.credential.id,
        userId: pending.userId,
        cognitoUsername: pending.cognitoUsername,
        userHandle: pending.userHandle,
        publicKey: registration.credential.publicKey,
        counter: registration.credential.counter,
        transports: registration.credential.transports,
        deviceType: registration.credentialDeviceType,
        backedUp: registration.credentialBackedUp,
        createdAt: now,
      }),
      createProfileItem(profile),
      auditTransactItem(originOf(event), {
        type: 'activation.completed',
        actorId: pending.userId,
        subjectId: pending.userId,
        details: { roles: invitation.roles, credentialId: registration.credential.id },
      }),
    ];
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      // The code was used meanwhile, or another registration with it is committing right now.
      if (
        reasons[items.indexOf(markCodeUsed)]?.Code === 'ConditionalCheckFailed' ||
        reasons.some((r) => r.Code === 'TransactionConflict')
      ) {
        throw new Conflict(API_MESSAGES.activationCodeUsed);
      }
      throw await rejectedOrUsed(invitation.email);
    }

    const passkeyProof = await issuePasskeyProof({
      userId: pending.userId,
      cognitoUsername: pending.cognitoUsername,
    });
    return ok({ userId: pending.userId, cognitoUsername: pending.cognitoUsername, passkeyProof });
  },
);
