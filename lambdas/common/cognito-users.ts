/** The Cognito calls of the sign-in chain, in the words of the domain. */
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUserGlobalSignOutCommand,
  ListUsersCommand,
  UserNotFoundException,
  UsernameExistsException,
  type AttributeType,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { cognito } from './aws';
import { userPoolId } from './env';
import { getProfileNames } from './repositories/profiles';

export const attribute = (attributes: AttributeType[] | undefined, name: string): string | undefined =>
  attributes?.find((a) => a.Name === name)?.Value;

/**
 * Whether any of these users completed activation: the registration writes the profile together with
 * the passkey, so a user without one is what a half-done activation left behind and cannot sign in.
 */
export const anyActivated = async (users: readonly UserType[]): Promise<boolean> => {
  const subs = users.flatMap((user) => attribute(user.Attributes, 'sub') ?? []);
  return subs.length > 0 && (await getProfileNames(subs)).size > 0;
};

/**
 * Creates the user under the reserved opaque username (email verified, no message sent), or finds
 * it when an earlier attempt already did: answers its `sub`.
 */
export const ensureCognitoUser = async (username: string, email: string): Promise<string> => {
  try {
    const created = await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId(),
        Username: username,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    const sub = attribute(created.User?.Attributes, 'sub');
    if (sub) return sub;
  } catch (error) {
    if (!(error instanceof UsernameExistsException)) throw error;
  }
  const existing = await cognito.send(
    new AdminGetUserCommand({ UserPoolId: userPoolId(), Username: username }),
  );
  const sub = attribute(existing.UserAttributes, 'sub');
  if (!sub) throw new Error('Cognito user has no sub');
  return sub;
};

/**
 * Deletes a Cognito user: the one an activation reserved but never completed, or an erased account's.
 * Already gone is fine.
 */
export const deleteCognitoUser = async (username: string): Promise<void> => {
  try {
    await cognito.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId(), Username: username }));
  } catch (error) {
    if (!(error instanceof UserNotFoundException)) throw error;
  }
};

export const addUserToGroups = async (username: string, groups: readonly string[]): Promise<void> => {
  for (const group of groups) {
    await cognito.send(
      new AdminAddUserToGroupCommand({ UserPoolId: userPoolId(), Username: username, GroupName: group }),
    );
  }
};

/** Puts the user in exactly these role groups, from the groups Cognito has now (so a retry converges). */
export const setUserGroups = async (username: string, groups: readonly string[]): Promise<void> => {
  const current = await cognito.send(
    new AdminListGroupsForUserCommand({ UserPoolId: userPoolId(), Username: username }),
  );
  const has = new Set((current.Groups ?? []).flatMap((group) => group.GroupName ?? []));
  await addUserToGroups(
    username,
    groups.filter((group) => !has.has(group)),
  );
  for (const group of [...has].filter((name) => !groups.includes(name))) {
    await cognito.send(
      new AdminRemoveUserFromGroupCommand({ UserPoolId: userPoolId(), Username: username, GroupName: group }),
    );
  }
};

/** Revokes every refresh token of the person (their sessions end at the next refresh). */
export const signOutEverywhere = async (username: string): Promise<void> => {
  await cognito.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId(), Username: username }));
};

/** Cognito itself refuses a disabled user's sign-in and refresh. */
export const setUserEnabled = async (username: string, enabled: boolean): Promise<void> => {
  const input = { UserPoolId: userPoolId(), Username: username };
  await cognito.send(enabled ? new AdminEnableUserCommand(input) : new AdminDisableUserCommand(input));
};

/** A person as Cognito knows them: the opaque username, whether enabled, and their groups. */
export interface PoolMember {
  readonly userId: string;
  readonly username: string;
  readonly enabled: boolean;
  readonly groups: readonly string[];
}

/** The Cognito user whose `sub` is `userId`, with their groups; undefined when there is none. */
export const findPoolMember = async (userId: string): Promise<PoolMember | undefined> => {
  const found = await cognito.send(
    new ListUsersCommand({ UserPoolId: userPoolId(), Filter: `sub = "${userId}"`, Limit: 1 }),
  );
  const user = found.Users?.[0];
  if (!user?.Username || attribute(user.Attributes, 'sub') !== userId) return undefined;
  const groups = await cognito.send(
    new AdminListGroupsForUserCommand({ UserPoolId: userPoolId(), Username: user.Username }),
  );
  return {
    userId,
    username: user.Username,
    enabled: user.Enabled !== false,
    groups: (groups.Groups ?? []).flatMap((group) => group.GroupName ?? []),
  };
};
