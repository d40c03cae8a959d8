/**
 * Short-lived, single-use items of the sign-in chain, in one table keyed by `pk`:
 * `registration#<email>` (the challenge a passkey registration must sign), `session#<id>` (a sign-in
 * challenge) and `proof#<sha256>` (a passkey proof, stored hashed). Every read of one of them is a
 * conditional delete, so it can be used once; expiry is checked in the condition because TTL
 * deletion is lazy.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, type TransactItem } from '../aws';
import { tableName } from '../env';

const table = () => tableName('authChallenges');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The `expiresAt` (epoch seconds, the TTL attribute) of an item that lives this long from now. */
export const expiresIn = (seconds: number): number => nowSeconds() + seconds;

export interface RegistrationChallenge {
  readonly email: string;
  readonly challenge: string;
  readonly cognitoUsername: string;
  readonly userId: string;
  readonly userHandle: string;
  readonly expiresAt: number;
}

export interface SigninSession {
  readonly sessionId: string;
  readonly challenge: string;
  readonly expiresAt: number;
}

export interface StoredProof {
  readonly userId: string;
  readonly cognitoUsername: string;
  readonly expiresAt: number;
}

const registrationKey = (email: string) => `registration#${email}`;
const sessionKey = (sessionId: string) => `session#${sessionId}`;
const proofKey = (proofHash: string) => `proof#${proofHash}`;

/** Stores the challenge for an invitation's registration, replacing any earlier one. */
export const putRegistrationChallenge = async (item: RegistrationChallenge): Promise<void> => {
  await ddb.send(
    new PutCommand({
      TableName: table(),
      Item: { pk: registrationKey(item.email), kind: 'registration', ...item },
    }),
  );
};

/** The unexpired registration challenge of an invitation, if any (not consumed: see the transaction). */
export const findRegistrationChallenge = async (
  email: string,
): Promise<RegistrationChallenge | undefined> => {
  const result = await ddb.send(
    new GetCommand({ TableName: table(), Key: { pk: registrationKey(email) }, ConsistentRead: true }),
  );
  const item = result.Item as (RegistrationChallenge & { pk: string }) | undefined;
  if (!item || item.expiresAt <= nowSeconds()) return undefined;
  return item;
};

/** Transaction item that consumes exactly this challenge, still unexpired. */
export const consumeRegistrationChallengeItem = (email: string, challenge: string): TransactItem => ({
  Delete: {
    TableName: table(),
    Key: { pk: registrationKey(email) },
    ConditionExpression: 'challenge = :challenge AND expiresAt > :now',
    ExpressionAttributeValues: { ':challenge': challenge, ':now': nowSeconds() },
  },
});

export const putSigninSession = async (session: SigninSession): Promise<void> => {
  await ddb.send(
    new PutCommand({
      TableName: table(),
      Item: { pk: sessionKey(session.sessionId), kind: 'signin', ...session },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/** Deletes the session and answers it if it existed and was unexpired: a session is used once, even on failure. */
export const consumeSigninSession = async (sessionId: string): Promise<SigninSession | undefined> => {
  try {
    const result = await ddb.send(
      new DeleteCommand({
        TableName: table(),
        Key: { pk: sessionKey(sessionId) },
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_OLD',
      }),
    );
    const item = result.Attributes as SigninSession | undefined;
    return item && item.expiresAt > nowSeconds() ? item : undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

export const putProof = async (proofHash: string, proof: StoredProof): Promise<void> => {
  await ddb.send(
    new PutCommand({
      TableName: table(),
      Item: { pk: proofKey(proofHash), kind: 'proof', ...proof },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/**
 * Consumes a proof only if it exists, belongs to this user and is unexpired. A proof offered for
 * another user, or too late, is left untouched: rejection writes nothing.
 */
export const consumeProof = async (
  proofHash: string,
  cognitoUsername: string,
): Promise<StoredProof | undefined> => {
  try {
    const result = await ddb.send(
      new DeleteCommand({
        TableName: table(),
        Key: { pk: proofKey(proofHash) },
        ConditionExpression: 'attribute_exists(pk) AND cognitoUsername = :username AND expiresAt > :now',
        ExpressionAttributeValues: { ':username': cognitoUsername, ':now': nowSeconds() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return result.Attributes as StoredProof | undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};
