/** Health profiles, keyed by the Cognito `sub`. Personal data: never logged. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ProfileUpdate, UserProfile } from '../../../shared/schemas';
import { ddb, type TransactItem } from '../aws';
import { batchGetAll } from '../batch-get';
import { tableName } from '../env';
import { conditionFailedAt, refusalOf, transactWrite, type CommitChecks } from '../transactions';

const table = () => tableName('profiles');

export const getProfile = async (userId: string): Promise<UserProfile | undefined> => {
  // Consistent: the first read after activation must see the profile the registration just wrote.
  const result = await ddb.send(
    new GetCommand({ TableName: table(), Key: { userId }, ConsistentRead: true }),
  );
  return result.Item as UserProfile | undefined;
};

/** Transaction item creating the profile at registration; never overwrites one. */
export const createProfileItem = (profile: UserProfile): TransactItem => ({
  Put: { TableName: table(), Item: profile, ConditionExpression: 'attribute_not_exists(userId)' },
});

/**
 * Applies the given changes to an existing profile, only while `onlyIf` holds (the person's session
 * still passing the session check: `whileSessionHolds`, else its refusal), and answers the whole
 * updated profile, read back consistently (a transaction answers no item); undefined when there is
 * no profile.
 */
export const updateProfile = async (
  userId: string,
  changes: ProfileUpdate,
  updatedAt: string,
  onlyIf: CommitChecks,
): Promise<UserProfile | undefined> => {
  const entries = Object.entries({ ...changes, updatedAt }).filter(([, value]) => value !== undefined);
  const names = Object.fromEntries(entries.map(([key], i) => [`#f${i}`, key]));
  const values = Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value]));
  try {
    await transactWrite({
      TransactItems: [
        ...onlyIf.checks,
        {
          Update: {
            TableName: table(),
            Key: { userId },
            UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
            ConditionExpression: 'attribute_exists(userId)',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
      ],
    });
  } catch (error) {
    const refusal = refusalOf(error, onlyIf);
    if (refusal) throw refusal;
    if (conditionFailedAt(error, onlyIf.checks.length)) return undefined;
    throw error;
  }
  return getProfile(userId);
};

export type ProfileNames = Pick<UserProfile, 'email' | 'preferredName' | 'familyName' | 'name'>;

/** The names a person gave, as the lists show them beside an email (none when they gave none). */
export const namesOf = ({ preferredName, familyName }: ProfileNames) => ({
  ...(preferredName !== undefined && { preferredName }),
  ...(familyName !== undefined && { familyName }),
});

/** A person as the lists name them: their id, their profile's email and the names they gave. */
export const personOf = (userId: string, profile: ProfileNames) => ({
  userId,
  email: profile.email,
  ...namesOf(profile),
});

/** Emails and names of users, for the lists that show people. */
export const getProfileNames = async (userIds: readonly string[]): Promise<Map<string, ProfileNames>> => {
  const items = await batchGetAll(
    table(),
    userIds.map((userId) => ({ userId })),
    {
      ProjectionExpression: 'userId, email, preferredName, familyName, #n',
      ExpressionAttributeNames: { '#n': 'name' },
    },
  );
  return new Map(
    (items as UserProfile[]).map(({ userId, email, preferredName, familyName, name }) => [
      userId,
      { email, preferredName, familyName, name },
    ]),
  );
};
