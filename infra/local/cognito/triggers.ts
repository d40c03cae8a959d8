/**
 * Runs the custom-auth and pre token generation Lambda handlers in-process with the events Cognito
 * documents, a plausible Lambda context and Lambda's JSON boundary (the handler gets a copy and its
 * answer is re-read), so a handler that works here works behind the real service.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type {
  Context,
  CreateAuthChallengeTriggerEvent,
  DefineAuthChallengeTriggerEvent,
  PreTokenGenerationV2TriggerEvent,
  VerifyAuthChallengeResponseTriggerEvent,
} from 'aws-lambda';
import { z } from 'zod';
import type { PoolTriggers, TriggerHandler } from './config';
import { invalidLambdaResponse, invalidParameter, unexpectedLambda, userLambdaValidation } from './errors';
import type { Pool } from './pool';
import type { CustomChallengeResult } from './sessions';
import type { UserRecord } from './state';
import { DEFAULT_ACCESS_SCOPES } from './tokens';
import { groupsOf, triggerAttributes } from './users';

/** Who the flow is about. For an unknown user Cognito still runs the triggers, with `userNotFound`. */
export interface TriggerSubject {
  readonly userName: string;
  readonly userAttributes: Readonly<Record<string, string>>;
  readonly userNotFound: boolean;
}

export interface TriggerCall {
  readonly clientId: string;
  readonly awsSdkVersion: string;
  /**
   * RespondToAuthChallenge's ClientMetadata reaches the triggers, GetTokensFromRefreshToken's reaches pre
   * token generation; InitiateAuth's never reaches any of them.
   */
  readonly clientMetadata: Readonly<Record<string, string>> | undefined;
}

export interface DefineDecision {
  readonly challengeName: string | undefined;
  readonly issueTokens: boolean;
  readonly failAuthentication: boolean;
}

export interface CreatedChallenge {
  readonly publicChallengeParameters: Record<string, string>;
  readonly privateChallengeParameters: Record<string, string>;
  readonly challengeMetadata: string | undefined;
}

type TriggerName =
  'DefineAuthChallenge' | 'CreateAuthChallenge' | 'VerifyAuthChallengeResponse' | 'PreTokenGeneration';

/** Why tokens are being made: a completed sign-in, or a refresh. */
export type TokenGenerationSource = 'TokenGeneration_Authentication' | 'TokenGeneration_RefreshTokens';

/** A guard against a handler that never settles; Cognito's own limit (5 s) is too tight for a cold local stack. */
const TRIGGER_TIMEOUT_MS = 30_000;

const stringMap = z.record(z.string(), z.string());
const defineResponse = z.object({
  challengeName: z.string().nullish(),
  issueTokens: z.boolean().nullish(),
  failAuthentication: z.boolean().nullish(),
});
const createResponse = z.object({
  publicChallengeParameters: stringMap.nullish(),
  privateChallengeParameters: stringMap.nullish(),
  challengeMetadata: z.string().nullish(),
});
const verifyResponse = z.object({ answerCorrect: z.boolean().nullish() });
const scopeList = z.array(z.string().min(1)).nullish();
const preTokenResponse = z.object({
  claimsAndScopeOverrideDetails: z
    .object({
      accessTokenGeneration: z
        .object({ scopesToAdd: scopeList, scopesToSuppress: scopeList })
        .catchall(z.unknown())
        .nullish(),
    })
    .catchall(z.unknown())
    .nullish(),
});

const triggersOf = (pool: Pool): PoolTriggers => {
  const { triggers } = pool.config;
  if (!triggers) throw invalidParameter('Custom auth lambda trigger is not configured for the user pool.');
  return triggers;
};

const common = <S extends string>(
  pool: Pool,
  subject: TriggerSubject,
  call: TriggerCall,
  triggerSource: S,
) => ({
  version: '1',
  region: pool.config.region,
  userPoolId: pool.config.userPoolId,
  userName: subject.userName,
  callerContext: { awsSdkVersion: call.awsSdkVersion, clientId: call.clientId },
  triggerSource,
});

const metadataOf = (call: TriggerCall) =>
  call.clientMetadata === undefined ? {} : { clientMetadata: { ...call.clientMetadata } };

