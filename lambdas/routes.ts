/**
 * The route manifest: every Lambda of the product, its entry file, and what it may touch.
 * The CDK stack builds functions, routes and least-privilege grants from it; the local API server
 * routes to the same handler modules. Entry paths are relative to the repository root.
 */
import type { TableKey } from '../shared/tables';

/** Who may call: anyone, anyone signed in, or members of `admins` or `coaches` (checked in the wrapper). */
export type AuthLevel = 'public' | 'user' | 'admin' | 'coach';

/**
 * A DynamoDB action, as IAM names it without the `dynamodb:` prefix. A transaction needs no action of
 * its own: each of its Put, Update, Delete and ConditionCheck items needs PutItem, UpdateItem,
 * DeleteItem or ConditionCheckItem.
 * A condition expression or `ReturnValues` on a write needs nothing more either.
 */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'Scan'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

/** Actions a function may take on one table, on every item or only on the items `keys` names. */
export interface TableGrant {
  readonly actions: readonly TableAction[];
  /**
   * Partition-key patterns (`*` matches any run of characters) the actions are limited to, enforced by
   * IAM with `dynamodb:LeadingKeys`. Cannot be combined with Scan, which reads every key.
   * @default - every item of the table
   */
  readonly keys?: readonly string[];
  /**
   * The one index the grant's Query or Scan reads; the table's own items are then not granted.
   * @default - the table and every index of it (for Query and Scan)
   */
  readonly index?: string;
}

/** Everything a function may do on one table: one grant, or several with keys of their own. */
export type TableAccess = readonly TableGrant[];

export interface FunctionDefinition {
  /** Stable id used for construct ids and function names. */
  readonly id: string;
  /** Handler file, relative to the repository root; the handler export is `handler`. */
  readonly entry: string;
  /** The tables the function uses and exactly the calls its code makes on each (the IAM grant). */
  readonly tables: Partial<Record<TableKey, TableAccess>>;
  /** Cognito user-pool actions the function calls (IAM action names without the prefix). */
  readonly cognitoActions: readonly string[];
  /** Whether the function signs WebAuthn ceremonies (needs RP id, name and origins). */
  readonly webauthn?: boolean;
  /** Whether the function signs or reads page cursors (needs `CURSOR_SIGNING_KEY`). */
  readonly pageCursors?: boolean;
}

export interface RouteDefinition extends FunctionDefinition {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API Gateway resource path; `{name}` marks a path parameter. */
  readonly path: string;
  readonly auth: AuthLevel;
}

/** Everything erasing a person touches (`lambdas/common/erase-account.ts`), in every table and the pool. */
const ERASE_TABLES: FunctionDefinition['tables'] = {
  // One item each, by DeleteItem: a batch write could also put items (a passkey, a recovery code).
  accounts: [{ actions: ['GetItem', 'UpdateItem', 'ConditionCheckItem', 'DeleteItem'] }],
  passkeys: [{ actions: ['DeleteItem'] }, { actions: ['Query'], index: 'byUser' }],
  // Found through the references in the person's own partition (a Query, read consistently, of that
  // partition only: `{userId}#R`, never a record's); many items: a batch (IAM cannot tell a batch's
  // deletes from its puts; the code only deletes).
  healthRecords: [{ actions: ['Query'], keys: ['*#R'] }, { actions: ['BatchWriteItem'] }],
  coaching: [
    { actions: ['Query'], keys: ['notes#*'] },
    { actions: ['BatchWriteItem'], keys: ['notes#*', 'client#*'] },
    // The person's own coaching ended with the disable that starts the erase (read, then unassigned
    // or checked to have none); the clients of an erased coach unassigned.
    { actions: ['GetItem', 'UpdateItem', 'ConditionCheckItem'], keys: ['client#*'] },
    // The erased coach's clients found through their client items (read consistently) and byCoach (the
    // assignments made before those were kept); each item deleted with its unassignment, and the one
    // naming the person, should their state still name a coach.
    { actions: ['Query', 'DeleteItem'], keys: ['coach#*'] },
    { actions: ['Query'], index: 'byCoach' },
  ],
  authChallenges: [{ actions: ['DeleteItem'], keys: ['registration#*', 'recovery#*', 'passkey#*'] }],
  invitations: [{ actions: ['DeleteItem'] }],
  profiles: [{ actions: ['DeleteItem'] }],
  auditEvents: [{ actions: ['PutItem'] }],
};
const ERASE_COGNITO = ['AdminUserGlobalSignOut', 'AdminDeleteUser'] as const;

