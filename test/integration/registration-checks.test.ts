/**
 * Issue 11's WebAuthn registration checks on the local stack, with the software authenticator:
 * a credential id over 1023 bytes (W3C WebAuthn Level 3, section 7.1) and a `rawId` other than `id`
 * are refused and change nothing; the BE and BS flags are recorded, and an assertion whose BE flag
 * differs from the one registered is refused (section 7.2) with its reason in the audit log.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passkey } from '../../shared/account';
import { API_MESSAGES } from '../../shared/messages';
import { userProfileSchema } from '../../shared/schemas';
import { localDocuments } from '../fixtures/aws-env';
import { startPeople, type People } from '../fixtures/health-people';
import { SoftwareAuthenticator, type CeremonyOptions } from '../fixtures/software-authenticator';

let world: People<never>;
beforeAll(async () => {
  world = await startPeople({});
}, 120_000);
afterAll(() => world?.stop());

const invite = async (email: string) =>
  (
    await world.http.request<{ activationCode: string }>('POST', '/internal/v1/admin/invitations', {
      token: world.admin.idToken,
      json: { email },
    })
  ).body.activationCode;

/** Activation with a passkey made with these ceremony options; answers the registration's answer. */
const activateWith = async (
  email: string,
  code: string,
  options: CeremonyOptions,
  profile: { timezone?: string; locale?: string } = {},
) => {
  const verified = await world.http.request<{ cognitoUsername: string; registrationOptions: never }>(
    'POST',
    '/v1/auth/verify-activation',
    { json: { email, activationCode: code } },
  );
  const device = new SoftwareAuthenticator(world.stack.origin);
  const answer = await world.http.request<{ cognitoUsername: string; passkeyProof: string }>(
    'POST',
    '/v1/auth/register-passkey',
    {
      json: {
        email,
        activationCode: code,
        cognitoUsername: verified.body.cognitoUsername,
        registrationResponse: device.createCredential(verified.body.registrationOptions, options),
        ...profile,
      },
    },
  );
  return { device, answer };
};

const refused = { status: 400, body: { message: API_MESSAGES.registrationFailed } };
const pendingInvitation = async (email: string) =>
  (await world.scan('invitations')).find((item) => item.email === email)?.codeUsed;

