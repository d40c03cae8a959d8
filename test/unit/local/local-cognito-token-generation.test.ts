/**
 * The pre token generation trigger (V2_0 event) on the local endpoint, and the self-service calls that
 * need the scope it can take away: without the trigger an access token lets its holder delete their own
 * user; with the product's trigger it lets them do nothing with Cognito's user API (decision 063).
 */
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import {
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminGetUserCommand,
  DeleteUserCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import type { PoolTriggers } from '../../../infra/local/cognito/config';
import {
  COGNITO_SELF_SERVICE_SCOPE,
  handler as productPreTokenGeneration,
} from '../../../lambdas/cognito/pre-token-generation';
import {
  ANSWER,
  CLIENT_ID,
  REGION,
  USER_POOL_ID,
  createTestTriggers,
  createUser,
  decodeSegment,
  signIn,
  startPool,
  verifiers,
} from './cognito-harness';

const SELF_SERVICE = COGNITO_SELF_SERVICE_SCOPE;
const MISSING_SCOPE = 'Access Token does not have required scopes';

/** The harness's challenge triggers with `preTokenGeneration` added, and the events it received. */
const withPreTokenGeneration = (preTokenGeneration: NonNullable<PoolTriggers['preTokenGeneration']>) => {
  const events: PreTokenGenerationV2TriggerEvent[] = [];
  const { triggers } = createTestTriggers();
  return {
    events,
    triggers: {
      ...triggers,
      preTokenGeneration: (event: PreTokenGenerationV2TriggerEvent, context, callback) => {
        events.push(structuredClone(event));
        return preTokenGeneration(event, context, callback);
      },
    } satisfies PoolTriggers,
  };
};

const userExists = (client: Awaited<ReturnType<typeof startPool>>['client'], username: string) =>
  client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: username })).then(
    () => true,
    (error: unknown) => {
      if (error instanceof UserNotFoundException) return false;
      throw error;
    },
  );

describe("without a pre token generation trigger, as Cognito's default", () => {
  it('gives the access token the self-service scope, with which its holder deletes their own user', async () => {
    const { client } = await startPool();
    const user = await createUser(client, { groups: ['users'] });
    const tokens = await signIn(client, user.username);
    expect(decodeSegment(tokens.AccessToken, 1)['scope']).toBe(SELF_SERVICE);

    await expect(client.send(new GetUserCommand({ AccessToken: tokens.AccessToken }))).resolves.toMatchObject(
      {
        Username: user.username,
      },
    );
    await client.send(new DeleteUserCommand({ AccessToken: tokens.AccessToken }));

    expect(await userExists(client, user.username)).toBe(false);
    // Gone with every token: the refresh token no longer works.
    await expect(
      client.send(
        new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: tokens.RefreshToken }),
      ),
    ).rejects.toThrow('Refresh Token has been revoked');
  });
});

describe("with the product's pre token generation trigger (lambdas/cognito/pre-token-generation.ts)", () => {
  it('makes access tokens without any scope, which Cognito refuses for DeleteUser, GetUser and GlobalSignOut', async () => {
    const { triggers } = withPreTokenGeneration(productPreTokenGeneration);
    const { server, client } = await startPool({ triggers });
    const user = await createUser(client, { groups: ['coaches', 'users'] });
    const tokens = await signIn(client, user.username);

    const { id, access } = verifiers(server.issuer, server.jwksUri);
    const accessClaims = await access.verify(tokens.AccessToken);
    expect(accessClaims).not.toHaveProperty('scope');
    expect(accessClaims).toMatchObject({
      sub: user.sub,
      username: user.username,
      'cognito:groups': ['coaches', 'users'],
    });
    // The id token, which the API's authorizer reads, is Cognito's own.
    expect(await id.verify(tokens.IdToken)).toMatchObject({
      sub: user.sub,
      email: user.email,
      'cognito:groups': ['coaches', 'users'],
    });

    for (const call of [
      () => client.send(new DeleteUserCommand({ AccessToken: tokens.AccessToken })),
      () => client.send(new GetUserCommand({ AccessToken: tokens.AccessToken })),
      () => client.send(new GlobalSignOutCommand({ AccessToken: tokens.AccessToken })),
    ]) {
      await expect(call()).rejects.toThrow(MISSING_SCOPE);
    }
    expect(await userExists(client, user.username)).toBe(true);
    // Nothing was signed out either: the session refreshes, into tokens just as narrow.
    const refreshed = await client.send(
      new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: tokens.RefreshToken }),
    );
    const refreshedAccess = refreshed.AuthenticationResult?.AccessToken ?? '';
    expect(await access.verify(refreshedAccess)).not.toHaveProperty('scope');
    await expect(client.send(new DeleteUserCommand({ AccessToken: refreshedAccess }))).rejects.toThrow(
      MISSING_SCOPE,
    );
    expect(await userExists(client, user.username)).toBe(true);
  });

  it('runs with the V2_0 event at the sign-in and at every refresh, with the metadata Cognito passes it', async () => {
    const { triggers, events } = withPreTokenGeneration(productPreTokenGeneration);
    const { client } = await startPool({
      triggers,
      refreshTokenRotation: { enabled: true, retryGracePeriodSeconds: 0 },
    });
    const user = await createUser(client, { groups: ['users'] });
    const started = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'CUSTOM_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { USERNAME: user.username },
        ClientMetadata: { from: 'initiate' },
      }),
    );
    const done = await client.send(
      new RespondToAuthChallengeCommand({
        ClientId: CLIENT_ID,
        ChallengeName: 'CUSTOM_CHALLENGE',
        Session: started.Session,
        ChallengeResponses: { USERNAME: user.username, ANSWER },
        ClientMetadata: { from: 'respond' },
      }),
    );
    await client.send(
      new GetTokensFromRefreshTokenCommand({
        ClientId: CLIENT_ID,
        RefreshToken: done.AuthenticationResult?.RefreshToken,
        ClientMetadata: { from: 'refresh' },
      }),
    );

    const expected = (triggerSource: string, from: string) => ({
      version: '2',
      triggerSource,
      region: REGION,
      userPoolId: USER_POOL_ID,
      userName: user.username,
      callerContext: { awsSdkVersion: expect.any(String) as unknown, clientId: CLIENT_ID },
      request: {
        userAttributes: expect.objectContaining({ sub: user.sub, email: user.email }) as unknown,
        groupConfiguration: { groupsToOverride: ['users'], iamRolesToOverride: [], preferredRole: null },
        scopes: [SELF_SERVICE],
        // InitiateAuth's never reaches it.
        clientMetadata: { from },
      },
      response: { claimsAndScopeOverrideDetails: {} },
    });
    expect(events).toEqual([
      expected('TokenGeneration_Authentication', 'respond'),
      expected('TokenGeneration_RefreshTokens', 'refresh'),
    ]);
  });

  it('runs on REFRESH_TOKEN_AUTH too, where the client does not rotate refresh tokens', async () => {
    const { triggers, events } = withPreTokenGeneration(productPreTokenGeneration);
    const { client } = await startPool({ triggers });
    const user = await createUser(client);
    const tokens = await signIn(client, user.username);

    const refreshed = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken },
        ClientMetadata: { from: 'initiate' },
      }),
    );

    expect(decodeSegment(refreshed.AuthenticationResult?.AccessToken ?? '', 1)).not.toHaveProperty('scope');
    expect(events.map((event) => [event.triggerSource, event.request.clientMetadata])).toEqual([
      ['TokenGeneration_Authentication', undefined],
      ['TokenGeneration_RefreshTokens', undefined],
    ]);
  });

  it.each([
    ['disabled', AdminDisableUserCommand, 'User is disabled.'],
    ['deleted', AdminDeleteUserCommand, 'Incorrect username or password.'],
  ] as const)('issues no tokens to a user an admin %s while the trigger ran', async (_, Command, refusal) => {
    const during: { change?: () => Promise<unknown> } = {};
    const { triggers } = withPreTokenGeneration(async (event) => {
      await during.change?.();
      return productPreTokenGeneration(event);
    });
    const { client } = await startPool({ triggers });
    const user = await createUser(client);
    during.change = () => client.send(new Command({ UserPoolId: USER_POOL_ID, Username: user.username }));

    await expect(signIn(client, user.username)).rejects.toThrow(refusal);
  });
});

