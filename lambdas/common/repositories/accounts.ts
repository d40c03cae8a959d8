/**
 * Accounts: one item per activated person, the state every authenticated request is checked against
 * (docs/decisions/044-account-lifecycle.md). Written at activation and by every lifecycle action.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_PASSKEYS, type RoleGroup } from '../../../shared/constants';
import { ddb, type TransactItem } from '../aws';
import { tableName } from '../env';
import { transactIf } from '../transactions';
import { accountDirectoryAttributes, coachRoleAttribute, countsUpdateItem } from './directory';

const table = () => tableName('accounts');

export type AccountStatus = 'active' | 'disabled';

export interface AccountRecord {
  readonly userId: string;
  readonly email: string;
  readonly cognitoUsername: string;
  /** The WebAuthn user handle (base64url) every passkey of the person is registered under. */
  readonly userHandle: string;
  readonly roles: RoleGroup[];
  readonly status: AccountStatus;
  /** Epoch seconds: a token from a sign-in (`auth_time`) before this second is refused. */
  readonly tokensValidAfter: number;
  /** The person's passkeys; never empty for an account that can sign in. */
  readonly credentialIds: Set<string>;
  /**
   * Sessions signed out one by one (docs/decisions/048-sessions-that-end.md): `<origin_jti> <until>`,
   * where `until` (epoch seconds) is when the last token that session could mint has expired.
   */
  readonly signedOutSessions?: Set<string>;
  /** Epoch milliseconds of the last disable: a recovery code issued before it never works (decision 044). */
  readonly disabledAt?: number;
  /**
   * Set by the disable that starts an erase (an admin's delete, or the person's own): when (epoch
   * milliseconds, the same as `disabledAt`) and by whom. An erase cut short is finished from it
   * (`lambdas/scheduled/finish-erases.ts`), and an account marked so is never enabled again.
   */
  readonly erasing?: { readonly at: number; readonly by: string };
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What the session check reads on every authenticated request. */
export type AccountGate = Pick<AccountRecord, 'status' | 'roles' | 'tokensValidAfter' | 'signedOutSessions'>;

/** The state the session check needs, read consistently (a change is seen by the next request). */
export const getAccountGate = async (userId: string): Promise<AccountGate | undefined> => {
  const result = await ddb.send(
    new GetCommand({
      TableName: table(),
      Key: { userId },
      ConsistentRead: true,
      ProjectionExpression: '#status, #roles, tokensValidAfter, signedOutSessions',
      ExpressionAttributeNames: { '#status': 'status', '#roles': 'roles' },
    }),
  );
  return result.Item as AccountGate | undefined;
};

export const getAccount = async (userId: string): Promise<AccountRecord | undefined> => {
  const result = await ddb.send(
    new GetCommand({ TableName: table(), Key: { userId }, ConsistentRead: true }),
  );
  return result.Item as AccountRecord | undefined;
};

/**
 * Transaction item creating the account at activation, listed in the user directory; never
 * overwrites one.
 */
export const createAccountItem = (account: AccountRecord): TransactItem => ({
  Put: {
    TableName: table(),
    Item: { ...account, ...accountDirectoryAttributes(account) },
    ConditionExpression: 'attribute_not_exists(userId)',
  },
});

/**
 * The `tokensValidAfter` of a change made now: the next whole second. `auth_time` counts whole
 * seconds, so a sign-in in the current second may have come before the change and is refused with the
 * earlier ones; a sign-in after the change waits for that second (`untilTokensValid`).
 */
export const revocationSecond = (): number => Math.floor(Date.now() / 1000) + 1;

/** Waits (at most a second) until a sign-in completed now carries an `auth_time` the account accepts. */
export const untilTokensValid = async (tokensValidAfter: number): Promise<void> => {
  const wait = tokensValidAfter * 1000 - Date.now();
  if (wait > 0) await new Promise((done) => setTimeout(done, wait));
};

/**
 * Transaction item applying `set` to an account only while `expected` still holds for it (each listed
 * attribute equal to the value read), so two admins acting at once cannot both act on what they read;
 * with `session` (the person's own change), also only while that session passes the session check.
 */
