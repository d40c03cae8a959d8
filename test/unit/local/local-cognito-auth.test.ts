import {
  AdminAddUserToGroupCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
  type AuthFlowType,
} from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import type { PoolTriggers } from '../../../infra/local/cognito/config';
import {
  ANSWER,
  CLIENT_ID,
  REGION,
  USER_POOL_ID,
  match,
  createTestTriggers,
  createUser,
  decodeSegment,
  signIn,
  startPool,
  verifiers,
} from './cognito-harness';

const initiate = (username: string, ClientMetadata?: Record<string, string>) =>
  new InitiateAuthCommand({
    AuthFlow: 'CUSTOM_AUTH',
    ClientId: CLIENT_ID,
    AuthParameters: { USERNAME: username },
    ClientMetadata,
  });

const respond = (
  session: string | undefined,
  username: string,
  answer: string,
  ClientMetadata?: Record<string, string>,
) =>
  new RespondToAuthChallengeCommand({
    ClientId: CLIENT_ID,
    ChallengeName: 'CUSTOM_CHALLENGE',
    Session: session,
    ChallengeResponses: { USERNAME: username, ANSWER: answer },
    ClientMetadata,
  });

describe('custom authentication', () => {
  it('signs in through Define, Create and Verify to tokens that verify with Cognito claims', async () => {
    const { server, client } = await startPool();
    const user = await createUser(client, { groups: ['admins', 'users'] });

    const started = await client.send(initiate(user.username));
    expect(started.ChallengeName).toBe('CUSTOM_CHALLENGE');
    expect(started.ChallengeParameters).toEqual({ hint: 'say the word', USERNAME: user.username });
    const done = await client.send(respond(started.Session, user.username, ANSWER));

    const result = done.AuthenticationResult;
    expect(result).toMatchObject({ ExpiresIn: 3600, TokenType: 'Bearer' });
    expect(done.ChallengeParameters).toEqual({});
    const { id, access } = verifiers(server.issuer, server.jwksUri);
    const idClaims = await id.verify(result?.IdToken ?? '');
    const accessClaims = await access.verify(result?.AccessToken ?? '');
    expect(idClaims).toMatchObject({
      sub: user.sub,
      'cognito:username': user.username,
      'cognito:groups': ['admins', 'users'],
      email: user.email,
      email_verified: true,
      iss: `${server.url}/${USER_POOL_ID}`,
      aud: CLIENT_ID,
      token_use: 'id',
    });
    expect(accessClaims).toMatchObject({
      sub: user.sub,
      username: user.username,
      'cognito:groups': ['admins', 'users'],
      client_id: CLIENT_ID,
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      origin_jti: idClaims['origin_jti'],
      event_id: idClaims['event_id'],
    });
    for (const claims of [idClaims, accessClaims]) {
      expect(claims).toEqual(
        expect.objectContaining({
          jti: match.string,
          origin_jti: match.string,
          auth_time: match.number,
        }),
      );
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    }
    expect(decodeSegment(result?.IdToken ?? '', 0)).toEqual({ kid: match.string, alg: 'RS256' });
  });

  it('leaves cognito:groups out of the tokens of a user without groups', async () => {
    const { server, client } = await startPool();
    const user = await createUser(client);

    const tokens = await signIn(client, user.username);

    const { id, access } = verifiers(server.issuer, server.jwksUri);
    expect(await id.verify(tokens.IdToken)).not.toHaveProperty('cognito:groups');
    expect(await access.verify(tokens.AccessToken)).not.toHaveProperty('cognito:groups');
  });

  it('accepts the email alias and answers the real username for the rest of the flow', async () => {
    const { client } = await startPool({ emailAlias: true });
    const user = await createUser(client, { email: 'Alias.Person@example.com' });

    const started = await client.send(initiate('alias.person@EXAMPLE.com'));

    expect(started.ChallengeParameters?.['USERNAME']).toBe(user.username);
    const done = await client.send(respond(started.Session, user.username, ANSWER));
    expect(decodeSegment(done.AuthenticationResult?.IdToken ?? '', 1)['cognito:username']).toBe(
      user.username,
    );
  });

  it('builds trigger events as Cognito documents them', async () => {
    const { client, events } = await startPool();
    const user = await createUser(client);

    await signIn(client, user.username);

    const [firstDefine, secondDefine] = events.define;
    expect(firstDefine).toMatchObject({
      version: '1',
      region: REGION,
      userPoolId: USER_POOL_ID,
      userName: user.username,
      triggerSource: 'DefineAuthChallenge_Authentication',
      callerContext: { clientId: CLIENT_ID, awsSdkVersion: match.matching(/^aws-sdk-js-3\./) },
      request: {
        userAttributes: {
          sub: user.sub,
          email: user.email,
          email_verified: 'true',
          'cognito:user_status': 'FORCE_CHANGE_PASSWORD',
        },
        session: [],
        userNotFound: false,
      },
    });
    expect(events.create[0]).toMatchObject({
      triggerSource: 'CreateAuthChallenge_Authentication',
      request: { challengeName: 'CUSTOM_CHALLENGE', session: [], userNotFound: false },
    });
    expect(events.verify[0]).toMatchObject({
      triggerSource: 'VerifyAuthChallengeResponse_Authentication',
      request: {
        privateChallengeParameters: { answer: ANSWER },
        challengeAnswer: ANSWER,
        userNotFound: false,
      },
    });
    expect(secondDefine?.request.session).toEqual([
      { challengeName: 'CUSTOM_CHALLENGE', challengeResult: true, challengeMetadata: 'ATTEMPT-1' },
    ]);
  });

  it("passes RespondToAuthChallenge's ClientMetadata to the triggers but never InitiateAuth's", async () => {
    const { client, events } = await startPool();
    const user = await createUser(client);

    const started = await client.send(initiate(user.username, { passkeyProof: 'from-initiate' }));
    await client.send(respond(started.Session, user.username, ANSWER, { source: 'from-respond' }));

    expect(events.define[0]?.request).not.toHaveProperty('clientMetadata');
    expect(events.create[0]?.request).not.toHaveProperty('clientMetadata');
    expect(events.verify[0]?.request.clientMetadata).toEqual({ source: 'from-respond' });
    expect(events.define[1]?.request.clientMetadata).toEqual({ source: 'from-respond' });
  });

  it('fails a wrong answer with NotAuthorizedException', async () => {
    const { client } = await startPool();
    const user = await createUser(client);

    const started = await client.send(initiate(user.username));

    await expect(client.send(respond(started.Session, user.username, 'wrong'))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
  });

  it('issues a new challenge with a new session when Define allows another attempt', async () => {
    const { triggers, events } = createTestTriggers({ attempts: 3 });
    const { client } = await startPool({ triggers });
    const user = await createUser(client);

    const started = await client.send(initiate(user.username));
    const retry = await client.send(respond(started.Session, user.username, 'wrong'));
    expect(retry).toMatchObject({
      ChallengeName: 'CUSTOM_CHALLENGE',
      ChallengeParameters: { USERNAME: user.username },
    });
    expect(retry.Session).not.toBe(started.Session);
    const done = await client.send(respond(retry.Session, user.username, ANSWER));

    expect(done.AuthenticationResult?.IdToken).toEqual(match.string);
    expect(events.define.at(-1)?.request.session.map((s) => s.challengeResult)).toEqual([false, true]);
    expect(events.create.at(-1)?.request.session).toHaveLength(1);
  });

  it('refuses a session used once, whatever the outcome of its first use', async () => {
    const { triggers } = createTestTriggers({ attempts: 3 });
    const { client } = await startPool({ triggers });
    const user = await createUser(client);
    const afterSuccess = await client.send(initiate(user.username));
    await client.send(respond(afterSuccess.Session, user.username, ANSWER));
    const afterFailure = await client.send(initiate(user.username));
    await client.send(respond(afterFailure.Session, user.username, 'wrong'));

    for (const session of [afterSuccess.Session, afterFailure.Session]) {
      await expect(client.send(respond(session, user.username, ANSWER))).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Invalid session for the user, session can only be used once.',
      });
    }
  });

  it('refuses a session after three minutes', async () => {
    let now = Date.now();
    const { client } = await startPool({ now: () => now });
    const user = await createUser(client);
    const started = await client.send(initiate(user.username));

    now += 3 * 60 * 1000 + 1;

    await expect(client.send(respond(started.Session, user.username, ANSWER))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid session for the user, session is expired.',
    });
  });

  it('refuses a session presented for another user or never issued', async () => {
    const { client } = await startPool();
    const alice = await createUser(client);
    const bob = await createUser(client);
    const started = await client.send(initiate(alice.username));

    await expect(client.send(respond(started.Session, bob.username, ANSWER))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid session for the user.',
    });
    await expect(client.send(respond('x'.repeat(64), alice.username, ANSWER))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid session for the user.',
    });
  });

  it('runs Define with userNotFound for an unknown user and answers the generic failure', async () => {
    const { client, events } = await startPool();

    await expect(client.send(initiate('nobody-here'))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
    expect(events.define[0]).toMatchObject({
      userName: 'nobody-here',
      request: { userNotFound: true, session: [], userAttributes: { sub: match.string } },
    });
  });

  it('refuses a disabled user', async () => {
    const { client } = await startPool();
    const user = await createUser(client);
    await client.send(new AdminDisableUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username }));

    await expect(client.send(initiate(user.username))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'User is disabled.',
    });
  });

  it('revokes the tokens of a disabled user and signs the user in again once enabled', async () => {
    const { client } = await startPool();
    const user = await createUser(client);
    const tokens = await signIn(client, user.username);

    await client.send(new AdminDisableUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username }));
    await expect(client.send(new GetUserCommand({ AccessToken: tokens.AccessToken }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has been revoked',
    });
    await client.send(new AdminEnableUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username }));

    await expect(signIn(client, user.username)).resolves.toHaveProperty('AccessToken');
  });

  it.each(['USER_PASSWORD_AUTH', 'USER_SRP_AUTH', 'USER_AUTH'] satisfies AuthFlowType[])(
    'rejects the %s flow as not enabled for the client',
    async (flow) => {
      const { client } = await startPool();

      await expect(
        client.send(
          new InitiateAuthCommand({
            AuthFlow: flow,
            ClientId: CLIENT_ID,
            AuthParameters: { USERNAME: 'someone', PASSWORD: 'secret-password', SRP_A: 'abc' },
          }),
        ),
      ).rejects.toMatchObject({
        name: 'InvalidParameterException',
        message: `${flow} flow not enabled for this client`,
      });
    },
  );

  it.each(['ADMIN_NO_SRP_AUTH', 'ADMIN_USER_PASSWORD_AUTH'] satisfies AuthFlowType[])(
    'rejects the %s flow on InitiateAuth',
    async (flow) => {
      const { client } = await startPool();

      await expect(
        client.send(
          new InitiateAuthCommand({
            AuthFlow: flow,
            ClientId: CLIENT_ID,
            AuthParameters: { USERNAME: 'someone', PASSWORD: 'secret-password' },
          }),
        ),
      ).rejects.toMatchObject({
        name: 'InvalidParameterException',
        message: 'Initiate Auth method not supported.',
      });
    },
  );

  it('refuses an unknown app client', async () => {
    const { client } = await startPool();

    await expect(
      client.send(
        new InitiateAuthCommand({
          AuthFlow: 'CUSTOM_AUTH',
          ClientId: 'otherclient',
          AuthParameters: { USERNAME: 'a' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('answers InvalidParameterException when USERNAME is missing', async () => {
    const { client } = await startPool();

    await expect(
      client.send(
        new InitiateAuthCommand({ AuthFlow: 'CUSTOM_AUTH', ClientId: CLIENT_ID, AuthParameters: {} }),
      ),
    ).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: 'Missing required parameter USERNAME',
    });
  });
});

describe('trigger failures', () => {
  const withTrigger = (override: Partial<PoolTriggers>): PoolTriggers => ({
    ...createTestTriggers().triggers,
    ...override,
  });

  it('turns a throwing Define into UserLambdaValidationException', async () => {
    const { client } = await startPool({
      triggers: withTrigger({ defineAuthChallenge: () => Promise.reject(new Error('table missing')) }),
    });
    const user = await createUser(client);

    await expect(client.send(initiate(user.username))).rejects.toMatchObject({
      name: 'UserLambdaValidationException',
      message: 'DefineAuthChallenge failed with error table missing.',
    });
  });

  it('turns a throwing Verify into UserLambdaValidationException', async () => {
    const { client } = await startPool({
      triggers: withTrigger({
        verifyAuthChallengeResponse: () => {
          throw new Error('proof store down');
        },
      }),
    });
    const user = await createUser(client);
    const started = await client.send(initiate(user.username));

    await expect(client.send(respond(started.Session, user.username, ANSWER))).rejects.toMatchObject({
      name: 'UserLambdaValidationException',
      message: 'VerifyAuthChallengeResponse failed with error proof store down.',
    });
  });

  it('refuses a trigger answer without a response as InvalidLambdaResponseException', async () => {
    const { client } = await startPool({
      triggers: withTrigger({ createAuthChallenge: () => Promise.resolve() }),
    });
    const user = await createUser(client);

    await expect(client.send(initiate(user.username))).rejects.toMatchObject({
      name: 'InvalidLambdaResponseException',
    });
  });

  it('honours callback-style handlers', async () => {
    const { triggers } = createTestTriggers();
    const { client } = await startPool({
      triggers: {
        ...triggers,
        defineAuthChallenge: (event, context, callback) => {
          void triggers
            .defineAuthChallenge(event, context, callback)
            ?.then((answer) => callback(null, answer ?? event));
        },
      },
    });
    const user = await createUser(client);

    await expect(signIn(client, user.username)).resolves.toHaveProperty('IdToken');
  });
});

describe('tokens after sign-in', () => {
  it('refreshes with both refresh calls, keeping the sign-in lineage and current groups', async () => {
    const { server, client } = await startPool();
    const user = await createUser(client, { groups: ['users'] });
    const tokens = await signIn(client, user.username);
    await client.send(
      new AdminAddUserToGroupCommand({
        UserPoolId: USER_POOL_ID,
        Username: user.username,
        GroupName: 'coaches',
      }),
    );

    const viaInitiate = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken },
      }),
    );
    const viaGetTokens = await client.send(
      new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: tokens.RefreshToken }),
    );

    const { id } = verifiers(server.issuer, server.jwksUri);
    const original = await id.verify(tokens.IdToken);
    for (const refreshed of [viaInitiate.AuthenticationResult, viaGetTokens.AuthenticationResult]) {
      expect(refreshed?.RefreshToken).toBeUndefined();
      const claims = await id.verify(refreshed?.IdToken ?? '');
      expect(claims).toMatchObject({
        origin_jti: original['origin_jti'],
        auth_time: original['auth_time'],
        'cognito:groups': ['coaches', 'users'],
      });
      expect(claims.jti).not.toBe(original.jti);
    }
  });

  it('stops refreshing and serving the access token after RevokeToken', async () => {
    const { client } = await startPool();
    const user = await createUser(client);
    const tokens = await signIn(client, user.username);

    await client.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: tokens.RefreshToken }));

    await expect(
      client.send(
        new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: tokens.RefreshToken }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
    await expect(client.send(new GetUserCommand({ AccessToken: tokens.AccessToken }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has been revoked',
    });
  });

  it('leaves other sign-ins of the same user alone on RevokeToken', async () => {
    const { client } = await startPool();
    const user = await createUser(client);
    const first = await signIn(client, user.username);
    const second = await signIn(client, user.username);

    await client.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: first.RefreshToken }));

    await expect(
      client.send(new GetUserCommand({ AccessToken: second.AccessToken })),
    ).resolves.toHaveProperty('Username', user.username);
  });

  it('refuses to revoke an access token', async () => {
    const { client } = await startPool();
    const user = await createUser(client);
    const tokens = await signIn(client, user.username);

    await expect(
      client.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token: tokens.AccessToken })),
    ).rejects.toMatchObject({ name: 'UnsupportedTokenTypeException' });
  });

  it('answers GetUser with the username and attributes', async () => {
    const { client } = await startPool();
    const user = await createUser(client);
    const tokens = await signIn(client, user.username);

    const answer = await client.send(new GetUserCommand({ AccessToken: tokens.AccessToken }));

    expect(answer.Username).toBe(user.username);
    expect(answer.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: 'sub', Value: user.sub },
        { Name: 'email', Value: user.email },
        { Name: 'email_verified', Value: 'true' },
      ]),
    );
  });

  it('revokes every sign-in of the user on GlobalSignOut', async () => {
    const { client } = await startPool();
    const user = await createUser(client);
    const first = await signIn(client, user.username);
    const second = await signIn(client, user.username);

    await client.send(new GlobalSignOutCommand({ AccessToken: first.AccessToken }));

    for (const tokens of [first, second]) {
      await expect(
        client.send(new GetUserCommand({ AccessToken: tokens.AccessToken })),
      ).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Access Token has been revoked',
      });
      await expect(
        client.send(
          new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: tokens.RefreshToken }),
        ),
      ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    }
    const again = await signIn(client, user.username);
    await expect(client.send(new GetUserCommand({ AccessToken: again.AccessToken }))).resolves.toHaveProperty(
      'Username',
      user.username,
    );
  });

  it('refuses an expired access token and an expired refresh token', async () => {
    let now = Date.now();
    const { client } = await startPool({ now: () => now, refreshTokenValiditySeconds: 7200 });
    const user = await createUser(client);
    const tokens = await signIn(client, user.username);

    now += 3601 * 1000;
    await expect(client.send(new GetUserCommand({ AccessToken: tokens.AccessToken }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has expired',
    });
    now += 3600 * 1000;
    await expect(
      client.send(
        new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken: tokens.RefreshToken }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Refresh Token has expired' });
  });

  it('refuses a token it did not sign', async () => {
    const { client } = await startPool();
    const other = await startPool();
    const user = await createUser(other.client);
    const foreign = await signIn(other.client, user.username);

    await expect(client.send(new GetUserCommand({ AccessToken: foreign.AccessToken }))).rejects.toMatchObject(
      {
        name: 'NotAuthorizedException',
        message: 'Invalid Access Token',
      },
    );
  });
});

