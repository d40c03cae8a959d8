/**
 * What every admin action on a person shares (SPEC-2 section 3.3): finding the account, and committing
 * a change to it only while the acting admin is still an active admin and the account is as it was
 * read. Two admins acting on each other at once therefore cannot both succeed, which is what keeps
 * at least one admin: nobody may demote, disable or delete themselves, and every change needs an
 * admin who stays one.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { ACCOUNT_MESSAGES } from '../../shared/account';
import { API_MESSAGES } from '../../shared/messages';
import { canonicalRoles } from '../../shared/roles';
import { userIdSchema } from '../../shared/schemas';
import type { RoleGroup } from '../../shared/constants';
import { auditTransactItem, type AuditRecord, type RequestOrigin } from './audit';
import type { TransactItem } from './aws';
import { setUserEnabled, setUserGroups, signOutEverywhere } from './cognito-users';
import { Conflict, Forbidden, NotFound } from './errors';
import {
  activeAdminCheckItem,
  getAccount,
  getAccountGate,
  updateAccountItem,
  type AccountGate,
  type AccountRecord,
  type AccountStatus,
} from './repositories/accounts';
import { countsUpdateItem, statusDelta } from './repositories/directory';
import { conditionFailedAt, transactWrite, type CommitChecks } from './transactions';

/**
 * The account an admin action names, or 404. Only a user id can name one: the accounts table also
 * holds the directory's counter items, which no path may reach.
 */
export const targetAccount = async (userId: string | undefined): Promise<AccountRecord> => {
  const account = userIdSchema.safeParse(userId).success ? await getAccount(userId ?? '') : undefined;
  if (!account) throw new NotFound(ACCOUNT_MESSAGES.userNotFound);
  return account;
};

/**
 * What an admin's write that changes no account commits under (an unassignment, an invitation created,
 * resent or deleted): the acting admin still an active admin, in the write's own transaction, as
 * `commitAdminChange` checks it; else 403. An admin disabled or demoted after the session check
 * changes nothing.
 */
export const whileStillAdmin = (actorId: string): CommitChecks => ({
  checks: [activeAdminCheckItem(actorId)],
  refused: () => new Forbidden(API_MESSAGES.forbidden),
});

export const commitAdminChange = async (change: {
  readonly actorId: string;
  readonly target: AccountRecord;
  readonly set: Parameters<typeof updateAccountItem>[1];
  readonly audit: AuditRecord;
  readonly origin: RequestOrigin;
  /** More items the change commits with, or not at all (their failure answers 409). */
  readonly with?: readonly TransactItem[];
}): Promise<void> => {
  const { actorId, target } = change;
  const own = actorId === target.userId;
  // On their own account the acting admin is the account read, and the update commits only while it is
  // as read: a request that passed the session check just before another admin disabled or demoted
  // its sender, and read the account after, cannot undo that.
  if (own && !(target.status === 'active' && target.roles.includes('admins')))
    throw new Forbidden(API_MESSAGES.forbidden);
  const actorCheck = own ? [] : [activeAdminCheckItem(actorId)];
  try {
    await transactWrite({
      TransactItems: [
        ...actorCheck,
        updateAccountItem(target.userId, change.set, { updatedAt: target.updatedAt }),
        auditTransactItem(change.origin, change.audit),
        // The status read is the status changed (the update is conditioned on `updatedAt`).
        ...countsUpdateItem(statusDelta(target.status, change.set.status)),
        ...(change.with ?? []),
      ],
    });
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    if (actorCheck.length > 0 && conditionFailedAt(error, 0)) throw new Forbidden(API_MESSAGES.forbidden);
    throw new Conflict(ACCOUNT_MESSAGES.changedMeanwhile);
  }
};

/** How many times Cognito is set and the account read again before giving up (409). */
const COGNITO_ROUNDS = 3;

/**
 * Makes Cognito hold what the account holds, after an admin change committed (or found nothing to
 * change): applies `value`, then reads the account again (consistently) and, while it holds something
 * else, applies that and reads again. Another admin's change committed after this one's but applied
 * to Cognito before this one's is therefore undone by neither: whichever request sets Cognito last
 * reads the account after it. An account gone meanwhile is left to the erase (which deletes the user).
 */
const followAccount = async <T>(
  userId: string,
  value: T,
  stored: (gate: AccountGate) => T,
  apply: (value: T) => Promise<void>,
  same: (a: T, b: T) => boolean,
): Promise<void> => {
  let applied = value;
  for (let round = 0; round < COGNITO_ROUNDS; round += 1) {
    await apply(applied);
    const gate = await getAccountGate(userId);
    if (!gate || same(stored(gate), applied)) return;
    applied = stored(gate);
  }
  throw new Conflict(ACCOUNT_MESSAGES.changedMeanwhile);
};

/** Cognito's groups for the person: exactly the account's roles (see `followAccount`). */
export const followRoles = (account: AccountRecord, roles: readonly RoleGroup[]): Promise<void> =>
  followAccount(
    account.userId,
    canonicalRoles(roles),
    (gate) => canonicalRoles(gate.roles),
    (groups) => setUserGroups(account.cognitoUsername, groups),
    (a, b) => a.join() === b.join(),
  );

/**
 * Cognito's state for the person: enabled while the account is active; disabled, with every refresh
 * token revoked, while it is disabled (see `followAccount`).
 */
export const followStatus = (account: AccountRecord, status: AccountStatus): Promise<void> =>
  followAccount(
    account.userId,
    status,
    (gate) => gate.status,
    async (next) => {
      await setUserEnabled(account.cognitoUsername, next === 'active');
      if (next === 'disabled') await signOutEverywhere(account.cognitoUsername);
    },
    (a, b) => a === b,
  );