export const updateAccountItem = (
  userId: string,
  set: Partial<Omit<AccountRecord, 'userId'>>,
  expected: Partial<Pick<AccountRecord, 'status' | 'roles' | 'updatedAt'>> = {},
  session?: WritingSession,
): TransactItem => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  // New roles move the account in or out of the directory's list of coaches.
  const directory = set.roles ? coachRoleAttribute(set.roles) : {};
  const assignments = Object.entries({ ...set, ...directory, updatedAt: new Date().toISOString() }).map(
    ([key, value], i) => {
      names[`#s${i}`] = key;
      values[`:s${i}`] = value;
      return `#s${i} = :s${i}`;
    },
  );
  const conditions = ['attribute_exists(userId)'].concat(
    Object.entries(expected).map(([key, value], i) => {
      names[`#e${i}`] = key;
      values[`:e${i}`] = value;
      return `#e${i} = :e${i}`;
    }),
  );
  if (session) {
    const check = sessionStillValid(session);
    conditions.push(check.condition);
    Object.assign(names, check.names);
    Object.assign(values, check.values);
  }
  return {
    Update: {
      TableName: table(),
      Key: { userId },
      UpdateExpression: `SET ${assignments.join(', ')}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
};

const signedOutEntry = (originJti: string, until: number): string => `${originJti} ${until}`;

/** Whether the session (the sign-in every token of it descends from) was signed out. */
export const isSignedOut = (gate: AccountGate, originJti: string): boolean => {
  for (const entry of gate.signedOutSessions ?? []) if (entry.startsWith(`${originJti} `)) return true;
  return false;
};

/**
 * Records one session of the person as signed out until `until` (epoch seconds), then drops the
 * entries whose sessions can no longer mint a token. False when the account is gone.
 */
export const recordSignedOutSession = async (
  userId: string,
  originJti: string,
  until: number,
): Promise<boolean> => {
  try {
    const result = await ddb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { userId },
        UpdateExpression: 'ADD signedOutSessions :entry',
        ConditionExpression: 'attribute_exists(userId)',
        ExpressionAttributeValues: { ':entry': new Set([signedOutEntry(originJti, until)]) },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const now = Math.floor(Date.now() / 1000);
    const entries = (result.Attributes?.signedOutSessions as Set<string> | undefined) ?? new Set();
    const expired = [...entries].filter((entry) => Number(entry.split(' ')[1]) < now);
    if (expired.length > 0) {
      await ddb.send(
        new UpdateCommand({
          TableName: table(),
          Key: { userId },
          UpdateExpression: 'DELETE signedOutSessions :expired',
          ExpressionAttributeValues: { ':expired': new Set(expired) },
        }),
      );
    }
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/** Ends every session of the person: tokens from sign-ins before the next second are refused. */
export const signOutAllSessions = async (userId: string): Promise<boolean> => {
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { userId },
        UpdateExpression: 'SET tokensValidAfter = :tva, updatedAt = :now',
        ConditionExpression: 'attribute_exists(userId)',
        ExpressionAttributeValues: { ':tva': revocationSecond(), ':now': new Date().toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/**
 * Transaction item checking that the person still holds every one of `roles` when the change commits,
 * and with `active` that the account is active. One item per person: a transaction cannot hold two
 * operations on one item, so what one transaction needs of one person goes in one check.
 */
export const accountCheckItem = (
  userId: string,
  { roles, active = false }: { readonly roles: readonly RoleGroup[]; readonly active?: boolean },
): TransactItem => ({
  ConditionCheck: {
    TableName: table(),
    Key: { userId },
    ConditionExpression: [
      ...(active ? ['#status = :active'] : []),
      ...roles.map((_, i) => `contains(#roles, :role${i})`),
    ].join(' AND '),
    ExpressionAttributeNames: {
      ...(active && { '#status': 'status' }),
      ...(roles.length > 0 && { '#roles': 'roles' }),
    },
    ExpressionAttributeValues: {
      ...(active && { ':active': 'active' }),
      ...Object.fromEntries(roles.map((role, i) => [`:role${i}`, role])),
    },
  },
});

/** Transaction item checking that the acting admin is still an active admin when the change commits. */
export const activeAdminCheckItem = (userId: string): TransactItem =>
  accountCheckItem(userId, { roles: ['admins'], active: true });

/**
 * Transaction item checking that the person's account is active when a write for them commits: for
 * writers without a session (the benchmark seeders); a request's write checks the whole session
 * (`sessionCheckItem`).
 */
export const activeAccountCheckItem = (userId: string): TransactItem =>
  accountCheckItem(userId, { roles: [], active: true });

/** The session a write is made in, as the session check knows it (`lambdas/common/session.ts`). */
export interface WritingSession {
  /** Epoch seconds of the sign-in the session descends from. */
  readonly authTime: number;
  readonly originJti: string;
  /** Until when a sign-out of this session is remembered (`sessionOutlivedBy(authTime)`). */
  readonly outlivedBy: number;
}

/**
 * The session check (`lambdas/common/session.ts`) as a condition on the account item, for a write to
 * commit under: the account active, no recovery, disable, role change or sign-out everywhere since the
 * session's sign-in (`tokensValidAfter`), the session not signed out. A write that passed the session
 * check just before one of those committed is cancelled rather than committed after it.
 */
