/** Who can be invited: one pending invitation per email, and no one who already has an account. */
import { randomUUID } from 'node:crypto';
import { AdminCreateUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { invite } from '../../lambdas/common/invite';
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
