/**
 * The roles the stack builds from the manifest, checked against what the handlers really do: every
 * handler of `lambdas/routes.ts` runs (through its manifest entry) against fake AWS clients that record
 * each DynamoDB and Cognito call, and each call is evaluated against the IAM statements of that
 * function's role in the synthesized template. Every call must be allowed (a handler that starts a new
 * call fails here, not with AccessDenied in AWS), and every DynamoDB permission must be used by some
 * call (nothing is granted that no code needs). Local mode enforces no IAM, so only this test sees it.
 * Each handler also runs with only the environment variables its function has in the template.
 * KMS is not modelled: handlers never call it, DynamoDB does on their behalf (health-records-stack.test.ts
 * checks those grants).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
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
import { ROUTES, TRIGGERS, type FunctionDefinition } from '../../../lambdas/routes';
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
        credential: { id: 'credential-1', publicKey: new Uint8Array([1, 2, 3]), counter: 0, transports: [] },
        credentialDeviceType: 'multiDevice',
        credentialBackedUp: true,
      },
    }),
  verifyAuthenticationResponse: () =>
    Promise.resolve({ verified: true, authenticationInfo: { userVerified: true, newCounter: 1 } }),
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
const invitation = (overrides: Item = {}): Item => ({
  email: EMAIL,
  activationCode: CODE,
  codeUsed: false,
  roles: ['users'],
  createdBy: '00000000-0000-0000-0000-000000000000',
  createdAt: '2025-01-01T00:00:00.000Z',
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
const claims = (groups: string) => ({
  token_use: 'id',
  aud: CLIENT_ID,
  sub: USER_ID,
  'cognito:username': USERNAME,
  email: EMAIL,
  'cognito:groups': groups,
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
  response: { authenticatorData: 'AAAA', clientDataJSON: 'e30', signature: 'AAAA', userHandle: 'handle-1' },
  clientExtensionResults: {},
  type: 'public-key',
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
  readonly cognito?: (action: string) => unknown;
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

const SCENARIOS: Record<string, readonly Scenario[]> = {
  VerifyActivation: [
    {
      name: 'a valid code prepares the registration',
      event: { body: { email: EMAIL, activationCode: 'ABCD-EFGH-JKMN-PQRS' } },
      ddb: (call) => {
        if (on('GetItem', 'invitations', call)) return { Item: invitation({ cognitoUsername: undefined }) };
        if (on('UpdateItem', 'invitations', call)) return { Attributes: invitation() };
        return undefined;
      },
      cognito: (action) =>
        action === 'AdminCreateUser' ? { User: { Attributes: [{ Name: 'sub', Value: USER_ID }] } } : {},
      expectResult: status(200),
    },
  ],
  RegisterPasskey: [
    {
      name: 'a verified passkey is registered and signs in',
      event: {
        body: { email: EMAIL, activationCode: CODE, cognitoUsername: USERNAME, registrationResponse },
      },
      ddb: (call) => {
        if (on('GetItem', 'invitations', call)) return { Item: invitation() };
        if (on('GetItem', 'authChallenges', call)) {
          return {
            Item: {
              pk: call.keys[0],
              email: EMAIL,
              challenge: 'challenge-1',
              cognitoUsername: USERNAME,
              userId: USER_ID,
              userHandle: 'handle-1',
              expiresAt: NOW() + 300,
            },
          };
        }
        return undefined;
      },
      expectResult: status(200),
    },
  ],
  InitiateSignin: [{ name: 'a sign-in session is stored', event: { body: {} }, expectResult: status(200) }],
  VerifyWebauthn: [
    {
      name: 'a verified assertion spends the session and issues a proof',
      event: { body: { sessionId: 'session-1', authenticationResponse } },
      ddb: (call) => {
        if (on('DeleteItem', 'authChallenges', call))
          return { Attributes: { sessionId: 'session-1', challenge: 'challenge-1', expiresAt: NOW() + 300 } };
        if (on('GetItem', 'passkeys', call)) {
          return {
            Item: {
              credentialId: 'credential-1',
              userId: USER_ID,
              cognitoUsername: USERNAME,
              userHandle: 'handle-1',
              publicKey: new Uint8Array([1, 2, 3]),
              counter: 0,
            },
          };
        }
        return undefined;
      },
      expectResult: status(200),
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
  ListInvitations: [
    {
      name: 'an admin lists the invitations',
      event: { method: 'GET', claims: claims('admins') },
      ddb: () => ({ Items: [invitation()] }),
      expectResult: status(200),
    },
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
    {
      name: 'an admin lists the users with their names',
      event: { method: 'GET', claims: claims('admins') },
      cognito: () => ({
        Users: [
          {
            Username: USERNAME,
            Attributes: [
              { Name: 'sub', Value: USER_ID },
              { Name: 'email', Value: EMAIL },
            ],
            UserCreateDate: new Date('2025-01-01T00:00:00.000Z'),
          },
        ],
      }),
      ddb: (call) => ({ Responses: { [tableNameOf(call.table)]: [profile] } }),
      expectResult: status(200),
    },
  ],
  CreateMeasurement: [
    {
      name: 'the caller logs a reading, stored with its reference in one transaction',
      event: { claims: claims('users'), body: { type: 'weight', value: 80, takenAt: TAKEN_AT } },
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
  ],
  CreateLog: [
    {
      name: 'the caller logs a meal, stored with its reference in one transaction',
      event: { claims: claims('users'), body: { kind: 'meal', description: 'Oats', eatenAt: TAKEN_AT } },
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
      name: 'the JSON export reads the profile, then every measurement and log, page by page',
      event: { method: 'GET', claims: claims('users') },
      ddb: (call, command) => {
        if (on('GetItem', 'profiles', call)) return { Item: profile };
        return onePage(call.keys[0]?.endsWith('#M') ? measurement : meal)(call, command);
      },
      expectResult: (result) => {
        status(200)(result);
        const body = JSON.parse((result as APIGatewayProxyResult).body) as Record<string, unknown[]>;
        expect([body.measurements?.length, body.logs?.length]).toEqual([2, 2]);
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
      name: "the user's unexpired proof is redeemed",
      event: {
        userName: USERNAME,
        request: { userNotFound: false, challengeAnswer: 'p'.repeat(43) },
        response: {},
      },
      ddb: () => ({ Attributes: { userId: USER_ID, cognitoUsername: USERNAME, expiresAt: NOW() + 60 } }),
      expectResult: (result) => expect(result).toMatchObject({ response: { answerCorrect: true } }),
    },
  ],
};

// ------------------------------------------------------------------ the checks

const ALL_FUNCTIONS: readonly FunctionDefinition[] = [...ROUTES, ...Object.values(TRIGGERS)];
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
const UNCHECKED_VARIABLES = ['LOG_LEVEL', 'NODE_OPTIONS', 'CORS_ALLOW_ORIGIN'];
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
      return (first && scenario.ddb?.(first, command)) ?? {};
    };
    fake.cognito = (command) => {
      const action = cognitoActionOf(command);
      own.cognito.push(action);
      return scenario.cognito?.(action) ?? {};
    };

    const module = (await import(pathToFileURL(join(REPO_ROOT, definition.entry)).href)) as {
      handler: (event: unknown) => Promise<unknown>;
    };
    useEnvironmentOf(id);
    const route = routeOf(id);
    const event = route
      ? {
          ...apiEvent({ method: route.method, resource: route.path, ...(scenario.event as EventInput) }),
          queryStringParameters: scenario.query ?? null,
        }
      : structuredClone(scenario.event);
    const result = await module.handler(event);

    expect(own.unknown).toEqual([]);
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
