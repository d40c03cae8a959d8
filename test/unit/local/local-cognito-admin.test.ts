import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUpdateUserAttributesCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  type CognitoIdentityProviderClient,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import { USER_POOL_ID, match, createUser, startPool } from './cognito-harness';

const attribute = (user: UserType | undefined, name: string): string | undefined =>
  user?.Attributes?.find((a) => a.Name === name)?.Value;

const listAll = async (client: CognitoIdentityProviderClient, Filter?: string): Promise<UserType[]> => {
  const users: UserType[] = [];
  let PaginationToken: string | undefined;
  do {
    const page = await client.send(
      new ListUsersCommand({ UserPoolId: USER_POOL_ID, Filter, PaginationToken }),
    );
    users.push(...(page.Users ?? []));
    PaginationToken = page.PaginationToken;
  } while (PaginationToken);
  return users;
};

describe('AdminCreateUser and AdminGetUser', () => {
  it('creates a user with a generated sub, as Cognito answers it', async () => {
    const { client } = await startPool();

    const answer = await client.send(
      new AdminCreateUserCommand({
        UserPoolId: USER_POOL_ID,
        Username: 'b5b7a5e4-0d3e-4c55-9d0b-1f1f0b8f7a10',
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: 'new.person@example.com' },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );

    expect(answer.User).toMatchObject({
      Username: 'b5b7a5e4-0d3e-4c55-9d0b-1f1f0b8f7a10',
      Enabled: true,
      UserStatus: 'FORCE_CHANGE_PASSWORD',
      UserCreateDate: match.date,
      UserLastModifiedDate: match.date,
    });
    expect(attribute(answer.User, 'sub')).toMatch(/^[0-9a-f-]{36}$/);
    expect(attribute(answer.User, 'email')).toBe('new.person@example.com');
    expect(Math.abs((answer.User?.UserCreateDate?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('finds a user by username in any case, and by email only in a pool with the alias', async () => {
    const plain = await startPool();
    const stranger = await createUser(plain.client, { email: 'no.alias@example.com' });
    await expect(
      plain.client.send(
        new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: 'no.alias@example.com' }),
      ),
    ).rejects.toThrow(/User does not exist/);
    expect(stranger.username).toBeTruthy();
  });

  it('finds a user by username in any case and by verified email (email alias on)', async () => {
    const { client } = await startPool({ emailAlias: true });
    const user = await createUser(client, { email: 'Find.Me@example.com' });

    for (const Username of [user.username.toUpperCase(), 'find.me@example.com']) {
      const answer = await client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username }));
      expect(answer.Username).toBe(user.username);
      expect(answer.UserAttributes).toContainEqual({ Name: 'sub', Value: user.sub });
    }
  });

  it('refuses a duplicate username and a verified email another user owns', async () => {
    const { client } = await startPool({ emailAlias: true });
    const user = await createUser(client, { email: 'taken@example.com' });

    await expect(
      client.send(
        new AdminCreateUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username.toUpperCase() }),
      ),
    ).rejects.toMatchObject({ name: 'UsernameExistsException', message: 'User account already exists' });
    await expect(createUser(client, { email: 'TAKEN@example.com' })).rejects.toMatchObject({
      name: 'AliasExistsException',
    });
  });

  it('moves a verified email to the new user with ForceAliasCreation', async () => {
    const { client } = await startPool({ emailAlias: true });
    const previous = await createUser(client, { email: 'moving@example.com' });

    await client.send(
      new AdminCreateUserCommand({
        UserPoolId: USER_POOL_ID,
        Username: 'new-owner',
        ForceAliasCreation: true,
        UserAttributes: [
          { Name: 'email', Value: 'moving@example.com' },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );

    const byAlias = await client.send(
      new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: 'moving@example.com' }),
    );
    const before = await client.send(
      new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: previous.username }),
    );
    expect(byAlias.Username).toBe('new-owner');
    expect(before.UserAttributes).toContainEqual({ Name: 'email_verified', Value: 'false' });
  });

  it('refuses an email-shaped username (email alias on) and an invalid email attribute', async () => {
    const { client } = await startPool({ emailAlias: true });

    await expect(
      client.send(new AdminCreateUserCommand({ UserPoolId: USER_POOL_ID, Username: 'person@example.com' })),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    await expect(
      client.send(
        new AdminCreateUserCommand({
          UserPoolId: USER_POOL_ID,
          Username: 'someone',
          UserAttributes: [{ Name: 'email', Value: 'not-an-email' }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterException', message: 'Invalid email address format.' });
  });

  it('answers UserNotFoundException for an unknown user and ResourceNotFoundException for another pool', async () => {
    const { client } = await startPool();

    await expect(
      client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: 'ghost' })),
    ).rejects.toMatchObject({ name: 'UserNotFoundException', message: 'User does not exist.' });
    await expect(
      client.send(new AdminGetUserCommand({ UserPoolId: 'us-west-2_Other', Username: 'ghost' })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('answers InvalidParameterException for a missing Username', async () => {
    const { client } = await startPool();

    await expect(
      client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: undefined })),
    ).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: match.containing("'username'"),
    });
  });
});