/** The abuse-limit counters (lambdas/common/repositories/limit-counters.ts): one atomic update each. */
const LIMIT_COUNTERS: TableGrant = { actions: ['UpdateItem'], keys: ['limit#*'] };

/**
 * The directory's counts (lambdas/common/repositories/directory.ts): one atomic update, in the
 * transaction of the write that changes them, by functions that may not otherwise update accounts.
 */
const DIRECTORY_COUNTS: TableGrant = { actions: ['UpdateItem'], keys: ['directory#counts#*'] };

/** A Query of each named index of a table, and of nothing else of it. */
const indexQueries = (...indexes: string[]): TableGrant[] =>
  indexes.map((index) => ({ actions: ['Query'], index }));

/** SPEC-2 section 3.1: a person's own passkeys. */
const PASSKEY_ROUTES = (): RouteDefinition[] => [
  {
    id: 'ListPasskeys',
    method: 'GET',
    path: '/v1/users/me/passkeys',
    auth: 'user',
    entry: 'lambdas/api/passkeys/list-passkeys.ts',
    // The account's list of credential ids, then those passkeys.
    tables: { accounts: [{ actions: ['GetItem'] }], passkeys: [{ actions: ['BatchGetItem'] }] },
    cognitoActions: [],
  },
  {
    id: 'PasskeyOptions',
    method: 'POST',
    path: '/v1/users/me/passkeys/options',
    auth: 'user',
    entry: 'lambdas/api/passkeys/passkey-options.ts',
    tables: {
      accounts: [{ actions: ['GetItem'] }],
      authChallenges: [{ actions: ['PutItem'], keys: ['passkey#*'] }],
    },
    cognitoActions: [],
    webauthn: true,
  },
  {
    id: 'AddPasskey',
    method: 'POST',
    path: '/v1/users/me/passkeys',
    auth: 'user',
    entry: 'lambdas/api/passkeys/add-passkey.ts',
    // One transaction spends the challenge, stores the credential, lists it on the account.
    tables: {
      accounts: [{ actions: ['GetItem', 'UpdateItem'] }],
      authChallenges: [{ actions: ['GetItem', 'DeleteItem'], keys: ['passkey#*'] }],
      passkeys: [{ actions: ['PutItem', 'GetItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
    webauthn: true,
  },
  {
    id: 'RenamePasskey',
    method: 'PATCH',
    path: '/v1/users/me/passkeys/{credentialId}',
    auth: 'user',
    entry: 'lambdas/api/passkeys/rename-passkey.ts',
    tables: {
      accounts: [{ actions: ['ConditionCheckItem'] }],
      passkeys: [{ actions: ['GetItem', 'UpdateItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
  },
  {
    id: 'RemovePasskey',
    method: 'DELETE',
    path: '/v1/users/me/passkeys/{credentialId}',
    auth: 'user',
    entry: 'lambdas/api/passkeys/remove-passkey.ts',
    tables: {
      accounts: [{ actions: ['GetItem', 'UpdateItem'] }],
      passkeys: [{ actions: ['DeleteItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
  },
];

/** SPEC-2 sections 3.2 to 3.4: recovery, admin actions on people, the person's own erase. */
const LIFECYCLE_ROUTES = (): RouteDefinition[] => [
  {
    id: 'ResetAccess',
    method: 'POST',
    path: '/internal/v1/admin/users/{userId}/recovery',
    auth: 'admin',
    entry: 'lambdas/api/admin/reset-access.ts',
    // The code stored with its event, only while the issuer is an active admin and the account active.
    tables: {
      accounts: [{ actions: ['GetItem', 'ConditionCheckItem'] }],
      authChallenges: [{ actions: ['PutItem'], keys: ['recovery#*'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
  },
  {
    id: 'ChangeRoles',
    method: 'PUT',
    path: '/internal/v1/admin/users/{userId}/roles',
    auth: 'admin',
    entry: 'lambdas/api/admin/change-roles.ts',
    // The guarded transaction: the acting admin's account checked, the person's updated, and the
    // person's own coaching ended with it when they leave `users` (their state read, then updated
    // with its event, or checked to have no coach). Then the clients they coach, if they leave
    // `coaches` (found through their client items, read consistently, and byCoach). Each unassignment
    // deletes the coach's client item.
    tables: {
      accounts: [{ actions: ['GetItem', 'UpdateItem', 'ConditionCheckItem'] }],
      coaching: [
        { actions: ['GetItem', 'UpdateItem', 'ConditionCheckItem'], keys: ['client#*'] },
        { actions: ['Query', 'DeleteItem'], keys: ['coach#*'] },
        { actions: ['Query'], index: 'byCoach' },
      ],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: ['AdminListGroupsForUser', 'AdminAddUserToGroup', 'AdminRemoveUserFromGroup'],
  },
  {
    id: 'DisableUser',
    method: 'POST',
    path: '/internal/v1/admin/users/{userId}/disable',
    auth: 'admin',
    entry: 'lambdas/api/admin/disable-user.ts',
    // The guarded transaction, and the person's coaching ended with it (their state read, then updated
    // with its event and their coach's client item deleted, or checked to have no coach).
    tables: {
      accounts: [{ actions: ['GetItem', 'UpdateItem', 'ConditionCheckItem'] }],
      coaching: [
        { actions: ['GetItem', 'UpdateItem', 'ConditionCheckItem'], keys: ['client#*'] },
        { actions: ['DeleteItem'], keys: ['coach#*'] },
      ],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    // Enable too: Cognito follows the account's status, should an enable have committed meanwhile.
    cognitoActions: ['AdminDisableUser', 'AdminUserGlobalSignOut', 'AdminEnableUser'],
  },
  {
    id: 'EnableUser',
    method: 'POST',
    path: '/internal/v1/admin/users/{userId}/enable',
    auth: 'admin',
    entry: 'lambdas/api/admin/enable-user.ts',
    tables: {
      accounts: [{ actions: ['GetItem', 'UpdateItem', 'ConditionCheckItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    // Disable too: Cognito follows the account's status, should a disable have committed meanwhile.
    cognitoActions: ['AdminEnableUser', 'AdminDisableUser', 'AdminUserGlobalSignOut'],
  },
  {
    id: 'DeleteUser',
    method: 'DELETE',
    path: '/internal/v1/admin/users/{userId}',
    auth: 'admin',
    entry: 'lambdas/api/admin/delete-user.ts',
    tables: ERASE_TABLES,
    cognitoActions: [...ERASE_COGNITO],
  },
  {
    id: 'DeleteMe',
    method: 'DELETE',
    path: '/v1/users/me',
    auth: 'user',
    entry: 'lambdas/api/users/delete-me.ts',
    tables: ERASE_TABLES,
    // Finds another active admin before the last one could leave.
    cognitoActions: [...ERASE_COGNITO, 'ListUsersInGroup'],
  },
  {
    id: 'ResendInvitation',
    method: 'POST',
    path: '/internal/v1/admin/invitations/{email}/resend',
    auth: 'admin',
    entry: 'lambdas/api/admin/resend-invitation.ts',
    tables: {
      invitations: [{ actions: ['UpdateItem', 'GetItem'] }],
      // The resend commits only while the acting admin is still an active admin.
      accounts: [{ actions: ['ConditionCheckItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
  },
];

const DEFINED_ROUTES: readonly RouteDefinition[] = [
  {
    id: 'VerifyActivation',
    method: 'POST',
    path: '/v1/auth/verify-activation',
    auth: 'public',
    entry: 'lambdas/api/auth/verify-activation.ts',
    tables: {
      // Reads the invitation, reserves its Cognito username.
      invitations: [{ actions: ['GetItem', 'UpdateItem'] }],
      authChallenges: [
        // Stores the registration challenge.
        { actions: ['PutItem'], keys: ['registration#*'] },
        // Reads a recovery code.
        { actions: ['GetItem'], keys: ['recovery#*'] },
        // Counts attempts per email and per address (SPEC-2 section 5).
        LIMIT_COUNTERS,
      ],
      // The account a recovery code is for, and the standing of the invitation's admin.
      accounts: [{ actions: ['GetItem'] }],
      // Records every refused code.
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: ['AdminCreateUser', 'AdminGetUser'],
    webauthn: true,
  },
  {
    id: 'RegisterPasskey',
    method: 'POST',
    path: '/v1/auth/register-passkey',
    auth: 'public',
    entry: 'lambdas/api/auth/register-passkey.ts',
    tables: {
      // Reads the invitation; the registration transaction marks its code used.
      invitations: [{ actions: ['GetItem', 'UpdateItem'] }],
      authChallenges: [
        // Reads the stored challenge; the transaction consumes it.
        { actions: ['GetItem', 'DeleteItem'], keys: ['registration#*'] },
        // Issues the passkey proof the new user signs in with.
        { actions: ['PutItem'], keys: ['proof#*'] },
        // Reads a recovery code; the recovery transaction spends it.
        { actions: ['GetItem', 'DeleteItem'], keys: ['recovery#*'] },
        // The recovery transaction also deletes the challenge of a passkey an earlier session was adding.
        { actions: ['DeleteItem'], keys: ['passkey#*'] },
        // Counts attempts per email and per address (SPEC-2 section 5).
        LIMIT_COUNTERS,
      ],
      // The transaction stores the credential and creates the account and the profile; a recovery's
      // removes the earlier passkeys and updates the account it read.
      passkeys: [{ actions: ['PutItem', 'DeleteItem'] }],
      // The account created or updated; a recovery only while the admin who issued the code is still
      // an active admin (checked in its transaction).
      accounts: [{ actions: ['PutItem', 'GetItem', 'UpdateItem', 'ConditionCheckItem'] }],
      profiles: [{ actions: ['PutItem'] }],
      // The transaction records the activation or the recovery.
      auditEvents: [{ actions: ['PutItem'] }],
    },
    // Groups at activation; a recovery signs the person out everywhere.
    cognitoActions: ['AdminAddUserToGroup', 'AdminUserGlobalSignOut'],
    webauthn: true,
  },
  {
    id: 'InitiateSignin',
    method: 'POST',
    path: '/v1/auth/initiate-signin',
    auth: 'public',
    entry: 'lambdas/api/auth/initiate-signin.ts',
    tables: {
      // Stores the sign-in session; counts starts per address (SPEC-2 section 5).
      authChallenges: [{ actions: ['PutItem'], keys: ['session#*'] }, LIMIT_COUNTERS],
      // Records a lock.
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
    webauthn: true,
  },
  {
    id: 'VerifyWebauthn',
    method: 'POST',
    path: '/v1/auth/verify-webauthn',
    auth: 'public',
    entry: 'lambdas/api/auth/verify-webauthn.ts',
    tables: {
      authChallenges: [
        // Consumes the sign-in session.
        { actions: ['DeleteItem'], keys: ['session#*'] },
        // Issues the passkey proof.
        { actions: ['PutItem'], keys: ['proof#*'] },
        // A verification without a live session spends a sign-in start of the address (SPEC-2 section 5).
        LIMIT_COUNTERS,
      ],
      // Reads the credential, moves its signature counter forward.
      passkeys: [{ actions: ['GetItem', 'UpdateItem'] }],
      // A disabled person gets no proof.
      accounts: [{ actions: ['GetItem'] }],
      // Records the sign-in and every failure with its reason.
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
    webauthn: true,
  },
  {
    id: 'GetMe',
    method: 'GET',
    path: '/v1/users/me',
    auth: 'user',
    entry: 'lambdas/api/users/get-me.ts',
    tables: { profiles: [{ actions: ['GetItem'] }] },
    cognitoActions: [],
  },
  {
    id: 'UpdateMe',
    method: 'PUT',
    path: '/v1/users/me',
    auth: 'user',
    entry: 'lambdas/api/users/update-me.ts',
    // The update commits only while the caller's session still passes the session check; then the
    // profile is read back.
    tables: {
      profiles: [{ actions: ['GetItem', 'UpdateItem'] }],
      accounts: [{ actions: ['ConditionCheckItem'] }],
    },
    cognitoActions: [],
  },
  {
    id: 'SignOut',
    method: 'POST',
    path: '/v1/users/me/sign-out',
    auth: 'user',
    entry: 'lambdas/api/users/sign-out.ts',
    // Records the signed-out session on the account, or moves `tokensValidAfter` for every session.
    tables: { accounts: [{ actions: ['UpdateItem'] }] },
    // Everywhere: Cognito revokes every refresh token of the person as well.
    cognitoActions: ['AdminUserGlobalSignOut'],
  },
  {
    id: 'ListInvitations',
    method: 'GET',
    path: '/internal/v1/admin/invitations',
    auth: 'admin',
    entry: 'lambdas/api/admin/list-invitations.ts',
    // One Query of one list index a page (docs/decisions/058-admin-lists-at-scale.md).
    tables: { invitations: indexQueries('byCreated', 'byEmail', 'byState', 'byStateEmail') },
    cognitoActions: [],
    pageCursors: true,
  },
  {
    id: 'CreateInvitation',
    method: 'POST',
    path: '/internal/v1/admin/invitations',
    auth: 'admin',
    entry: 'lambdas/api/admin/create-invitation.ts',
    // Looks for an existing invitation, then creates one only if none exists; an account counts only
    // if its activation completed (it has a profile).
    tables: {
      invitations: [{ actions: ['GetItem', 'PutItem'] }],
      profiles: [{ actions: ['BatchGetItem'] }],
      // The pending count goes up in the invitation's transaction, which commits only while the acting
      // admin is still an active admin.
      accounts: [DIRECTORY_COUNTS, { actions: ['ConditionCheckItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: ['ListUsers'],
  },
  {
    id: 'DeleteInvitation',
    method: 'DELETE',
    path: '/internal/v1/admin/invitations/{email}',
    auth: 'admin',
    entry: 'lambdas/api/admin/delete-invitation.ts',
    // Deletes a pending invitation; reads it to tell "not found" from "activated".
    tables: {
      invitations: [{ actions: ['DeleteItem', 'GetItem'] }],
      // The pending count goes down in the delete's transaction, which commits only while the acting
      // admin is still an active admin.
      accounts: [DIRECTORY_COUNTS, { actions: ['ConditionCheckItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    // Removes the user a never-completed activation reserved, so the email can be invited again.
    cognitoActions: ['AdminDeleteUser'],
  },
  {
    id: 'ListUsers',
    method: 'GET',
    path: '/internal/v1/admin/users',
    auth: 'admin',
    entry: 'lambdas/api/admin/list-users.ts',
    // One Query of one list index a page, the counts, then the page's names and coaches
    // (docs/decisions/058-admin-lists-at-scale.md). Nothing of Cognito.
    tables: {
      accounts: [
        ...indexQueries('byCreated', 'byEmail', 'byStatus', 'byCoachRole'),
        { actions: ['BatchGetItem'], keys: ['directory#counts#*'] },
      ],
      profiles: [{ actions: ['BatchGetItem'] }],
      coaching: [{ actions: ['BatchGetItem'], keys: ['client#*'] }],
    },
    cognitoActions: [],
    pageCursors: true,
  },
  {
    id: 'CreateMeasurement',
    method: 'POST',
    path: '/v1/measurements',
    auth: 'user',
    entry: 'lambdas/api/measurements/create-measurement.ts',
    // One transaction puts the measurement and its reference (both conditional: never overwrites)
    // and updates the client's coaching summary, only while the caller's session still passes the
    // session check (a disable, erase, recovery or sign-out since the check cancels it).
    // Sent again with its Idempotency-Key, it reads the record the first one stored (decision 061).
    tables: {
      healthRecords: [{ actions: ['PutItem', 'GetItem'] }],
      coaching: [{ actions: ['UpdateItem'], keys: ['client#*'] }],
      accounts: [{ actions: ['ConditionCheckItem'] }],
    },
    cognitoActions: [],
  },
  {
    id: 'ListMeasurements',
    method: 'GET',
    path: '/v1/measurements',
    auth: 'user',
    entry: 'lambdas/api/measurements/list-measurements.ts',
    // The caller's partition of one type, or every type through the byOwner index.
    tables: { healthRecords: [{ actions: ['Query'] }] },
    cognitoActions: [],
    pageCursors: true,
  },
  {
    id: 'DeleteMeasurement',
    method: 'DELETE',
    path: '/v1/measurements/{measurementId}',
    auth: 'user',
    entry: 'lambdas/api/measurements/delete-measurement.ts',
    // Reads the caller's reference to the id, then deletes it and the measurement in one transaction,
    // which takes a reading outside target out of the coaching summary's counter, under the same
    // session check as the create's.
    // The reference is the only item read (`{userId}#R`): the route cannot read a reading by its key.
    tables: {
      healthRecords: [{ actions: ['GetItem'], keys: ['*#R'] }, { actions: ['DeleteItem'] }],
      coaching: [{ actions: ['UpdateItem'], keys: ['client#*'] }],
      accounts: [{ actions: ['ConditionCheckItem'] }],
    },
    cognitoActions: [],
  },
  {
    id: 'CreateLog',
    method: 'POST',
    path: '/v1/logs',
    auth: 'user',
    entry: 'lambdas/api/logs/create-log.ts',
    // As CreateMeasurement's.
    // Sent again with its Idempotency-Key, it reads the record the first one stored (decision 061).
    tables: {
      healthRecords: [{ actions: ['PutItem', 'GetItem'] }],
      coaching: [{ actions: ['UpdateItem'], keys: ['client#*'] }],
      accounts: [{ actions: ['ConditionCheckItem'] }],
    },
    cognitoActions: [],
  },
  {
    id: 'ListLogs',
    method: 'GET',
    path: '/v1/logs',
    auth: 'user',
    entry: 'lambdas/api/logs/list-logs.ts',
    tables: { healthRecords: [{ actions: ['Query'] }] },
    cognitoActions: [],
    pageCursors: true,
  },
  {
    id: 'DeleteLog',
    method: 'DELETE',
    path: '/v1/logs/{logId}',
    auth: 'user',
    entry: 'lambdas/api/logs/delete-log.ts',
    // As DeleteMeasurement's (a log counts in no counter).
    tables: {
      healthRecords: [{ actions: ['GetItem'], keys: ['*#R'] }, { actions: ['DeleteItem'] }],
      accounts: [{ actions: ['ConditionCheckItem'] }],
    },
    cognitoActions: [],
  },
  {
    id: 'ExportMe',
    method: 'GET',
    path: '/v1/users/me/export',
    auth: 'user',
    entry: 'lambdas/api/users/export-me.ts',
    // The profile, then every measurement and log of the caller through the byOwner index and the notes
    // written to them; as JSON also the account, its passkeys and the coach (named from their
    // profile); the export is audited (data.exported), only while the caller's session still passes
    // the session check.
    tables: {
      profiles: [{ actions: ['GetItem', 'BatchGetItem'] }],
      healthRecords: [{ actions: ['Query'], index: 'byOwner' }],
      coaching: [
        { actions: ['GetItem'], keys: ['client#*'] },
        { actions: ['Query'], keys: ['notes#*'] },
      ],
      accounts: [{ actions: ['GetItem', 'ConditionCheckItem'] }],
      passkeys: [{ actions: ['BatchGetItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
    pageCursors: true,
  },
  {
    id: 'AssignCoach',
    method: 'PUT',
    path: '/internal/v1/admin/users/{userId}/coach',
    auth: 'admin',
    entry: 'lambdas/api/admin/assign-coach.ts',
    tables: {
      // Both people must have completed activation (a profile).
      profiles: [{ actions: ['BatchGetItem'] }],
      // Reads the client's state; one transaction sets the coach, puts the coach's client item (the
      // previous coach's deleted) and writes the audit event, only while both accounts still hold their
      // roles and the acting admin is still an active admin (checked in it; read again when it fails).
      accounts: [{ actions: ['ConditionCheckItem'] }],
      coaching: [
        { actions: ['GetItem', 'UpdateItem'], keys: ['client#*'] },
        { actions: ['PutItem', 'DeleteItem'], keys: ['coach#*'] },
      ],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    // Finds each person by id and reads their groups.
    cognitoActions: ['ListUsers', 'AdminListGroupsForUser'],
  },
  {
    id: 'UnassignCoach',
    method: 'DELETE',
    path: '/internal/v1/admin/users/{userId}/coach',
    auth: 'admin',
    entry: 'lambdas/api/admin/unassign-coach.ts',
    tables: {
      // The client's state, and the coach's client item deleted in the same transaction.
      coaching: [
        { actions: ['GetItem', 'UpdateItem'], keys: ['client#*'] },
        { actions: ['DeleteItem'], keys: ['coach#*'] },
      ],
      // The unassignment commits only while the acting admin is still an active admin.
      accounts: [{ actions: ['ConditionCheckItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    // Tells "no coach" (204) from "nobody" (404).
    cognitoActions: ['ListUsers', 'AdminListGroupsForUser'],
  },
  {
    id: 'ListAudit',
    method: 'GET',
    path: '/internal/v1/admin/audit',
    auth: 'admin',
    entry: 'lambdas/api/admin/list-audit.ts',
    // The only reader of the audit log: Query and nothing else, of the month partitions (`YYYY-MM`,
    // `pk` of lambdas/common/audit.ts) and of the three indexes its filters read (not `byActivity`,
    // which is ListMyActivity's); then the names of the page's actors and subjects.
    tables: {
      auditEvents: [
        { actions: ['Query'], keys: ['????-??'] },
        { actions: ['Query'], index: 'bySubject' },
        { actions: ['Query'], index: 'byActor' },
        { actions: ['Query'], index: 'byType' },
      ],
      profiles: [{ actions: ['BatchGetItem'] }],
    },
    cognitoActions: [],
    pageCursors: true,
  },
  {
    id: 'ListCoachClients',
    method: 'GET',
    path: '/v1/coach/clients',
    auth: 'coach',
    entry: 'lambdas/api/coach/list-clients.ts',
    tables: {
      // The caller's clients found through byCoach, then their states read consistently (the index lags)
      // and checked again, each still naming the caller, in the transactions that record the read.
      coaching: [
        { actions: ['Query'], index: 'byCoach' },
        { actions: ['BatchGetItem', 'ConditionCheckItem'], keys: ['client#*'] },
      ],
      profiles: [{ actions: ['BatchGetItem'] }],
      // The read's events commit only while the coach's session still passes the session check.
      accounts: [{ actions: ['ConditionCheckItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
  },
  {
    id: 'ListClientMeasurements',
    method: 'GET',
    path: '/v1/coach/clients/{userId}/measurements',
    auth: 'coach',
    entry: 'lambdas/api/coach/list-client-measurements.ts',
    // Whether the caller is this client's coach (read first; checked again, with the client's roles
    // and the coach's session, in the transaction that records the read: lambdas/common/coaching.ts).
    tables: {
      coaching: [{ actions: ['GetItem', 'ConditionCheckItem'], keys: ['client#*'] }],
      accounts: [{ actions: ['ConditionCheckItem'] }],
      healthRecords: [{ actions: ['Query'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
    pageCursors: true,
  },
  {
    id: 'ListClientLogs',
    method: 'GET',
    path: '/v1/coach/clients/{userId}/logs',
    auth: 'coach',
    entry: 'lambdas/api/coach/list-client-logs.ts',
    // As ListClientMeasurements'.
    tables: {
      coaching: [{ actions: ['GetItem', 'ConditionCheckItem'], keys: ['client#*'] }],
      accounts: [{ actions: ['ConditionCheckItem'] }],
      healthRecords: [{ actions: ['Query'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
    pageCursors: true,
  },
  {
    id: 'ListClientNotes',
    method: 'GET',
    path: '/v1/coach/clients/{userId}/notes',
    auth: 'coach',
    entry: 'lambdas/api/coach/list-client-notes.ts',
    // As ListClientMeasurements'.
    tables: {
      coaching: [
        { actions: ['GetItem', 'ConditionCheckItem'], keys: ['client#*'] },
        { actions: ['Query'], keys: ['notes#*'] },
      ],
      accounts: [{ actions: ['ConditionCheckItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
  },
  {
    id: 'CreateClientNote',
    method: 'POST',
    path: '/v1/coach/clients/{userId}/notes',
    auth: 'coach',
    entry: 'lambdas/api/coach/create-client-note.ts',
    tables: {
      // The coach's name for the note.
      profiles: [{ actions: ['BatchGetItem'] }],
      coaching: [
        // Checks the assignment; the transaction marks the last note only while it still holds.
        { actions: ['GetItem', 'UpdateItem'], keys: ['client#*'] },
        // The note and its idempotency key; sent again with the key, it reads both back (decision 061).
        { actions: ['PutItem', 'GetItem'], keys: ['notes#*'] },
      ],
      // The transaction commits only while the coach's session still passes the session check.
      accounts: [{ actions: ['ConditionCheckItem'] }],
      auditEvents: [{ actions: ['PutItem'] }],
    },
    cognitoActions: [],
  },
  {
    id: 'GetMyCoach',
    method: 'GET',
    path: '/v1/users/me/coach',
    auth: 'user',
    entry: 'lambdas/api/users/get-my-coach.ts',
    tables: {
      profiles: [{ actions: ['BatchGetItem'] }],
      coaching: [
        { actions: ['GetItem'], keys: ['client#*'] },
        { actions: ['Query'], keys: ['notes#*'] },
      ],
    },
    cognitoActions: [],
  },
  {
    id: 'ListMyActivity',
    method: 'GET',
    path: '/v1/users/me/activity',
    auth: 'user',
    entry: 'lambdas/api/users/list-my-activity.ts',
    // The caller's own events, through byActivity (and bySubject for events stored before it) only.
    tables: {
      auditEvents: [
        { actions: ['Query'], index: 'byActivity' },
        { actions: ['Query'], index: 'bySubject' },
      ],
    },
    cognitoActions: [],
  },
  ...PASSKEY_ROUTES(),
  ...LIFECYCLE_ROUTES(),
];

/**
 * The session check of the HTTP wrapper (`lambdas/common/session.ts`) reads the caller's account on
 * every authenticated request: each such function may GetItem on accounts, besides its own grants.
 */
const SESSION_CHECK: TableGrant = { actions: ['GetItem'] };

const withSessionCheck = (route: RouteDefinition): RouteDefinition =>
  route.auth === 'public'
    ? route
    : { ...route, tables: { ...route.tables, accounts: [SESSION_CHECK, ...(route.tables.accounts ?? [])] } };

export const ROUTES: readonly RouteDefinition[] = DEFINED_ROUTES.map(withSessionCheck);

/** The Cognito triggers: the three of the custom sign-in, and the one that shapes its tokens. */
export const TRIGGERS = {
  defineAuthChallenge: {
    id: 'DefineAuthChallenge',
    entry: 'lambdas/cognito/define-auth-challenge.ts',
    tables: {},
    cognitoActions: [],
  },
  createAuthChallenge: {
    id: 'CreateAuthChallenge',
    entry: 'lambdas/cognito/create-auth-challenge.ts',
    tables: {},
    cognitoActions: [],
  },
  verifyAuthChallengeResponse: {
    id: 'VerifyAuthChallengeResponse',
    entry: 'lambdas/cognito/verify-auth-challenge.ts',
    // Consumes the passkey proof; it can neither issue one nor touch any other item. Reads the
    // account the proof is for: a change after the proof was issued voids it.
    tables: {
      authChallenges: [{ actions: ['DeleteItem'], keys: ['proof#*'] }],
      accounts: [{ actions: ['GetItem'] }],
    },
    cognitoActions: [],
  },
  preTokenGeneration: {
    id: 'PreTokenGeneration',
    entry: 'lambdas/cognito/pre-token-generation.ts',
    // Only rewrites the event: no table, no Cognito call.
    tables: {},
    cognitoActions: [],
  },
} as const satisfies Record<string, FunctionDefinition>;

/** A function EventBridge runs on a schedule, with no request behind it. */
export interface ScheduledDefinition extends FunctionDefinition {
  /** How often it runs, in minutes. */
  readonly everyMinutes: number;
  /** Its timeout, in seconds (under the interval): work no request could finish in an API function's 10. */
  readonly timeoutSeconds: number;
}

/** The scheduled functions. */
export const SCHEDULED = {
  finishErases: {
    id: 'FinishErases',
    entry: 'lambdas/scheduled/finish-erases.ts',
    // The erase's own grants, and a Query of the disabled accounts to find the erases cut short.
    tables: {
      ...ERASE_TABLES,
      // What the erase itself does there: the disabling commit that ended the person's coaching ran in
      // the request.
      coaching: [
        { actions: ['Query'], keys: ['notes#*'] },
        { actions: ['BatchWriteItem'], keys: ['notes#*', 'client#*'] },
        // A client's unassignment, and its state read again when that was cancelled.
        { actions: ['GetItem', 'UpdateItem'], keys: ['client#*'] },
        { actions: ['Query', 'DeleteItem'], keys: ['coach#*'] },
        { actions: ['Query'], index: 'byCoach' },
      ],
      // The account read again and deleted last; the counts updated in the same transaction.
      accounts: [
        { actions: ['GetItem', 'DeleteItem'] },
        DIRECTORY_COUNTS,
        { actions: ['Query'], index: 'byStatus' },
      ],
    },
    cognitoActions: ERASE_COGNITO,
    everyMinutes: 5,
    // A large erase (tens of thousands of readings) at DynamoDB's pace; under the 5 minutes between
    // runs, which never overlap (one at a time, no retry: the next run is the retry).
    timeoutSeconds: 240,
  },
} as const satisfies Record<string, ScheduledDefinition>;

/** Every function of the manifest: the routes, the Cognito triggers and the scheduled functions. */
export const ALL_FUNCTIONS: readonly FunctionDefinition[] = [
  ...ROUTES,
  ...Object.values(TRIGGERS),
  ...Object.values(SCHEDULED),
];
