/**
 * Short-lived, single-use items of the sign-in chain, in one table keyed by `pk`:
 * `registration#<email>` (the challenge a passkey registration must sign), `recovery#<email>` (a recovery
 * code, stored hashed), `passkey#<userId>` (the challenge of a passkey a signed-in person adds), `session#<id>` (a sign-in
 * challenge) and `proof#<sha256>` (a passkey proof, stored hashed). Every read of one of them is a
 * conditional delete, so it can be used once; expiry is checked in the condition because TTL
 * deletion is lazy.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { RECOVERY_CODE_TTL_SECONDS } from '../../../shared/constants';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, type TransactItem } from '../aws';
import { tableName } from '../env';
import { secretsEqual, sha256Hex } from '../secrets';

const table = () => tableName('authChallenges');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The `expiresAt` (epoch seconds, the TTL attribute) of an item that lives this long from now. */
export const expiresIn = (seconds: number): number => nowSeconds() + seconds;

export interface RegistrationChallenge {
  /** An invitation's first passkey, or a recovery's replacement passkey (SPEC-2 section 3.2). */
  readonly purpose?: 'invitation' | 'recovery';
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
  /** Epoch milliseconds: a proof from before a change to the account opens no session. */
  readonly issuedAt?: number;
  /**
   * The account's `tokensValidAfter` as the check before the proof read it: a proof redeemed after the
   * account moved it (a recovery, disable or role change since that check) opens no session.
   */
  readonly tokensValidAfter?: number;
  readonly expiresAt: number;
}

/**
 * A recovery code an admin issued for an activated person (SPEC-2 section 3.2); one per email. The code
 * itself is shown once, to the admin: stored is its SHA-256, so the table, its backups and an export of
 * it hold nothing that hands over the account (a code is 80 random bits: its hash cannot be walked back).
 */
export interface RecoveryGrant {
  readonly email: string;
  /** SHA-256 (hex) of the normalised code. */
  readonly codeHash?: string;
  /** The code in clear: only on a code issued before 2026-11-27 (then no `codeHash`), until it expires. */
  readonly activationCode?: string;
  readonly userId: string;
  readonly issuedBy: string;
  /** Epoch milliseconds (absent on a code issued before 2026-11-26: then 24 hours before it expires). */
  readonly issuedAt?: number;
  readonly expiresAt: number;
}

/**
 * Whether the code was issued before the account's last disable: a disable freezes the account's
 * passkeys, and an enable does not bring back a code someone may have obtained before it (decision 044).
 */
export const issuedBeforeDisable = (grant: RecoveryGrant, account: { disabledAt?: number }): boolean =>
  account.disabledAt !== undefined &&
  (grant.issuedAt ?? (grant.expiresAt - RECOVERY_CODE_TTL_SECONDS) * 1000) <= account.disabledAt;

const registrationKey = (email: string) => `registration#${email}`;
const recoveryKey = (email: string) => `recovery#${email}`;
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

/** Whether `code` (normalised) is the grant's, in time independent of where it differs. */
export const isRecoveryCode = (grant: RecoveryGrant, code: string): boolean =>
  grant.codeHash !== undefined
    ? secretsEqual(grant.codeHash, sha256Hex(code))
    : grant.activationCode !== undefined && secretsEqual(grant.activationCode, code);

/**
 * Transaction item storing a recovery code (as its hash), replacing (and so invalidating) any earlier
 * one for the email.
 */
export const putRecoveryItem = (
  grant: Omit<RecoveryGrant, 'codeHash' | 'activationCode'>,
  activationCode: string,
): TransactItem => ({
  Put: {
    TableName: table(),
    Item: {
      pk: recoveryKey(grant.email),
      kind: 'recovery',
      ...grant,
      codeHash: sha256Hex(activationCode),
    },
  },
});

/** The unexpired recovery code of an email, if any (not consumed: see the registration transaction). */
export const findRecovery = async (email: string): Promise<RecoveryGrant | undefined> => {
  const item = await storedRecovery(email);
  return item && item.expiresAt > nowSeconds() ? item : undefined;
};

/** The email's recovery code as stored, expired or not (gone once used). */
export const storedRecovery = async (email: string): Promise<RecoveryGrant | undefined> =>
  (
    await ddb.send(
      new GetCommand({ TableName: table(), Key: { pk: recoveryKey(email) }, ConsistentRead: true }),
    )
  ).Item as RecoveryGrant | undefined;

/** Transaction item that spends exactly this recovery code, still unexpired: it works once. */
export const consumeRecoveryItem = (grant: RecoveryGrant): TransactItem => ({
  Delete: {
    TableName: table(),
    Key: { pk: recoveryKey(grant.email) },
    ...(grant.codeHash !== undefined
      ? {
          ConditionExpression: 'codeHash = :code AND expiresAt > :now',
          ExpressionAttributeValues: { ':code': grant.codeHash, ':now': nowSeconds() },
        }
      : {
          ConditionExpression: 'activationCode = :code AND expiresAt > :now',
          ExpressionAttributeValues: { ':code': grant.activationCode, ':now': nowSeconds() },
        }),
  },
});

/** Transaction items deleting whatever is pending for an email: its registration challenge and recovery code. */
export const deletePendingForEmailItems = (email: string): TransactItem[] =>
  [registrationKey(email), recoveryKey(email)].map((pk) => ({ Delete: { TableName: table(), Key: { pk } } }));

const passkeyKey = (userId: string) => `passkey#${userId}`;

/** Stores the challenge of a passkey a signed-in person is adding, replacing any earlier one. */
export const putPasskeyChallenge = async (
  userId: string,
  challenge: string,
  expiresAt: number,
): Promise<void> => {
  await ddb.send(
    new PutCommand({
      TableName: table(),
      Item: { pk: passkeyKey(userId), kind: 'passkey', userId, challenge, expiresAt },
    }),
  );
};

/** The unexpired challenge of the passkey this person is adding, if any. */
export const findPasskeyChallenge = async (userId: string): Promise<string | undefined> => {
  const result = await ddb.send(
    new GetCommand({ TableName: table(), Key: { pk: passkeyKey(userId) }, ConsistentRead: true }),
  );
  const item = result.Item as { challenge: string; expiresAt: number } | undefined;
  return item && item.expiresAt > nowSeconds() ? item.challenge : undefined;
};

/**
 * Transaction item deleting the challenge of a passkey the person was adding, if any: a recovery
 * leaves no ceremony of an earlier session to finish.
 */
export const deletePasskeyChallengeItem = (userId: string): TransactItem => ({
  Delete: { TableName: table(), Key: { pk: passkeyKey(userId) } },
});

/** Transaction item that consumes exactly this passkey challenge, still unexpired. */
export const consumePasskeyChallengeItem = (userId: string, challenge: string): TransactItem => ({
  Delete: {
    TableName: table(),
    Key: { pk: passkeyKey(userId) },
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
