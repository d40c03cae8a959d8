/** Passkey credentials, one item per credential id (unique by key). */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { VerifiedRegistrationResponse } from '@simplewebauthn/server';
import { ddb, type TransactItem } from '../aws';
import { batchGetAll } from '../batch-get';
import { queryAttributes } from '../batch-write';
import { tableName } from '../env';
import { conditionFailedAt, refusalOf, transactWrite, type CommitChecks } from '../transactions';

const table = () => tableName('passkeys');

export interface PasskeyRecord {
  readonly credentialId: string;
  readonly userId: string;
  readonly cognitoUsername: string;
  /** WebAuthn user handle (base64url) the authenticator returns on sign-in. */
  readonly userHandle: string;
  readonly publicKey: Uint8Array;
  readonly counter: number;
  readonly transports?: string[];
  readonly deviceType: string;
  /** The BE flag at registration: a passkey that may be synced. An assertion must say the same. */
  readonly backupEligible?: boolean;
  readonly backedUp: boolean;
  readonly createdAt: string;
  readonly lastUsedAt?: string;
  /** The authenticator's AAGUID, when it sent one. */
  readonly aaguid?: string;
  /** The name the person gave it (SPEC-2 section 3.1); else the provider name or 'Passkey'. */
  readonly name?: string;
}

/** What a person sees of a passkey (never its key or counter). */
export type PasskeySummary = Pick<
  PasskeyRecord,
  'credentialId' | 'name' | 'createdAt' | 'lastUsedAt' | 'backedUp' | 'aaguid'
>;

/** A person's passkeys, read consistently by credential id (the ids listed on their account). */
export const getPasskeySummaries = async (credentialIds: Iterable<string>): Promise<PasskeySummary[]> =>
  (await batchGetAll(
    table(),
    [...credentialIds].map((credentialId) => ({ credentialId })),
    {
      ProjectionExpression: 'credentialId, #name, createdAt, lastUsedAt, backedUp, aaguid',
      ExpressionAttributeNames: { '#name': 'name' },
      ConsistentRead: true,
    },
  )) as PasskeySummary[];

/** Every passkey id of a person, through `byUser` (for erasing an account whose list may be gone). */
export const findPasskeyIdsOfUser = async (userId: string): Promise<string[]> =>
  (
    await queryAttributes(
      {
        TableName: table(),
        IndexName: 'byUser',
        KeyConditionExpression: 'userId = :userId',
        ExpressionAttributeValues: { ':userId': userId },
      },
      ['credentialId'],
    )
  ).map((item) => String(item.credentialId));

/** The record of a credential just verified, for its owner. */
export const newPasskeyRecord = (
  owner: Pick<PasskeyRecord, 'userId' | 'cognitoUsername' | 'userHandle'>,
  registration: NonNullable<VerifiedRegistrationResponse['registrationInfo']>,
  createdAt: string,
): PasskeyRecord => ({
  credentialId: registration.credential.id,
  userId: owner.userId,
  cognitoUsername: owner.cognitoUsername,
  userHandle: owner.userHandle,
  publicKey: registration.credential.publicKey,
  counter: registration.credential.counter,
  transports: registration.credential.transports,
  deviceType: registration.credentialDeviceType,
  backupEligible: registration.credentialDeviceType === 'multiDevice',
  backedUp: registration.credentialBackedUp,
  aaguid: registration.aaguid,
  createdAt,
});

/**
 * Renames a passkey of this person with `also` (its audit event) in the same transaction, only while
 * `onlyIf`'s checks hold (else their refusal); answers the renamed passkey, or undefined when it is not
 * theirs (or was removed meanwhile).
 */
export const renamePasskey = async (
  userId: string,
  credentialId: string,
  name: string,
  also: readonly TransactItem[] = [],
  onlyIf?: CommitChecks,
): Promise<PasskeyRecord | undefined> => {
  const passkey = await getPasskey(credentialId);
  if (passkey?.userId !== userId) return undefined;
  const checks = onlyIf?.checks ?? [];
  try {
    await transactWrite({
      TransactItems: [
        ...checks,
        {
          Update: {
            TableName: table(),
            Key: { credentialId },
            UpdateExpression: 'SET #name = :name',
            ConditionExpression: 'userId = :userId',
            ExpressionAttributeNames: { '#name': 'name' },
            ExpressionAttributeValues: { ':name': name, ':userId': userId },
          },
        },
        ...also,
      ],
    });
    return { ...passkey, name };
  } catch (error) {
    const refusal = refusalOf(error, onlyIf);
    if (refusal) throw refusal;
    // Removed meanwhile (the condition names the owner); anything else is an error.
    if (conditionFailedAt(error, checks.length)) return undefined;
    throw error;
  }
};

/** Transaction item deleting a passkey of this person (the condition fails for anyone else's). */
export const deletePasskeyItem = (userId: string, credentialId: string): TransactItem => ({
  Delete: {
    TableName: table(),
    Key: { credentialId },
    ConditionExpression: 'userId = :userId',
    ExpressionAttributeValues: { ':userId': userId },
  },
});

export const getPasskey = async (credentialId: string): Promise<PasskeyRecord | undefined> => {
  const result = await ddb.send(
    new GetCommand({ TableName: table(), Key: { credentialId }, ConsistentRead: true }),
  );
  return result.Item as PasskeyRecord | undefined;
};

/** Transaction item storing a new credential; an existing credential id makes it fail. */
export const putPasskeyItem = (passkey: PasskeyRecord): TransactItem => ({
  Put: { TableName: table(), Item: passkey, ConditionExpression: 'attribute_not_exists(credentialId)' },
});

/**
 * Moves the signature counter forward only: to a higher value than the one this verification read,
 * and only while the item still holds that value. A cloned authenticator shows up as a counter that
 * did not move forward: this is the one place that refuses it (verify-webauthn leaves the counter out
 * of the signature's check, so that a clone is not logged as a bad signature). Authenticators that
 * always report 0, as synced passkeys do, stay at 0: what stops a replay there is the single-use
 * sign-in session. Answers false when the counter would not move forward or changed meanwhile.
 */
export const advanceCounter = async (
  credentialId: string,
  from: number,
  to: number,
  usedAt: string,
  backedUp: boolean,
): Promise<boolean> => {
  // WebAuthn Level 3, section 7.2 step 22: either counter non-zero and the new one not greater is a clone.
  if ((to !== 0 || from !== 0) && to <= from) return false;
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { credentialId },
        UpdateExpression: 'SET #counter = :to, lastUsedAt = :usedAt, backedUp = :backedUp',
        ConditionExpression: '#counter = :from',
        ExpressionAttributeNames: { '#counter': 'counter' },
        ExpressionAttributeValues: { ':from': from, ':to': to, ':usedAt': usedAt, ':backedUp': backedUp },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/** The BE flag a passkey registered with (older records say it through `deviceType`). */
export const backupEligibleOf = (passkey: Pick<PasskeyRecord, 'backupEligible' | 'deviceType'>): boolean =>
  passkey.backupEligible ?? passkey.deviceType === 'multiDevice';
