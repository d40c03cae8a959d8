/**
 * Issue 11: an invitation activates only while the admin who created it, or last resent it, is still
 * an active admin; otherwise verify-activation answers `{valid:false}` like every other wrong answer,
 * and a registration already under way is refused. Invitations the operator made (`npm run invite`,
 * the bootstrap) have no admin whose standing could lapse: the bootstrap admin's activation in
 * `startPeople` goes through that path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVATION_EMAIL_FAILURES } from '../../shared/limits';
import { API_MESSAGES } from '../../shared/messages';
import { startPeople, type People } from '../fixtures/health-people';
import { interleave } from '../fixtures/interleave';
import { SoftwareAuthenticator } from '../fixtures/software-authenticator';

let world: People<'deputy'>;
beforeAll(async () => {
  world = await startPeople({ deputy: { email: 'deputy@example.com', roles: ['admins'] } });
}, 120_000);
afterAll(() => world?.stop());

const inviteAs = async (idToken: string, email: string) => {
  const answer = await world.http.request<{ activationCode: string }>(
    'POST',
    '/internal/v1/admin/invitations',
    {
      token: idToken,
      json: { email },
    },
  );
  expect(answer.status).toBe(201);
  return answer.body.activationCode;
};
const check = (email: string, activationCode: string) =>
  world.http.request<{ valid: boolean; cognitoUsername: string; registrationOptions: never }>(
    'POST',
    '/v1/auth/verify-activation',
    { json: { email, activationCode } },
  );
const setDeputy = (path: 'roles' | 'disable' | 'enable', json?: unknown) =>
  world.http.request(
    path === 'roles' ? 'PUT' : 'POST',
    `/internal/v1/admin/users/${world.people.deputy.userId}/${path}`,
    { token: world.admin.idToken, ...(json !== undefined && { json }) },
  );

describe('invitations and the standing of the admin who issued them', () => {
  it("voids a demoted admin's invitations until another admin resends them", async () => {
    const code = await inviteAs(world.people.deputy.idToken, 'by.deputy@example.com');
    expect((await check('by.deputy@example.com', code)).body.valid).toBe(true);

    expect((await setDeputy('roles', { roles: ['users'] })).status).toBe(200);
    expect((await check('by.deputy@example.com', code)).body).toEqual({ valid: false });
    // Refused attempts leave a trace: the email and the reason, never the code.
    const failed = (await world.scan('auditEvents')).filter((event) => event.type === 'activation.failed');
    expect(failed.map((event) => event.details)).toEqual([
      { email: 'by.deputy@example.com', reason: 'issuer-not-admin' },
    ]);
    expect(JSON.stringify(failed)).not.toContain(code);

    const resent = await world.http.request<{ activationCode: string }>(
      'POST',
      '/internal/v1/admin/invitations/by.deputy%40example.com/resend',
      { token: world.admin.idToken },
    );
    expect((await check('by.deputy@example.com', resent.body.activationCode)).body.valid).toBe(true);
    const person = await world.http.activate('by.deputy@example.com', resent.body.activationCode);
    expect(person.userId).toBeTruthy();
  });

  it('refuses a registration under way when its admin is disabled meanwhile, and accepts it again once they are enabled', async () => {
    expect((await setDeputy('roles', { roles: ['admins'] })).status).toBe(200);
    const deputyToken =
      (await world.http.signIn(world.people.deputy.authenticator as SoftwareAuthenticator)).idToken ?? '';
    const code = await inviteAs(deputyToken, 'midway@example.com');
    const verified = await check('midway@example.com', code);
    expect(verified.body.valid).toBe(true);

    expect((await setDeputy('disable')).status).toBe(200);
    const device = new SoftwareAuthenticator(world.stack.origin);
    const registration = {
      email: 'midway@example.com',
      activationCode: code,
      cognitoUsername: verified.body.cognitoUsername,
      registrationResponse: device.createCredential(verified.body.registrationOptions),
    };
    const refused = await world.http.request('POST', '/v1/auth/register-passkey', { json: registration });
    expect(refused).toMatchObject({ status: 400, body: { message: API_MESSAGES.registrationFailed } });
    expect(
      (await world.scan('passkeys')).some(
        (item) => item.credentialId === registration.registrationResponse.id,
      ),
    ).toBe(false);

    expect((await setDeputy('enable')).status).toBe(200);
    const accepted = await world.http.request('POST', '/v1/auth/register-passkey', { json: registration });
    expect(accepted.status).toBe(200);
  });

  it('refuses a registration whose admin is demoted after its checks, before it commits', async () => {
    expect((await setDeputy('roles', { roles: ['admins'] })).status).toBe(200);
    const deputyToken =
      (await world.http.signIn(world.people.deputy.authenticator as SoftwareAuthenticator)).idToken ?? '';
    const code = await inviteAs(deputyToken, 'raced.issuer@example.com');
    const demoted = await interleave('TransactWriteItemsCommand', 'activation.completed', async () => {
      expect((await setDeputy('roles', { roles: ['users'] })).status).toBe(200);
    });
    try {
      await expect(world.http.activate('raced.issuer@example.com', code)).rejects.toThrow(
        /registration failed with 400/,
      );
      expect(demoted.fired()).toBe(true);
    } finally {
      demoted.remove();
    }
    expect((await world.scan('accounts')).some((item) => item.email === 'raced.issuer@example.com')).toBe(
      false,
    );
    expect((await check('raced.issuer@example.com', code)).body).toEqual({ valid: false });
  });

  it('voids a recovery code once the admin who issued it is demoted, and refuses a recovery under way when it happens meanwhile', async () => {
    expect((await setDeputy('roles', { roles: ['admins'] })).status).toBe(200);
    const deputyToken = async () =>
      (await world.http.signIn(world.people.deputy.authenticator as SoftwareAuthenticator)).idToken ?? '';
    const target = await world.http.activate(
      'recovered@example.com',
      await inviteAs(world.admin.idToken, 'recovered@example.com'),
    );
    const issue = async () => {
      const answer = await world.http.request<{ activationCode: string }>(
        'POST',
        `/internal/v1/admin/users/${target.userId}/recovery`,
        { token: await deputyToken() },
      );
      expect(answer.status).toBe(201);
      return answer.body.activationCode;
    };

    // Demoted before the code is used: the code answers like a wrong one.
    const code = await issue();
    expect((await check('recovered@example.com', code)).body.valid).toBe(true);
    expect((await setDeputy('roles', { roles: ['users'] })).status).toBe(200);
    expect((await check('recovered@example.com', code)).body).toEqual({ valid: false });
    await expect(world.http.activate('recovered@example.com', code)).rejects.toThrow(
      'activation code for recovered@example.com rejected',
    );
    // A right code refused is not a wrong one: tried on past the email's limit, it locks nothing, and
    // a code from another admin works at once.
    for (let i = 0; i < ACTIVATION_EMAIL_FAILURES.limit; i += 1)
      expect(await check('recovered@example.com', code)).toEqual(
        expect.objectContaining({ status: 200, body: { valid: false } }),
      );
    const refusals = (await world.scan('auditEvents')).filter(
      (event) =>
        event.type === 'activation.failed' &&
        (event.details as { email?: string }).email === 'recovered@example.com',
    );
    expect(refusals.map((event) => (event.details as { reason: string }).reason)).toEqual(
      Array.from({ length: ACTIVATION_EMAIL_FAILURES.limit + 2 }, () => 'recovery-refused'),
    );
    const fromAdmin = await world.http.request<{ activationCode: string }>(
      'POST',
      `/internal/v1/admin/users/${target.userId}/recovery`,
      { token: world.admin.idToken },
    );
    expect(fromAdmin.status).toBe(201);
    expect((await check('recovered@example.com', fromAdmin.body.activationCode)).body.valid).toBe(true);

    // Demoted while the registration is under way: refused, and the person keeps their passkey.
    expect((await setDeputy('roles', { roles: ['admins'] })).status).toBe(200);
    const midway = await issue();
    const verified = await check('recovered@example.com', midway);
    expect(verified.body.valid).toBe(true);
    expect((await setDeputy('roles', { roles: ['users'] })).status).toBe(200);
    const device = new SoftwareAuthenticator(world.stack.origin);
    const refused = await world.http.request('POST', '/v1/auth/register-passkey', {
      json: {
        email: 'recovered@example.com',
        activationCode: midway,
        cognitoUsername: verified.body.cognitoUsername,
        registrationResponse: device.createCredential(verified.body.registrationOptions),
      },
    });
    expect(refused).toMatchObject({ status: 400, body: { message: API_MESSAGES.registrationFailed } });
    expect((await world.http.signIn(target.authenticator)).idToken).toBeTruthy();
  });
});