describe('AdminDeleteUser and AdminUpdateUserAttributes', () => {
  it('deletes a user', async () => {
    const { client } = await startPool();
    const user = await createUser(client);

    await client.send(new AdminDeleteUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username }));

    await expect(
      client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username })),
    ).rejects.toMatchObject({ name: 'UserNotFoundException' });
    expect(await listAll(client)).toEqual([]);
  });

  it('updates attributes and unverifies a changed email', async () => {
    const { client } = await startPool();
    const user = await createUser(client);

    await client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: USER_POOL_ID,
        Username: user.username,
        UserAttributes: [
          { Name: 'name', Value: 'Ada Lovelace' },
          { Name: 'email', Value: 'ada@example.com' },
        ],
      }),
    );

    const answer = await client.send(
      new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username }),
    );
    expect(answer.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: 'name', Value: 'Ada Lovelace' },
        { Name: 'email', Value: 'ada@example.com' },
        { Name: 'email_verified', Value: 'false' },
      ]),
    );
  });

  it('refuses to change sub', async () => {
    const { client } = await startPool();
    const user = await createUser(client);

    await expect(
      client.send(
        new AdminUpdateUserAttributesCommand({
          UserPoolId: USER_POOL_ID,
          Username: user.username,
          UserAttributes: [{ Name: 'sub', Value: 'mine' }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
  });
});

describe('groups', () => {
  it('adds to a group and lists groups for the user page by page', async () => {
    const { client } = await startPool();
    const user = await createUser(client, { groups: ['users', 'admins'] });

    const first = await client.send(
      new AdminListGroupsForUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username, Limit: 1 }),
    );
    const second = await client.send(
      new AdminListGroupsForUserCommand({
        UserPoolId: USER_POOL_ID,
        Username: user.username,
        Limit: 1,
        NextToken: first.NextToken,
      }),
    );

    expect(first.Groups?.map((g) => g.GroupName)).toEqual(['admins']);
    expect(first.Groups?.[0]).toMatchObject({ UserPoolId: USER_POOL_ID, CreationDate: match.date });
    expect(second.Groups?.map((g) => g.GroupName)).toEqual(['users']);
    expect(second.NextToken).toBeUndefined();
  });

  it('answers ResourceNotFoundException for an unknown group', async () => {
    const { client } = await startPool();
    const user = await createUser(client);

    await expect(
      client.send(
        new AdminAddUserToGroupCommand({
          UserPoolId: USER_POOL_ID,
          Username: user.username,
          GroupName: 'wizards',
        }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException', message: 'Group not found.' });
  });

  it('lists the users in a group page by page and forgets removed members', async () => {
    const { client } = await startPool();
    const admins = [
      await createUser(client, { groups: ['admins'] }),
      await createUser(client, { groups: ['admins'] }),
    ];
    await createUser(client, { groups: ['users'] });
    const leaving = await createUser(client, { groups: ['admins'] });
    await client.send(
      new AdminRemoveUserFromGroupCommand({
        UserPoolId: USER_POOL_ID,
        Username: leaving.username,
        GroupName: 'admins',
      }),
    );

    const first = await client.send(
      new ListUsersInGroupCommand({ UserPoolId: USER_POOL_ID, GroupName: 'admins', Limit: 1 }),
    );
    const second = await client.send(
      new ListUsersInGroupCommand({
        UserPoolId: USER_POOL_ID,
        GroupName: 'admins',
        Limit: 1,
        NextToken: first.NextToken,
      }),
    );

    expect([...(first.Users ?? []), ...(second.Users ?? [])].map((u) => u.Username)).toEqual(
      admins.map((a) => a.username),
    );
    expect(second.NextToken).toBeUndefined();
  });
});

describe('ListUsers', () => {
  it('pages through more than 60 users without repeats', async () => {
    const { client } = await startPool();
    const created = [];
    for (let i = 0; i < 65; i += 1) created.push(await createUser(client));

    const first = await client.send(new ListUsersCommand({ UserPoolId: USER_POOL_ID }));
    const second = await client.send(
      new ListUsersCommand({ UserPoolId: USER_POOL_ID, PaginationToken: first.PaginationToken }),
    );

    expect(first.Users).toHaveLength(60);
    expect(second.Users).toHaveLength(5);
    expect(second.PaginationToken).toBeUndefined();
    const listed = [...(first.Users ?? []), ...(second.Users ?? [])].map((u) => u.Username);
    expect(new Set(listed)).toEqual(new Set(created.map((u) => u.username)));
  });

  it('refuses a Limit above 60', async () => {
    const { client } = await startPool();

    await expect(
      client.send(new ListUsersCommand({ UserPoolId: USER_POOL_ID, Limit: 61 })),
    ).rejects.toMatchObject({
      name: 'InvalidParameterException',
    });
  });

  it('filters with = and ^= on username, email, sub and status', async () => {
    const { client } = await startPool();
    const ann = await createUser(client, { email: 'ann@clinic.example' });
    const bob = await createUser(client, { email: 'bob@clinic.example' });
    await createUser(client, { email: 'cy@other.example' });

    const names = async (filter: string) => (await listAll(client, filter)).map((u) => u.Username).sort();

    expect(await names('email = "ann@clinic.example"')).toEqual([ann.username]);
    expect(await names('email ^= "bob@"')).toEqual([bob.username]);
    expect(await names(`sub = "${bob.sub}"`)).toEqual([bob.username]);
    expect(await names(`username = "${ann.username.toUpperCase()}"`)).toEqual([ann.username]);
    expect(await names('cognito:user_status = "FORCE_CHANGE_PASSWORD"')).toHaveLength(3);
    expect(await names('status = "Disabled"')).toEqual([]);
  });

  it('refuses a filter it cannot parse', async () => {
    const { client } = await startPool();

    await expect(
      client.send(new ListUsersCommand({ UserPoolId: USER_POOL_ID, Filter: 'email contains "x"' })),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
  });

  it('returns only the AttributesToGet', async () => {
    const { client } = await startPool();
    await createUser(client);

    const answer = await client.send(
      new ListUsersCommand({ UserPoolId: USER_POOL_ID, AttributesToGet: ['email'] }),
    );

    expect(answer.Users?.[0]?.Attributes?.map((a) => a.Name)).toEqual(['email']);
  });
});
