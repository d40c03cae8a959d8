/** The first admin of a fresh stack: the link is offered until an admin has really activated. */
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { ensureBootstrapAdmin } from '../../infra/local/bootstrap';
import { codeFromLink } from '../fixtures/http-client';
import { startLocalIdentity, USER_POOL_ID, type LocalIdentity } from '../fixtures/local-identity';
import { register, verifyCode, type VerifiedActivation } from '../fixtures/passkey-journeys';
import { SoftwareAuthenticator } from '../fixtures/software-authenticator';
import { expireInvitation, LOCAL_ORIGIN } from '../fixtures/aws-env';

let identity: LocalIdentity;
beforeAll(async () => {
  identity = await startLocalIdentity(inject('dynamoDbEndpoint'));
});
afterAll(async () => {
  await identity.stop();
});

describe('the bootstrap admin', () => {
  // Runs before an admin exists (the next test makes one).
  it('offers a new code once the invitation has expired, as a stack started again a week later would need', async () => {
    const link = await ensureBootstrapAdmin('late@example.com', LOCAL_ORIGIN);
    await expireInvitation(identity.tables.invitations, 'late@example.com', inject('dynamoDbEndpoint'));
    expect((await verifyCode('late@example.com', codeFromLink(link ?? ''))).body).toEqual({ valid: false });

    const renewed = await ensureBootstrapAdmin('late@example.com', LOCAL_ORIGIN);
    expect(renewed).toMatch(/^http:\/\/localhost:3000\/activate\?code=/);
    expect(renewed).not.toBe(link);
    expect((await verifyCode('late@example.com', codeFromLink(renewed ?? ''))).body).toMatchObject({
      valid: true,
    });
    // The old code stays refused, and the new link is offered again until it is used.
    expect((await verifyCode('late@example.com', codeFromLink(link ?? ''))).body).toEqual({ valid: false });
    expect(await ensureBootstrapAdmin('late@example.com', LOCAL_ORIGIN)).toBe(renewed);
  });

  it('keeps offering the same link while no admin has completed activation, then stops', async () => {
    const link = await ensureBootstrapAdmin('Boss@Example.com', LOCAL_ORIGIN);
    expect(link).toMatch(/^http:\/\/localhost:3000\/activate\?code=[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
    expect(await ensureBootstrapAdmin('boss@example.com', LOCAL_ORIGIN)).toBe(link);

    // A user who is in the admins group but never registered a passkey is not an admin yet.
    await identity.cognitoClient.send(
      new AdminCreateUserCommand({
        UserPoolId: USER_POOL_ID,
        Username: 'half-made',
        MessageAction: 'SUPPRESS',
      }),
    );
    await identity.cognitoClient.send(
      new AdminAddUserToGroupCommand({
        UserPoolId: USER_POOL_ID,
        Username: 'half-made',
        GroupName: 'admins',
      }),
    );
    expect(await ensureBootstrapAdmin('boss@example.com', LOCAL_ORIGIN)).toBe(link);

    const code = codeFromLink(link ?? '');
    const verified = (await verifyCode('boss@example.com', code)).body as VerifiedActivation;
    const response = new SoftwareAuthenticator(LOCAL_ORIGIN).createCredential(verified.registrationOptions);
    const registered = await register(
      { email: 'boss@example.com', activationCode: code, cognitoUsername: verified.cognitoUsername },
      response,
    );
    expect(registered.status).toBe(200);
    expect(await ensureBootstrapAdmin('boss@example.com', LOCAL_ORIGIN)).toBeUndefined();
  });
});
