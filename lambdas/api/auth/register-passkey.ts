/**
 * POST /v1/auth/register-passkey: verifies a new passkey against the challenge the server stored for
 * this activation code (never one the client sends).
 *
 * An invitation's code: puts the reserved user in the invitation's groups, then commits everything in
 * one transaction: the credential, the code marked used, the account, the profile, the challenge
 * consumed. The transaction is the commit point: groups go first so that a committed
 * registration always has them; a failure after that leaves a user in groups but with no passkey or
 * profile, who cannot sign in and counts nowhere (docs/decisions/001-passkey-chain.md). It answers a
 * single-use passkey proof so the new user signs in without a second biometric prompt.
 *
 * A recovery code (SPEC-2 section 3.2), only while the admin who issued it is still an active admin
 * (checked in the transaction): one transaction spends the code, stores the new credential,
 * removes every earlier passkey of the account and the challenge of one being added, and moves its
 * `tokensValidAfter` to now; then every session of the person is signed out. The userId, profile,
 * records, coach and notes stay.
 */
import { UserNotFoundException } from '@aws-sdk/client-cognito-identity-provider';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DEFAULT_MEASUREMENT_SYSTEM,
  DEFAULT_SEX_ASSIGNED_AT_BIRTH,
  NAME_MAX,
} from '../../../shared/constants';
import { API_MESSAGES } from '../../../shared/messages';
import {
  localeOrDefault,
  registerPasskeyRequestSchema,
  timezoneOrDefault,
  type UserProfile,
} from '../../../shared/schemas';
import { issuePasskeyProof } from '../../cognito/passkey-proof';
import { auditTransactItem, originOf } from '../../common/audit';
import { BadRequest, Conflict, HttpError } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import {
  consumeRegistrationChallengeItem,
  findRegistrationChallenge,
  type RegistrationChallenge,
} from '../../common/repositories/auth-challenges';
import {
  getInvitation,
  invitationExpired,
  markCodeUsedItem,
  type InvitationRecord,
} from '../../common/repositories/invitations';
import { deletePasskeyItem, newPasskeyRecord, putPasskeyItem } from '../../common/repositories/passkeys';
import {
  activeAdminCheckItem,
  createAccountItem,
  getAccount,
  revocationSecond,
  untilTokensValid,
  updateAccountItem,
} from '../../common/repositories/accounts';
import {
  consumeRecoveryItem,
  deletePasskeyChallengeItem,
  findRecovery,
  isRecoveryCode,
  issuedBeforeDisable,
  storedRecovery,
  type RecoveryGrant,
} from '../../common/repositories/auth-challenges';
import { addUserToGroups, signOutEverywhere } from '../../common/cognito-users';
import { canonicalRoles } from '../../../shared/roles';
import { collided, conditionFailedAt, transactWrite } from '../../common/transactions';
import type { RequestOrigin } from '../../common/audit';
import { createProfileItem } from '../../common/repositories/profiles';
import { countsUpdateItem } from '../../common/repositories/directory';
import { secretsEqual } from '../../common/secrets';
import { issuerStillAdmin, SYSTEM_CREATOR } from '../../common/invite';
import { recordActivationFailure, startActivationAttempt } from '../../common/limits';
import { verifyNewPasskey } from '../../common/webauthn';

const rejected = () => new BadRequest(API_MESSAGES.registrationFailed);

/** An activated account's `tokensValidAfter`: every sign-in of it counts. */
const NEW_ACCOUNT_TOKENS_VALID_AFTER = 0;

/**
 * Neither the invitation's code nor a recovery's: the one refusal that counts against the email.
 * `invited`: whether anyone was invited with the email (else it is only what the caller typed).
 */
class WrongCode extends BadRequest {
  constructor(readonly invited: boolean) {
    super(API_MESSAGES.registrationFailed);
  }
}
const verify = (response: Body['registrationResponse'], pending: RegistrationChallenge) =>
  verifyNewPasskey(response, pending.challenge);

/**
 * A registration whose challenge is gone lost a race with one that used the code (409), or came too
 * late or without a ceremony (400): the invitation, read again, tells which.
 */
const rejectedOrUsed = async (email: string) =>
  (await getInvitation(email))?.codeUsed ? new Conflict(API_MESSAGES.activationCodeUsed) : rejected();

type Body = typeof registerPasskeyRequestSchema._zod.output;

