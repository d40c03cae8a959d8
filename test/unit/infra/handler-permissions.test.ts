/**
 * The roles the stack builds from the manifest, checked against what the handlers really do: every
 * handler of `lambdas/routes.ts` runs (through its manifest entry) against fake AWS clients that record
 * each DynamoDB and Cognito call, and each call is evaluated against the IAM statements of that
 * function's role in the synthesized template. Every call must be allowed (a handler that starts a new
 * call fails here, not with AccessDenied in AWS), and every DynamoDB permission must be used by some
 * call (nothing is granted that no code needs). Local mode enforces no IAM, so only this test sees it.
 * Each handler also runs with only the environment variables its function has in the template.
 * KMS is not modelled: handlers never call it, DynamoDB does on their behalf (health-records-stack.test.ts
 * and coaching-audit-stack.test.ts check those grants).
 */
import { SIGNIN_IP_STARTS } from '../../../shared/limits';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  AdminListGroupsForUserCommand,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type * as WebAuthnServer from '@simplewebauthn/server';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../../../infra/constructs/app-function';
import { ROUTES, type FunctionDefinition, ALL_FUNCTIONS } from '../../../lambdas/routes';
import { ROLE_GROUPS, type RoleGroup } from '../../../shared/constants';
import { TABLE_KEYS, TABLES, type TableDefinition, type TableKey } from '../../../shared/tables';
import { apiEvent, type EventInput } from '../../fixtures/api-events';
import {
  globMatches,
  isAllowed,
  logicalIdOf,
  resourcesOf,
  statementsOfRole,
  synthPlatform,
  type Synthesized,
} from './platform-template';

/** What the fake clients answer; replaced by each scenario. */
const fake = vi.hoisted(() => ({
  ddb: (_command: unknown): unknown => ({}),
  cognito: (_command: unknown): unknown => ({}),
}));

vi.mock('../../../lambdas/common/aws', () => ({
  ddb: { send: (command: unknown) => Promise.resolve().then(() => fake.ddb(command)) },
  cognito: { send: (command: unknown) => Promise.resolve().then(() => fake.cognito(command)) },
}));

// The ceremonies pass: what is checked here is which items the handlers then touch.
vi.mock('@simplewebauthn/server', async (importOriginal) => ({
  ...(await importOriginal<typeof WebAuthnServer>()),
  verifyRegistrationResponse: () =>
    Promise.resolve({
      verified: true,
      registrationInfo: {
        userVerified: true,
        credential: {
          id: 'credential-1',
          publicKey: new Uint8Array([1, 2, 3]),
          counter: 0,
          transports: ['internal', 'hybrid'],
        },
        credentialDeviceType: 'multiDevice',
        credentialBackedUp: true,
        // The all-zero AAGUID most synced authenticators send with `none` attestation.
        aaguid: '00000000-0000-0000-0000-000000000000',
        fmt: 'none',
      },
    }),
  verifyAuthenticationResponse: () =>
    Promise.resolve({
      verified: true,
      authenticationInfo: {
        userVerified: true,
        newCounter: 1,
        credentialDeviceType: 'multiDevice',
        credentialBackedUp: true,
      },
    }),
}));

// ------------------------------------------------------------------ recording

/** One DynamoDB permission check a call needs: a transaction or a batch needs one per item or table. */
interface DynamoCall {
  readonly action: string;
  readonly table: TableKey;
  /** The index a Query or Scan reads: IAM then checks the action on `<table ARN>/index/<name>`. */
  readonly index?: string;
  readonly keys: readonly string[];
}

const tableNameOf = (key: TableKey) => `test-${TABLES[key].id}`;
const tableOf = (name: unknown): TableKey => {
  const key = TABLE_KEYS.find((candidate) => tableNameOf(candidate) === name);
  if (!key) throw new Error(`Call on an unknown table: ${String(name)}`);
  return key;
};
const partitionKeyOf = (table: TableKey, item: Record<string, unknown> | undefined): string =>
  String(item?.[TABLES[table].partitionKey.name]);

type Item = Record<string, unknown>;
interface TransactItem {
  readonly Put?: { TableName: string; Item: Item };
  readonly Update?: { TableName: string; Key: Item };
  readonly Delete?: { TableName: string; Key: Item };
  readonly ConditionCheck?: { TableName: string; Key: Item };
}

/**
 * The partition a Query reads: the value its key condition gives the partition key (the index's own on
 * an index), which is what IAM compares with `dynamodb:LeadingKeys`.
 */
