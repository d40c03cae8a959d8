/**
 * POST /v1/users/me/sign-out: ends the caller's session (every token descending from its sign-in,
 * `origin_jti`) from this moment, or with `everywhere` every session of the person
 * (docs/decisions/048-sessions-that-end.md). The SPA then revokes its refresh token with Cognito.
 */
import { signOutRequestSchema } from '../../../shared/account';
import { signOutEverywhere } from '../../common/cognito-users';
import { httpHandler, noContent } from '../../common/http';
import { recordSignedOutSession, signOutAllSessions } from '../../common/repositories/accounts';
import { sessionOutlivedBy } from '../../common/session';

export const handler = httpHandler({ auth: 'user', body: signOutRequestSchema }, async ({ body, caller }) => {
  if (body.everywhere) {
    // The account refuses every earlier sign-in first; Cognito's revocation then stops the refreshes.
    await signOutAllSessions(caller.sub);
    await signOutEverywhere(caller.username);
  } else {
    await recordSignedOutSession(caller.sub, caller.originJti, sessionOutlivedBy(caller.authTime));
  }
  return noContent();
});
