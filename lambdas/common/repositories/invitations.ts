/** Invitations and their activation codes, one item per (lowercased) email. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { INVITATION_TTL_SECONDS } from '../../../shared/account';
import type { RoleGroup } from '../../../shared/constants';
import { ddb, type TransactItem } from '../aws';
import { tableName } from '../env';
import { transactIf, type CommitChecks } from '../transactions';
import { countsUpdateItem, invitationDirectoryAttributes } from './directory';

const table = () => tableName('invitations');

export interface InvitationRecord {
  readonly email: string;
  readonly activationCode: string;
  readonly codeUsed: boolean;
  readonly roles: RoleGroup[];
  readonly createdBy: string;
  readonly createdAt: string;
  /** Reserved when activation first runs, so a retry reuses the same Cognito user. */
  readonly cognitoUsername?: string;
  readonly usedAt?: string;
  readonly usedBy?: string;
  /** When the code stops working: 7 days after it was created or last resent (SPEC-2 section 3.3). */
  readonly expiresAt?: string;
  /** The admin who last resent it, and when. */
  readonly resentBy?: string;
  readonly resentAt?: string;
  /** The Idempotency-Key of the create that made it: the same create sent again answers it (decision 061). */
  readonly requestKey?: string;
}

/** An invitation from before expiry existed expires 7 days after it was created. */
export const invitationExpiresAt = (record: InvitationRecord): string =>
  record.expiresAt ?? new Date(Date.parse(record.createdAt) + INVITATION_TTL_SECONDS * 1000).toISOString();

/** Whether a pending invitation's code no longer works. */
export const invitationExpired = (record: InvitationRecord, now = Date.now()): boolean =>
  Date.parse(invitationExpiresAt(record)) <= now;

/** The expiry of a code issued now. */
export const invitationExpiryFromNow = (): string =>
  new Date(Date.now() + INVITATION_TTL_SECONDS * 1000).toISOString();

export const getInvitation = async (email: string): Promise<InvitationRecord | undefined> => {
  const result = await ddb.send(new GetCommand({ TableName: table(), Key: { email }, ConsistentRead: true }));
  return result.Item as InvitationRecord | undefined;
};

/** The stored item of an invitation: the record and its place in the directory's indexes. */
export const invitationItem = (invitation: InvitationRecord): Record<string, unknown> => ({
  ...invitation,
  ...invitationDirectoryAttributes(invitation),
});

/**
 * Creates the invitation unless one exists for the email, listed in the directory and counted as
 * pending in the same transaction; answers false when one did. With `onlyIf` (an admin's invitation:
 * `whileStillAdmin`), only while those checks hold, else their refusal.
 */
export const createInvitation = async (
  invitation: InvitationRecord,
  onlyIf?: CommitChecks,
): Promise<boolean> =>
  transactIf(
    {
      TransactItems: [
        {
          Put: {
            TableName: table(),
            Item: invitationItem(invitation),
            ConditionExpression: 'attribute_not_exists(email)',
          },
        },
        ...countsUpdateItem({ pendingInvitations: 1 }),
      ],
    },
    onlyIf,
  );

/**
 * Reserves the opaque Cognito username of this invitation, once: the first activation attempt's
 * candidate wins and every later (or concurrent) attempt gets the winner back, so a user is never
 * created twice for one invitation. Answers undefined when the invitation is gone or used.
 */
