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
  /**
   * Health data: in the cloud the table is encrypted with a customer-managed KMS key of its own
   * (rotation on), so access to the data also needs access to the key, and every use is in CloudTrail.
   */
  readonly customerManagedKey?: boolean;
  /**
   * Items are only ever added: in the cloud the table's resource policy denies every principal the
   * actions that change or remove one (`APPEND_ONLY_DENIED`), whatever their IAM policies allow; TTL
   * expiry, which DynamoDB runs itself, still removes them.
   */
  readonly appendOnly?: boolean;
}

/** What no principal may do on an append-only table (its resource policy). */
export const APPEND_ONLY_DENIED = [
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
] as const;

/** An index of the user directory's lists (docs/decisions/058-admin-lists-at-scale.md): string keys. */
const listIndex = (indexName: string, partition: string, sort: string): IndexDefinition => ({
  indexName,
  partitionKey: { name: partition, type: 'S' },
  sortKey: { name: sort, type: 'S' },
});

export const TABLES = {
  /**
   * One health profile per user, keyed by the Cognito `sub`: date of birth, sex at birth, height and
   * targets are health data too, so the table has a key of its own like the records.
   */
  profiles: {
    id: 'profiles',
    envVar: 'PROFILES_TABLE',
    partitionKey: { name: 'userId', type: 'S' },
    customerManagedKey: true,
  },
  /**
   * One item per activated person, keyed by the Cognito `sub`: what the API checks on every
   * authenticated request (SPEC-2 section 3.3): `status` (`active` or `disabled`), `roles` (the groups a
   * token must carry), `tokensValidAfter` (epoch seconds; tokens issued before are refused), and the
   * person's `credentialIds` and WebAuthn `userHandle` (docs/decisions/044-account-lifecycle.md).
   */
  accounts: {
    id: 'accounts',
    envVar: 'ACCOUNTS_TABLE',
    partitionKey: { name: 'userId', type: 'S' },
    // The user directory of User Management (docs/decisions/058-admin-lists-at-scale.md): each account
    // carries `dir` = `people`, `dirSort` = `{createdAt}#{userId}` and `dirCoach` (`coaches` or
    // `others`), so a page of people, newest first, of one status, of the coaches, or by email prefix
    // is one Query of one index. The directory's counters live on the items `directory#counts#0` to `#9`.
    globalSecondaryIndexes: [
      listIndex('byCreated', 'dir', 'dirSort'),
      listIndex('byEmail', 'dir', 'email'),
      listIndex('byStatus', 'status', 'dirSort'),
      listIndex('byCoachRole', 'dirCoach', 'dirSort'),
    ],
  },
  /**
   * Invitations and their activation codes, keyed by lowercased email. Listed as the accounts are:
   * `dir` = `invitations`, `dirSort` = `{createdAt}#{email}`, `state` = `pending` until activated, then
   * `activated` (docs/decisions/058-admin-lists-at-scale.md).
   */
  invitations: {
    id: 'invitations',
    envVar: 'INVITATIONS_TABLE',
    partitionKey: { name: 'email', type: 'S' },
    globalSecondaryIndexes: [
      listIndex('byCreated', 'dir', 'dirSort'),
      listIndex('byEmail', 'dir', 'email'),
      listIndex('byState', 'state', 'dirSort'),
      listIndex('byStateEmail', 'state', 'email'),
    ],
  },
  /**
   * Passkey credentials: credential id unique. A person's credential ids are listed on their account
   * item (read consistently); `byUser` finds the passkeys of a person whose account item is gone.
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
  /**
   * Measurements and daily logs (SPEC-2 section 1), one partition per person and record type:
   * - a record: `pk` = `{userId}#M#{type}` or `{userId}#L#{kind}`, `sk` = `{UTC ISO time}#{id}`, so one
   *   person's entries of one type between two dates, newest first, is one Query on the table;
   * - `byOwner` (`owner` = `{userId}#M` or `{userId}#L`, same `sk`) lists every type at once;
   * - a reference: `pk` = `{userId}#R`, `sk` = the record's id, pointing at the record, so a delete
   *   by id reads only the caller's own partition (another person's id is simply not found).
   */
  healthRecords: {
    id: 'health-records',
    envVar: 'HEALTH_RECORDS_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    globalSecondaryIndexes: [
      {
        indexName: 'byOwner',
        partitionKey: { name: 'owner', type: 'S' },
        sortKey: { name: 'sk', type: 'S' },
      },
    ],
    customerManagedKey: true,
  },
  /**
   * Coaching (SPEC-2 section 2), health-derived, so under a key of its own too:
   * - a client's state: `pk` = `client#{clientId}`, `sk` = `state`: the coach (`coachId`, when assigned;
   *   `byCoach` lists a coach's clients), this coach's `lastNoteAt`, and the summary the health writes
   *   keep up to date in their own transaction (`lastEntryAt`, `lastOutOfTargetAt`, and one counter of
   *   readings outside target per UTC day, `oot_{YYYY-MM-DD}`), so the client list reads no entries;
   * - a note: `pk` = `notes#{clientId}`, `sk` = `{createdAt}#{noteId}`, newest first by a Query; its
   *   author is stored as `authorId`, so no note is ever in `byCoach`;
   * - a note's idempotency key (decision 061): `pk` = `notes#{clientId}`, `sk` = `key#{coachId}#{key}`,
   *   holding the note's `noteSk`. It sorts after every note (`k` after the digits of a time), so the
   *   lists ask for `sk < key#`, and it goes with the notes when the client's account is erased;
   * - a coach's client (decision 042, 2026-11-27): `pk` = `coach#{coachId}`, `sk` = `client#{clientId}`,
   *   put in the transaction that assigns and deleted in every one that removes the state's `coachId`,
   *   so a consistent Query finds every client of a coach, which `byCoach` (lagging in AWS) may not. It
   *   holds no `coachId`, so it is never in `byCoach`.
   */
  coaching: {
    id: 'coaching',
    envVar: 'COACHING_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    globalSecondaryIndexes: [
      {
        indexName: 'byCoach',
        partitionKey: { name: 'coachId', type: 'S' },
        sortKey: { name: 'clientId', type: 'S' },
      },
    ],
    customerManagedKey: true,
  },
  /**
   * The audit log (SPEC-2 section 4), append-only: writers may only PutItem (never over an existing
   * item), the reader may only Query, and items expire 400 days after the event.
   * `pk` = the event's UTC month (`YYYY-MM`), `sk` = `{at}#{eventId}`, so "every event, newest first" is a
   * Query per month; `bySubject`, `byActor` and `byType` serve the filters. `byActivity` holds only the
   * events a person's 'Recent activity' shows (`activityOf` = their id, set on those alone), so that a
   * coach's many reads of their data never push their own sign-ins out of it.
   */
  auditEvents: {
    id: 'audit-events',
    envVar: 'AUDIT_EVENTS_TABLE',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    globalSecondaryIndexes: [
      {
        indexName: 'bySubject',
        partitionKey: { name: 'subjectId', type: 'S' },
        sortKey: { name: 'sk', type: 'S' },
      },
      {
        indexName: 'byActor',
        partitionKey: { name: 'actorId', type: 'S' },
        sortKey: { name: 'sk', type: 'S' },
      },
      { indexName: 'byType', partitionKey: { name: 'type', type: 'S' }, sortKey: { name: 'sk', type: 'S' } },
      {
        indexName: 'byActivity',
        partitionKey: { name: 'activityOf', type: 'S' },
        sortKey: { name: 'sk', type: 'S' },
      },
    ],
    timeToLiveAttribute: 'expiresAt',
    appendOnly: true,
  },
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof TABLES;
export const TABLE_KEYS = Object.keys(TABLES) as TableKey[];
