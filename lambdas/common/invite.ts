/**
 * Inviting someone: one rule shared by the admin API and `npm run invite`. The code comes from a
 * CSPRNG; an email with a pending invitation or an existing account cannot be invited again.
 */
import { randomBytes } from 'node:crypto';
import { ListUsersCommand, type UserType } from '@aws-sdk/client-cognito-identity-provider';
import { generateActivationCode } from '../../shared/activation-code';
import { DEFAULT_INVITATION_ROLES, type RoleGroup } from '../../shared/constants';
import { API_MESSAGES } from '../../shared/messages';
import { sameRoles } from '../../shared/roles';
import { cognito } from './aws';
import { anyActivated, attribute } from './cognito-users';
import { userPoolId } from './env';
import { Conflict, UnprocessableContent } from './errors';
import { getAccountGate } from './repositories/accounts';
import {
  createInvitation,
  getInvitation,
  invitationExpiryFromNow,
  type InvitationRecord,
} from './repositories/invitations';
import type { CommitChecks } from './transactions';

/** ListUsers' `Filter` is at most 256 characters. */
const LIST_FILTER_MAX = 256;

/** A value inside a ListUsers filter's quotes. */
const quoted = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/** The ListUsers filter for the longest prefix of an email that fits in one. */
const emailPrefixFilter = (email: string): string => {
  let prefix = email.slice(0, LIST_FILTER_MAX - 'email ^= ""'.length);
  while (`email ^= "${quoted(prefix)}"`.length > LIST_FILTER_MAX) prefix = prefix.slice(0, -1);
  return `email ^= "${quoted(prefix)}"`;
};

/**
 * Whether someone with this email completed activation. A user a half-done activation left behind
 * does not block a new invitation, which will reserve a user of its own.
 */
export const accountExists = async (email: string): Promise<boolean> => {
  // An email too long for Cognito's filter (a valid email may have 254 characters) is looked up by the
  // longest prefix that fits, then the users with exactly this email among those it finds.
  const exact = `email = "${quoted(email)}"`;
  const byPrefix = exact.length > LIST_FILTER_MAX;
  const filter = byPrefix ? emailPrefixFilter(email) : exact;
  const users: UserType[] = [];
  let token: string | undefined;
  do {
    const page = await cognito.send(
      new ListUsersCommand({ UserPoolId: userPoolId(), Filter: filter, Limit: 60, PaginationToken: token }),
    );
    const found = page.Users ?? [];
    users.push(...(byPrefix ? found.filter((user) => attribute(user.Attributes, 'email') === email) : found));
    token = page.PaginationToken;
  } while (token);
  return anyActivated(users);
};

/**
 * The creator id of invitations made by the operator (`npm run invite`, the local bootstrap) rather
 * than by an admin: there is no account whose standing could lapse.
 */
export const SYSTEM_CREATOR = '00000000-0000-4000-8000-000000000000';

/**
 * Whether an invitation may still be used (issue 11): the admin who created it, or last resent it,
 * is still an active admin. An invitation from a demoted, disabled or deleted admin answers like any
 * wrong code.
 */
export const issuerStillAdmin = (invitation: InvitationRecord): Promise<boolean> =>
  stillAdmin(invitation.resentBy ?? invitation.createdBy);

/**
 * Whether the issuer of an invitation or a recovery code is still an active admin (the operator, who
 * has no account, always is).
 */
export const stillAdmin = async (issuer: string): Promise<boolean> => {
  if (issuer === SYSTEM_CREATOR) return true;
  const account = await getAccountGate(issuer);
  return account?.status === 'active' && account.roles.includes('admins');
};

/** A new activation code from the CSPRNG (invitations, resends and recovery codes). */
export const newActivationCode = (): string => generateActivationCode((size) => randomBytes(size));

export interface InviteInput {
  /** Already normalized (trimmed, lowercased). */
  readonly email: string;
  readonly roles?: readonly RoleGroup[];
  /** The inviting admin's user id (`sub`); the bootstrap uses the nil UUID. */
  readonly createdBy: string;
  /** The create's Idempotency-Key, when it came with one (docs/decisions/061-idempotent-creates.md). */
  readonly requestKey?: string;
  /**
   * What the invitation commits under: an admin's, that they are still an active admin
   * (`whileStillAdmin`); the operator's, nothing.
   */
  readonly onlyIf?: CommitChecks;
}

export const invite = async ({
  email,
  roles,
  createdBy,
  requestKey,
  onlyIf,
}: InviteInput): Promise<InvitationRecord> => {
  const wanted = [...new Set(roles ?? DEFAULT_INVITATION_ROLES)];
  /** The pending invitation this very create made, sent again after its answer was lost. */
  const madeByThisCreate = (record: InvitationRecord): boolean =>
    requestKey !== undefined &&
    record.requestKey === requestKey &&
    record.createdBy === createdBy &&
    !record.codeUsed;
  /**
   * That invitation, answered again, if it was asked for with these roles: the email is its key, so the
   * roles are all of the body that can differ. With other roles, the key was sent with another request:
   * 422, and nothing is written (ADR 061).
   */
  const answerAgain = (record: InvitationRecord): InvitationRecord => {
    if (!sameRoles(record.roles, wanted)) throw new UnprocessableContent(API_MESSAGES.idempotencyKeyMismatch);
    return record;
  };
  const existing = await getInvitation(email);
  if (existing && madeByThisCreate(existing)) return answerAgain(existing);
  if (existing)
    throw new Conflict(existing.codeUsed ? API_MESSAGES.accountExists : API_MESSAGES.invitationExists);
  if (await accountExists(email)) throw new Conflict(API_MESSAGES.accountExists);
  const invitation: InvitationRecord = {
    email,
    activationCode: newActivationCode(),
    codeUsed: false,
    roles: wanted,
    createdBy,
    createdAt: new Date().toISOString(),
    expiresAt: invitationExpiryFromNow(),
    ...(requestKey !== undefined && { requestKey }),
  };
  if (await createInvitation(invitation, onlyIf)) return invitation;
  // Made meanwhile: by this create's first try, which its retry overtook, or by someone else.
  const made = await getInvitation(email);
  if (made && madeByThisCreate(made)) return answerAgain(made);
  throw new Conflict(API_MESSAGES.invitationExists);
};