const sessionStillValid = (session: WritingSession) => ({
  condition:
    '#status = :active AND tokensValidAfter <= :authTime AND NOT contains(signedOutSessions, :session)',
  names: { '#status': 'status' },
  values: {
    ':active': 'active',
    ':authTime': session.authTime,
    ':session': signedOutEntry(session.originJti, session.outlivedBy),
  },
});

/** Transaction item checking that the writer's session still passes the session check when the write commits. */
export const sessionCheckItem = (userId: string, session: WritingSession): TransactItem => {
  const check = sessionStillValid(session);
  return {
    ConditionCheck: {
      TableName: table(),
      Key: { userId },
      ConditionExpression: check.condition,
      ExpressionAttributeNames: check.names,
      ExpressionAttributeValues: check.values,
    },
  };
};

/**
 * Transaction item changing the person's passkey list (`update`, moving `updatedAt` too) only while
 * `condition` holds and the session changing it still passes the session check (`sessionStillValid`).
 */
const credentialListItem = (
  userId: string,
  session: WritingSession,
  update: string,
  condition: string,
  values: Record<string, unknown>,
): TransactItem => {
  const check = sessionStillValid(session);
  return {
    Update: {
      TableName: table(),
      Key: { userId },
      UpdateExpression: `${update} SET updatedAt = :now`,
      ConditionExpression: `${check.condition} AND ${condition}`,
      ExpressionAttributeNames: check.names,
      ExpressionAttributeValues: { ...check.values, ...values, ':now': new Date().toISOString() },
    },
  };
};

/**
 * Transaction item adding a credential to the person's list, only while the session adding it still
 * passes the session check: a recovery that commits after the request was checked cancels the add, so
 * no passkey outlives the recovery. Also only below `MAX_PASSKEYS`.
 */
export const addCredentialItem = (
  userId: string,
  credentialId: string,
  session: WritingSession,
): TransactItem =>
  credentialListItem(userId, session, 'ADD credentialIds :id', 'size(credentialIds) < :maxPasskeys', {
    ':id': new Set([credentialId]),
    ':maxPasskeys': MAX_PASSKEYS,
  });

/**
 * Transaction item taking a credential off the list, only if it is on it and not the last one, and only
 * while the session removing it still passes the session check.
 */
export const removeCredentialItem = (
  userId: string,
  credentialId: string,
  session: WritingSession,
): TransactItem =>
  credentialListItem(
    userId,
    session,
    'DELETE credentialIds :ids',
    'contains(credentialIds, :id) AND size(credentialIds) > :one',
    { ':ids': new Set([credentialId]), ':id': credentialId, ':one': 1 },
  );

/**
 * Whether an account is an erase that began (the disable that marked it) before `before` (epoch
 * milliseconds; by default at any time) and has not finished: disabled, and marked `erasing`.
 */
export const isUnfinishedErase = (
  account: AccountRecord | undefined,
  before = Number.POSITIVE_INFINITY,
): account is ErasingAccount =>
  account?.status === 'disabled' && account.erasing !== undefined && account.erasing.at < before;

/** An account whose erase began (disabled and marked `erasing`), finished or not. */
export type ErasingAccount = AccountRecord & { readonly erasing: NonNullable<AccountRecord['erasing']> };

/**
 * The ids of the accounts that may be unfinished erases: the disabled accounts (`byStatus`, keyed by
 * status) marked `erasing`. Eventually consistent: read each again (`getAccount`) before acting on it.
 */
export const findErasingAccountIds = async (): Promise<string[]> => {
  const ids: string[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'byStatus',
        KeyConditionExpression: '#status = :disabled',
        FilterExpression: 'attribute_exists(erasing)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':disabled': 'disabled' },
        ProjectionExpression: 'userId',
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) ids.push(String(item.userId));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return ids;
};

const DELETE_ATTEMPTS = 3;

/**
 * Deletes the account item (the last step of an erase) and takes the person out of the counts in the
 * same transaction, conditioned on the status the counts are corrected by, with `also` (the deletion's
 * audit event). True when this call deleted it; false when it was gone already (another run of the
 * erase finished first), so the event is written exactly once.
 */
export const deleteAccount = async (userId: string, also: readonly TransactItem[] = []): Promise<boolean> => {
  for (let attempt = 1; attempt <= DELETE_ATTEMPTS; attempt += 1) {
    const gate = await getAccountGate(userId);
    if (!gate) return false;
    const deleted = await transactIf({
      TransactItems: [
        {
          Delete: {
            TableName: table(),
            Key: { userId },
            ConditionExpression: '#status = :status',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':status': gate.status },
          },
        },
        ...countsUpdateItem({ people: -1, disabled: gate.status === 'disabled' ? -1 : 0 }),
        ...also,
      ],
    });
    if (deleted) return true;
  }
  throw new Error('The account kept changing while it was erased.');
};
