/** Finding users the way Cognito resolves a `Username` parameter, and presenting them as its API does. */
import { claimValue } from './attributes';
import { userNotFound } from './errors';
import type { Pool } from './pool';
import { usernameKey, type GroupRecord, type PoolState, type UserRecord } from './state';

const verifiedEmail = (user: UserRecord): string | undefined =>
  user.attributes['email_verified'] === 'true' ? user.attributes['email']?.toLowerCase() : undefined;

/**
 * By username first, then (only in a pool configured with the email alias) by verified email: email
 * is a sign-in alias only once verified.
 */
export const findUser = (pool: Pool, name: string): UserRecord | undefined => {
  const byName = pool.state.users.get(usernameKey(name));
  if (byName || !pool.config.emailAlias) return byName;
  const email = name.toLowerCase();
  for (const user of pool.state.users.values()) {
    if (verifiedEmail(user) === email) return user;
  }
  return undefined;
};

export const requireUser = (pool: Pool, name: string): UserRecord => {
  const user = findUser(pool, name);
  if (!user) throw userNotFound();
  return user;
};

export const findUserBySub = (state: PoolState, sub: string): UserRecord | undefined => {
  for (const user of state.users.values()) {
    if (user.sub === sub) return user;
  }
  return undefined;
};

/** Another user who already owns `email` as a verified alias (none in a pool without the alias). */
export const aliasOwner = (pool: Pool, email: string, except?: UserRecord): UserRecord | undefined => {
  if (!pool.config.emailAlias) return undefined;
  const wanted = email.toLowerCase();
  for (const user of pool.state.users.values()) {
    if (user !== except && verifiedEmail(user) === wanted) return user;
  }
  return undefined;
};

/** The user's groups in Cognito's token order: by precedence (lowest first, unset last), then name. */
export const groupsOf = (state: PoolState, user: UserRecord): GroupRecord[] =>
  user.groups
    .map((name) => state.groups.get(name))
    .filter((group): group is GroupRecord => group !== undefined)
    .sort(
      (a, b) =>
        (a.precedence ?? Number.MAX_SAFE_INTEGER) - (b.precedence ?? Number.MAX_SAFE_INTEGER) ||
        a.name.localeCompare(b.name),
    );

/** `[{Name, Value}]` with `sub` first, as Cognito lists them. */
export const attributeList = (
  user: UserRecord,
  only?: readonly string[],
): { Name: string; Value: string }[] => {
  const names = ['sub', ...Object.keys(user.attributes).filter((n) => n !== 'sub')];
  return names
    .filter((name) => only === undefined || only.includes(name))
    .map((name) => ({ Name: name, Value: name === 'sub' ? user.sub : (user.attributes[name] ?? '') }));
};

const epochSeconds = (ms: number): number => ms / 1000;

/** Cognito's `UserType`; timestamps are epoch seconds, which the SDK turns into Dates. */
export const userType = (user: UserRecord, only?: readonly string[]) => ({
  Username: user.username,
  Attributes: attributeList(user, only),
  UserCreateDate: epochSeconds(user.createdAt),
  UserLastModifiedDate: epochSeconds(user.modifiedAt),
  Enabled: user.enabled,
  UserStatus: user.status,
});

export const groupType = (group: GroupRecord, userPoolId: string) => ({
  GroupName: group.name,
  UserPoolId: userPoolId,
  ...(group.description === undefined ? {} : { Description: group.description }),
  ...(group.precedence === undefined ? {} : { Precedence: group.precedence }),
  CreationDate: epochSeconds(group.createdAt),
  LastModifiedDate: epochSeconds(group.modifiedAt),
});

/**
 * What the triggers see in `request.userAttributes`: every attribute plus the status, and the email
 * alias when the email is verified.
 */
export const triggerAttributes = (user: UserRecord): Record<string, string> => ({
  sub: user.sub,
  ...user.attributes,
  ...(verifiedEmail(user) === undefined ? {} : { 'cognito:email_alias': user.attributes['email'] ?? '' }),
  'cognito:user_status': user.status,
});

/** Attributes as id-token claims (typed as Cognito types them), `sub` excluded: it is placed first. */
export const attributeClaims = (user: UserRecord): Record<string, string | boolean | number> =>
  Object.fromEntries(
    Object.entries(user.attributes)
      .filter(([name]) => name !== 'sub')
      .map(([name, value]) => [name, claimValue(name, value)]),
  );