describe('pre token generation answers', () => {
  /** Signs a new user in on a pool whose trigger answers `details`. */
  const signInAnswered = async (
    details: PreTokenGenerationV2TriggerEvent['response']['claimsAndScopeOverrideDetails'],
  ) => {
    const { triggers } = withPreTokenGeneration((event) => {
      event.response = { claimsAndScopeOverrideDetails: details };
      return Promise.resolve(event);
    });
    const { client } = await startPool({ triggers });
    const user = await createUser(client);
    return signIn(client, user.username);
  };
  const scopeOf = (tokens: { AccessToken: string }) => decodeSegment(tokens.AccessToken, 1)['scope'];

  it('adds the scopes it is asked to add', async () => {
    const tokens = await signInAnswered({ accessTokenGeneration: { scopesToAdd: ['coaching/read'] } });

    expect(scopeOf(tokens)).toBe(`${SELF_SERVICE} coaching/read`);
  });

  it('suppresses a scope it is asked both to add and to suppress, and takes empty changes as none', async () => {
    const tokens = await signInAnswered({
      idTokenGeneration: { claimsToSuppress: [] },
      accessTokenGeneration: {
        claimsToAddOrOverride: {},
        scopesToAdd: ['coaching/read', 'coaching/write'],
        scopesToSuppress: ['coaching/write'],
      },
      groupOverrideDetails: {},
    });

    expect(scopeOf(tokens)).toBe(`${SELF_SERVICE} coaching/read`);
  });

  it('fails the sign-in, with no tokens, when asked for a change the local endpoint does not make', async () => {
    await expect(
      signInAnswered({
        idTokenGeneration: { claimsToAddOrOverride: { plan: 'gold' } },
        accessTokenGeneration: { scopesToSuppress: [SELF_SERVICE] },
      }),
    ).rejects.toThrow(
      'The local endpoint applies only scopesToAdd and scopesToSuppress of PreTokenGeneration, not idTokenGeneration.',
    );
  });

  it('fails the sign-in as Cognito does when the trigger throws', async () => {
    const { triggers } = withPreTokenGeneration(() => Promise.reject(new Error('no tokens today')));
    const { client } = await startPool({ triggers });
    const user = await createUser(client);

    await expect(signIn(client, user.username)).rejects.toThrow(
      'PreTokenGeneration failed with error no tokens today.',
    );
  });

  it('refuses a refresh whose token was revoked while the trigger ran', async () => {
    const during: { revoke?: () => Promise<unknown> } = {};
    const { triggers } = withPreTokenGeneration(async (event) => {
      if (event.triggerSource === 'TokenGeneration_RefreshTokens') await during.revoke?.();
      return productPreTokenGeneration(event);
    });
    const { client } = await startPool({ triggers });
    const user = await createUser(client);
    const tokens = await signIn(client, user.username);
    during.revoke = () =>
      client.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: tokens.RefreshToken }));

    await expect(
      client.send(
        new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: tokens.RefreshToken }),
      ),
    ).rejects.toThrow('Refresh Token has been revoked');
  });
});
