/**
 * DELETE /v1/users/me: the person erases their own account (SPEC-2 section 3.4), after typing their
 * email. The last admin cannot: an admin's erase commits only together with a check that another
 * person is still an active admin, so two admins leaving at once cannot leave nobody. The erase begins
 * only while the caller's session still passes the session check (a sign-out meanwhile cancels it).
 */
import { ListUsersInGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { ACCOUNT_MESSAGES, deleteMeRequestSchema } from '../../../shared/account';
import { auditTransactItem, originOf } from '../../common/audit';
import { cognito } from '../../common/aws';
import { attribute } from '../../common/cognito-users';
import { userPoolId } from '../../common/env';
import { endCoachingItems } from '../../common/coaching';
import { eraseAccount } from '../../common/erase-account';
import { BadRequest, Conflict, Unauthorized } from '../../common/errors';
import { httpHandler, noContent } from '../../common/http';
import { requireRecentSignIn, sessionIsValid, writingSessionOf } from '../../common/session';
import {
  activeAdminCheckItem,
  getAccount,
  getAccountGate,
  revocationSecond,
  updateAccountItem,
} from '../../common/repositories/accounts';
import { countsUpdateItem, statusDelta } from '../../common/repositories/directory';
import { transactIf } from '../../common/transactions';

/** Another active admin than `userId`, if there is one. */
const anotherActiveAdmin = async (userId: string): Promise<string | undefined> => {
  let NextToken: string | undefined;
  do {
    const page = await cognito.send(
      new ListUsersInGroupCommand({ UserPoolId: userPoolId(), GroupName: 'admins', Limit: 60, NextToken }),
    );
    for (const member of page.Users ?? []) {
      const sub = attribute(member.Attributes, 'sub');
      if (!sub || sub === userId) continue;
      const gate = await getAccountGate(sub);
      if (gate?.status === 'active' && gate.roles.includes('admins')) return sub;
    }
    NextToken = page.NextToken;
  } while (NextToken);
  return undefined;
};

export const handler = httpHandler(
  { auth: 'user', body: deleteMeRequestSchema },
  async ({ body, caller, event }) => {
    // A session left open (a shared computer, a borrowed phone) cannot erase the account on its own.
    requireRecentSignIn(caller, ACCOUNT_MESSAGES.reauthToDelete);
    const account = await getAccount(caller.sub);
    // Read after the session check: an admin's disable (or an erase) that committed in between ends
    // the request here, and the erase below commits only while the account is as read.
    if (account?.status !== 'active') throw new Unauthorized();
    if (body.confirmEmail !== account.email) throw new BadRequest(ACCOUNT_MESSAGES.confirmEmail);
    const isAdmin = account.roles.includes('admins');
    const otherAdmin = isAdmin ? await anotherActiveAdmin(caller.sub) : undefined;
    if (isAdmin && !otherAdmin) throw new Conflict(ACCOUNT_MESSAGES.lastAdmin);

    const origin = originOf(event);
    const now = Date.now();
    const erasing = { at: now, by: caller.sub };
    // Recorded with the disable, as the admin delete records it: an erase cut short leaves a trace.
    const disabled = await transactIf({
      TransactItems: [
        ...(otherAdmin ? [activeAdminCheckItem(otherAdmin)] : []),
        // `erasing`: should the erase below be cut short, the scheduled FinishErases finishes it.
        updateAccountItem(
          caller.sub,
          {
            status: 'disabled',
            tokensValidAfter: revocationSecond(),
            disabledAt: now,
            erasing,
          },
          { updatedAt: account.updatedAt },
          writingSessionOf(caller),
        ),
        auditTransactItem(origin, {
          type: 'user.disabled',
          actorId: caller.sub,
          subjectId: caller.sub,
          details: { reason: 'deleting' },
        }),
        ...countsUpdateItem(statusDelta(account.status, 'disabled')),
        // Their coach reads nothing of theirs from this commit on, however long the erase takes.
        ...(await endCoachingItems(caller.sub, origin, caller.sub, 'account-deleted')),
      ],
    });
    if (!disabled) {
      // The session ended after its check (signed out, disabled, or its roles changed): as that check answers.
      if (!(await sessionIsValid(caller))) throw new Unauthorized();
      throw new Conflict(isAdmin ? ACCOUNT_MESSAGES.lastAdmin : ACCOUNT_MESSAGES.changedMeanwhile);
    }
    await eraseAccount({ ...account, erasing }, origin);
    return noContent();
  },
);
