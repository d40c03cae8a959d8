/**
 * Sign-in: InitiateAuth and RespondToAuthChallenge for an app client that allows only CUSTOM_AUTH
 * and refresh, driving the Define / Create / Verify triggers the way Cognito sequences them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  INCORRECT_CREDENTIALS,
  invalidLambdaResponse,
  invalidParameter,
  notAuthorized,
  userDisabled,
} from '../errors';
import { clientIdSchema, parseInput, stringMapSchema } from '../input';
import { requireClient, type Pool } from '../pool';
import type { AuthSession, CustomChallengeResult } from '../sessions';
import type { UserRecord } from '../state';
import { refreshThroughTrigger } from '../token-generation';
import { signIn } from '../tokens';
import {
  accessTokenScopes,
  createAuthChallenge,
  defineAuthChallenge,
  verifyAuthChallengeResponse,
  type TriggerCall,
  type TriggerSubject,
} from '../triggers';
import { findUser, findUserBySub, triggerAttributes } from '../users';
import { publicAction, type ActionRequest } from './action';

const CUSTOM_CHALLENGE = 'CUSTOM_CHALLENGE';

const AUTH_FLOWS = [
  'USER_SRP_AUTH',
  'REFRESH_TOKEN_AUTH',
  'REFRESH_TOKEN',
  'CUSTOM_AUTH',
  'ADMIN_NO_SRP_AUTH',
  'USER_PASSWORD_AUTH',
  'ADMIN_USER_PASSWORD_AUTH',
  'USER_AUTH',
] as const;

const initiateAuthInput = z.object({
  AuthFlow: z.enum(AUTH_FLOWS),
  ClientId: clientIdSchema,
  AuthParameters: stringMapSchema.optional(),
  ClientMetadata: stringMapSchema.optional(),
});

const respondInput = z.object({
  ClientId: clientIdSchema,
  ChallengeName: z.string().min(1),
  Session: z.string().min(20).max(2048).optional(),
  ChallengeResponses: stringMapSchema.optional(),
  ClientMetadata: stringMapSchema.optional(),
});

/** Per-process key so a missing user's fake `sub` is stable across attempts yet reveals nothing. */
const fakeSubKey = randomBytes(32);