export const defineAuthChallenge = async (
  pool: Pool,
  subject: TriggerSubject,
  call: TriggerCall,
  session: readonly CustomChallengeResult[],
): Promise<DefineDecision> => {
  const event: DefineAuthChallengeTriggerEvent = {
    ...common(pool, subject, call, 'DefineAuthChallenge_Authentication'),
    request: {
      userAttributes: { ...subject.userAttributes },
      session: [...session],
      ...metadataOf(call),
      userNotFound: subject.userNotFound,
    },
    response: { issueTokens: false, failAuthentication: false },
  };
  const response = responseOf(
    defineResponse,
    await invoke(pool, 'DefineAuthChallenge', triggersOf(pool).defineAuthChallenge, event),
  );
  return {
    challengeName: response.challengeName ?? undefined,
    issueTokens: response.issueTokens === true,
    failAuthentication: response.failAuthentication === true,
  };
};

export const createAuthChallenge = async (
  pool: Pool,
  subject: TriggerSubject,
  call: TriggerCall,
  challengeName: string,
  session: readonly CustomChallengeResult[],
): Promise<CreatedChallenge> => {
  const event: CreateAuthChallengeTriggerEvent = {
    ...common(pool, subject, call, 'CreateAuthChallenge_Authentication'),
    request: {
      userAttributes: { ...subject.userAttributes },
      challengeName,
      session: [...session],
      ...metadataOf(call),
      userNotFound: subject.userNotFound,
    },
    response: { publicChallengeParameters: {}, privateChallengeParameters: {}, challengeMetadata: '' },
  };
  const response = responseOf(
    createResponse,
    await invoke(pool, 'CreateAuthChallenge', triggersOf(pool).createAuthChallenge, event),
  );
  return {
    publicChallengeParameters: response.publicChallengeParameters ?? {},
    privateChallengeParameters: response.privateChallengeParameters ?? {},
    challengeMetadata: response.challengeMetadata || undefined,
  };
};

export const verifyAuthChallengeResponse = async (
  pool: Pool,
  subject: TriggerSubject,
  call: TriggerCall,
  privateChallengeParameters: Readonly<Record<string, string>>,
  challengeAnswer: string,
): Promise<boolean> => {
  const event: VerifyAuthChallengeResponseTriggerEvent = {
    ...common(pool, subject, call, 'VerifyAuthChallengeResponse_Authentication'),
    request: {
      userAttributes: { ...subject.userAttributes },
      privateChallengeParameters: { ...privateChallengeParameters },
      challengeAnswer,
      ...metadataOf(call),
      userNotFound: subject.userNotFound,
    },
    response: { answerCorrect: false },
  };
  const response = responseOf(
    verifyResponse,
    await invoke(pool, 'VerifyAuthChallengeResponse', triggersOf(pool).verifyAuthChallengeResponse, event),
  );
  return response.answerCorrect === true;
};

/**
 * The scopes of the access token about to be made for `user`: Cognito's own, changed as the pre token
 * generation trigger (V2_0 event) answers, when the pool has one.
 */
