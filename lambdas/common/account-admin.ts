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
import { auditTransactItem, type AuditRecord, type RequestOrigin } from './audit';
import { Conflict, Forbidden, NotFound } from './errors';
import {
  activeAdminCheckItem,
  getAccount,
  updateAccountItem,
  type AccountRecord,
} from './repositories/accounts';
import { countsUpdateItem, statusDelta } from './repositories/directory';
import { transactWrite } from './transactions';

export const targetAccount = async (userId: string | undefined): Promise<AccountRecord> => {
  const account = userId ? await getAccount(userId) : undefined;
  if (!account) throw new NotFound(ACCOUNT_MESSAGES.userNotFound);
  return account;
};

export const commitAdminChange = async (change: {
  readonly actorId: string;
  readonly target: AccountRecord;
  readonly set: Parameters<typeof updateAccountItem>[1];
  readonly audit: AuditRecord;
  readonly origin: RequestOrigin;
}): Promise<void> => {
  const { actorId, target } = change;
  const actorCheck = actorId === target.userId ? [] : [activeAdminCheckItem(actorId)];
  try {
    await transactWrite({
      TransactItems: [
        ...actorCheck,
        updateAccountItem(target.userId, change.set, { updatedAt: target.updatedAt }),
        auditTransactItem(change.origin, change.audit),
        // The status read is the status changed (the update is conditioned on `updatedAt`).
        ...countsUpdateItem(statusDelta(target.status, change.set.status)),
      ],
    });
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    if (actorCheck.length > 0 && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed')
      throw new Forbidden(API_MESSAGES.forbidden);
    throw new Conflict(ACCOUNT_MESSAGES.changedMeanwhile);
  }
};
