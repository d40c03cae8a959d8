/**
 * `npm start` on a data folder kept from 0.6.0, from before the user directory of issue 12: its
 * accounts and invitations tables have no list indexes, and its items no directory attributes or
 * counters. Without an upgrade, User Management answered 500 (no such index) and counted nobody. The
 * folder is made here as 0.6.0 left it: a stack of this version is filled over HTTP, then its list
 * indexes, directory attributes and counter items are taken away (0.6.0 wrote the same items without
 * them). The next start must list everyone, count everyone once, and do nothing the time after.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DeleteTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';
import { LOCAL_CLIENT_ID, stackFilePath, type LocalStackFile } from '../../infra/local/stack';
import type { TableNames } from '../../infra/local/tables';
import { listPeople } from '../../lambdas/common/admin-lists';
import { backfillDirectory } from '../../lambdas/common/directory-backfill';
import { getDirectoryCounts } from '../../lambdas/common/repositories/directory';
import type { AdminUserList, InvitationList } from '../../shared/directory';
import { TABLES, type TableDefinition } from '../../shared/tables';
import { freshTables, localDocuments } from '../fixtures/aws-env';
import { codeFromLink, createHttpClient } from '../fixtures/http-client';
import { runNpmStart, type RunningStart } from '../fixtures/npm-start';

let dataDir: string;
let port: number;
let running: RunningStart | undefined;
let http: ReturnType<typeof createHttpClient>;
let admin: Awaited<ReturnType<typeof http.activate>>;
let token = '';

/** `npm start` on the data folder, as a developer runs it; answers the lines it printed. */
const start = async () => {
  running = runNpmStart([], {
    PORT: String(port),
    LOCAL_DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
  });
  const lines = await running.ready;
  http = createHttpClient(`http://localhost:${port}`, LOCAL_CLIENT_ID);
  return lines;
};
const stop = async () => {
  http.close();
  expect(await running?.stop()).toBe(0);
  running = undefined;
};
const restart = async () => {
  await stop();
  const lines = await start();
  token = (await http.signIn(admin.authenticator)).idToken;
  return lines;
};
const stackFile = async (): Promise<LocalStackFile> =>
  JSON.parse(await readFile(stackFilePath(dataDir), 'utf8')) as LocalStackFile;
const LISTED = 'kept from an earlier version in User Management.';

const api = <T>(method: string, path: string, json?: unknown) =>
  http.request<T>(method, path, { token, ...(json !== undefined && { json }) });
