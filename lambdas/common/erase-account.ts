/**
 * Erasing a person (SPEC-2 sections 3.3 and 3.4): everything the account holds, in every table and
 * in the user pool; only the audit log keeps its events for their 400 days (ids, and the email of an
 * invitation or activation event, the address and browser of each: never health data). The caller has already
 * disabled the account in a guarded transaction, so from that moment no token of the person is served
 * and no sign-in completes; the erase then runs in an order that never leaves a half state a person
 * could use: passkeys (no sign-in), the Cognito user (no token), the data, and the account item last,
 * so an erase cut short is finished by running it again (docs/decisions/044-account-lifecycle.md).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { TableKey } from '../../shared/tables';
import { auditTransactItem, type AuditRecord, type RequestOrigin } from './audit';
import { ddb } from './aws';
import { batchDeleteAll, queryAttributes } from './batch-write';
import { unassignClientsOf } from './coaching';
import { tableName } from './env';
import { deleteCognitoUser, signOutEverywhere } from './cognito-users';
import { deleteAccount, type ErasingAccount } from './repositories/accounts';
import { coachClientKey, getClientCoach } from './repositories/coaching';
import { findPasskeyIdsOfUser } from './repositories/passkeys';

/** One item by key (already gone is fine). */
const deleteItem = async (table: TableKey, Key: Record<string, unknown>) => {
  await ddb.send(new DeleteCommand({ TableName: tableName(table), Key }));
};

/**
 * One item by key, only while `owner` names this person: items keyed by email may belong to someone
 * invited with the same email after an erase that was cut short, which a rerun must leave alone.
 */
const deleteOwnItem = async (
  table: TableKey,
  Key: Record<string, unknown>,
  owner: 'userId' | 'usedBy',
  userId: string,
) => {
  try {
    await ddb.send(
      new DeleteCommand({
        TableName: tableName(table),
        Key,
        ConditionExpression: '#owner = :userId',
        ExpressionAttributeNames: { '#owner': owner },
        ExpressionAttributeValues: { ':userId': userId },
      }),
    );
  } catch (error) {
    // Gone already, or someone else's.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
};

/**
 * The keys of every health item of the person: each record has a reference in the person's own
 * partition (written in the record's transaction), read consistently, so nothing committed before this
 * read is missed (the `byOwner` index could lag its table in AWS).
 */
const healthKeys = async (userId: string) => {
  const references = await queryAttributes(
    {
      TableName: tableName('healthRecords'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `${userId}#R` },
      ConsistentRead: true,
    },
    ['pk', 'sk', 'targetPk', 'targetSk'],
  );
  return references.flatMap(({ pk, sk, targetPk, targetSk }) => [
    { pk, sk },
    ...(targetPk !== undefined && targetSk !== undefined ? [{ pk: targetPk, sk: targetSk }] : []),
  ]);
};

/**
 * The deletion an erase records, as the one who began it (`erasing.by`) asked: `account.deleted` for
 * the person's own, `user.deleted` for an admin's, whoever finishes it (the request, FinishErases, or
 * an admin's Delete on the account meanwhile).
 */
const deletionOf = ({ userId, erasing }: ErasingAccount): AuditRecord =>
  erasing.by === userId
    ? { type: 'account.deleted', actorId: userId, subjectId: userId }
    : { type: 'user.deleted', actorId: erasing.by, subjectId: userId };

/**
 * Erases the person whose account is marked `erasing`, and records the deletion in the transaction
 * that deletes the account item: true when this run did, false when another run of the erase got there
 * first (its event is written then).
 */
export const eraseAccount = async (account: ErasingAccount, origin: RequestOrigin): Promise<boolean> => {
  const { userId, email } = account;
  const actorId = account.erasing.by;
  const passkeyIds = new Set([...(account.credentialIds ?? []), ...(await findPasskeyIdsOfUser(userId))]);
  for (const credentialId of passkeyIds) await deleteItem('passkeys', { credentialId });
  await signOutEverywhere(account.cognitoUsername).catch(() => undefined);
  await deleteCognitoUser(account.cognitoUsername);

  await batchDeleteAll(tableName('healthRecords'), await healthKeys(userId));
  const notes = await queryAttributes(
    {
      TableName: tableName('coaching'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `notes#${userId}` },
      // As the health references: a note committed before the disable is never missed.
      ConsistentRead: true,
    },
    ['pk', 'sk'],
  );
  // The commit that began the erase ended the person's coaching; should their state still name a coach
  // (a state written before that was so), that coach's client item naming them goes too: before the
  // state, so that an erase cut short in between still finds it when run again.
  const coachId = (await getClientCoach(userId))?.coachId;
  if (coachId !== undefined) await deleteItem('coaching', coachClientKey(coachId, userId));
  await batchDeleteAll(tableName('coaching'), [...notes, { pk: `client#${userId}`, sk: 'state' }]);
  // A coach's clients keep their records and notes, and lose their coach: before the account item goes,
  // so that an erase cut short here (a state that kept changing: 409) is finished by FinishErases,
  // rather than leave a client whose state names a coach who is nobody.
  await unassignClientsOf(userId, origin, actorId, 'coach-deleted');

  await deleteItem('authChallenges', { pk: `passkey#${userId}` });
  for (const pk of [`registration#${email}`, `recovery#${email}`])
    await deleteOwnItem('authChallenges', { pk }, 'userId', userId);
  await deleteOwnItem('invitations', { email }, 'usedBy', userId);
  await deleteItem('profiles', { userId });
  return deleteAccount(userId, [auditTransactItem(origin, deletionOf(account))]);
};