const queriedPartition = (table: TableKey, input: QueryCommand['input']): string => {
  const definition: TableDefinition = TABLES[table];
  const index = input.IndexName
    ? definition.globalSecondaryIndexes?.find((candidate) => candidate.indexName === input.IndexName)
    : undefined;
  if (input.IndexName && !index) throw new Error(`Query on an unknown index: ${input.IndexName}`);
  const partitionKey = (index ?? definition).partitionKey.name;
  for (const condition of (input.KeyConditionExpression ?? '').split(/\s+AND\s+/i)) {
    const match = /^\s*([#\w]+)\s*=\s*(:\w+)\s*$/.exec(condition);
    if (!match?.[1] || !match[2]) continue;
    const name = match[1].startsWith('#') ? input.ExpressionAttributeNames?.[match[1]] : match[1];
    if (name === partitionKey) return String(input.ExpressionAttributeValues?.[match[2]]);
  }
  throw new Error(`Query without an equality on ${partitionKey}: ${input.KeyConditionExpression}`);
};

const single = (action: string, tableName: unknown, item: Item | undefined): DynamoCall => {
  const table = tableOf(tableName);
  return { action, table, keys: [partitionKeyOf(table, item)] };
};

/** The permission checks IAM makes for one DynamoDB document-client command. */
const dynamoCallsOf = (command: unknown): DynamoCall[] => {
  if (command instanceof GetCommand) return [single('GetItem', command.input.TableName, command.input.Key)];
  if (command instanceof PutCommand) return [single('PutItem', command.input.TableName, command.input.Item)];
  if (command instanceof UpdateCommand)
    return [single('UpdateItem', command.input.TableName, command.input.Key)];
  if (command instanceof DeleteCommand)
    return [single('DeleteItem', command.input.TableName, command.input.Key)];
  if (command instanceof ScanCommand) {
    const index = command.input.IndexName;
    return [{ action: 'Scan', table: tableOf(command.input.TableName), ...(index && { index }), keys: [] }];
  }
  if (command instanceof QueryCommand) {
    const table = tableOf(command.input.TableName);
    const index = command.input.IndexName;
    return [
      { action: 'Query', table, ...(index && { index }), keys: [queriedPartition(table, command.input)] },
    ];
  }
  if (command instanceof BatchGetCommand) {
    return Object.entries(command.input.RequestItems ?? {}).map(([name, request]) => {
      const table = tableOf(name);
      return {
        action: 'BatchGetItem',
        table,
        keys: (request.Keys ?? []).map((key) => partitionKeyOf(table, key)),
      };
    });
  }
  if (command instanceof BatchWriteCommand) {
    // Like BatchGetItem, one check per table with the leading key of every put and delete in it:
    // `ForAllValues` then needs every one of them to match one statement.
    return Object.entries(command.input.RequestItems ?? {}).map(([name, requests]) => {
      const table = tableOf(name);
      return {
        action: 'BatchWriteItem',
        table,
        keys: requests.map((request) =>
          partitionKeyOf(table, request.DeleteRequest?.Key ?? request.PutRequest?.Item),
        ),
      };
    });
  }
  if (command instanceof TransactWriteCommand) {
    // Each item needs the permission of the single-item action (DynamoDB developer guide,
    // "Using IAM with DynamoDB transactions"); the transaction needs none of its own.
    return ((command.input.TransactItems ?? []) as TransactItem[]).map((item) => {
      if (item.Put) return single('PutItem', item.Put.TableName, item.Put.Item);
      if (item.Update) return single('UpdateItem', item.Update.TableName, item.Update.Key);
      if (item.Delete) return single('DeleteItem', item.Delete.TableName, item.Delete.Key);
      if (item.ConditionCheck)
        return single('ConditionCheckItem', item.ConditionCheck.TableName, item.ConditionCheck.Key);
      throw new Error(`Unknown transaction item: ${JSON.stringify(item)}`);
    });
  }
  throw new Error(
    `A handler sent ${(command as object).constructor.name}, which this test does not know yet: map it to its IAM actions above.`,
  );
};

/** The Cognito action of a command: `ListUsersCommand` needs `cognito-idp:ListUsers`. */
const cognitoActionOf = (command: unknown): string =>
  (command as object).constructor.name.replace(/Command$/, '');

const recorded = new Map<string, { dynamo: DynamoCall[]; cognito: string[] }>();

// ------------------------------------------------------------------ scenarios

const NOW = () => Math.floor(Date.now() / 1000);
const EMAIL = 'invitee@example.com';
const CODE = 'ABCDEFGHJKMNPQRS';
const USERNAME = '6b1c1f0e-2f6a-4a51-9d07-3c2b0f7e9a10';
const USER_ID = '0d3c6c5e-9a6b-4e1f-8f43-6f5f1b2a7c90';
const CLIENT_ID = 'app-client-id';
const DAY_MS = 24 * 60 * 60 * 1000;
/** The admin who created the scenarios' invitation (an active admin: the invitation still works). */
const ISSUER_ID = '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d';
/** An invitation created yesterday by an admin: pending, its code good for six more days. */
const invitation = (overrides: Item = {}): Item => ({
  email: EMAIL,
  activationCode: CODE,
  codeUsed: false,
  roles: ['users'],
  createdBy: ISSUER_ID,
  createdAt: new Date(Date.now() - DAY_MS).toISOString(),
  expiresAt: new Date(Date.now() + 6 * DAY_MS).toISOString(),
  cognitoUsername: USERNAME,
  ...overrides,
});
const profile: Item = {
  userId: USER_ID,
  email: EMAIL,
  name: 'Sam Doe',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
/** The caller signed in a minute ago (within the 10 minutes passkey management asks for). */
const SIGNED_IN_AT = NOW() - 60;
/** `iat` as API Gateway's Cognito authorizer delivers it: `Fri Jul 29 17:52:53 UTC 2016`. */
const authorizerDate = (epochSeconds: number): string => {
  const [weekday = '', day, month, year, time] = new Date(epochSeconds * 1000).toUTCString().split(' ');
  return `${weekday.slice(0, 3)} ${month} ${day} ${time} UTC ${year}`;
};
const ORIGIN_JTI = 'c3b1f0a4-2d8e-4f57-9a0b-6e1d2c3b4a59';
/** The id token's claims as API Gateway hands them over: strings only, a list of groups as `[a b]`. */
const claims = (...groups: RoleGroup[]) => ({
  token_use: 'id',
  aud: CLIENT_ID,
  sub: USER_ID,
  'cognito:username': USERNAME,
  email: EMAIL,
  'cognito:groups': groups.length === 1 ? groups.join() : `[${groups.join(' ')}]`,
  iat: authorizerDate(SIGNED_IN_AT),
  auth_time: String(SIGNED_IN_AT),
  origin_jti: ORIGIN_JTI,
  exp: authorizerDate(Math.floor(Date.now() / 1000) + 900),
});
/** The roles a `cognito:groups` claim names, in the order of ROLE_GROUPS (as accounts store them). */
const rolesOfClaim = (claim: string | undefined): RoleGroup[] => {
  const named = (claim ?? '').replace(/^\[|\]$/g, '').split(/[\s,]+/);
  return ROLE_GROUPS.filter((role) => named.includes(role));
};

/** The WebAuthn user handle of the caller's account: 32 random bytes, base64url. */
const USER_HANDLE = 'q3JmT0d5b1p4UnZ3Y2t0aGVfdXNlcl9oYW5kbGVfMDE';
/** The caller's two passkeys; the ceremony mock makes `credential-1`, a new one. */
const PHONE_PASSKEY = 'credential-phone';
const LAPTOP_PASSKEY = 'credential-laptop';
/**
 * An account item as `lambdas/common/repositories/accounts.ts` stores it: by default the caller's,
 * active, never reset (`tokensValidAfter` 0), with two passkeys.
 */
const accountItem = (overrides: Item = {}): Item => ({
  userId: USER_ID,
  email: EMAIL,
  cognitoUsername: USERNAME,
  userHandle: USER_HANDLE,
  roles: ['users'],
  status: 'active',
  tokensValidAfter: 0,
  credentialIds: new Set([PHONE_PASSKEY, LAPTOP_PASSKEY]),
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-02T00:00:00.000Z',
  ...overrides,
});
const issuerAccount = accountItem({ userId: ISSUER_ID, email: 'issuer@example.com', roles: ['admins'] });
/** Only the attributes a read's `ProjectionExpression` names, as DynamoDB answers it. */
const projected = (
  item: Item,
  input: { ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> },
): Item => {
  if (!input.ProjectionExpression) return item;
  const names = input.ProjectionExpression.split(',')
    .map((name) => name.trim())
    .map((name) => (name.startsWith('#') ? (input.ExpressionAttributeNames?.[name] ?? name) : name));
  return Object.fromEntries(Object.entries(item).filter(([name]) => names.includes(name)));
};
/** Answers a GetItem with `item`, projected as the command asks. */
const found = (item: Item, command: unknown): unknown => ({
  Item: projected(item, (command as GetCommand).input),
});
/** A passkey item as `lambdas/common/repositories/passkeys.ts` stores it. */
const passkeyItem = (credentialId: string, overrides: Item = {}): Item => ({
  credentialId,
  userId: USER_ID,
  cognitoUsername: USERNAME,
  userHandle: USER_HANDLE,
  publicKey: new Uint8Array([1, 2, 3]),
  counter: 0,
  transports: ['internal', 'hybrid'],
  deviceType: 'multiDevice',
  backedUp: true,
  aaguid: '00000000-0000-0000-0000-000000000000',
  createdAt: '2025-01-02T00:00:00.000Z',
  ...overrides,
});
const registrationResponse = {
  id: 'credential-1',
  rawId: 'credential-1',
  response: { clientDataJSON: 'e30', attestationObject: 'o2Nm' },
  clientExtensionResults: {},
  type: 'public-key',
};
const authenticationResponse = {
  id: 'credential-1',
  rawId: 'credential-1',
  response: { authenticatorData: 'AAAA', clientDataJSON: 'e30', signature: 'AAAA', userHandle: USER_HANDLE },
  clientExtensionResults: {},
  type: 'public-key',
};

/**
 * An abuse-limit counter answers the first attempt, unless the scenario says otherwise: of a new
 * window (a source IP's), or alone in the sliding log (an email's, which adds its own `:token`).
 */
const firstAttemptOfWindow = (call: DynamoCall, command: unknown) => {
  if (!(on('UpdateItem', 'authChallenges', call) && call.keys[0]?.startsWith('limit#'))) return undefined;
  const values = (command as UpdateCommand).input.ExpressionAttributeValues ?? {};
  return values[':token'] instanceof Set
    ? { Attributes: { attemptLog: values[':token'] } }
    : { Attributes: { attempts: 1, windowEndsAt: Date.now() + 60_000 } };
};

/** Answers one DynamoDB call of a scenario (after it was recorded); `{}` when it returns undefined. */
type DynamoResponder = (call: DynamoCall, command: unknown) => unknown;

interface Scenario {
  readonly name: string;
  /** An API Gateway event (routes) or the raw trigger event (Cognito triggers). */
  readonly event: EventInput | Record<string, unknown>;
  /** The query string of a route's event. */
  readonly query?: Record<string, string>;
  readonly ddb?: DynamoResponder;
  readonly cognito?: (action: string, command: unknown) => unknown;
  /** What the handler must answer, so the test knows the whole path ran. */
  readonly expectResult: (result: unknown) => void;
}

const status = (code: number) => (result: unknown) =>
  expect((result as APIGatewayProxyResult).statusCode, (result as APIGatewayProxyResult).body).toBe(code);
const on = (action: string, table: TableKey, call: DynamoCall) =>
  call.action === action && call.table === table;

const RECORD_ID = '3f9a2b1c-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const TAKEN_AT = '2025-01-01T08:00:00.000Z';
const measurement: Item = {
  measurementId: RECORD_ID,
  userId: USER_ID,
  type: 'weight',
  value: 80,
  unit: 'kg',
  enteredUnit: 'kg',
  takenAt: TAKEN_AT,
  createdAt: TAKEN_AT,
};
const meal: Item = {
  logId: RECORD_ID,
  userId: USER_ID,
  kind: 'meal',
  description: 'Oats',
  eatenAt: TAKEN_AT,
  createdAt: TAKEN_AT,
};
/** A stored health record: the item with the keys `TABLES.healthRecords` describes. */
const stored = (item: Item, partition: string, owner: string): Item => ({
  ...item,
  pk: partition,
  sk: `${TAKEN_AT}#${RECORD_ID}`,
  owner,
});
/** The caller's reference to a record, which a delete by id reads first. */
const reference = (category: 'M' | 'L', partition: string): Item => ({
  pk: `${USER_ID}#R`,
  sk: RECORD_ID,
  category,
  targetPk: partition,
  targetSk: `${TAKEN_AT}#${RECORD_ID}`,
});
/**
 * Answers a Query with `item` stored in the queried partition and, on a first page, the key of the next
 * one, so the handler signs a page cursor (and the export reads its second page through that cursor).
 */
const onePage =
  (item: Item): DynamoResponder =>
  (call, command) => {
    if (call.action !== 'Query') return undefined;
    const [partition = ''] = call.keys;
    // On byOwner the partition is `{userId}#M`; on the table, `{userId}#M#{type}`.
    const row = call.index
      ? stored(item, `${partition}#${String(item.type ?? item.kind)}`, partition)
      : stored(item, partition, partition.slice(0, partition.lastIndexOf('#')));
    const last = call.index ? { owner: row.owner, pk: row.pk, sk: row.sk } : { pk: row.pk, sk: row.sk };
    const firstPage = !(command as QueryCommand).input.ExclusiveStartKey;
    return { Items: [row], ...(firstPage && { LastEvaluatedKey: last }) };
  };
const pageWithCursor = (result: unknown) => {
  status(200)(result);
  const page = JSON.parse((result as APIGatewayProxyResult).body) as {
    items: unknown[];
    nextCursor?: unknown;
  };
  expect([page.items.length, typeof page.nextCursor]).toEqual([1, 'string']);
};

/** Today's UTC day: a reading outside target taken today is in the coaching summary's window. */
const TODAY = new Date().toISOString().slice(0, 10);

// The coaching scenarios: the caller (USER_ID) is an admin, or the coach of CLIENT_USER_ID.
const CLIENT_USER_ID = '5a7e2c1d-8b3f-4c6a-9d2e-1f0b3a4c5d6e';
const OTHER_COACH_ID = '9c4b3a2d-1e0f-4a5b-8c7d-6e5f4a3b2c1d';
const NOTE_ID = '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918';
/** A client's coaching state item, assigned to the caller, with a reading outside target today. */
const clientState = (overrides: Item = {}): Item => ({
  pk: `client#${CLIENT_USER_ID}`,
  sk: 'state',
  clientId: CLIENT_USER_ID,
  coachId: USER_ID,
  assignedAt: TAKEN_AT,
  lastEntryAt: TAKEN_AT,
  lastOutOfTargetAt: TAKEN_AT,
  [`oot_${TODAY}`]: 1,
  ...overrides,
});
/** A note as stored in the client's notes partition. */
const storedNote: Item = {
  pk: `notes#${CLIENT_USER_ID}`,
  sk: `${TAKEN_AT}#${NOTE_ID}`,
  noteId: NOTE_ID,
  clientId: CLIENT_USER_ID,
  authorId: USER_ID,
  text: 'Well done this week.',
  createdAt: TAKEN_AT,
};
/** Answers a BatchGetItem on profiles with a profile for every user id asked for. */
const profilesOf = (call: DynamoCall): unknown => ({
  Responses: { [tableNameOf(call.table)]: call.keys.map((userId) => ({ ...profile, userId })) },
});
/** The groups of the people Cognito knows in the coaching scenarios; anyone else is nobody. */
const POOL_GROUPS: Record<string, string[]> = {
  [CLIENT_USER_ID]: ['users'],
  [OTHER_COACH_ID]: ['coaches'],
  [USER_ID]: ['admins', 'coaches'],
};
/** Cognito as `findPoolMember` asks it: the user whose `sub` the filter names, then their groups. */
const poolMembers = (action: string, command: unknown): unknown => {
  if (action === 'ListUsers') {
    const sub = /^sub = "([^"]+)"$/.exec((command as ListUsersCommand).input.Filter ?? '')?.[1] ?? '';
    const known = POOL_GROUPS[sub] !== undefined;
    return { Users: known ? [{ Username: `user-${sub}`, Attributes: [{ Name: 'sub', Value: sub }] }] : [] };
  }
  if (action === 'AdminListGroupsForUser') {
    const sub = ((command as AdminListGroupsForUserCommand).input.Username ?? '').replace(/^user-/, '');
    return { Groups: (POOL_GROUPS[sub] ?? []).map((GroupName) => ({ GroupName })) };
  }
  return {};
};
const cancelled = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
  });
