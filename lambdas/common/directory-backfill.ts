/**
 * Puts the accounts and invitations written before the user directory existed (0.6.0, before issue
 * 12) into it: the attributes that place them in the list indexes, and each one counted once in the
 * directory's counters (docs/decisions/058-admin-lists-at-scale.md). `npm start` runs it on a data
 * folder kept from an earlier version, before it serves a request; on a folder written by this
 * version it finds nothing to do.
 *
 * Each item moves in a transaction of its own, with the counters, and only while it still has no
 * directory attributes and still has the status (or the used flag) read: an item another run placed,
 * deleted or changed meanwhile is left for the next run rather than counted twice or wrongly.
 */
import { ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb } from './aws';
import { tableName } from './env';
import type { AccountRecord } from './repositories/accounts';
import {
  accountDirectoryAttributes,
  countsUpdateItem,
  invitationDirectoryAttributes,
} from './repositories/directory';
import type { InvitationRecord } from './repositories/invitations';
import { transactIf } from './transactions';

/** Every item of the scan, page by page. */
async function* scanAll(input: ScanCommandInput): AsyncGenerator<Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(new ScanCommand({ ...input, ExclusiveStartKey: start }));
    yield* page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/** `SET` of the given attributes, with their names and values, for an UpdateExpression. */
const setAll = (attributes: Record<string, string>) => {
  const entries = Object.entries(attributes);
  return {
    UpdateExpression: `SET ${entries.map((_, i) => `#d${i} = :d${i}`).join(', ')}`,
    names: Object.fromEntries(entries.map(([name], i) => [`#d${i}`, name])),
    values: Object.fromEntries(entries.map(([, value], i) => [`:d${i}`, value])),
  };
};

type UnlistedAccount = Pick<AccountRecord, 'userId' | 'createdAt' | 'roles' | 'status'>;
type UnlistedInvitation = Pick<InvitationRecord, 'email' | 'createdAt' | 'codeUsed'>;

const listAccount = (account: UnlistedAccount): Promise<boolean> => {
  const set = setAll(accountDirectoryAttributes(account));
  return transactIf({
    TransactItems: [
      {
        Update: {
          TableName: tableName('accounts'),
          Key: { userId: account.userId },
          UpdateExpression: set.UpdateExpression,
          ConditionExpression: 'attribute_exists(userId) AND attribute_not_exists(dir) AND #status = :status',
          ExpressionAttributeNames: { ...set.names, '#status': 'status' },
          ExpressionAttributeValues: { ...set.values, ':status': account.status },
        },
      },
      ...countsUpdateItem({ people: 1, disabled: account.status === 'disabled' ? 1 : 0 }),
    ],
  });
};

const listInvitation = (invitation: UnlistedInvitation): Promise<boolean> => {
  const set = setAll(invitationDirectoryAttributes(invitation));
  return transactIf({
    TransactItems: [
      {
        Update: {
          TableName: tableName('invitations'),
          Key: { email: invitation.email },
          UpdateExpression: set.UpdateExpression,
          ConditionExpression: 'attribute_exists(email) AND attribute_not_exists(dir) AND codeUsed = :used',
          ExpressionAttributeNames: set.names,
          ExpressionAttributeValues: { ...set.values, ':used': invitation.codeUsed },
        },
      },
      ...countsUpdateItem({ pendingInvitations: invitation.codeUsed ? 0 : 1 }),
    ],
  });
};

export interface BackfillResult {
  /** Accounts and invitations placed in the directory by this run. */
  readonly accounts: number;
  readonly invitations: number;
}

/** Places every account and invitation that is not in the directory yet; answers how many it placed. */
export const backfillDirectory = async (): Promise<BackfillResult> => {
  let accounts = 0;
  let invitations = 0;
  // Accounts only: the counter items share the table and carry no `cognitoUsername`.
  for await (const item of scanAll({
    TableName: tableName('accounts'),
    FilterExpression: 'attribute_not_exists(dir) AND attribute_exists(cognitoUsername)',
    ProjectionExpression: 'userId, createdAt, #roles, #status',
    ExpressionAttributeNames: { '#roles': 'roles', '#status': 'status' },
    ConsistentRead: true,
  })) {
    if (await listAccount(item as unknown as UnlistedAccount)) accounts += 1;
  }
  for await (const item of scanAll({
    TableName: tableName('invitations'),
    FilterExpression: 'attribute_not_exists(dir)',
    ProjectionExpression: 'email, createdAt, codeUsed',
    ConsistentRead: true,
  })) {
    if (await listInvitation(item as unknown as UnlistedInvitation)) invitations += 1;
  }
  return { accounts, invitations };
};
