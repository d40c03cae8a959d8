/**
 * Shared arrangements for the local Cognito tests: a server per test (stopped when the test ends),
 * the real AWS SDK client pointed at it, real verifiers, and small custom-auth triggers that follow
 * the documented contract (the answer is the word `correct`).
 */
import type {
  CreateAuthChallengeTriggerEvent,
  DefineAuthChallengeTriggerEvent,
  VerifyAuthChallengeResponseTriggerEvent,
} from 'aws-lambda';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { expect, onTestFinished } from 'vitest';
import { customAuth, type Tokens } from '../../fixtures/custom-auth';
import type { PoolTriggers } from '../../../infra/local/cognito/config';
import { localJwksFetcher } from '../../../infra/local/cognito/jwks-fetcher';
import {
  startLocalCognitoServer,
  type AwsCredentials,
  type LocalCognitoServer,
  type LocalCognitoServerOptions,
} from '../../../infra/local/cognito/local-cognito';

export const REGION = 'us-west-2';
export const USER_POOL_ID = 'us-west-2_LocalTest1';
export const CLIENT_ID = 'localtestclient0123456789';
export const ANSWER = 'correct';
/** The key pair the test pools are started with: admin calls signed with it are accepted. */
export const TEST_CREDENTIALS: AwsCredentials = {
  accessKeyId: 'LOCALTESTKEY00001',
  secretAccessKey: 'local-test-secret-0123456789',
};

/** Asymmetric matchers typed as `unknown`: vitest types them `any`, which the lint rules refuse. */
export const match = {
  string: expect.any(String) as unknown,
  number: expect.any(Number) as unknown,
  date: expect.any(Date) as unknown,
  matching: (pattern: RegExp): unknown => expect.stringMatching(pattern),
  containing: (text: string): unknown => expect.stringContaining(text),
};

export const silentLogger = { error: (): void => undefined };

export interface RecordedEvents {
  readonly define: DefineAuthChallengeTriggerEvent[];
  readonly create: CreateAuthChallengeTriggerEvent[];
  readonly verify: VerifyAuthChallengeResponseTriggerEvent[];
}

/**
 * Define allows up to `attempts` custom challenges and issues tokens after a correct answer;
 * it fails unknown users and anything else. Every event is recorded as received.
 */
export const createTestTriggers = ({ attempts = 1 } = {}): {
  triggers: PoolTriggers;
  events: RecordedEvents;
} => {
  const events: RecordedEvents = { define: [], create: [], verify: [] };
  const triggers: PoolTriggers = {
    defineAuthChallenge: (event) => {
      events.define.push(structuredClone(event));
      const { session, userNotFound } = event.request;
      const last = session.at(-1);
      const challenge = (): void => {
        event.response.challengeName = 'CUSTOM_CHALLENGE';
        event.response.issueTokens = false;
        event.response.failAuthentication = false;
      };
      if (userNotFound) {
        event.response.failAuthentication = true;
      } else if (session.length === 0) {
        challenge();
      } else if (last?.challengeName === 'CUSTOM_CHALLENGE' && last.challengeResult) {
        event.response.issueTokens = true;
      } else if (session.length < attempts) {
        challenge();
      } else {
        event.response.failAuthentication = true;
      }
      return Promise.resolve(event);
    },
    createAuthChallenge: (event) => {
      events.create.push(structuredClone(event));
      event.response.publicChallengeParameters = { hint: 'say the word' };
      event.response.privateChallengeParameters = { answer: ANSWER };
      event.response.challengeMetadata = `ATTEMPT-${event.request.session.length + 1}`;
      return Promise.resolve(event);
    },
    verifyAuthChallengeResponse: (event) => {
      events.verify.push(structuredClone(event));
      event.response.answerCorrect =
        event.request.challengeAnswer === event.request.privateChallengeParameters['answer'];
      return Promise.resolve(event);
    },
  };
  return { triggers, events };
};

/** Starts a pool for the current test and stops it when the test ends, pass or fail. */
export const startPool = async (
  options: Partial<LocalCognitoServerOptions> = {},
): Promise<{ server: LocalCognitoServer; client: CognitoIdentityProviderClient; events: RecordedEvents }> => {
  const { triggers, events } = createTestTriggers();
  const server = await startLocalCognitoServer({
    region: REGION,
    userPoolId: USER_POOL_ID,
    clientId: CLIENT_ID,
    groups: ['admins', 'coaches', 'users'],
    triggers,
    logger: silentLogger,
    credentials: TEST_CREDENTIALS,
    ...options,
  });
  const client = sdkClient(server.url);
  onTestFinished(async () => {
    client.destroy();
    await server.stop();
  });
  return { server, client, events };
};

/** The real SDK client; it signs admin calls with `credentials` (SigV4), by default the pools' pair. */
export const sdkClient = (
  endpoint: string,
  credentials: AwsCredentials = TEST_CREDENTIALS,
  extra: Partial<ConstructorParameters<typeof CognitoIdentityProviderClient>[0]> = {},
): CognitoIdentityProviderClient =>
  new CognitoIdentityProviderClient({
    region: REGION,
    endpoint,
    credentials,
    maxAttempts: 1,
    ...extra,
  });

let userCounter = 0;

/** An admin-created user with a verified email, optionally in groups. */
export const createUser = async (
  client: CognitoIdentityProviderClient,
  { groups = [] as string[], email }: { groups?: string[]; email?: string } = {},
): Promise<{ username: string; email: string; sub: string }> => {
  userCounter += 1;
  const username = `user-${userCounter}-${Math.random().toString(36).slice(2, 10)}`;
  const address = email ?? `${username}@example.com`;
  const created = await client.send(
    new AdminCreateUserCommand({
      UserPoolId: USER_POOL_ID,
      Username: username,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: address },
        { Name: 'email_verified', Value: 'true' },
      ],
    }),
  );
  for (const group of groups) {
    await client.send(
      new AdminAddUserToGroupCommand({ UserPoolId: USER_POOL_ID, Username: username, GroupName: group }),
    );
  }
  const sub = created.User?.Attributes?.find((a) => a.Name === 'sub')?.Value;
  if (!sub) throw new Error('AdminCreateUser answered no sub');
  return { username, email: address, sub };
};

/** The whole custom-auth sign-in as Amplify performs it. */
export const signIn = (
  client: CognitoIdentityProviderClient,
  username: string,
  answer = ANSWER,
): Promise<Tokens> => customAuth(client, CLIENT_ID, username, answer);

/** Real verifiers with a fresh cache, so every call reads the JWKS the server serves now. */
export const verifiers = (issuer: string, jwksUri: string) => {
  const jwksCache = new SimpleJwksCache({ fetcher: localJwksFetcher });
  return {
    id: JwtRsaVerifier.create(
      {
        issuer,
        jwksUri,
        audience: CLIENT_ID,
        customJwtCheck: ({ payload }) => {
          if (payload['token_use'] !== 'id') throw new Error('not an id token');
        },
      },
      { jwksCache },
    ),
    access: JwtRsaVerifier.create(
      {
        issuer,
        jwksUri,
        audience: null,
        customJwtCheck: ({ payload }) => {
          if (payload['token_use'] !== 'access' || payload['client_id'] !== CLIENT_ID) {
            throw new Error('not an access token of the client');
          }
        },
      },
      { jwksCache },
    ),
  };
};

export const decodeSegment = (token: string, index: 0 | 1): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[index] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
