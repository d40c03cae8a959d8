/** Admin user management: the calls the product's Lambdas and tools make with IAM credentials. */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { applyAttributes, attributeTypeSchema, looksLikeEmail } from '../attributes';
import { aliasExists, invalidParameter, usernameExists } from '../errors';
import { limitSchema, parseInput, stringMapSchema, userPoolIdSchema, usernameSchema } from '../input';
import { parseUserFilter } from '../list-filter';
import { paginate } from '../pagination';
import { requireUserPool, type Pool } from '../pool';
import { usernameKey, type UserRecord } from '../state';
import { removeUser, revokeUserTokens } from '../tokens';
import { aliasOwner, requireUser, userType } from '../users';
import { signedAction, type ActionRequest } from './action';

const userRef = z.object({ UserPoolId: userPoolIdSchema, Username: usernameSchema });

const createUserInput = userRef.extend({
  UserAttributes: z.array(attributeTypeSchema).optional(),
  ValidationData: z.array(attributeTypeSchema).optional(),
  TemporaryPassword: z.string().min(6).max(256).optional(),
  ForceAliasCreation: z.boolean().optional(),
  MessageAction: z.enum(['RESEND', 'SUPPRESS']).optional(),
  DesiredDeliveryMediums: z.array(z.enum(['SMS', 'EMAIL'])).optional(),
  ClientMetadata: stringMapSchema.optional(),
});

const updateAttributesInput = userRef.extend({
  UserAttributes: z.array(attributeTypeSchema),
  ClientMetadata: stringMapSchema.optional(),
});

const listUsersInput = z.object({
  UserPoolId: userPoolIdSchema,
  AttributesToGet: z.array(z.string()).optional(),
  Limit: limitSchema,
  PaginationToken: z.string().min(1).optional(),
  Filter: z.string().max(256).optional(),
});

/** Creation order, then username: stable across pages even as users come and go. */
export const userOrderKey = (user: UserRecord): string =>
  `${String(user.createdAt).padStart(16, '0')}:${usernameKey(user.username)}`;

/**
 * A verified email is a sign-in alias and must be unique. With ForceAliasCreation the alias moves
 * to this user and the previous owner's email becomes unverified, as Cognito does.
 */
const claimAlias = (
  pool: Pool,
  attributes: Readonly<Record<string, string>>,
  self: UserRecord | undefined,
  force = false,
): void => {
  const email = attributes['email'];
  if (email === undefined || attributes['email_verified'] !== 'true') return;
  const owner = aliasOwner(pool, email, self);
  if (!owner) return;
  if (!force) throw aliasExists('An account with the given email already exists.');
  owner.attributes = { ...owner.attributes, email_verified: 'false' };
  owner.modifiedAt = pool.nowMs();
};

const adminCreateUser = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(createUserInput, request.body);
  requireUserPool(pool, input.UserPoolId);
  if (input.MessageAction === 'RESEND') {
    // No messages are ever sent locally; a resend just confirms the user is there.
    return { User: userType(requireUser(pool, input.Username)) };
  }
  if (pool.config.emailAlias && looksLikeEmail(input.Username)) {
    throw invalidParameter(
      'Username cannot be of email format, since user pool is configured for email alias.',
    );
  }
  if (pool.state.users.has(usernameKey(input.Username))) throw usernameExists('User account already exists');
  const attributes = applyAttributes({}, input.UserAttributes ?? []);
  claimAlias(pool, attributes, undefined, input.ForceAliasCreation);
  const now = pool.nowMs();
  const user: UserRecord = {
    username: input.Username,
    sub: randomUUID(),
    attributes,
    enabled: true,
    // Cognito gives every admin-created user a temporary password, supplied or generated.
    status: 'FORCE_CHANGE_PASSWORD',
    createdAt: now,
    modifiedAt: now,
    groups: [],
  };
  pool.state.users.set(usernameKey(user.username), user);
  await pool.save();
  return { User: userType(user) };
};

const adminGetUser = (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(userRef, request.body);
  requireUserPool(pool, input.UserPoolId);
  const user = requireUser(pool, input.Username);
  const { Attributes, ...rest } = userType(user);
  return Promise.resolve({ ...rest, UserAttributes: Attributes });
};

const adminDeleteUser = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(userRef, request.body);
  requireUserPool(pool, input.UserPoolId);
  removeUser(pool, requireUser(pool, input.Username));
  await pool.save();
  return {};
};

const adminUpdateUserAttributes = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(updateAttributesInput, request.body);
  requireUserPool(pool, input.UserPoolId);
  const user = requireUser(pool, input.Username);
  const attributes = applyAttributes(user.attributes, input.UserAttributes);
  claimAlias(pool, attributes, user);
  user.attributes = attributes;
  user.modifiedAt = pool.nowMs();
  await pool.save();
  return {};
};

/** Disabling also revokes the user's tokens, as Cognito's AdminDisableUser does. */
const setEnabled =
  (enabled: boolean) =>
  async (pool: Pool, request: ActionRequest): Promise<object> => {
    const input = parseInput(userRef, request.body);
    requireUserPool(pool, input.UserPoolId);
    const user = requireUser(pool, input.Username);
    user.enabled = enabled;
    user.modifiedAt = pool.nowMs();
    if (!enabled) revokeUserTokens(pool, user.sub);
    await pool.save();
    return {};
  };

const adminUserGlobalSignOut = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(userRef, request.body);
  requireUserPool(pool, input.UserPoolId);
  revokeUserTokens(pool, requireUser(pool, input.Username).sub);
  await pool.save();
  return {};
};

const listUsers = (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(listUsersInput, request.body);
  requireUserPool(pool, input.UserPoolId);
  const matches = parseUserFilter(input.Filter);
  const users = [...pool.state.users.values()].filter(matches);
  const page = paginate(users, userOrderKey, input.Limit, input.PaginationToken);
  return Promise.resolve({
    Users: page.items.map((user) => userType(user, input.AttributesToGet)),
    ...(page.nextToken === undefined ? {} : { PaginationToken: page.nextToken }),
  });
};

export const adminUserActions = {
  AdminCreateUser: signedAction(adminCreateUser),
  AdminGetUser: signedAction(adminGetUser),
  AdminDeleteUser: signedAction(adminDeleteUser),
  AdminUpdateUserAttributes: signedAction(adminUpdateUserAttributes),
  AdminDisableUser: signedAction(setEnabled(false)),
  AdminEnableUser: signedAction(setEnabled(true)),
  AdminUserGlobalSignOut: signedAction(adminUserGlobalSignOut),
  ListUsers: signedAction(listUsers),
};