describe('an email as long as an email may be (254 characters)', () => {
  it('is invited, activates with a profile its own page can read, and cannot be invited again', async () => {
    // Longer than Cognito's 256-character filter allows once quoted, and than a name may be.
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(53)}.example`;
    expect(email).toHaveLength(254);
    const code = await invite(email);
    expect(code).toMatch(/^[A-Z0-9]{16}$/);
    const person = await world.http.activate(email, code);
    const me = await world.http.request('GET', '/v1/users/me', { token: person.idToken });
    expect(me.status).toBe(200);
    expect(userProfileSchema.safeParse(me.body).success).toBe(true);
    expect(me.body).toMatchObject({ email, name: email.slice(0, 200) });

    // Asked of Cognito, not of the spent invitation (taken away here): the account is found.
    const documents = localDocuments();
    await documents.send(new DeleteCommand({ TableName: world.stack.tables.invitations, Key: { email } }));
    documents.destroy();
    const again = await world.http.request('POST', '/internal/v1/admin/invitations', {
      token: world.admin.idToken,
      json: { email },
    });
    expect(again).toMatchObject({ status: 409, body: { message: API_MESSAGES.accountExists } });
    // An email that differs only in its last letter is someone else, and may be invited.
    const neighbour = `${email.slice(0, -1)}x`;
    const invited = await world.http.request('POST', '/internal/v1/admin/invitations', {
      token: world.admin.idToken,
      json: { email: neighbour },
    });
    expect(invited.status).toBe(201);
  });
});

describe('registration checks', () => {
  it("writes the browser's time zone and language into the new profile, UTC and en-US for ones unknown", async () => {
    const profileAfter = async (email: string, hints: { timezone?: string; locale?: string }) => {
      const activated = await activateWith(email, await invite(email), {}, hints);
      expect(activated.answer.status).toBe(200);
      const person = await world.http.signIn(activated.device);
      return (await world.http.request('GET', '/v1/users/me', { token: person.idToken })).body;
    };
    expect(
      await profileAfter('berlin@example.com', { timezone: 'Europe/Berlin', locale: 'de-DE' }),
    ).toMatchObject({ timezone: 'Europe/Berlin', locale: 'de-DE' });
    // A browser's time-zone data may be newer than the server's: a hint never stops an activation.
    expect(
      await profileAfter('mars@example.com', { timezone: 'Mars/Olympus_Mons', locale: 'not a language' }),
    ).toMatchObject({ timezone: 'UTC', locale: 'en-US' });
  });

  it('refuses a credential id longer than 1023 bytes and accepts one of 1023, at activation', async () => {
    const code = await invite('long.id@example.com');
    const before = await world.scan('passkeys');
    const tooLong = await activateWith('long.id@example.com', code, { credentialIdBytes: 1024 });
    expect(tooLong.answer).toMatchObject(refused);
    expect(await world.scan('passkeys')).toEqual(before);
    expect(await pendingInvitation('long.id@example.com')).toBe(false);
    const failures = (await world.scan('auditEvents')).filter((event) => event.type === 'activation.failed');
    expect(failures.map((event) => event.details)).toEqual([
      { email: 'long.id@example.com', reason: 'registration-refused' },
    ]);
    const wrong = await world.http.request('POST', '/v1/auth/verify-activation', {
      json: { email: 'long.id@example.com', activationCode: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ' },
    });
    expect(wrong.body).toEqual({ valid: false });
    const afterWrong = (await world.scan('auditEvents')).filter(
      (event) => event.type === 'activation.failed',
    );
    expect(afterWrong.map((event) => event.details)).toContainEqual({
      email: 'long.id@example.com',
      reason: 'wrong-code',
    });
    expect(JSON.stringify(afterWrong)).not.toContain('ZZZZ');

    const longest = await activateWith('long.id@example.com', code, { credentialIdBytes: 1023 });
    expect(longest.answer.status).toBe(200);
    const signedIn = await world.http.signIn(longest.device);
    expect(signedIn.idToken).toBeTruthy();
  });

  it('refuses a credential id over 1023 bytes when a signed-in person adds a passkey', async () => {
    const code = await invite('adds.long@example.com');
    const { device } = await activateWith('adds.long@example.com', code, {});
    const { idToken } = await world.http.signIn(device);
    const options = await world.http.request<never>('POST', '/v1/users/me/passkeys/options', {
      token: idToken,
    });
    const second = new SoftwareAuthenticator(world.stack.origin);
    const answer = await world.http.request('POST', '/v1/users/me/passkeys', {
      token: idToken,
      json: { registrationResponse: second.createCredential(options.body, { credentialIdBytes: 1024 }) },
    });
    expect(answer).toMatchObject(refused);
    const list = await world.http.request<{ passkeys: Passkey[] }>('GET', '/v1/users/me/passkeys', {
      token: idToken,
    });
    expect(list.body.passkeys).toHaveLength(1);
  });

  it('lists passkeys with the user handle the registration options name the account by', async () => {
    const code = await invite('handle@example.com');
    const { device } = await activateWith('handle@example.com', code, {});
    const { idToken } = await world.http.signIn(device);
    const options = await world.http.request<{ user: { id: string } }>(
      'POST',
      '/v1/users/me/passkeys/options',
      { token: idToken },
    );
    const list = await world.http.request<{ passkeys: Passkey[]; userHandle?: string }>(
      'GET',
      '/v1/users/me/passkeys',
      { token: idToken },
    );
    // The browser's Signal API knows the account by this handle alone: the list gives it after any change.
    expect(list.body.userHandle).toMatch(/^[\w-]{16,}$/);
    expect(list.body.userHandle).toBe(options.body.user.id);
    const [account] = (await world.scan('accounts')).filter((item) => item.email === 'handle@example.com');
    expect(list.body.userHandle).toBe(account?.userHandle);
  });

  it('refuses a registration whose rawId is not its id', async () => {
    const code = await invite('raw.id@example.com');
    const before = await world.scan('passkeys');
    const { answer } = await activateWith('raw.id@example.com', code, { mismatchRawId: true });
    expect(answer).toMatchObject(refused);
    expect(await world.scan('passkeys')).toEqual(before);
    expect(await pendingInvitation('raw.id@example.com')).toBe(false);
  });

  it('records BE and BS, and refuses an assertion whose BE flag differs from the registered one', async () => {
    const code = await invite('synced@example.com');
    const { device, answer } = await activateWith('synced@example.com', code, {
      backupEligible: true,
      backedUp: false,
    });
    expect(answer.status).toBe(200);
    const [stored] = (await world.scan('passkeys')).filter(
      (item) => item.userId !== undefined && item.backupEligible === true,
    );
    expect(stored).toMatchObject({ backupEligible: true, backedUp: false });

    // Now backed up (BS set): allowed, and recorded.
    const started = await world.http.request<{ sessionId: string; authenticationOptions: never }>(
      'POST',
      '/v1/auth/initiate-signin',
      { json: {} },
    );
    const synced = await world.http.request('POST', '/v1/auth/verify-webauthn', {
      json: {
        sessionId: started.body.sessionId,
        authenticationResponse: device.getAssertion(started.body.authenticationOptions, {
          backupEligible: true,
          backedUp: true,
        }),
      },
    });
    expect(synced.status).toBe(200);
    const after = (await world.scan('passkeys')).find((item) => item.credentialId === stored?.credentialId);
    expect(after).toMatchObject({ backupEligible: true, backedUp: true });

    // The same credential claiming not to be backup eligible: refused, with its reason logged.
    const again = await world.http.request<{ sessionId: string; authenticationOptions: never }>(
      'POST',
      '/v1/auth/initiate-signin',
      { json: {} },
    );
    const flipped = await world.http.request('POST', '/v1/auth/verify-webauthn', {
      json: {
        sessionId: again.body.sessionId,
        authenticationResponse: device.getAssertion(again.body.authenticationOptions, {
          backupEligible: false,
        }),
      },
    });
    expect(flipped).toMatchObject({ status: 401, body: { message: API_MESSAGES.signInFailed } });
    const events = (await world.scan('auditEvents')).filter(
      (event) => event.type === 'signin.failed' && event.subjectId === stored?.userId,
    );
    expect(events.map((event) => (event.details as { reason: string }).reason)).toEqual([
      'backup-eligibility-changed',
    ]);
  });
});
