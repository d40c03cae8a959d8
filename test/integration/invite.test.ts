/** Who can be invited: one pending invitation per email, and no one who already has an account. */
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