describe('refresh-token rotation (decision 052)', () => {
  /** A pool whose app client rotates refresh tokens, on a clock the test moves. */
  const rotatingPool = async (retryGracePeriodSeconds = 10, refreshTokenValiditySeconds = 30 * 86_400) => {
    const clock = { now: Date.now() };
    const pool = await startPool({
      now: () => clock.now,
      refreshTokenValiditySeconds,
      refreshTokenRotation: { enabled: true, retryGracePeriodSeconds },
    });
    const user = await createUser(pool.client);
    const tokens = await signIn(pool.client, user.username);
    const refresh = async (RefreshToken: string) => {
      const answer = await pool.client.send(
        new GetTokensFromRefreshTokenCommand({ ClientId: CLIENT_ID, RefreshToken }),
      );
      const { AccessToken, IdToken, RefreshToken: next } = answer.AuthenticationResult ?? {};
      if (!AccessToken || !IdToken || !next) throw new Error('a rotating refresh answered no refresh token');
      return { AccessToken, IdToken, RefreshToken: next };
    };
    return { ...pool, clock, user, tokens, refresh };
  };
  const reused = { name: 'RefreshTokenReuseException', message: 'Refresh Token has been rotated' };

  it('answers a new refresh token on every refresh, of the same family as the sign-in', async () => {
    const { server, tokens, refresh } = await rotatingPool();

    const first = await refresh(tokens.RefreshToken);
    const second = await refresh(first.RefreshToken);

    expect(new Set([tokens.RefreshToken, first.RefreshToken, second.RefreshToken]).size).toBe(3);
    const { id, access } = verifiers(server.issuer, server.jwksUri);
    const signedIn = await id.verify(tokens.IdToken);
    for (const refreshed of [first, second]) {
      const claims = await id.verify(refreshed.IdToken);
      expect(claims).toMatchObject({ origin_jti: signedIn['origin_jti'], auth_time: signedIn['auth_time'] });
      expect(claims.jti).not.toBe(signedIn.jti);
      await expect(access.verify(refreshed.AccessToken)).resolves.toMatchObject({
        origin_jti: signedIn['origin_jti'],
      });
    }
  });

  it('still honours the rotated-out token within the grace period after its first use, then refuses it', async () => {
    const { clock, tokens, refresh } = await rotatingPool(10);
    const rotated = await refresh(tokens.RefreshToken);

    clock.now += 9_999;
    // A client's retry: it gets fresh tokens (and another refresh token of the family).
    const retry = await refresh(tokens.RefreshToken);
    expect(retry.RefreshToken).not.toBe(rotated.RefreshToken);

    clock.now += 1; // 10 s after the first use; the retry did not extend the grace period
    await expect(refresh(tokens.RefreshToken)).rejects.toMatchObject(reused);
    await expect(refresh(rotated.RefreshToken)).resolves.toHaveProperty('RefreshToken');
  });

  it('refuses the rotated-out token at once with a grace period of 0', async () => {
    const { tokens, refresh } = await rotatingPool(0);
    const rotated = await refresh(tokens.RefreshToken);

    await expect(refresh(tokens.RefreshToken)).rejects.toMatchObject(reused);
    await expect(refresh(rotated.RefreshToken)).resolves.toHaveProperty('RefreshToken');
  });

  it("keeps the family's expiry: a rotated token ends when the sign-in's refresh token would have", async () => {
    const { clock, tokens, refresh } = await rotatingPool(10, 7200);

    clock.now += 3600 * 1000;
    const rotated = await refresh(tokens.RefreshToken);
    clock.now += 3599 * 1000; // 7199 s after the sign-in
    const last = await refresh(rotated.RefreshToken);
    clock.now += 1000; // 7200 s: the session is over, however recently it was refreshed

    await expect(refresh(last.RefreshToken)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Refresh Token has expired',
    });
  });

  it.each(['the sign-in token, rotated out long ago', 'the latest token'] as const)(
    'revokes the whole family on RevokeToken with %s, and nothing of another sign-in',
    async (which) => {
      const { client, clock, user, tokens, refresh } = await rotatingPool(10);
      const first = await refresh(tokens.RefreshToken);
      const latest = await refresh(first.RefreshToken);
      const other = await signIn(client, user.username);
      clock.now += 60_000;

      const Token = which === 'the latest token' ? latest.RefreshToken : tokens.RefreshToken;
      await client.send(new RevokeTokenCommand({ ClientId: CLIENT_ID, Token }));

      for (const refreshToken of [tokens.RefreshToken, first.RefreshToken, latest.RefreshToken]) {
        await expect(refresh(refreshToken)).rejects.toMatchObject({
          name: 'NotAuthorizedException',
          message: 'Refresh Token has been revoked',
        });
      }
      for (const accessToken of [tokens.AccessToken, first.AccessToken, latest.AccessToken]) {
        await expect(client.send(new GetUserCommand({ AccessToken: accessToken }))).rejects.toMatchObject({
          name: 'NotAuthorizedException',
          message: 'Access Token has been revoked',
        });
      }
      await expect(refresh(other.RefreshToken)).resolves.toHaveProperty('RefreshToken');
    },
  );

  it.each(['REFRESH_TOKEN_AUTH', 'REFRESH_TOKEN'] satisfies AuthFlowType[])(
    'refuses the %s flow, which a rotating client cannot allow, and leaves the token usable',
    async (flow) => {
      const { client, tokens, refresh } = await rotatingPool();

      await expect(
        client.send(
          new InitiateAuthCommand({
            AuthFlow: flow,
            ClientId: CLIENT_ID,
            AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken },
          }),
        ),
      ).rejects.toMatchObject({
        name: 'InvalidParameterException',
        message: `${flow} flow not enabled for this client`,
      });
      await expect(refresh(tokens.RefreshToken)).resolves.toHaveProperty('RefreshToken');
    },
  );

  it('refuses a grace period outside 0 to 60 seconds', async () => {
    await expect(
      startPool({ refreshTokenRotation: { enabled: true, retryGracePeriodSeconds: 61 } }),
    ).rejects.toThrow(/refreshTokenRotation\.retryGracePeriodSeconds/);
  });
});
