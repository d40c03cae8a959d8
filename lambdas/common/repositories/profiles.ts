/** Health profiles, keyed by the Cognito `sub`. Personal data: never logged. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProfileUpdate, UserProfile } from '../../../shared/schemas';
import { ddb, type TransactItem } from '../aws';
import { batchGetAll } from '../batch-get';
import { tableName } from '../env';

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

/** Applies the given changes to an existing profile and answers the whole updated profile. */
export const updateProfile = async (
  userId: string,
  changes: ProfileUpdate,
  updatedAt: string,
): Promise<UserProfile | undefined> => {
  const entries = Object.entries({ ...changes, updatedAt }).filter(([, value]) => value !== undefined);
  const names = Object.fromEntries(entries.map(([key], i) => [`#f${i}`, key]));
  const values = Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value]));
  try {
    const result = await ddb.send(
      new UpdateCommand({
        TableName: table(),
        Key: { userId },
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(userId)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes as UserProfile | undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
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