/** The stored challenge of this activation, checked against what the client says of it. */
const pendingChallenge = async (body: Body, purpose: 'invitation' | 'recovery') => {
  const pending = await findRegistrationChallenge(body.email);
  if (!pending) return undefined;
  if ((pending.purpose ?? 'invitation') !== purpose || pending.cognitoUsername !== body.cognitoUsername)
    throw rejected();
  if (body.expectedChallenge !== undefined && !secretsEqual(body.expectedChallenge, pending.challenge))
    throw rejected();
  return pending;
};

/** A recovery: the new passkey replaces every earlier one, and every earlier session ends. */
const recover = async (body: Body, recovery: RecoveryGrant, origin: RequestOrigin) => {
  const pending = await pendingChallenge(body, 'recovery');
  if (!pending || pending.userId !== recovery.userId) throw rejected();
  const registration = await verify(body.registrationResponse, pending);
  const account = await getAccount(recovery.userId);
  // Only an active account (a disable freezes its passkeys); an admin who reset their own access
  // must still be one. Both as read here, held at commit by the `updatedAt` guard below.
  const ownReset = recovery.issuedBy === account?.userId;
  if (account?.status !== 'active' || (ownReset && !account.roles.includes('admins'))) throw rejected();
  if (issuedBeforeDisable(recovery, account)) throw rejected();

  const now = new Date().toISOString();
  const tokensValidAfter = revocationSecond();
  const spendCode = consumeRecoveryItem(recovery);
  const earlier = [...(account.credentialIds ?? [])];
  const items = [
    consumeRegistrationChallengeItem(recovery.email, pending.challenge),
    spendCode,
    putPasskeyItem(newPasskeyRecord(pending, registration, now)),
    ...earlier.map((credentialId) => deletePasskeyItem(account.userId, credentialId)),
    // A passkey an earlier session was adding can no longer be finished with its challenge.
    deletePasskeyChallengeItem(account.userId),
    // Only while the admin who issued the code is still an active admin, when it commits (their own
    // account is this one: checked above, and held by the guard below; DynamoDB takes one operation
    // on an item per transaction).
    ...(recovery.issuedBy === SYSTEM_CREATOR || ownReset ? [] : [activeAdminCheckItem(recovery.issuedBy)]),
    // Only if nobody changed the account meanwhile (a passkey added, a role changed, a disable): try
    // again then.
    updateAccountItem(
      account.userId,
      { credentialIds: new Set([registration.credential.id]), tokensValidAfter },
      { updatedAt: account.updatedAt, status: 'active' },
    ),
    auditTransactItem(origin, {
      type: 'recovery.used',
      actorId: account.userId,
      subjectId: account.userId,
      details: { credentialId: registration.credential.id, removedPasskeys: earlier.length },
    }),
  ];
  try {
    await transactWrite({ TransactItems: items });
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    // Another registration with the code is committing right now, or the code went meanwhile (used):
    // 409. Still stored, it expired or was replaced by a new one since it was checked: refused.
    if (collided(error)) throw new Conflict(API_MESSAGES.activationCodeUsed);
    if (conditionFailedAt(error, items.indexOf(spendCode)) && !(await storedRecovery(recovery.email)))
      throw new Conflict(API_MESSAGES.activationCodeUsed);
    throw rejected();
  }
  // Refresh tokens die here; id tokens from an earlier sign-in are refused by the session check.
  await signOutEverywhere(account.cognitoUsername);
  await untilTokensValid(tokensValidAfter);
  return { pending, tokensValidAfter };
};

export const handler = httpHandler(
  { auth: 'public', body: registerPasskeyRequestSchema },
  async ({ body, event }) => {
    const origin = originOf(event);
    // SPEC-2 section 5, as for verify-activation; a completed registration costs the address nothing
    // more (its verify-activation counted already).
    const attempt = await startActivationAttempt(origin, body.email, { addressCountsOnlyFailures: true });
    try {
      const answer = await register(body, origin);
      await attempt.succeeded();
      return answer;
    } catch (error) {
      const refused = error instanceof HttpError && (error.statusCode === 400 || error.statusCode === 409);
      // Every failed activation leaves a trace (issue 11), as for verify-activation.
      if (refused) await recordActivationFailure(origin, body.email, refusalOf(error));
      // Only a wrong code counts against the email; a right one refused for another reason still
      // counts against the address (SPEC-2 section 5: attempts), a server error against neither.
      if (error instanceof WrongCode) await attempt.failed(error.invited);
      else await (refused ? attempt.refused() : attempt.succeeded());
      throw error;
    }
  },
);