/**
 * A note's transaction (the author's session check, the state update, the note, the key, the event)
 * cancelled by the conditions of the items `failed` names.
 */
const noteCancelled =
  (...failed: ('session' | 'state' | 'note' | 'key')[]) =>
  () =>
    new TransactionCanceledException({
      message: 'Transaction cancelled',
      $metadata: {},
      CancellationReasons: (['session', 'state', 'note', 'key', 'event'] as const).map((item) => ({
        Code: (failed as string[]).includes(item) ? 'ConditionalCheckFailed' : 'None',
      })),
    });
/** Cancelled on its idempotency key. */
const keyUsed = noteCancelled('key');
/** The same, when the assignment has ended too: the coach check wins, nothing is read back. */
const keyUsedByAFormerCoach = noteCancelled('state', 'key');
/** A health record's transaction cancelled because the record is there already (an idempotent create sent again). */
const recordExists = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
  });
/** The stored record of an idempotent create sent again: its reference, then the record. */
const storedRecord =
  (category: 'M' | 'L', item: Item) =>
  (call: DynamoCall): unknown => {
    // The create's transaction (its first item is the account check, which is what a responder sees).
    if (on('ConditionCheckItem', 'accounts', call)) throw recordExists();
    if (on('GetItem', 'healthRecords', call))
      return call.keys[0]?.endsWith('#R')
        ? { Item: { category, targetPk: 'record-pk', targetSk: 'record-sk' } }
        : { Item: item };
    return undefined;
  };

const AUDIT_EVENT_ID = '2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901';
const auditEvent: Item = {
  eventId: AUDIT_EVENT_ID,
  at: TAKEN_AT,
  type: 'signin.succeeded',
  actorId: USER_ID,
  subjectId: USER_ID,
  outcome: 'success',
  ip: '203.0.113.7',
  userAgent: 'test',
  details: { credentialId: 'credential-1' },
};
/**
 * Answers a Query of the audit log with one stored event of the queried partition (a month of the
 * table, or the index's subject, actor or type) and, on a first page, the key of the next one.
 */
const auditPage: DynamoResponder = (call, command) => {
  if (!on('Query', 'auditEvents', call)) return undefined;
  const [partition = ''] = call.keys;
  const row = { ...auditEvent, pk: TAKEN_AT.slice(0, 7), sk: `${TAKEN_AT}#${AUDIT_EVENT_ID}`, expiresAt: 1 };
  const index = TABLES.auditEvents.globalSecondaryIndexes.find(
    (candidate) => candidate.indexName === call.index,
  );
  const last = index
    ? { [index.partitionKey.name]: partition, pk: row.pk, sk: row.sk }
    : { pk: partition, sk: row.sk };
  const firstPage = !(command as QueryCommand).input.ExclusiveStartKey;
  return { Items: [row], ...(firstPage && { LastEvaluatedKey: last }) };
};
const auditPageWithCursor = (result: unknown) => {
  status(200)(result);
  const page = JSON.parse((result as APIGatewayProxyResult).body) as {
    events: unknown[];
    nextCursor?: unknown;
  };
  expect([page.events.length, typeof page.nextCursor]).toEqual([1, 'string']);
};
/** The length of one list in a 2xx answer's body. */
const answered =
  (code: number, list: string, length: number) =>
  (result: unknown): void => {
    status(code)(result);
    const body = JSON.parse((result as APIGatewayProxyResult).body) as Record<string, unknown[]>;
    expect(body[list]?.length, list).toBe(length);
  };
const coachClaims = claims('coaches');
const clientPath = { userId: CLIENT_USER_ID };
/** The body of a 2xx answer. */
const bodyOf = (result: unknown): Record<string, unknown> =>
  JSON.parse((result as APIGatewayProxyResult).body) as Record<string, unknown>;

// The activation and recovery scenarios.
const ADMIN_ID = '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968';
/** A recovery code an admin issued for the caller's email (SPEC-2 section 3.2). */
const RECOVERY_CODE = 'RSTUVWXY23456789';
/** The caller's invitation, long since activated: its code no longer opens anything. */
const activatedInvitation = invitation({ codeUsed: true, usedAt: TAKEN_AT, usedBy: USER_ID });
const recoveryGrant: Item = {
  pk: `recovery#${EMAIL}`,
  kind: 'recovery',
  email: EMAIL,
  activationCode: RECOVERY_CODE,
  userId: USER_ID,
  issuedBy: ADMIN_ID,
  expiresAt: NOW() + 3600,
};
/** The challenge verify-activation stored for this email, for an invitation or a recovery. */
const registrationChallenge = (purpose: 'invitation' | 'recovery'): Item => ({
  pk: `registration#${EMAIL}`,
  kind: 'registration',
  purpose,
  email: EMAIL,
  challenge: 'challenge-1',
  cognitoUsername: USERNAME,
  userId: USER_ID,
  userHandle: USER_HANDLE,
  expiresAt: NOW() + 300,
});
const validActivation = (result: unknown) => {
  status(200)(result);
  expect(bodyOf(result)).toMatchObject({ valid: true, cognitoUsername: USERNAME });
};
/** A passkey proof for the caller's Cognito user, which the SPA then redeems. */
const signsIn = (result: unknown) => {
  status(200)(result);
  expect(bodyOf(result)).toMatchObject({ userId: USER_ID, cognitoUsername: USERNAME });
  expect(bodyOf(result).passkeyProof).toEqual(expect.any(String));
};

// The lifecycle scenarios: an admin (the caller) acts on CLIENT_USER_ID or OTHER_COACH_ID.
const clientAccount = (overrides: Item = {}): Item =>
  accountItem({
    userId: CLIENT_USER_ID,
    email: 'client@example.com',
    cognitoUsername: `user-${CLIENT_USER_ID}`,
    userHandle: 'Y2xpZW50LWhhbmRsZS0wMDAwMDAwMDAwMDAwMDAwMDA',
    credentialIds: new Set(['credential-client']),
    ...overrides,
  });
const coachAccount = accountItem({
  userId: OTHER_COACH_ID,
  email: 'coach@example.com',
  cognitoUsername: `user-${OTHER_COACH_ID}`,
  userHandle: 'Y29hY2gtaGFuZGxlLTAwMDAwMDAwMDAwMDAwMDAwMDA',
  roles: ['coaches'],
  credentialIds: new Set(['credential-coach']),
});
/** Answers the GetItem of one of these accounts (projected as asked); anyone else has none. */
const accounts =
  (...items: Item[]): DynamoResponder =>
  (call, command) => {
    const item =
      on('GetItem', 'accounts', call) && items.find((candidate) => candidate.userId === call.keys[0]);
    return item ? found(item, command) : undefined;
  };
