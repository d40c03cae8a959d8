/**
 * The DynamoDB tables, defined once. Local start-up, the tests and the CDK stack all create
 * tables from these definitions; each Lambda finds a table's name in the environment variable named here.
 */

export type AttributeType = 'S' | 'N' | 'B';
export interface KeyAttribute {
  readonly name: string;
  readonly type: AttributeType;
}
export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
}
export interface TableDefinition {
  /** Stable logical id, also the suffix of local table names. */
  readonly id: string;
  readonly envVar: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  readonly globalSecondaryIndexes?: readonly IndexDefinition[];
  /** Epoch-seconds attribute DynamoDB deletes expired items by (lazily: code checks expiry itself). */
  readonly timeToLiveAttribute?: string;
}

export const TABLES = {
  /** One health profile per user, keyed by the Cognito `sub`. */
  profiles: {
    id: 'profiles',
    envVar: 'PROFILES_TABLE',
    partitionKey: { name: 'userId', type: 'S' },
  },
  /** Invitations and their activation codes, keyed by lowercased email. */
  invitations: {
    id: 'invitations',
    envVar: 'INVITATIONS_TABLE',
    partitionKey: { name: 'email', type: 'S' },
  },
  /**
   * Passkey credentials: credential id unique. `byUser` lists a user's passkeys; no route reads it yet
   * (a user has one passkey until passkey management exists), but the index is in place so adding a
   * second passkey with `excludeCredentials` needs no table migration.
   */
  passkeys: {
    id: 'passkeys',
    envVar: 'PASSKEYS_TABLE',
    partitionKey: { name: 'credentialId', type: 'S' },
    globalSecondaryIndexes: [{ indexName: 'byUser', partitionKey: { name: 'userId', type: 'S' } }],
  },
  /** Short-lived single-use items: registration challenges, sign-in sessions, passkey proofs. */
  authChallenges: {
    id: 'auth-challenges',
    envVar: 'AUTH_CHALLENGES_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    timeToLiveAttribute: 'expiresAt',
  },
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof TABLES;
export const TABLE_KEYS = Object.keys(TABLES) as TableKey[];
