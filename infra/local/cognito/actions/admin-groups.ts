/** Group membership: the product keeps roles as the groups admins, coaches and users. */
import { z } from 'zod';
import { resourceNotFound } from '../errors';
import { groupNameSchema, limitSchema, parseInput, userPoolIdSchema, usernameSchema } from '../input';
import { paginate } from '../pagination';
import { requireUserPool, type Pool } from '../pool';
import type { GroupRecord } from '../state';
import { groupType, requireUser, userType } from '../users';
import { signedAction, type ActionRequest } from './action';
import { userOrderKey } from './admin-users';

const membershipInput = z.object({
  UserPoolId: userPoolIdSchema,
  Username: usernameSchema,
  GroupName: groupNameSchema,
});
const groupsForUserInput = z.object({
  UserPoolId: userPoolIdSchema,
  Username: usernameSchema,
  Limit: limitSchema,
  NextToken: z.string().min(1).optional(),
});
const usersInGroupInput = z.object({
  UserPoolId: userPoolIdSchema,
  GroupName: groupNameSchema,
  Limit: limitSchema,
  NextToken: z.string().min(1).optional(),
});

const requireGroup = (pool: Pool, name: string): GroupRecord => {
  const group = pool.state.groups.get(name);
  if (!group) throw resourceNotFound('Group not found.');
  return group;
};

const adminAddUserToGroup = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(membershipInput, request.body);
  requireUserPool(pool, input.UserPoolId);
  const user = requireUser(pool, input.Username);
  const group = requireGroup(pool, input.GroupName);
  if (!user.groups.includes(group.name)) {
    user.groups = [...user.groups, group.name];
    await pool.save();
  }
  return {};
};

const adminRemoveUserFromGroup = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(membershipInput, request.body);
  requireUserPool(pool, input.UserPoolId);
  const user = requireUser(pool, input.Username);
  const group = requireGroup(pool, input.GroupName);
  if (user.groups.includes(group.name)) {
    user.groups = user.groups.filter((name) => name !== group.name);
    await pool.save();
  }
  return {};
};

const adminListGroupsForUser = (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(groupsForUserInput, request.body);
  requireUserPool(pool, input.UserPoolId);
  const user = requireUser(pool, input.Username);
  const groups = user.groups
    .map((name) => pool.state.groups.get(name))
    .filter((group): group is GroupRecord => group !== undefined);
  const page = paginate(groups, (group) => group.name, input.Limit, input.NextToken);
  return Promise.resolve({
    Groups: page.items.map((group) => groupType(group, pool.config.userPoolId)),
    ...(page.nextToken === undefined ? {} : { NextToken: page.nextToken }),
  });
};

const listUsersInGroup = (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(usersInGroupInput, request.body);
  requireUserPool(pool, input.UserPoolId);
  const group = requireGroup(pool, input.GroupName);
  const members = [...pool.state.users.values()].filter((user) => user.groups.includes(group.name));
  const page = paginate(members, userOrderKey, input.Limit, input.NextToken);
  return Promise.resolve({
    Users: page.items.map((user) => userType(user)),
    ...(page.nextToken === undefined ? {} : { NextToken: page.nextToken }),
  });
};

export const adminGroupActions = {
  AdminAddUserToGroup: signedAction(adminAddUserToGroup),
  AdminRemoveUserFromGroup: signedAction(adminRemoveUserFromGroup),
  AdminListGroupsForUser: signedAction(adminListGroupsForUser),
  ListUsersInGroup: signedAction(listUsersInGroup),
};