/**
 * What erasing `userId` finds: a passkey through byUser, a measurement and a log through byOwner with
 * their references in the person's own partition, the notes to them, and the clients they coach.
 * Queries of the erase ask for keys only; each item carries at least those.
 */
const erasable =
  (userId: string, held: { notes?: Item[]; clients?: string[] } = {}): DynamoResponder =>
  (call) => {
    if (on('Query', 'passkeys', call)) return { Items: [{ credentialId: `credential-of-${userId}` }] };
    if (on('Query', 'healthRecords', call)) {
      const [partition = ''] = call.keys;
      if (call.index) {
        const kind = partition.endsWith('#M') ? 'weight' : 'meal';
        return { Items: [{ pk: `${partition}#${kind}`, sk: `${TAKEN_AT}#${RECORD_ID}` }] };
      }
      return { Items: [{ pk: partition, sk: RECORD_ID }] };
    }
    if (on('Query', 'coaching', call)) {
      if (call.index) return { Items: (held.clients ?? []).map((clientId) => ({ clientId })) };
      return { Items: (held.notes ?? []).map(({ pk, sk }) => ({ pk, sk })) };
    }
    return undefined;
  };
/** Tries `responders` in order: the first answer wins. */
const firstAnswer =
  (...responders: DynamoResponder[]): DynamoResponder =>
  (call, command) => {
    for (const responder of responders) {
      const answer = responder(call, command);
      if (answer !== undefined) return answer;
    }
    return undefined;
  };

/**
 * FinishErases finding a coach of one client whose erase was cut short (disabled and marked `erasing`),
 * with what `first` answers before anything else.
 */
const erasingCoach = (first: DynamoResponder = () => undefined): DynamoResponder =>
  firstAnswer(
    (call) =>
      on('Query', 'accounts', call) && call.index === 'byStatus'
        ? { Items: [{ userId: OTHER_COACH_ID }] }
        : undefined,
    first,
    accounts({
      ...coachAccount,
      status: 'disabled',
      disabledAt: 1_700_000_000_000,
      erasing: { at: 1_700_000_000_000, by: ISSUER_ID },
    }),
    erasable(OTHER_COACH_ID, { clients: [CLIENT_USER_ID] }),
  );

/**
 * A coach's note sent again with its Idempotency-Key, the transaction cancelled as `cancellation`
 * says; the key and the note the first try stored are there to be read back.
 */
const noteSentAgain = (
  name: string,
  cancellation: () => TransactionCanceledException,
  answered: number,
): Scenario => ({
  name,
  event: {
    claims: coachClaims,
    pathParameters: clientPath,
    body: { text: 'Well done this week.' },
    headers: { 'Idempotency-Key': RECORD_ID },
  },
  ddb: firstAnswer(accounts(clientAccount()), (call, command) => {
    if (on('BatchGetItem', 'profiles', call)) return profilesOf(call);
    // The transaction, whose first item is the coach's session check.
    if (on('ConditionCheckItem', 'accounts', call)) throw cancellation();
    if (!on('GetItem', 'coaching', call)) return undefined;
    const { sk } = (command as GetCommand).input.Key as { sk: string };
    if (sk === 'state') return { Item: clientState() };
    return sk.startsWith('key#') ? { Item: { noteSk: storedNote.sk } } : { Item: storedNote };
  }),
  expectResult: status(answered),
});

/** A coach's note whose transaction (its first item the coach's session check) `failed` on one item. */
const noteRefused = (name: string, failed: 'session' | 'state', answered: number): Scenario => ({
  name,
  event: { claims: coachClaims, pathParameters: clientPath, body: { text: 'Well done this week.' } },
  ddb: firstAnswer(accounts(clientAccount()), (call) => {
    if (on('GetItem', 'coaching', call)) return { Item: clientState() };
    if (on('BatchGetItem', 'profiles', call)) return profilesOf(call);
    if (on('ConditionCheckItem', 'accounts', call)) throw noteCancelled(failed)();
    return undefined;
  }),
  expectResult: status(answered),
});