export const accessTokenScopes = async (
  pool: Pool,
  user: UserRecord,
  call: TriggerCall,
  source: TokenGenerationSource,
): Promise<readonly string[]> => {
  const trigger = pool.config.triggers?.preTokenGeneration;
  if (!trigger) return DEFAULT_ACCESS_SCOPES;
  const subject: TriggerSubject = {
    userName: user.username,
    userAttributes: triggerAttributes(user),
    userNotFound: false,
  };
  const event: PreTokenGenerationV2TriggerEvent = {
    ...common(pool, subject, call, source),
    version: '2',
    request: {
      userAttributes: { ...subject.userAttributes },
      groupConfiguration: {
        groupsToOverride: groupsOf(pool.state, user).map((group) => group.name),
        iamRolesToOverride: [],
        // Cognito sends null for a user without a preferred role (the type says string or undefined).
        preferredRole: null as unknown as undefined,
      },
      scopes: [...DEFAULT_ACCESS_SCOPES],
      ...metadataOf(call),
    },
    response: { claimsAndScopeOverrideDetails: {} },
  };
  const { claimsAndScopeOverrideDetails: details } = responseOf(
    preTokenResponse,
    await invoke(pool, 'PreTokenGeneration', trigger, event),
  );
  const { accessTokenGeneration: access, ...otherTokens } = details ?? {};
  const { scopesToAdd, scopesToSuppress, ...otherChanges } = access ?? {};
  const unapplied = [...Object.entries(otherTokens), ...Object.entries(otherChanges)].filter(
    ([, value]) => !asksNothing(value),
  );
  // Anything else asked for fails the call rather than leave a token unlike the cloud's.
  if (unapplied.length > 0) {
    const asked = unapplied.map(([key]) => key).join(', ');
    throw invalidLambdaResponse(
      `The local endpoint applies only scopesToAdd and scopesToSuppress of PreTokenGeneration, not ${asked}.`,
    );
  }
  // Suppression wins over an addition of the same scope, as it does for claims.
  const suppressed = new Set(scopesToSuppress ?? []);
  return [...new Set([...DEFAULT_ACCESS_SCOPES, ...(scopesToAdd ?? [])])].filter(
    (scope) => !suppressed.has(scope),
  );
};

/** A part of an answer that changes nothing: absent, null, or only empty lists and objects. */
const asksNothing = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.values(value).every(asksNothing));

/** Cognito reads only `response` back from the handler's answer. */
const responseOf = <R>(schema: z.ZodType<R>, output: unknown): R => {
  const parsed = z.object({ response: schema }).safeParse(output);
  if (!parsed.success) throw invalidLambdaResponse('Unrecognizable lambda output');
  return parsed.data.response;
};

class TriggerTimeout extends Error {}

const invoke = async <E>(
  pool: Pool,
  name: TriggerName,
  handler: TriggerHandler<E>,
  event: E,
): Promise<unknown> => {
  // Lambda's boundary is JSON: the handler must not share objects with us, nor we with its answer.
  const input = JSON.parse(JSON.stringify(event)) as E;
  let output: unknown;
  try {
    output = await run(handler, input, name, pool.config.region);
  } catch (error) {
    if (error instanceof TriggerTimeout) throw unexpectedLambda(`${name} failed due to a timeout.`);
    pool.config.logger.error(`[local-cognito] ${name} trigger failed:`, error);
    throw userLambdaValidation(`${name} failed with error ${messageOf(error)}.`);
  }
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify(output);
  } catch {
    throw invalidLambdaResponse('Unrecognizable lambda output');
  }
  return serialized === undefined ? null : (JSON.parse(serialized) as unknown);
};

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : 'Unknown error');

/** Settles on whichever the handler uses: its returned promise, the callback, or the old context verbs. */
const run = <E>(handler: TriggerHandler<E>, event: E, name: TriggerName, region: string): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const deadline = Date.now() + TRIGGER_TIMEOUT_MS;
    const timer = setTimeout(() => reject(new TriggerTimeout()), TRIGGER_TIMEOUT_MS);
    const settle = (error: unknown, result?: unknown): void => {
      clearTimeout(timer);
      if (error === undefined || error === null) resolve(result);
      // Lambda reports a thrown string or a callback('message') as an error with that message.
      else
        reject(
          error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'Unknown error'),
        );
    };
    const context = lambdaContext(name, region, deadline, settle);
    try {
      const returned = handler(event, context, (error, result) => settle(error, result));
      if (isThenable(returned)) {
        returned.then(
          (result) => settle(undefined, result),
          (error: unknown) => settle(error ?? new Error('rejected')),
        );
      }
    } catch (error) {
      settle(error);
    }
  });

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

const lambdaContext = (
  name: TriggerName,
  region: string,
  deadline: number,
  settle: (error: unknown, result?: unknown) => void,
): Context => {
  const functionName = `local-${name}`;
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:000000000000:function:${functionName}`,
    memoryLimitInMB: '128',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${day}/[$LATEST]${randomBytes(16).toString('hex')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: (error?: Error, result?: unknown) => settle(error, result),
    fail: (error: Error | string) => settle(error),
    succeed: (result: unknown) => settle(undefined, result),
  };
};
