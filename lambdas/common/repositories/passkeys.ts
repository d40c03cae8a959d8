/** Passkey credentials, one item per credential id (unique by key). */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, type TransactItem } from '../aws';
import { tableName } from '../env';

const table = () => tableName('passkeys');

export interface PasskeyRecord {
  readonly credentialId: string;
  readonly userId: string;
  readonly cognitoUsername: string;
  /** WebAuthn user handle (base64url) the authenticator returns on sign-in. */
  readonly userHandle: string;
  readonly publicKey: Uint8Array;
  readonly counter: number;
  readonly transports?: string[];
  readonly deviceType: string;
  readonly backedUp: boolean;
  readonly createdAt: string;
  readonly lastUsedAt?: string;
}

export const getPasskey = async (credentialId: string): Promise<PasskeyRecord | undefined> => {
  const result = await ddb.send(
    new GetCommand({ TableName: table(), Key: { credentialId }, ConsistentRead: true }),
  );
  return result.Item as PasskeyRecord | undefined;
};

/** Transaction item storing a new credential; an existing credential id makes it fail. */
export const putPasskeyItem = (passkey: PasskeyRecord): TransactItem => ({
  Put: { TableName: table(), Item: passkey, ConditionExpression: 'attribute_not_exists(credentialId)' },
});

/**
 * Moves the signature counter forward only from the value this verification read (a cloned
 * authenticator shows up as a counter that went backwards). Authenticators that always report 0,
 * as synced passkeys do, gain nothing from the condition: what stops a replay there is the
 * single-use sign-in session. Answers false when the counter changed meanwhile.
 */
export const advanceCounter = async (
  credentialId: string,
  from: number,
  to: number,
  usedAt: string,
): Promise<boolean> => {
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { credentialId },
        UpdateExpression: 'SET #counter = :to, lastUsedAt = :usedAt',
        ConditionExpression: '#counter = :from',
        ExpressionAttributeNames: { '#counter': 'counter' },
        ExpressionAttributeValues: { ':from': from, ':to': to, ':usedAt': usedAt },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};
