/** Who can be invited: one pending invitation per email, and no one who already has an account. */
import { randomUUID } from 'node:crypto';
import { AdminCreateUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { stageEnvironment } from '../../bin/invite';
import { invite, SYSTEM_CREATOR } from '../../lambdas/common/invite';
import { getDirectoryCounts } from '../../lambdas/common/repositories/directory';
import { STACK_OUTPUTS } from '../../infra/stacks/outputs';
import { TABLE_KEYS, TABLES } from '../../shared/tables';
import { API_MESSAGES } from '../../shared/messages';
import { startLocalIdentity, USER_POOL_ID, type LocalIdentity } from '../fixtures/local-identity';
import { activateUser, BOOTSTRAP_CREATOR } from '../fixtures/passkey-journeys';

let identity: LocalIdentity;
beforeAll(async () => {
  identity = await startLocalIdentity(inject('dynamoDbEndpoint'));
});
afterAll(async () => {
  await identity.stop();
});

describe('invite', () => {
  it('refuses a second invitation while one is pending', async () => {
    await invite({ email: 'twice@example.com', createdBy: BOOTSTRAP_CREATOR });
    await expect(invite({ email: 'twice@example.com', createdBy: BOOTSTRAP_CREATOR })).rejects.toThrow(
      API_MESSAGES.invitationExists,
    );
  });

  it('answers the invitation it made when the same create is sent again with its Idempotency-Key, and only then', async () => {
    const key = randomUUID();
    const admin = randomUUID();
    const first = await invite({ email: 'retried@example.com', createdBy: admin, requestKey: key });
    const again = await invite({ email: 'retried@example.com', createdBy: admin, requestKey: key });
    expect(again).toMatchObject(first);
    // Another key, no key, or the same key from another admin: a second invitation, refused.
    for (const other of [
      { createdBy: admin, requestKey: randomUUID() },
      { createdBy: admin },
      { createdBy: randomUUID(), requestKey: key },
    ])
      await expect(invite({ email: 'retried@example.com', ...other })).rejects.toThrow(
        API_MESSAGES.invitationExists,
      );
  });

  it('refuses an email whose owner completed activation', async () => {
    await activateUser('member@example.com');
    await expect(invite({ email: 'member@example.com', createdBy: BOOTSTRAP_CREATOR })).rejects.toThrow(
      API_MESSAGES.accountExists,
    );
  });

  it('is not blocked by a user an interrupted activation left behind (no profile, no passkey)', async () => {
    await identity.cognitoClient.send(
      new AdminCreateUserCommand({
        UserPoolId: USER_POOL_ID,
        Username: 'c1f8a7d2-3b4e-4f5a-8b6c-7d8e9f0a1b2c',
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: 'left-behind@example.com' },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    const invitation = await invite({ email: 'left-behind@example.com', createdBy: BOOTSTRAP_CREATOR });
    expect(invitation).toMatchObject({ email: 'left-behind@example.com', codeUsed: false, roles: ['users'] });
  });
});

describe('npm run invite -- --stage (bin/invite.ts)', () => {
  /** What the stage path sets: the environment holds nothing else of the stack while it runs. */
  const variables = ['USER_POOL_ID', ...TABLE_KEYS.map((key) => TABLES[key].envVar)];

  it("invites the first admin with nothing but what the stack's outputs name: the pool and every table", async () => {
    await activateUser('former@example.com');
    const saved = Object.fromEntries(variables.map((name) => [name, process.env[name]]));
    const outputs = new Map([
      [STACK_OUTPUTS.userPoolId, saved.USER_POOL_ID],
      [
        STACK_OUTPUTS.tableNames,
        JSON.stringify(Object.fromEntries(TABLE_KEYS.map((key) => [key, saved[TABLES[key].envVar]]))),
      ],
    ]);
    try {
      for (const name of variables) delete process.env[name];
      Object.assign(process.env, stageEnvironment(outputs, 'dev', 'us-west-2'));
      const before = await getDirectoryCounts();
      const invitation = await invite({
        email: 'first-admin@example.com',
        roles: ['admins'],
        createdBy: SYSTEM_CREATOR,
      });
      expect(invitation).toMatchObject({
        email: 'first-admin@example.com',
        roles: ['admins'],
        codeUsed: false,
      });
      expect(await getDirectoryCounts()).toEqual({
        ...before,
        pendingInvitations: before.pendingInvitations + 1,
      });
      // Someone who was a member already: found through the profiles.
      await expect(invite({ email: 'former@example.com', createdBy: SYSTEM_CREATOR })).rejects.toThrow(
        API_MESSAGES.accountExists,
      );
    } finally {
      Object.assign(process.env, saved);
    }
  });

  it('says which output a stack without it lacks, before anything is written', () => {
    const full = new Map([
      [STACK_OUTPUTS.userPoolId, 'us-west-2_AbCdEf'],
      [
        STACK_OUTPUTS.tableNames,
        JSON.stringify(Object.fromEntries(TABLE_KEYS.map((key) => [key, `dev-${key}`]))),
      ],
    ]);
    expect(stageEnvironment(full, 'dev', 'us-west-2')).toMatchObject({
      ACCOUNTS_TABLE: 'dev-accounts',
      AWS_REGION: 'us-west-2',
    });
    const old = new Map([[STACK_OUTPUTS.userPoolId, 'us-west-2_AbCdEf']]);
    expect(() => stageEnvironment(old, 'dev', 'us-west-2')).toThrow(
      'The stack of stage "dev" has no output TableNames: deploy it first.',
    );
    const partial = new Map([
      ...full,
      [STACK_OUTPUTS.tableNames, JSON.stringify({ invitations: 'dev-invitations' })],
    ]);
    expect(() => stageEnvironment(partial, 'dev', 'us-west-2')).toThrow(
      /names no \w+ table: deploy it again/,
    );
  });
});
