/**
 * The session check every authenticated route makes after API Gateway verified the id token: the
 * token must belong to an account that still exists, is active, carries exactly the account's roles,
 * and descends from a sign-in (`auth_time`, which a refreshed token keeps) no earlier than the account's
 * `tokensValidAfter` (docs/decisions/044-account-lifecycle.md), from a session (`origin_jti`) that was
 * not signed out (docs/decisions/048-sessions-that-end.md).
 * One consistent GetItem per request, never cached: a disable, delete, reset or role change is seen
 * by the very next request, in every Lambda at once.
 */
import { ACCOUNT_MESSAGES, PASSKEY_REAUTH_MAX_AGE_SECONDS } from '../../shared/account';
import type { RoleGroup } from '../../shared/constants';
import { sameRoles } from '../../shared/roles';
import {
  ACCESS_TOKEN_VALIDITY_MINUTES,
  ID_TOKEN_VALIDITY_MINUTES,
  REFRESH_TOKEN_VALIDITY_DAYS,
} from '../../shared/session-policy';
import { Unauthorized } from './errors';
import type { Caller } from './http';
import type { TransactItem } from './aws';
import type { CommitChecks } from './transactions';
import { getAccountGate, isSignedOut, sessionCheckItem, type WritingSession } from './repositories/accounts';

export interface SessionClaims {
  readonly sub: string;
  readonly groups: readonly RoleGroup[];
  /** Epoch seconds of the sign-in the token descends from. */
  readonly authTime: number;
  /** The session: the sign-in every token of it descends from, kept across refreshes and rotation. */
  readonly originJti: string;
}

/** Whether the token may still be served. */
export const sessionIsValid = async (claims: SessionClaims): Promise<boolean> => {
  const account = await getAccountGate(claims.sub);
  return (
    account !== undefined &&
    account.status === 'active' &&
    claims.authTime >= account.tokensValidAfter &&
    !isSignedOut(account, claims.originJti) &&
    sameRoles(account.roles, claims.groups)
  );
};

/**
 * When the last token a session could mint has expired (epoch seconds): its refresh token lives
 * `REFRESH_TOKEN_VALIDITY_DAYS` from the sign-in, and a token minted just before that a lifetime more.
 * A signed-out session is remembered until then.
 */
export const sessionOutlivedBy = (authTime: number): number =>
  authTime +
  REFRESH_TOKEN_VALIDITY_DAYS * 86_400 +
  Math.max(ID_TOKEN_VALIDITY_MINUTES, ACCESS_TOKEN_VALIDITY_MINUTES) * 60;

/** The caller's session, as a write's transaction checks it again (`sessionCheckItem`). */
export const writingSessionOf = (caller: Caller): WritingSession => ({
  authTime: caller.authTime,
  originJti: caller.originJti,
  outlivedBy: sessionOutlivedBy(caller.authTime),
});

/**
 * Transaction item for a write made on the caller's behalf: it commits only while the caller's session
 * still passes the session check, so a disable, delete, role change or sign-out that commits after the
 * request was checked cancels the write (its failure is the session check's 401).
 */
export const callerSessionCheckItem = (caller: Caller): TransactItem =>
  sessionCheckItem(caller.sub, writingSessionOf(caller));

/**
 * `onlyIf` for a write made for the caller (a passkey's rename) or for health data answered to them
 * (`recordAudit`'s, for the coach's client list and the export): it commits only while the caller's
 * session still passes the session check, else 401 and nothing is changed or shown.
 */
export const whileSessionHolds = (caller: Caller): CommitChecks => ({
  checks: [callerSessionCheckItem(caller)],
  refused: () => new Unauthorized(),
});

/**
 * Adding or removing a passkey, deleting the account and issuing a recovery code need a sign-in (`auth_time`) within the
 * last 10 minutes; else 401 with `message`.
 */
export const requireRecentSignIn = (
  caller: Caller,
  message: string = ACCOUNT_MESSAGES.reauthRequired,
): void => {
  if (Math.floor(Date.now() / 1000) - caller.authTime > PASSKEY_REAUTH_MAX_AGE_SECONDS)
    throw new Unauthorized(message);
};
