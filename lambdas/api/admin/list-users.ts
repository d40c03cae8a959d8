/**
 * GET /internal/v1/admin/users: every Cognito user with its groups and profile names. Pages through
 * Cognito (60 users a call; groups by listing each group's members, not one call per user) and
 * reads names 100 profiles at a time, and coaches 100 clients at a time.
 */
import {
  ListUsersCommand,
  ListUsersInGroupCommand,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { ROLE_GROUPS } from '../../../shared/constants';
import type { AdminUserListItem } from '../../../shared/schemas';
import { cognito } from '../../common/aws';
import { attribute } from '../../common/cognito-users';
import { userPoolId } from '../../common/env';
import { httpHandler, ok } from '../../common/http';
import { getCoachIds } from '../../common/repositories/coaching';
import { getProfileNames } from '../../common/repositories/profiles';

const allPages = async (
  fetchPage: (token?: string) => Promise<{ users: UserType[]; next?: string }>,
): Promise<UserType[]> => {
  const users: UserType[] = [];
  let token: string | undefined;
  do {
    const page = await fetchPage(token);
    users.push(...page.users);
    token = page.next;
  } while (token);
  return users;
};

export const handler = httpHandler({ auth: 'admin' }, async () => {
  const UserPoolId = userPoolId();
  const users = await allPages(async (PaginationToken) => {
    const page = await cognito.send(new ListUsersCommand({ UserPoolId, Limit: 60, PaginationToken }));
    return { users: page.Users ?? [], next: page.PaginationToken };
  });

  const groupsByUsername = new Map<string, string[]>();
  for (const GroupName of ROLE_GROUPS) {
    const members = await allPages(async (NextToken) => {
      const page = await cognito.send(
        new ListUsersInGroupCommand({ UserPoolId, GroupName, Limit: 60, NextToken }),
      );
      return { users: page.Users ?? [], next: page.NextToken };
    });
    for (const member of members) {
      if (member.Username)
        groupsByUsername.set(member.Username, [...(groupsByUsername.get(member.Username) ?? []), GroupName]);
    }
  }

  const subs = users
    .map((user) => attribute(user.Attributes, 'sub'))
    .filter((sub): sub is string => sub !== undefined);
  const names = await getProfileNames(subs);
  const coaches = await getCoachIds(subs);
  const items: AdminUserListItem[] = users.flatMap((user) => {
    const userId = attribute(user.Attributes, 'sub');
    if (!userId || !user.Username) return [];
    const profile = names.get(userId);
    // Only people who completed activation (the profile is written with the passkey); a user
    // reserved by a half-done activation stays a pending invitation.
    if (!profile) return [];
    return [
      {
        userId,
        email: attribute(user.Attributes, 'email') ?? '',
        ...(profile.preferredName ? { preferredName: profile.preferredName } : {}),
        ...(profile.familyName ? { familyName: profile.familyName } : {}),
        roles: groupsByUsername.get(user.Username) ?? [],
        createdAt: (user.UserCreateDate ?? new Date(0)).toISOString(),
        ...(coaches.has(userId) && { coachId: coaches.get(userId) }),
        status: user.Enabled === false ? 'disabled' : 'active',
      },
    ];
  });
  items.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return ok({ users: items });
});