const invite = async (email: string, roles: string[]) => {
  const answer = await api<{ activationCode: string }>('POST', '/internal/v1/admin/invitations', {
    email,
    roles,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.activationCode;
};
const people = async (query: Record<string, string> = {}) => {
  const answer = await api<AdminUserList>('GET', `/internal/v1/admin/users?${new URLSearchParams(query)}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};
const invitations = async (query: Record<string, string> = {}) => {
  const answer = await api<InvitationList>(
    'GET',
    `/internal/v1/admin/invitations?${new URLSearchParams(query)}`,
  );
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
};
const emails = (items: readonly { email: string }[]) => items.map((item) => item.email).sort();

/**
 * The two tables as 0.6.0 left them: the same items without what the directory added (its attributes
 * and counter items), in tables without the list indexes. Made by copying the items into tables created
 * anew, as DynamoDB Local fails writes to a table it deleted indexes of.
 */
const DIRECTORY_ATTRIBUTES = {
  accounts: ['dir', 'dirSort', 'dirCoach'],
  invitations: ['dir', 'dirSort', 'state'],
};
const makeItAsOf060 = async (endpoint: string, tables: TableNames) => {
  const documents = localDocuments(endpoint);
  try {
    for (const table of ['accounts', 'invitations'] as const) {
      const name = tables[table];
      const { partitionKey, timeToLiveAttribute }: TableDefinition = TABLES[table];
      const { Items = [] } = await documents.send(new ScanCommand({ TableName: name, ConsistentRead: true }));
      await documents.send(new DeleteTableCommand({ TableName: name }));
      await documents.send(
        new CreateTableCommand({
          TableName: name,
          BillingMode: 'PAY_PER_REQUEST',
          KeySchema: [{ AttributeName: partitionKey.name, KeyType: 'HASH' }],
          AttributeDefinitions: [{ AttributeName: partitionKey.name, AttributeType: partitionKey.type }],
        }),
      );
      if (timeToLiveAttribute)
        await documents.send(
          new UpdateTimeToLiveCommand({
            TableName: name,
            TimeToLiveSpecification: { AttributeName: timeToLiveAttribute, Enabled: true },
          }),
        );
      for (const item of Items) {
        if (String(item[partitionKey.name]).startsWith('directory#counts#')) continue;
        const old = Object.fromEntries(
          Object.entries(item).filter(([attribute]) => !DIRECTORY_ATTRIBUTES[table].includes(attribute)),
        );
        await documents.send(new PutCommand({ TableName: name, Item: old }));
      }
    }
  } finally {
    documents.destroy();
  }
};

const EVERYONE = ['admin@example.com', 'coach@example.com', 'gone@example.com', 'user@example.com'];
const COUNTS = { people: 4, disabled: 1, pendingInvitations: 1 };

describe('npm start on a data folder of 0.6.0', () => {
  let firstLines: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'directory-upgrade-'));
    port = await freePort();
    const lines = await start();
    const link = lines.find((line) => line.startsWith('Admin activation link: ')) ?? '';
    admin = await http.activate(
      'admin@example.com',
      codeFromLink(link.replace('Admin activation link: ', '')),
    );
    token = admin.idToken;
    await http.activate('coach@example.com', await invite('coach@example.com', ['coaches']));
    await http.activate('user@example.com', await invite('user@example.com', ['users']));
    const gone = await http.activate('gone@example.com', await invite('gone@example.com', ['users']));
    expect((await api('POST', `/internal/v1/admin/users/${gone.userId}/disable`)).status).toBe(200);
    await invite('pending@example.com', ['users']);
    expect(emails((await people()).users)).toEqual(EVERYONE);
    const file = await stackFile();
    await makeItAsOf060(file.dynamoDbEndpoint, file.tables);
    firstLines = await restart();
  }, 240_000);

  afterAll(async () => {
    if (running) await stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('places every account and invitation in the directory before it is ready', () => {
    const listed = firstLines.findIndex((line) => line.endsWith(LISTED));
    expect(firstLines[listed]).toBe(`Listed 4 account(s) and 5 invitation(s) ${LISTED}`);
    expect(listed).toBeLessThan(firstLines.findIndex((line) => line.startsWith('Ready on ')));
  });

  it('lists and counts everyone, through every index', async () => {
    const all = await people();
    expect(emails(all.users)).toEqual(EVERYONE);
    expect(all.counts).toEqual(COUNTS);
    expect(emails((await people({ status: 'disabled' })).users)).toEqual(['gone@example.com']);
    expect(emails((await people({ role: 'coaches' })).users)).toEqual(['coach@example.com']);
    expect(emails((await people({ q: 'us' })).users)).toEqual(['user@example.com']);
    expect(emails((await invitations({ status: 'pending' })).invitations)).toEqual(['pending@example.com']);
    expect(emails((await invitations()).invitations)).toEqual([...EVERYONE, 'pending@example.com'].sort());
  });

  it('finds nothing to do on the next start, and the counts stay', async () => {
    const lines = await restart();
    expect(lines.filter((line) => line.endsWith(LISTED))).toEqual([]);
    expect((await people()).counts).toEqual(COUNTS);
  });
});

describe('two upgrades at once', () => {
  it('count each item once', async () => {
    const endpoint = inject('dynamoDbEndpoint');
    const tables = await freshTables(endpoint);
    const documents = localDocuments(endpoint);
    const accounts = [
      ['a', ['users'], 'active'],
      ['b', ['users'], 'disabled'],
      ['c', ['coaches'], 'active'],
      ['d', ['admins'], 'active'],
    ] as const;
    for (const [name, roles, status] of accounts) {
      await documents.send(
        new PutCommand({
          TableName: tables.accounts,
          Item: {
            userId: `user-${name}`,
            email: `${name}@example.com`,
            cognitoUsername: `cognito-${name}`,
            roles,
            status,
            tokensValidAfter: 0,
            createdAt: `2026-11-0${accounts.findIndex(([other]) => other === name) + 1}T00:00:00.000Z`,
          },
        }),
      );
    }
    for (const [email, codeUsed] of [
      ['a@example.com', true],
      ['p@example.com', false],
    ] as const) {
      await documents.send(
        new PutCommand({
          TableName: tables.invitations,
          Item: { email, codeUsed, roles: ['users'], createdAt: '2026-11-01T00:00:00.000Z' },
        }),
      );
    }
    documents.destroy();

    const runs = await Promise.all([backfillDirectory(), backfillDirectory(), backfillDirectory()]);
    expect(runs.reduce((sum, run) => sum + run.accounts, 0)).toBe(4);
    expect(runs.reduce((sum, run) => sum + run.invitations, 0)).toBe(2);
    expect(await getDirectoryCounts()).toEqual({ people: 4, disabled: 1, pendingInvitations: 1 });
    expect(await backfillDirectory()).toEqual({ accounts: 0, invitations: 0 });
    const page = await listPeople('viewer', { limit: 50 });
    expect(page.users.map((user) => user.email)).toEqual(
      ['d', 'c', 'b', 'a'].map((name) => `${name}@example.com`),
    );
  });
});