const SCENARIOS: Record<string, readonly Scenario[]> = {
  VerifyActivation: [
    {
      name: 'a valid code prepares the registration',
      event: { body: { email: EMAIL, activationCode: 'ABCD-EFGH-JKMN-PQRS' } },
      ddb: (call, command) => {
        if (on('GetItem', 'invitations', call)) return { Item: invitation({ cognitoUsername: undefined }) };
        if (on('GetItem', 'accounts', call) && call.keys[0] === ISSUER_ID)
          return found(issuerAccount, command);
        if (on('UpdateItem', 'invitations', call)) return { Attributes: invitation() };
        return undefined;
      },
      cognito: (action) =>
        action === 'AdminCreateUser' ? { User: { Attributes: [{ Name: 'sub', Value: USER_ID }] } } : {},
      expectResult: validActivation,
    },
    {
      name: 'a wrong code is refused and recorded',
      event: { body: { email: EMAIL, activationCode: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ' } },
      ddb: (call) => (on('GetItem', 'invitations', call) ? { Item: invitation() } : undefined),
      expectResult: (result) => {
        status(200)(result);
        expect(bodyOf(result)).toEqual({ valid: false });
      },
    },
    {
      name: 'a recovery code of an activated person prepares a registration for their account',
      event: { body: { email: EMAIL, activationCode: RECOVERY_CODE } },
      ddb: (call, command) => {
        if (on('GetItem', 'invitations', call)) return { Item: activatedInvitation };
        if (on('GetItem', 'authChallenges', call) && call.keys[0] === `recovery#${EMAIL}`)
          return { Item: recoveryGrant };
        if (on('GetItem', 'accounts', call) && call.keys[0] === USER_ID) return found(accountItem(), command);
        // The admin who issued the code, still an active admin.
        if (on('GetItem', 'accounts', call) && call.keys[0] === ADMIN_ID)
          return found(
            accountItem({ userId: ADMIN_ID, email: 'admin@example.com', roles: ['admins'] }),
            command,
          );
        return undefined;
      },
      expectResult: validActivation,
    },
  ],
  RegisterPasskey: [
    {
      name: 'a verified passkey is registered and signs in',
      event: {
        body: { email: EMAIL, activationCode: CODE, cognitoUsername: USERNAME, registrationResponse },
      },
      ddb: (call, command) => {
        if (on('GetItem', 'invitations', call)) return { Item: invitation() };
        if (on('GetItem', 'accounts', call) && call.keys[0] === ISSUER_ID)
          return found(issuerAccount, command);
        if (on('GetItem', 'authChallenges', call)) return { Item: registrationChallenge('invitation') };
        return undefined;
      },
      expectResult: signsIn,
    },
    {
      name: "a recovery code's passkey replaces the earlier ones of the account, which is signed out everywhere",
      event: {
        body: {
          email: EMAIL,
          activationCode: RECOVERY_CODE,
          cognitoUsername: USERNAME,
          registrationResponse,
        },
      },
      ddb: (call, command) => {
        // The person's invitation was activated long ago: no pending invitation has this code.
        if (on('GetItem', 'invitations', call)) return { Item: activatedInvitation };
        if (on('GetItem', 'authChallenges', call) && call.keys[0] === `recovery#${EMAIL}`)
          return { Item: recoveryGrant };
        if (on('GetItem', 'authChallenges', call) && call.keys[0] === `registration#${EMAIL}`)
          return { Item: registrationChallenge('recovery') };
        if (on('GetItem', 'accounts', call) && call.keys[0] === USER_ID) return found(accountItem(), command);
        return undefined;
      },
      expectResult: signsIn,
    },
  ],
  InitiateSignin: [
    { name: 'a sign-in session is stored', event: { body: {} }, expectResult: status(200) },
    {
      name: 'the first start over the limit of its address is refused and the lock recorded',
      event: { body: {} },
      ddb: (call) =>
        on('UpdateItem', 'authChallenges', call)
          ? { Attributes: { attempts: SIGNIN_IP_STARTS.limit + 1, windowEndsAt: Date.now() + 60_000 } }
          : undefined,
      expectResult: status(429),
    },
  ],
  VerifyWebauthn: [
    {
      name: 'a verified assertion of an active account spends the session and issues a proof',
      event: { body: { sessionId: 'session-1', authenticationResponse } },
      ddb: (call, command) => {
        if (on('DeleteItem', 'authChallenges', call))
          return { Attributes: { sessionId: 'session-1', challenge: 'challenge-1', expiresAt: NOW() + 300 } };
        if (on('GetItem', 'passkeys', call)) return { Item: passkeyItem('credential-1') };
        if (on('GetItem', 'accounts', call) && call.keys[0] === USER_ID) return found(accountItem(), command);
        return undefined;
      },
      expectResult: signsIn,
    },
    {
      name: 'a session id that names no live session spends a sign-in start of the address, and is recorded',
      event: { body: { sessionId: 'made-up', authenticationResponse } },
      expectResult: status(401),
    },
  ],
  GetMe: [
    {
      name: 'the caller reads their profile',
      event: { method: 'GET', claims: claims('users') },
      ddb: () => ({ Item: profile }),
      expectResult: status(200),
    },
  ],
  UpdateMe: [
    {
      name: 'the caller updates their profile, sending their email as onboarding does',
      event: { method: 'PUT', claims: claims('users'), body: { email: EMAIL, preferredName: 'Sam' } },
      ddb: (call) =>
        call.action === 'GetItem' ? { Item: profile } : { Attributes: { ...profile, preferredName: 'Sam' } },
      expectResult: status(200),
    },
  ],
  SignOut: [
    {
      name: 'the caller signs this session out (an earlier, outlived sign-out is dropped)',
      event: { claims: claims('users'), body: {} },
      ddb: (call) =>
        on('UpdateItem', 'accounts', call)
          ? { Attributes: { signedOutSessions: new Set([`${ORIGIN_JTI} 9999999999`, 'old-session 1']) } }
          : undefined,
      expectResult: status(204),
    },
    {
      name: 'the caller signs out everywhere',
      event: { claims: claims('users'), body: { everywhere: true } },
      expectResult: status(204),
    },
  ],
  ListInvitations: [
    ...(
      [
        ['every invitation, newest first: a Query of byCreated', {}],
        ['the pending ones: a Query of byState', { status: 'pending' }],
        ['an email prefix: a Query of byEmail', { q: 'invitee' }],
        ['pending, by email prefix: a Query of byStateEmail', { status: 'pending', q: 'invitee' }],
      ] as const
    ).map(([name, query]): Scenario => ({
      name,
      event: { method: 'GET', claims: claims('admins') },
      query,
      ddb: (call) => (on('Query', 'invitations', call) ? { Items: [invitation()] } : undefined),
      expectResult: status(200),
    })),
  ],
  CreateInvitation: [
    {
      name: 'an admin invites a new email',
      event: { claims: claims('admins'), body: { email: 'new@example.com', roles: ['coaches'] } },
      cognito: () => ({ Users: [] }),
      expectResult: status(201),
    },
    {
      name: 'the email belongs to a user an interrupted activation left (no profile)',
      event: { claims: claims('admins'), body: { email: EMAIL } },
      cognito: () => ({ Users: [{ Username: USERNAME, Attributes: [{ Name: 'sub', Value: USER_ID }] }] }),
      ddb: (call) => (call.action === 'BatchGetItem' ? { Responses: { [tableNameOf(call.table)]: [] } } : {}),
      expectResult: status(201),
    },
  ],
  DeleteInvitation: [
    {
      name: 'an admin deletes a pending invitation',
      event: { method: 'DELETE', claims: claims('admins'), pathParameters: { email: EMAIL } },
      ddb: (call) => (call.action === 'GetItem' ? { Item: invitation() } : { Attributes: invitation() }),
      expectResult: status(204),
    },
    {
      name: 'an activated invitation stays',
      event: { method: 'DELETE', claims: claims('admins'), pathParameters: { email: EMAIL } },
      ddb: (call) => {
        if (call.action === 'DeleteItem')
          throw new ConditionalCheckFailedException({
            message: 'The conditional request failed',
            $metadata: {},
          });
        return { Item: invitation({ codeUsed: true }) };
      },
      expectResult: status(409),
    },
  ],
  ListUsers: [
    ...(
      [
        ['every person, newest first: a Query of byCreated, the counts, names and coaches', {}],
        ['an email prefix: a Query of byEmail', { q: 'invitee' }],
        ['the disabled ones: a Query of byStatus', { status: 'disabled' }],
        ['the coaches (the coach picker): a Query of byCoachRole', { role: 'coaches' }],
      ] as const
    ).map(([name, query]): Scenario => ({
      name,
      event: { method: 'GET', claims: claims('admins') },
      query,
      ddb: (call) => {
        if (on('Query', 'accounts', call)) return { Items: [accountItem({ userId: USER_ID, email: EMAIL })] };
        if (call.action !== 'BatchGetItem') return undefined;
        const items = { profiles: [profile], accounts: [{ userId: 'directory#counts#3', people: 1 }] };
        return { Responses: { [tableNameOf(call.table)]: items[call.table as keyof typeof items] ?? [] } };
      },
      expectResult: status(200),
    })),
  ],
  CreateMeasurement: [
    {
      name: 'the caller logs a reading, stored with its reference in one transaction',
      event: { claims: claims('users'), body: { type: 'weight', value: 80, takenAt: TAKEN_AT } },
      expectResult: status(201),
    },
    {
      name: 'sent again with its Idempotency-Key, it answers the reading the first one stored',
      event: {
        claims: claims('users'),
        body: { type: 'weight', value: 80, takenAt: TAKEN_AT },
        headers: { 'Idempotency-Key': RECORD_ID },
      },
      ddb: (call) => storedRecord('M', measurement)(call),
      expectResult: status(201),
    },
  ],
  ListMeasurements: [
    {
      name: 'one type, read from its own partition of the table, with a cursor to the next page',
      event: { method: 'GET', claims: claims('users') },
      query: { type: 'weight' },
      ddb: onePage(measurement),
      expectResult: pageWithCursor,
    },
    {
      name: 'every type, read through the byOwner index, with a cursor to the next page',
      event: { method: 'GET', claims: claims('users') },
      query: { limit: '1' },
      ddb: onePage(measurement),
      expectResult: pageWithCursor,
    },
  ],
  DeleteMeasurement: [
    {
      name: "the caller's reference names the measurement; both are deleted in one transaction",
      event: { method: 'DELETE', claims: claims('users'), pathParameters: { measurementId: RECORD_ID } },
      ddb: (call) =>
        on('GetItem', 'healthRecords', call) ? { Item: reference('M', `${USER_ID}#M#weight`) } : undefined,
      expectResult: status(204),
    },
    {
      name: "a reading outside target taken today also leaves its day's coaching counter, in the same transaction",
      event: { method: 'DELETE', claims: claims('users'), pathParameters: { measurementId: RECORD_ID } },
      ddb: (call) =>
        on('GetItem', 'healthRecords', call)
          ? { Item: { ...reference('M', `${USER_ID}#M#glucose`), outOfTargetDay: TODAY } }
          : undefined,
      expectResult: status(204),
    },
  ],
  CreateLog: [
    {
      name: 'the caller logs a meal, stored with its reference in one transaction',
      event: { claims: claims('users'), body: { kind: 'meal', description: 'Oats', eatenAt: TAKEN_AT } },
      expectResult: status(201),
    },
    {
      name: 'sent again with its Idempotency-Key, it answers the log the first one stored',
      event: {
        claims: claims('users'),
        body: { kind: 'meal', description: 'Oats', eatenAt: TAKEN_AT },
        headers: { 'Idempotency-Key': RECORD_ID },
      },
      ddb: (call) => storedRecord('L', meal)(call),
      expectResult: status(201),
    },
  ],
  ListLogs: [
    {
      name: 'one kind, read from its own partition of the table, with a cursor to the next page',
      event: { method: 'GET', claims: claims('users') },
      query: { kind: 'meal' },
      ddb: onePage(meal),
      expectResult: pageWithCursor,
    },
    {
      name: 'every kind, read through the byOwner index, with a cursor to the next page',
      event: { method: 'GET', claims: claims('users') },
      ddb: onePage(meal),
      expectResult: pageWithCursor,
    },
  ],
  DeleteLog: [
    {
      name: "the caller's reference names the log; both are deleted in one transaction",
      event: { method: 'DELETE', claims: claims('users'), pathParameters: { logId: RECORD_ID } },
      ddb: (call) =>
        on('GetItem', 'healthRecords', call) ? { Item: reference('L', `${USER_ID}#L#meal`) } : undefined,
      expectResult: status(204),
    },
  ],
  ExportMe: [
    {
      name: 'the JSON export reads the profile, every measurement and log, page by page, the notes to the person, the account, its passkeys and the coach',
      event: { method: 'GET', claims: claims('users') },
      ddb: (call, command) => {
        if (on('GetItem', 'profiles', call)) return { Item: profile };
        if (on('GetItem', 'coaching', call))
          return {
            Item: clientState({ pk: `client#${USER_ID}`, clientId: USER_ID, coachId: OTHER_COACH_ID }),
          };
        if (on('Query', 'coaching', call))
          return {
            Items: [{ ...storedNote, pk: `notes#${USER_ID}`, clientId: USER_ID, authorId: OTHER_COACH_ID }],
          };
        if (on('BatchGetItem', 'profiles', call)) return profilesOf(call);
        if (on('BatchGetItem', 'passkeys', call)) {
          const request = (command as BatchGetCommand).input.RequestItems?.[tableNameOf('passkeys')];
          return {
            Responses: {
              [tableNameOf('passkeys')]: call.keys.map((id) => projected(passkeyItem(id), request ?? {})),
            },
          };
        }
        if (on('GetItem', 'accounts', call)) return undefined;
        return onePage(call.keys[0]?.endsWith('#M') ? measurement : meal)(call, command);
      },
      expectResult: (result) => {
        status(200)(result);
        const body = JSON.parse((result as APIGatewayProxyResult).body) as Record<string, unknown[]>;
        expect([body.measurements?.length, body.logs?.length, body.coachNotes?.length]).toEqual([2, 2, 1]);
        expect(body.passkeys).toHaveLength(2);
        expect(body).toMatchObject({ coach: { userId: OTHER_COACH_ID }, account: { status: 'active' } });
      },
    },
    {
      name: 'the FHIR export reads the profile and every measurement',
      event: { method: 'GET', claims: claims('users') },
      query: { format: 'fhir' },
      ddb: (call, command) =>
        on('GetItem', 'profiles', call) ? { Item: profile } : onePage(measurement)(call, command),
      expectResult: (result) => {
        status(200)(result);
        expect(JSON.parse((result as APIGatewayProxyResult).body)).toMatchObject({ resourceType: 'Bundle' });
      },
    },
  ],
  AssignCoach: [
    {
      name: 'an admin makes an activated coach the coach of an activated client, with its audit event in one transaction',
      event: {
        method: 'PUT',
        claims: claims('admins'),
        pathParameters: clientPath,
        body: { coachId: OTHER_COACH_ID },
      },
      cognito: poolMembers,
      ddb: (call) => (on('BatchGetItem', 'profiles', call) ? profilesOf(call) : undefined),
      expectResult: status(200),
    },
    {
      name: 'a reassignment read the previous coach; the first transaction finds the state changed, the roles are read again and the retry commits',
      event: {
        method: 'PUT',
        claims: claims('admins'),
        pathParameters: clientPath,
        body: { coachId: OTHER_COACH_ID },
      },
      cognito: poolMembers,
      ddb: (() => {
        let transactions = 0;
        return firstAnswer(accounts(clientAccount(), coachAccount), (call: DynamoCall) => {
          if (on('BatchGetItem', 'profiles', call)) return profilesOf(call);
          if (on('GetItem', 'coaching', call)) return { Item: clientState() };
          if (on('UpdateItem', 'coaching', call) && (transactions += 1) === 1) throw cancelled();
          return undefined;
        });
      })(),
      expectResult: status(200),
    },
  ],
  UnassignCoach: [
    {
      name: "an admin removes the client's coach, with its audit event in one transaction",
      event: { method: 'DELETE', claims: claims('admins'), pathParameters: clientPath },
      ddb: (call) => (on('GetItem', 'coaching', call) ? { Item: clientState() } : undefined),
      expectResult: status(204),
    },
    {
      name: 'a client without a coach: Cognito tells a person from nobody, and nothing is written',
      event: { method: 'DELETE', claims: claims('admins'), pathParameters: clientPath },
      cognito: poolMembers,
      expectResult: status(204),
    },
  ],
  ListAudit: [
    {
      name: 'every event, newest first: a Query of the month partitions of the table, with a cursor to the next page',
      event: { method: 'GET', claims: claims('admins') },
      ddb: auditPage,
      expectResult: auditPageWithCursor,
    },
    {
      name: 'one subject and a type: Queries of bySubject, read on past pages the filter thinned (five at most), with a cursor to the next page',
      event: { method: 'GET', claims: claims('admins') },
      query: { subjectId: CLIENT_USER_ID, type: 'client.data.read' },
      // Every page holds one event of the type and more to read.
      ddb: (call) => auditPage(call, new QueryCommand({ TableName: 'auditEvents' })),
      expectResult: (result) => {
        status(200)(result);
        const page = bodyOf(result) as { events: unknown[]; nextCursor?: unknown };
        expect([page.events.length, typeof page.nextCursor]).toEqual([5, 'string']);
      },
    },
    {
      name: 'one actor: a Query of byActor, with a cursor to the next page',
      event: { method: 'GET', claims: claims('admins') },
      query: { actorId: USER_ID },
      ddb: auditPage,
      expectResult: auditPageWithCursor,
    },
    {
      name: 'one type: a Query of byType, with a cursor to the next page',
      event: { method: 'GET', claims: claims('admins') },
      query: { type: 'signin.failed' },
      ddb: auditPage,
      expectResult: auditPageWithCursor,
    },
  ],
  ListCoachClients: [
    {
      name: "a coach lists their clients through byCoach, their states read consistently, with their profiles' names, and the read is recorded",
      event: { method: 'GET', claims: coachClaims },
      ddb: (call) => {
        if (on('Query', 'coaching', call)) return { Items: [{ clientId: CLIENT_USER_ID }] };
        if (on('BatchGetItem', 'coaching', call))
          return { Responses: { [tableNameOf('coaching')]: [clientState()] } };
        if (on('BatchGetItem', 'profiles', call)) return profilesOf(call);
        return undefined;
      },
      expectResult: answered(200, 'clients', 1),
    },
  ],
  ListClientMeasurements: [
    {
      name: "one type of the client's, from its partition of the table, with a cursor; the read is recorded",
      event: { method: 'GET', claims: coachClaims, pathParameters: clientPath },
      query: { type: 'weight' },
      ddb: firstAnswer(accounts(clientAccount()), (call, command) =>
        on('GetItem', 'coaching', call)
          ? { Item: clientState() }
          : onePage({ ...measurement, userId: CLIENT_USER_ID })(call, command),
      ),
      expectResult: pageWithCursor,
    },
    {
      name: "every type of the client's, through the byOwner index, with a cursor; the read is recorded",
      event: { method: 'GET', claims: coachClaims, pathParameters: clientPath },
      ddb: firstAnswer(accounts(clientAccount()), (call, command) =>
        on('GetItem', 'coaching', call)
          ? { Item: clientState() }
          : onePage({ ...measurement, userId: CLIENT_USER_ID })(call, command),
      ),
      expectResult: pageWithCursor,
    },
  ],
  ListClientLogs: [
    {
      name: "one kind of the client's, from its partition of the table, with a cursor; the read is recorded",
      event: { method: 'GET', claims: coachClaims, pathParameters: clientPath },
      query: { kind: 'meal' },
      ddb: firstAnswer(accounts(clientAccount()), (call, command) =>
        on('GetItem', 'coaching', call)
          ? { Item: clientState() }
          : onePage({ ...meal, userId: CLIENT_USER_ID })(call, command),
      ),
      expectResult: pageWithCursor,
    },
    {
      name: "every kind of the client's, through the byOwner index, with a cursor; the read is recorded",
      event: { method: 'GET', claims: coachClaims, pathParameters: clientPath },
      ddb: firstAnswer(accounts(clientAccount()), (call, command) =>
        on('GetItem', 'coaching', call)
          ? { Item: clientState() }
          : onePage({ ...meal, userId: CLIENT_USER_ID })(call, command),
      ),
      expectResult: pageWithCursor,
    },
  ],
  ListClientNotes: [
    {
      name: "the client's coach reads the notes partition, and the read is recorded",
      event: { method: 'GET', claims: coachClaims, pathParameters: clientPath },
      ddb: firstAnswer(accounts(clientAccount()), (call) => {
        if (on('GetItem', 'coaching', call)) return { Item: clientState() };
        if (on('Query', 'coaching', call)) return { Items: [storedNote] };
        return undefined;
      }),
      expectResult: answered(200, 'notes', 1),
    },
  ],
  CreateClientNote: [
    {
      name: 'the note, the last-note time and the audit event are written in one transaction',
      event: { claims: coachClaims, pathParameters: clientPath, body: { text: 'Well done this week.' } },
      ddb: firstAnswer(accounts(clientAccount()), (call) => {
        if (on('GetItem', 'coaching', call)) return { Item: clientState() };
        if (on('BatchGetItem', 'profiles', call)) return profilesOf(call);
        return undefined;
      }),
      expectResult: status(201),
    },
    noteRefused(
      "the assignment ended meanwhile: the transaction's condition on the state refuses the note",
      'state',
      403,
    ),
    noteRefused(
      "the coach's session ended meanwhile (disabled, signed out): the transaction refuses the note",
      'session',
      401,
    ),
    noteSentAgain(
      'sent again with its Idempotency-Key: the key is there, so it reads back the note the first try stored',
      keyUsed,
      201,
    ),
    // The key and its note are there: only the order of the checks keeps them unread.
    noteSentAgain(
      'sent again with its Idempotency-Key after the assignment ended: 403, and no note is read back',
      keyUsedByAFormerCoach,
      403,
    ),
  ],
  GetMyCoach: [
    {
      name: "the caller reads their state, their notes and their coach's names",
      event: { method: 'GET', claims: claims('users') },
      ddb: (call) => {
        if (on('GetItem', 'coaching', call))
          return {
            Item: clientState({ pk: `client#${USER_ID}`, clientId: USER_ID, coachId: OTHER_COACH_ID }),
          };
        if (on('Query', 'coaching', call))
          return {
            Items: [{ ...storedNote, pk: `notes#${USER_ID}`, clientId: USER_ID, authorId: OTHER_COACH_ID }],
          };
        if (on('BatchGetItem', 'profiles', call)) return profilesOf(call);
        return undefined;
      },
      expectResult: (result) => {
        answered(200, 'notes', 1)(result);
        expect(JSON.parse((result as APIGatewayProxyResult).body)).toMatchObject({
          coach: { userId: OTHER_COACH_ID },
        });
      },
    },
  ],
  ListMyActivity: [
    {
      name: 'the caller reads their own security events through byActivity, and those stored before it through bySubject',
      event: { method: 'GET', claims: claims('users') },
      ddb: (call, command) => {
        if (!on('Query', 'auditEvents', call)) return undefined;
        return (command as QueryCommand).input.IndexName === 'byActivity'
          ? { Items: [{ ...auditEvent, activityOf: USER_ID }] }
          : { Items: [{ ...auditEvent, eventId: 'older', at: '2024-12-01T08:00:00.000Z' }] };
      },
      expectResult: answered(200, 'events', 2),
    },
  ],
  ListPasskeys: [
    {
      name: "the caller's passkeys, read by the credential ids their account lists",
      event: { method: 'GET', claims: claims('users') },
      ddb: (call, command) => {
        if (!on('BatchGetItem', 'passkeys', call)) return undefined;
        const request = (command as BatchGetCommand).input.RequestItems?.[tableNameOf('passkeys')];
        return {
          Responses: {
            [tableNameOf('passkeys')]: call.keys.map((id) => projected(passkeyItem(id), request ?? {})),
          },
        };
      },
      expectResult: answered(200, 'passkeys', 2),
    },
  ],
  PasskeyOptions: [
    {
      name: "options under the account's user handle, excluding its passkeys; the challenge is stored",
      event: { claims: claims('users') },
      expectResult: (result) => {
        status(200)(result);
        expect(bodyOf(result).excludeCredentials).toHaveLength(2);
      },
    },
  ],
  AddPasskey: [
    {
      name: 'the challenge, the credential, the account list and the audit event in one transaction',
      event: { claims: claims('users'), body: { registrationResponse, name: 'Work laptop' } },
      ddb: (call) => {
        if (on('GetItem', 'authChallenges', call))
          return {
            Item: {
              pk: call.keys[0],
              kind: 'passkey',
              userId: USER_ID,
              challenge: 'challenge-1',
              expiresAt: NOW() + 300,
            },
          };
        if (on('GetItem', 'passkeys', call))
          return { Item: passkeyItem('credential-1', { name: 'Work laptop', createdAt: TAKEN_AT }) };
        return undefined;
      },
      expectResult: (result) => {
        status(201)(result);
        expect(bodyOf(result)).toMatchObject({ credentialId: 'credential-1', name: 'Work laptop' });
      },
    },
  ],
  RenamePasskey: [
    {
      name: "the caller's own passkey is renamed, and the rename recorded",
      event: {
        method: 'PATCH',
        claims: claims('users'),
        pathParameters: { credentialId: PHONE_PASSKEY },
        body: { name: 'My phone' },
      },
      ddb: (call) => (on('GetItem', 'passkeys', call) ? { Item: passkeyItem(PHONE_PASSKEY) } : undefined),
      expectResult: (result) => {
        status(200)(result);
        expect(bodyOf(result)).toMatchObject({ credentialId: PHONE_PASSKEY, name: 'My phone' });
      },
    },
  ],
  RemovePasskey: [
    {
      name: 'one of two passkeys leaves the table and the account list in one transaction',
      event: { method: 'DELETE', claims: claims('users'), pathParameters: { credentialId: LAPTOP_PASSKEY } },
      expectResult: status(204),
    },
  ],
  ResetAccess: [
    {
      name: 'an admin issues a recovery code for an activated person, recorded first',
      event: { claims: claims('admins'), pathParameters: clientPath },
      ddb: accounts(clientAccount()),
      expectResult: (result) => {
        status(201)(result);
        // A code of the activation-code shape, good for 24 hours.
        const { activationCode, expiresAt } = bodyOf(result);
        expect(activationCode).toMatch(/^[A-Z0-9]{16}$/);
        expect(Date.parse(String(expiresAt)) - Date.now()).toBeGreaterThan(23 * 60 * 60 * 1000);
      },
    },
  ],
  ChangeRoles: [
    {
      name: "an admin makes a client a coach: the guarded account change, their coach unassigned, then the person's groups",
      event: {
        method: 'PUT',
        claims: claims('admins'),
        pathParameters: clientPath,
        body: { roles: ['coaches'] },
      },
      ddb: firstAnswer(accounts(clientAccount()), (call) =>
        on('GetItem', 'coaching', call) ? { Item: clientState({ coachId: OTHER_COACH_ID }) } : undefined,
      ),
      cognito: (action) => (action === 'AdminListGroupsForUser' ? { Groups: [{ GroupName: 'users' }] } : {}),
      expectResult: (result) => {
        status(200)(result);
        expect(bodyOf(result)).toEqual({ userId: CLIENT_USER_ID, roles: ['coaches'] });
      },
    },
    {
      name: 'an admin makes a coach a client: their clients found through byCoach and unassigned, one read again after its transaction was cancelled',
      event: {
        method: 'PUT',
        claims: claims('admins'),
        pathParameters: { userId: OTHER_COACH_ID },
        body: { roles: ['users'] },
      },
      ddb: (() => {
        let transactions = 0;
        return firstAnswer(accounts(coachAccount), (call) => {
          if (on('Query', 'coaching', call)) return { Items: [{ clientId: CLIENT_USER_ID }] };
          if (on('GetItem', 'coaching', call) && call.keys[0] === `client#${CLIENT_USER_ID}`)
            return { Item: clientState({ coachId: OTHER_COACH_ID }) };
          if (on('UpdateItem', 'coaching', call) && (transactions += 1) === 1) throw cancelled();
          return undefined;
        });
      })(),
      cognito: (action) =>
        action === 'AdminListGroupsForUser' ? { Groups: [{ GroupName: 'coaches' }] } : {},
      expectResult: (result) => {
        status(200)(result);
        expect(bodyOf(result)).toEqual({ userId: OTHER_COACH_ID, roles: ['users'] });
      },
    },
  ],
  DisableUser: [
    {
      name: 'an admin disables a person with no coach: the guarded account change checking none was assigned, then Cognito disables and signs out',
      event: { claims: claims('admins'), pathParameters: clientPath },
      ddb: accounts(clientAccount()),
      expectResult: (result) => {
        status(200)(result);
        expect(bodyOf(result)).toEqual({ userId: CLIENT_USER_ID, status: 'disabled' });
      },
    },
    {
      name: 'an admin disables a client: their coach unassigned in the guarded account change',
      event: { claims: claims('admins'), pathParameters: clientPath },
      ddb: firstAnswer(accounts(clientAccount()), (call) =>
        on('GetItem', 'coaching', call) ? { Item: clientState({ coachId: OTHER_COACH_ID }) } : undefined,
      ),
      expectResult: (result) => {
        status(200)(result);
        expect(bodyOf(result)).toEqual({ userId: CLIENT_USER_ID, status: 'disabled' });
      },
    },
  ],
  EnableUser: [
    {
      name: 'an admin enables a disabled person: the guarded account change, then Cognito enables',
      event: { claims: claims('admins'), pathParameters: clientPath },
      ddb: accounts(clientAccount({ status: 'disabled', tokensValidAfter: NOW() - 3600 })),
      expectResult: (result) => {
        status(200)(result);
        expect(bodyOf(result)).toEqual({ userId: CLIENT_USER_ID, status: 'active' });
      },
    },
  ],
  DeleteUser: [
    {
      name: 'an admin erases a coach: disabled first, then everything they hold; their client loses the coach',
      event: { method: 'DELETE', claims: claims('admins'), pathParameters: { userId: OTHER_COACH_ID } },
      ddb: firstAnswer(accounts(coachAccount), erasable(OTHER_COACH_ID, { clients: [CLIENT_USER_ID] })),
      expectResult: status(204),
    },
  ],
  DeleteMe: [
    {
      name: 'a client erases their own account, with their records and the notes their coach wrote them',
      event: { method: 'DELETE', claims: claims('users'), body: { confirmEmail: EMAIL } },
      ddb: erasable(USER_ID, { notes: [{ ...storedNote, pk: `notes#${USER_ID}`, clientId: USER_ID }] }),
      expectResult: status(204),
    },
    {
      name: 'an admin who coaches leaves while another admin stays, checked in the same transaction',
      event: { method: 'DELETE', claims: claims('admins', 'coaches'), body: { confirmEmail: EMAIL } },
      cognito: (action) =>
        action === 'ListUsersInGroup'
          ? {
              Users: [
                { Username: USERNAME, Attributes: [{ Name: 'sub', Value: USER_ID }] },
                { Username: `user-${ADMIN_ID}`, Attributes: [{ Name: 'sub', Value: ADMIN_ID }] },
              ],
            }
          : {},
      ddb: firstAnswer(
        accounts(accountItem({ userId: ADMIN_ID, email: 'admin@example.com', roles: ['admins'] })),
        erasable(USER_ID, { clients: [CLIENT_USER_ID] }),
      ),
      expectResult: status(204),
    },
  ],
  ResendInvitation: [
    {
      name: 'an expired invitation gets a new code and seven more days, with its event in the same transaction',
      event: { claims: claims('admins'), pathParameters: { email: encodeURIComponent(EMAIL) } },
      ddb: (call) =>
        on('GetItem', 'invitations', call)
          ? { Item: invitation({ expiresAt: new Date(Date.now() - DAY_MS).toISOString() }) }
          : undefined,
      expectResult: (result) => {
        status(200)(result);
        expect(bodyOf(result)).toMatchObject({ email: EMAIL, status: 'pending' });
        expect(bodyOf(result).activationCode).not.toBe(CODE);
      },
    },
    {
      name: 'an activated invitation is not resent',
      event: { claims: claims('admins'), pathParameters: { email: encodeURIComponent(EMAIL) } },
      ddb: (call) => (on('GetItem', 'invitations', call) ? { Item: activatedInvitation } : undefined),
      expectResult: status(409),
    },
  ],
  DefineAuthChallenge: [
    {
      name: 'the first step is the custom challenge',
      event: { userName: USERNAME, request: { session: [] }, response: {} },
      expectResult: (result) =>
        expect(result).toMatchObject({ response: { challengeName: 'CUSTOM_CHALLENGE' } }),
    },
  ],
  CreateAuthChallenge: [
    {
      name: 'the challenge asks for a passkey proof',
      event: { userName: USERNAME, request: {}, response: {} },
      expectResult: (result) =>
        expect(result).toMatchObject({ response: { challengeMetadata: 'PASSKEY_PROOF' } }),
    },
  ],
  VerifyAuthChallengeResponse: [
    {
      name: "the user's unexpired proof is redeemed, their account active and unchanged since it was issued",
      event: {
        userName: USERNAME,
        request: { userNotFound: false, challengeAnswer: 'p'.repeat(43) },
        response: {},
      },
      ddb: (call, command) => {
        if (on('DeleteItem', 'authChallenges', call))
          return {
            Attributes: {
              userId: USER_ID,
              cognitoUsername: USERNAME,
              issuedAt: Date.now() - 1000,
              expiresAt: NOW() + 60,
            },
          };
        return accounts(accountItem())(call, command);
      },
      expectResult: (result) => expect(result).toMatchObject({ response: { answerCorrect: true } }),
    },
  ],
  FinishErases: [
    {
      name: 'an erase cut short is finished: the disabled account marked erasing, everything it holds, its event',
      event: {},
      ddb: erasingCoach(),
      expectResult: (result) => expect(result).toEqual({ finished: 1, failed: 0 }),
    },
    {
      name: "an erased coach's client whose unassignment was cancelled: the state read again, then unassigned",
      event: {},
      ddb: (() => {
        let unassignments = 0;
        return erasingCoach((call) => {
          if (on('GetItem', 'coaching', call) && call.keys[0] === `client#${CLIENT_USER_ID}`)
            return { Item: clientState({ coachId: OTHER_COACH_ID }) };
          if (on('UpdateItem', 'coaching', call) && (unassignments += 1) === 1) throw cancelled();
          return undefined;
        });
      })(),
      expectResult: (result) => expect(result).toEqual({ finished: 1, failed: 0 }),
    },
  ],
  PreTokenGeneration: [
    {
      name: "the access token loses Cognito's self-service scope, with no call to anything",
      event: {
        version: '2',
        triggerSource: 'TokenGeneration_Authentication',
        userName: USERNAME,
        request: { scopes: ['aws.cognito.signin.user.admin'], groupConfiguration: {} },
        response: {},
      },
      expectResult: (result) =>
        expect(result).toMatchObject({
          response: {
            claimsAndScopeOverrideDetails: {
              accessTokenGeneration: { scopesToSuppress: ['aws.cognito.signin.user.admin'] },
            },
          },
        }),
    },
  ],
};

// ------------------------------------------------------------------ the checks

const routeOf = (id: string) => ROUTES.find((route) => route.id === id);

let prod: Synthesized;
const roleStatements = (id: string) =>
  statementsOfRole(prod.template, logicalIdOf(prod.stack, prod.stack.functions[id]!.role));

/**
 * Stand-ins for the variables the stack gives functions. Each handler runs with only those its own
 * function has in the template, so one that needs a variable the stack does not give it (a cursor
 * route without `CURSOR_SIGNING_KEY`) fails here rather than at its first request in AWS.
 */
const FAKE_ENVIRONMENT: Record<string, string> = {
  ...Object.fromEntries(TABLE_KEYS.map((key) => [TABLES[key].envVar, tableNameOf(key)])),
  USER_POOL_ID: 'us-west-2_test',
  USER_POOL_CLIENT_ID: CLIENT_ID,
  WEBAUTHN_RP_ID: 'app.example.com',
  WEBAUTHN_RP_NAME: 'Test',
  WEBAUTHN_ORIGINS: 'https://app.example.com',
  CURSOR_SIGNING_KEY: 'k'.repeat(64),
};
/** Set by the stack for the runtime and the HTTP wrapper, not read as configuration by the handlers. */
const UNCHECKED_VARIABLES = ['LOG_LEVEL', 'CORS_ALLOW_ORIGIN'];
const templateEnvironmentNames = (id: string): string[] => {
  const fn = prod.stack.functions[id]!.function;
  const resource = resourcesOf(prod.template, 'AWS::Lambda::Function')[logicalIdOf(prod.stack, fn)]!;
  return Object.keys((resource.Properties.Environment as { Variables: Record<string, unknown> }).Variables);
};
const useEnvironmentOf = (id: string): void => {
  const names = templateEnvironmentNames(id);
  expect(names.filter((name) => !(name in FAKE_ENVIRONMENT) && !UNCHECKED_VARIABLES.includes(name))).toEqual(
    [],
  );
  // An empty value counts as missing (lambdas/common/env.ts).
  for (const [name, value] of Object.entries(FAKE_ENVIRONMENT))
    vi.stubEnv(name, names.includes(name) ? value : '');
};
const tableArn = (table: TableKey) => `\${${logicalIdOf(prod.stack, prod.stack.tables.table(table))}.Arn}`;

beforeAll(() => {
  prod = synthPlatform({ stage: 'prod' });
  // Set by the Lambda runtime itself.
  vi.stubEnv('AWS_REGION', 'us-west-2');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('what each handler does, against the role the stack gives it', () => {
  it('has a scenario for every function of the manifest, and for nothing else', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(ALL_FUNCTIONS.map((fn) => fn.id).sort());
  });

  const cases = ALL_FUNCTIONS.flatMap((definition) =>
    (SCENARIOS[definition.id] ?? []).map((scenario) => ({ id: definition.id, definition, scenario })),
  );

  it.each(cases)('$id: $scenario.name, with every call allowed', async ({ id, definition, scenario }) => {
    const calls = recorded.get(id) ?? { dynamo: [], cognito: [] };
    recorded.set(id, calls);
    const own = { dynamo: [] as DynamoCall[], cognito: [] as string[], unknown: [] as string[] };
    const route = routeOf(id);
    // An authenticated route's caller has an active account with the roles of their token, which the
    // session check reads first and the handler may read again.
    const callerClaims = route && route.auth !== 'public' ? (scenario.event as EventInput).claims : undefined;
    const callerAccount =
      callerClaims && accountItem({ roles: rolesOfClaim(callerClaims['cognito:groups']) });
    const isCallerAccount = (call: DynamoCall) =>
      callerClaims !== undefined && on('GetItem', 'accounts', call) && call.keys[0] === callerClaims.sub;
    fake.ddb = (command) => {
      let dynamoCalls: DynamoCall[];
      try {
        dynamoCalls = dynamoCallsOf(command);
      } catch (error) {
        own.unknown.push((error as Error).message);
        throw error;
      }
      own.dynamo.push(...dynamoCalls);
      const [first] = dynamoCalls;
      if (first && callerAccount && isCallerAccount(first)) return found(callerAccount, command);
      return (
        (first && scenario.ddb?.(first, command)) ?? (first && firstAttemptOfWindow(first, command)) ?? {}
      );
    };
    fake.cognito = (command) => {
      const action = cognitoActionOf(command);
      own.cognito.push(action);
      return scenario.cognito?.(action, command) ?? {};
    };

    const module = (await import(pathToFileURL(join(REPO_ROOT, definition.entry)).href)) as {
      handler: (event: unknown) => Promise<unknown>;
    };
    useEnvironmentOf(id);
    const event = route
      ? {
          ...apiEvent({ method: route.method, resource: route.path, ...(scenario.event as EventInput) }),
          queryStringParameters: scenario.query ?? null,
        }
      : structuredClone(scenario.event);
    const result = await module.handler(event);

    expect(own.unknown).toEqual([]);
    if (callerClaims) {
      // The wrapper's session check ran before the handler: one read of the caller's account.
      expect(own.dynamo[0], 'the session check').toEqual({
        action: 'GetItem',
        table: 'accounts',
        keys: [callerClaims.sub],
      });
    }
    const statements = roleStatements(id);
    for (const call of own.dynamo) {
      const request = {
        action: `dynamodb:${call.action}`,
        resource: `${tableArn(call.table)}${call.index ? `/index/${call.index}` : ''}`,
        leadingKeys: call.keys,
      };
      expect(
        isAllowed(statements, request),
        `${id} ${call.action} ${call.table}${call.index ? `/${call.index}` : ''} ${call.keys.join(',')}`,
      ).toBe(true);
    }
    const poolArn = `\${${logicalIdOf(prod.stack, prod.stack.auth.userPool)}.Arn}`;
    for (const action of own.cognito) {
      expect(
        isAllowed(statements, { action: `cognito-idp:${action}`, resource: poolArn }),
        `${id} ${action}`,
      ).toBe(true);
    }
    // The handler answered as on its real path, so every call of that path was made and checked.
    scenario.expectResult(result);
    calls.dynamo.push(...own.dynamo);
    calls.cognito.push(...own.cognito);
  });

  it.each(ALL_FUNCTIONS)('$id uses every DynamoDB permission its manifest entry grants', (definition) => {
    const calls = recorded.get(definition.id)?.dynamo ?? [];
    for (const [table, access] of Object.entries(definition.tables) as [
      TableKey,
      FunctionDefinition['tables'][TableKey],
    ][]) {
      for (const grant of access ?? []) {
        for (const action of grant.actions) {
          const used = calls.some(
            (call) =>
              call.table === table &&
              call.action === action &&
              call.keys.every(
                (key) => !grant.keys || grant.keys.some((pattern) => globMatches(pattern, key)),
              ),
          );
          expect(
            used,
            `${definition.id}: ${action} on ${table} ${grant.keys?.join(' | ') ?? ''} is never used`,
          ).toBe(true);
        }
      }
    }
  });
});
