/**
 * The VerifyAuthChallengeResponse trigger against DynamoDB Local: only a passkey proof stored for this
 * user opens a session, once; anything else, a failure included, is a wrong answer, never a crash.
 * Every case starts from an event whose `answerCorrect` is true, so a false is the trigger's own.
 */
import type { VerifyAuthChallengeResponseTriggerEvent } from 'aws-lambda';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { TableNames } from '../../infra/local/tables';
import { issuePasskeyProof } from '../../lambdas/cognito/passkey-proof';
import { handler } from '../../lambdas/cognito/verify-auth-challenge';
import { ddb } from '../../lambdas/common/aws';
import { TABLES } from '../../shared/tables';
import { freshTables, localDocuments } from '../fixtures/aws-env';
import { verifyEvent } from '../fixtures/cognito-events';

const USER_ID = '5d2f8c1a-7b3e-4c9d-8a1f-6e5b4c3d2a10';
const OTHER_USER_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const cognitoUsernameOf = (userId: string) => `cognito-${userId}`;
const wellFormedProof = 'A'.repeat(43);
const TOKENS_VALID_AFTER = Math.floor(Date.now() / 1000) - 60;

let tables: TableNames;
const documents = () => localDocuments(inject('dynamoDbEndpoint'));

/** The event Cognito sends, with `answerCorrect` already true: only the trigger may make it false. */
const eventFor = (...args: Parameters<typeof verifyEvent>): VerifyAuthChallengeResponseTriggerEvent => {
  const event = verifyEvent(...args);
  event.response.answerCorrect = true;
  return event;
};

const activeAccount = async (userId: string) => {
  const client = documents();
  try {
    await client.send(
      new PutCommand({
        TableName: tables.accounts,
        Item: {
          userId,
          email: `${userId}@example.com`,
          cognitoUsername: cognitoUsernameOf(userId),
          roles: ['user'],
          status: 'active',
          tokensValidAfter: TOKENS_VALID_AFTER,
        },
      }),
    );
  } finally {
    client.destroy();
  }
};

const proofFor = (userId: string) =>
  issuePasskeyProof({
    userId,
    cognitoUsername: cognitoUsernameOf(userId),
    tokensValidAfter: TOKENS_VALID_AFTER,
  });

const answerFor = async (proof: string, userId: string) =>
  (await handler(eventFor(proof, cognitoUsernameOf(userId)))).response.answerCorrect;

beforeAll(async () => {
  tables = await freshTables(inject('dynamoDbEndpoint'));
  await activeAccount(USER_ID);
  await activeAccount(OTHER_USER_ID);
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('VerifyAuthChallengeResponse', () => {
  it('accepts a proof issued to this user, once: the second use is refused', async () => {
    const proof = await proofFor(USER_ID);
    expect(await answerFor(proof, USER_ID)).toBe(true);
    expect(await answerFor(proof, USER_ID)).toBe(false);
  });

  it('refuses a well-formed answer when no proof is stored', async () => {
    expect(await answerFor(wellFormedProof, USER_ID)).toBe(false);
  });

  it("refuses another user's proof, and leaves it for its owner", async () => {
    const proof = await proofFor(OTHER_USER_ID);
    expect(await answerFor(proof, USER_ID)).toBe(false);
    expect(await answerFor(proof, OTHER_USER_ID)).toBe(true);
  });

  it('refuses a wrong answer while a proof is stored, and leaves the proof usable', async () => {
    const proof = await proofFor(USER_ID);
    const wrong = `${proof.slice(0, -1)}${proof.endsWith('A') ? 'B' : 'A'}`;
    expect(await answerFor(wrong, USER_ID)).toBe(false);
    expect(await answerFor(proof, USER_ID)).toBe(true);
  });

  it('treats a failure while redeeming (the table is missing) as a wrong answer, never a crash', async () => {
    const proof = await proofFor(USER_ID);
    vi.stubEnv(TABLES.authChallenges.envVar, `${tables.authChallenges}-missing`);
    await expect(answerFor(proof, USER_ID)).resolves.toBe(false);
  });

  it('treats a missing table setting as a wrong answer, never a crash', async () => {
    const proof = await proofFor(USER_ID);
    vi.stubEnv(TABLES.authChallenges.envVar, '');
    await expect(answerFor(proof, USER_ID)).resolves.toBe(false);
  });

  it.each([
    ['an empty answer', ''],
    ['a short answer', 'abc'],
    ['an answer with padding', `${'A'.repeat(42)}=`],
    ['a JSON answer', '{"proof":"x"}'],
  ])('refuses %s without a database call', async (_, challengeAnswer) => {
    const send = vi.spyOn(ddb, 'send');
    expect(await answerFor(challengeAnswer, USER_ID)).toBe(false);
    expect(send).not.toHaveBeenCalled();
  });

  it("refuses an unknown user's answer, even a real proof, without a database call", async () => {
    const proof = await proofFor(USER_ID);
    const send = vi.spyOn(ddb, 'send');
    const answer = await handler(eventFor(proof, cognitoUsernameOf(USER_ID), true));
    expect(answer.response.answerCorrect).toBe(false);
    expect(send).not.toHaveBeenCalled();
  });
});