export const bindCognitoUsername = async (email: string, candidate: string): Promise<string | undefined> => {
  try {
    const result = await ddb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { email },
        UpdateExpression: 'SET cognitoUsername = if_not_exists(cognitoUsername, :candidate)',
        ConditionExpression: 'attribute_exists(email) AND codeUsed = :false',
        ExpressionAttributeValues: { ':candidate': candidate, ':false': false },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return (result.Attributes as InvitationRecord).cognitoUsername ?? candidate;
  } catch (error) {
    // Deleted or used since it was read: the caller answers as for any invalid code.
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

/** Transaction item marking the code used, only if it is this code and still unused. */
export const markCodeUsedItem = (
  email: string,
  activationCode: string,
  usedBy: string,
  usedAt: string,
): TransactItem => ({
  Update: {
    TableName: table(),
    Key: { email },
    UpdateExpression: 'SET codeUsed = :true, usedAt = :usedAt, usedBy = :usedBy, #state = :activated',
    // Unexpired too: an invitation without `expiresAt` predates expiry and is checked by its reader.
    ConditionExpression:
      'activationCode = :code AND codeUsed = :false AND (attribute_not_exists(expiresAt) OR expiresAt > :usedAt)',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: {
      ':activated': 'activated',
      ':code': activationCode,
      ':true': true,
      ':false': false,
      ':usedAt': usedAt,
      ':usedBy': usedBy,
    },
  },
});

/** Why an invitation was not resent or deleted: there is none, or it was activated. */
export type InvitationRefused = { readonly outcome: 'not-found' | 'activated' };

export type ResendOutcome =
  { readonly outcome: 'resent'; readonly invitation: InvitationRecord } | InvitationRefused;

/**
 * Gives a pending (or expired) invitation a new code and a new expiry, with `also` (its audit event) in
 * the same transaction; the old code stops working at once. Answers the updated invitation, or why
 * there was none to resend. With `onlyIf` (an admin's resend: `whileStillAdmin`), only while those
 * checks hold, else their refusal.
 */
export const resendInvitation = async (
  email: string,
  activationCode: string,
  resentBy: string,
  also: readonly TransactItem[] = [],
  onlyIf?: CommitChecks,
): Promise<ResendOutcome> => {
  const invitation = await getInvitation(email);
  if (!invitation) return { outcome: 'not-found' };
  if (invitation.codeUsed) return { outcome: 'activated' };
  const resent = {
    activationCode,
    expiresAt: invitationExpiryFromNow(),
    resentBy,
    resentAt: new Date().toISOString(),
  };
  const committed = await transactIf(
    {
      TransactItems: [
        {
          Update: {
            TableName: table(),
            Key: { email },
            UpdateExpression:
              'SET activationCode = :code, expiresAt = :expiresAt, resentBy = :resentBy, resentAt = :resentAt',
            ConditionExpression: 'attribute_exists(email) AND codeUsed = :false',
            ExpressionAttributeValues: {
              ':code': resent.activationCode,
              ':expiresAt': resent.expiresAt,
              ':resentBy': resent.resentBy,
              ':resentAt': resent.resentAt,
              ':false': false,
            },
          },
        },
        ...also,
      ],
    },
    onlyIf,
  );
  if (committed) return { outcome: 'resent', invitation: { ...invitation, ...resent } };
  // Activated or deleted meanwhile: read again to tell which.
  return { outcome: (await getInvitation(email)) ? 'activated' : 'not-found' };
};

/** Transaction item deleting a person's invitation (whatever its state), if there is one. */
export const deleteInvitationItem = (email: string): TransactItem => ({
  Delete: { TableName: table(), Key: { email } },
});

export type DeleteOutcome =
  { readonly outcome: 'deleted'; readonly invitation: InvitationRecord } | InvitationRefused;

const DELETE_ATTEMPTS = 3;

/**
 * Deletes a pending invitation and answers what it was; an activated one stays. The delete, the pending
 * count change and `also` (its audit event) in one transaction, conditioned on the invitation still
 * being unused. With `onlyIf` (an admin's deletion: `whileStillAdmin`), only while those checks hold,
 * else their refusal.
 */
export const deletePendingInvitation = async (
  email: string,
  also: readonly TransactItem[] = [],
  onlyIf?: CommitChecks,
): Promise<DeleteOutcome> => {
  for (let attempt = 1; attempt <= DELETE_ATTEMPTS; attempt += 1) {
    const invitation = await getInvitation(email);
    if (!invitation) return { outcome: 'not-found' };
    if (invitation.codeUsed) return { outcome: 'activated' };
    const deleted = await transactIf(
      {
        TransactItems: [
          {
            Delete: {
              TableName: table(),
              Key: { email },
              // Still the invitation read (a resend changes the code), still unused, and with the Cognito
              // user read (a verification meanwhile reserves one, which the caller must delete too).
              ConditionExpression: `activationCode = :code AND codeUsed = :false AND ${
                invitation.cognitoUsername === undefined
                  ? 'attribute_not_exists(cognitoUsername)'
                  : 'cognitoUsername = :username'
              }`,
              ExpressionAttributeValues: {
                ':code': invitation.activationCode,
                ':false': false,
                ...(invitation.cognitoUsername !== undefined && { ':username': invitation.cognitoUsername }),
              },
            },
          },
          ...countsUpdateItem({ pendingInvitations: -1 }),
          ...also,
        ],
      },
      onlyIf,
    );
    if (deleted) return { outcome: 'deleted', invitation };
  }
  throw new Error('The invitation kept changing while it was deleted.');
};