const fakeSub = (username: string): string => {
  const hex = createHmac('sha256', fakeSubKey).update(username.toLowerCase()).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

const subjectOf = (user: UserRecord | undefined, givenName: string): TriggerSubject =>
  user
    ? { userName: user.username, userAttributes: triggerAttributes(user), userNotFound: false }
    : {
        userName: givenName,
        userAttributes: { sub: fakeSub(givenName), 'cognito:user_status': 'CONFIRMED' },
        userNotFound: true,
      };

const required = (params: Readonly<Record<string, string>> | undefined, name: string): string => {
  const value = params?.[name];
  if (value === undefined || value === '') throw invalidParameter(`Missing required parameter ${name}`);
  return value;
};

/**
 * Asks Define what comes next and carries it out: tokens, failure, or a new challenge (Create, then
 * a fresh single-use session). Shared by both actions, as in Cognito's own state machine.
 */
const advance = async (
  pool: Pool,
  user: UserRecord | undefined,
  subject: TriggerSubject,
  call: TriggerCall,
  history: readonly CustomChallengeResult[],
): Promise<object> => {
  const decision = await defineAuthChallenge(pool, subject, call, history);
  if (decision.failAuthentication) throw notAuthorized(INCORRECT_CREDENTIALS);
  if (decision.issueTokens) {
    // Prevent-user-existence mode: a missing user can play along but never gets tokens.
    if (!user) throw notAuthorized(INCORRECT_CREDENTIALS);
    const scopes = await accessTokenScopes(pool, user, call, 'TokenGeneration_Authentication');
    // Read again: an admin may have deleted or disabled the user while the triggers ran.
    const current = findUserBySub(pool.state, user.sub);
    if (!current) throw notAuthorized(INCORRECT_CREDENTIALS);
    requireEnabled(current);
    const result = signIn(pool, current, call.clientId, scopes);
    await pool.save();
    return { AuthenticationResult: result, ChallengeParameters: {} };
  }
  if (decision.challengeName !== CUSTOM_CHALLENGE) {
    throw invalidLambdaResponse(
      decision.challengeName === undefined
        ? 'DefineAuthChallenge returned neither a challenge, issueTokens nor failAuthentication.'
        : `DefineAuthChallenge asked for ${decision.challengeName}; this client supports only ${CUSTOM_CHALLENGE}.`,
    );
  }
  const challenge = await createAuthChallenge(pool, subject, call, CUSTOM_CHALLENGE, history);
  const session: AuthSession = {
    username: subject.userName,
    userNotFound: subject.userNotFound,
    sub: user?.sub,
    clientId: call.clientId,
    challengeName: CUSTOM_CHALLENGE,
    history,
    privateChallengeParameters: challenge.privateChallengeParameters,
    challengeMetadata: challenge.challengeMetadata,
  };
  return {
    ChallengeName: CUSTOM_CHALLENGE,
    Session: pool.sessions.issue(session),
    // Amplify continues with this USERNAME, so an email alias becomes the real username here.
    ChallengeParameters: { ...challenge.publicChallengeParameters, USERNAME: subject.userName },
  };
};

const requireEnabled = (user: UserRecord | undefined): void => {
  if (user && !user.enabled) throw userDisabled();
};

const initiateAuth = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(initiateAuthInput, request.body);
  requireClient(pool, input.ClientId);
  switch (input.AuthFlow) {
    case 'CUSTOM_AUTH': {
      const username = required(input.AuthParameters, 'USERNAME');
      const user = findUser(pool, username);
      requireEnabled(user);
      // InitiateAuth's ClientMetadata is deliberately not passed: Cognito gives it only to
      // pre sign-up, pre authentication and user migration, never to the challenge triggers.
      const call: TriggerCall = {
        clientId: input.ClientId,
        awsSdkVersion: request.awsSdkVersion,
        clientMetadata: undefined,
      };
      return advance(pool, user, subjectOf(user, username), call, []);
    }
    case 'REFRESH_TOKEN_AUTH':
    case 'REFRESH_TOKEN': {
      // Cognito: "You can't authenticate with REFRESH_TOKEN_AUTH in app clients with refresh token
      // rotation enabled"; such a client must not allow the flow, so it answers as for any flow the
      // client does not allow (decision 052).
      if (pool.config.refreshTokenRotation.enabled) {
        throw invalidParameter(`${input.AuthFlow} flow not enabled for this client`);
      }
      // As with CUSTOM_AUTH, InitiateAuth's ClientMetadata reaches no trigger of this flow.
      const call: TriggerCall = {
        clientId: input.ClientId,
        awsSdkVersion: request.awsSdkVersion,
        clientMetadata: undefined,
      };
      const result = await refreshThroughTrigger(pool, required(input.AuthParameters, 'REFRESH_TOKEN'), call);
      return { AuthenticationResult: result, ChallengeParameters: {} };
    }
    case 'ADMIN_NO_SRP_AUTH':
    case 'ADMIN_USER_PASSWORD_AUTH':
      throw invalidParameter('Initiate Auth method not supported.');
    default:
      throw invalidParameter(`${input.AuthFlow} flow not enabled for this client`);
  }
};

const invalidSession = (detail = ''): Error => notAuthorized(`Invalid session for the user${detail}.`);

const respondToAuthChallenge = async (pool: Pool, request: ActionRequest): Promise<object> => {
  const input = parseInput(respondInput, request.body);
  requireClient(pool, input.ClientId);
  const username = required(input.ChallengeResponses, 'USERNAME');
  const answer = required(input.ChallengeResponses, 'ANSWER');
  if (input.Session === undefined) throw invalidSession();

  const lookup = pool.sessions.consume(input.Session);
  if (!lookup.ok) {
    if (lookup.reason === 'used') throw invalidSession(', session can only be used once');
    if (lookup.reason === 'expired') throw invalidSession(', session is expired');
    throw invalidSession();
  }
  const { session } = lookup;
  if (session.clientId !== input.ClientId || input.ChallengeName !== session.challengeName)
    throw invalidSession();

  // The session is bound to the account it started with: same sub, and the caller names that user.
  const user = session.sub === undefined ? undefined : findUserBySub(pool.state, session.sub);
  const named = findUser(pool, username);
  const sameUser = session.userNotFound
    ? named === undefined && username.toLowerCase() === session.username.toLowerCase()
    : user !== undefined && named === user;
  if (!sameUser) throw invalidSession();
  requireEnabled(user);

  const subject = subjectOf(user, session.username);
  const call: TriggerCall = {
    clientId: input.ClientId,
    awsSdkVersion: request.awsSdkVersion,
    clientMetadata: input.ClientMetadata,
  };
  const answerCorrect = await verifyAuthChallengeResponse(
    pool,
    subject,
    call,
    session.privateChallengeParameters,
    answer,
  );
  const result: CustomChallengeResult = {
    challengeName: CUSTOM_CHALLENGE,
    challengeResult: answerCorrect,
    ...(session.challengeMetadata === undefined ? {} : { challengeMetadata: session.challengeMetadata }),
  };
  return advance(pool, user, subject, call, [...session.history, result]);
};

export const authFlowActions = {
  InitiateAuth: publicAction(initiateAuth),
  RespondToAuthChallenge: publicAction(respondToAuthChallenge),
};