const refusalOf = (error: HttpError): string => {
  if (error instanceof WrongCode) return error.invited ? 'wrong-code' : 'no-invitation';
  return error.statusCode === 409 ? 'code-used' : 'registration-refused';
};

/** The registration itself: an invitation's first passkey, or a recovery's. */
const register = async (body: Body, origin: RequestOrigin) => {
  const invitation = await getInvitation(body.email);
  const invitationCode = invitation && secretsEqual(invitation.activationCode, body.activationCode);
  if (!invitationCode || invitation.codeUsed) {
    // Not a pending invitation's code: a recovery code, or nothing.
    const recovery = await findRecovery(body.email);
    if (recovery && isRecoveryCode(recovery, body.activationCode)) {
      const { pending, tokensValidAfter } = await recover(body, recovery, origin);
      return ok(await proofFor(pending, tokensValidAfter));
    }
    if (invitationCode) throw new Conflict(API_MESSAGES.activationCodeUsed);
    throw new WrongCode(invitation !== undefined);
  }
  if (invitationExpired(invitation) || !(await issuerStillAdmin(invitation))) throw rejected();
  const pending = await activate(body, invitation, origin);
  return ok(await proofFor(pending, NEW_ACCOUNT_TOKENS_VALID_AFTER));
};

/**
 * The proof the person signs in with, good only while the account keeps the `tokensValidAfter` this
 * registration committed (a later recovery, disable or role change voids it).
 */
const proofFor = async (pending: RegistrationChallenge, tokensValidAfter: number) => ({
  userId: pending.userId,
  cognitoUsername: pending.cognitoUsername,
  passkeyProof: await issuePasskeyProof({
    userId: pending.userId,
    cognitoUsername: pending.cognitoUsername,
    tokensValidAfter,
  }),
});

/** An invitation's first passkey: the account, its profile and its groups come to life. */
const activate = async (body: Body, invitation: InvitationRecord, origin: RequestOrigin) => {
  const pending = await pendingChallenge(body, 'invitation');
  if (!pending) throw await rejectedOrUsed(invitation.email);

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
    // A name is at most 200 characters (SPEC section 3), an email up to 254.
    name: body.name ?? invitation.email.slice(0, NAME_MAX),
    createdAt: now,
    updatedAt: now,
    sexAssignedAtBirth: DEFAULT_SEX_ASSIGNED_AT_BIRTH,
    measurementSystem: DEFAULT_MEASUREMENT_SYSTEM,
    phoneNumber: body.phoneNumber,
    timezone: timezoneOrDefault(body.timezone),
    locale: localeOrDefault(body.locale),
    metadata: { onboardingCompleted: false },
  };
  // The issuer read before is checked again at the commit: one demoted or disabled meanwhile (while
  // the passkey was verified and the groups set) refuses the registration like a wrong code.
  const issuer = invitation.resentBy ?? invitation.createdBy;
  const items = [
    ...(issuer === SYSTEM_CREATOR ? [] : [activeAdminCheckItem(issuer)]),
    consumeRegistrationChallengeItem(invitation.email, pending.challenge),
    markCodeUsedItem(invitation.email, invitation.activationCode, pending.userId, now),
    putPasskeyItem(newPasskeyRecord(pending, registration, now)),
    createAccountItem({
      userId: pending.userId,
      email: invitation.email,
      cognitoUsername: pending.cognitoUsername,
      userHandle: pending.userHandle,
      roles: canonicalRoles(invitation.roles),
      status: 'active',
      tokensValidAfter: NEW_ACCOUNT_TOKENS_VALID_AFTER,
      credentialIds: new Set([registration.credential.id]),
      createdAt: now,
      updatedAt: now,
    }),
    createProfileItem(profile),
    auditTransactItem(origin, {
      type: 'activation.completed',
      actorId: pending.userId,
      subjectId: pending.userId,
      details: { roles: invitation.roles, credentialId: registration.credential.id },
    }),
    ...countsUpdateItem({ people: 1, pendingInvitations: -1 }),
  ];
  try {
    await transactWrite({ TransactItems: items });
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    // Another registration with the code is committing right now; else the invitation, read again, tells
    // whether the code was used meanwhile (409) or changed, expired or went (a resend, a delete: 400).
    if (collided(error)) throw new Conflict(API_MESSAGES.activationCodeUsed);
    throw await rejectedOrUsed(invitation.email);
  }
  return pending;
};
