/**
 * The sign-in chain end to end on real parts: DynamoDB Local, the local Cognito endpoint with the
 * real triggers, the real Lambda handlers, a software authenticator. And every way an attacker
 * might try to break it, each rejected with nothing written.
 */
import {
  InitiateAuthCommand,
  InvalidParameterException,
  NotAuthorizedException,
} from '@aws-sdk/client-cognito-identity-provider';
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { localJwksFetcher } from '../../infra/local/cognito/jwks-fetcher';
import { invite } from '../../lambdas/common/invite';
import { deletePendingInvitation, getInvitation } from '../../lambdas/common/repositories/invitations';
import { PASSKEY_PROOF_TTL_SECONDS } from '../../shared/constants';
import { API_MESSAGES } from '../../shared/messages';
import { LOCAL_ORIGIN } from '../fixtures/aws-env';
import { CLIENT_ID, startLocalIdentity, type LocalIdentity } from '../fixtures/local-identity';
import {
  activateUser,
  BOOTSTRAP_CREATOR,
  passkeySignin,
  register,
  startSignin,
  verifyAssertion,
  verifyCode,
  type VerifiedActivation,
} from '../fixtures/passkey-journeys';
import { SoftwareAuthenticator } from '../fixtures/software-authenticator';

let identity: LocalIdentity;
let counter = 0;
const nextEmail = (label: string) => `${label}.${++counter}@example.com`;

beforeAll(async () => {
  identity = await startLocalIdentity(inject('dynamoDbEndpoint'));
});
afterAll(async () => {
  await identity.stop();
});
afterEach(() => {
  vi.useRealTimers();
});

const expectNotAuthorized = async (attempt: Promise<unknown>) => {
  await expect(attempt).rejects.toBeInstanceOf(NotAuthorizedException);
};

describe('the passkey sign-in chain', () => {
  it('takes an invitation to a verified id token that carries the invitation group', async () => {
    const user = await activateUser(nextEmail('coach'), ['coaches']);

    const { answer } = await passkeySignin(user.authenticator);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ userId: user.userId, cognitoUsername: user.cognitoUsername });

    const tokens = await identity.customAuth(user.cognitoUsername, answer.body.passkeyProof);
    const verifier = JwtRsaVerifier.create(
      { issuer: identity.cognito.issuer, audience: CLIENT_ID, jwksUri: identity.cognito.jwksUri },
      { jwksCache: new SimpleJwksCache({ fetcher: localJwksFetcher }) },
    );
    const claims = await verifier.verify(tokens.IdToken ?? '');
    expect(claims).toMatchObject({
      sub: user.userId,
      'cognito:username': user.cognitoUsername,
      'cognito:groups': ['coaches'],
      email: user.email,
      token_use: 'id',
    });
  });

  it('answers a proof at registration that signs the new user in with no second prompt', async () => {
    const user = await activateUser(nextEmail('new'));
    const tokens = await identity.customAuth(user.cognitoUsername, user.passkeyProof);
    expect(tokens.IdToken).toBeTruthy();
  });
});

describe('user existence', () => {
  it('answers InitiateAuth the same for a member, a stranger and an email, and never signs a stranger in', async () => {
    const member = await activateUser(nextEmail('member'));
    const stranger = '3f0c1f5e-8a4b-4c55-9d7e-0a1b2c3d4e5f';
    const first = async (username: string) =>
      identity.cognitoClient.send(
        new InitiateAuthCommand({
          AuthFlow: 'CUSTOM_AUTH',
          ClientId: CLIENT_ID,
          AuthParameters: { USERNAME: username },
        }),
      );
    for (const username of [member.cognitoUsername, stranger, member.email]) {
      const answer = await first(username);
      expect(answer.ChallengeName).toBe('CUSTOM_CHALLENGE');
      // Only the name that was given comes back: no email is resolved to a username.
      expect(answer.ChallengeParameters).toEqual({ type: 'PASSKEY_PROOF', USERNAME: username });
    }
    const before = await identity.snapshot();
    await expectNotAuthorized(identity.customAuth(stranger, member.passkeyProof));
    await expectNotAuthorized(identity.customAuth(member.email, member.passkeyProof));
    expect(await identity.snapshot()).toEqual(before);
    // The member's unused proof still works for the member.
    await expect(identity.customAuth(member.cognitoUsername, member.passkeyProof)).resolves.toHaveProperty(
      'IdToken',
    );
  });
});

describe('proofs', () => {
  it('rejects a replayed proof', async () => {
    const user = await activateUser(nextEmail('replay'));
    await identity.customAuth(user.cognitoUsername, user.passkeyProof);
    const before = await identity.snapshot();
    await expectNotAuthorized(identity.customAuth(user.cognitoUsername, user.passkeyProof));
    expect(await identity.snapshot()).toEqual(before);
  });

  it("rejects a proof offered for another user, and leaves the owner's proof usable", async () => {
    const victim = await activateUser(nextEmail('victim'));
    const attacker = await activateUser(nextEmail('attacker'));
    const before = await identity.snapshot();
    await expectNotAuthorized(identity.customAuth(victim.cognitoUsername, attacker.passkeyProof));
    expect(await identity.snapshot()).toEqual(before);
    await expect(
      identity.customAuth(attacker.cognitoUsername, attacker.passkeyProof),
    ).resolves.toHaveProperty('IdToken');
  });

  it('rejects an expired proof', async () => {
    const user = await activateUser(nextEmail('late'));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (PASSKEY_PROOF_TTL_SECONDS + 1) * 1000 });
    const before = await identity.snapshot();
    await expectNotAuthorized(identity.customAuth(user.cognitoUsername, user.passkeyProof));
    expect(await identity.snapshot()).toEqual(before);
  });

  it('rejects a forged proof', async () => {
    const user = await activateUser(nextEmail('forged'));
    const before = await identity.snapshot();
    await expectNotAuthorized(identity.customAuth(user.cognitoUsername, 'A'.repeat(43)));
    await expectNotAuthorized(identity.customAuth(user.cognitoUsername, 'not a proof'));
    // Cognito itself refuses an empty answer before any trigger runs.
    const empty = identity.customAuth(user.cognitoUsername, '');
    await expect(empty).rejects.toBeInstanceOf(InvalidParameterException);
    await expect(empty).rejects.toThrow('Missing required parameter ANSWER');
    expect(await identity.snapshot()).toEqual(before);
  });
});

describe('sign-in assertions', () => {
  it('rejects a replayed authentication response, in the same and in a new session', async () => {
    const user = await activateUser(nextEmail('assert'));
    const { sessionId, assertion, answer } = await passkeySignin(user.authenticator);
    expect(answer.status).toBe(200);
    const before = await identity.snapshot();

    expect((await verifyAssertion(sessionId, assertion)).status).toBe(401);
    const fresh = await startSignin();
    expect((await verifyAssertion(fresh.sessionId, assertion)).status).toBe(401);
    // The second session came and went; nothing else changed.
    expect(await identity.snapshot()).toEqual(before);
  });

  it('spends a session on its first use, even a failed one', async () => {
    const user = await activateUser(nextEmail('session'));
    const { sessionId, authenticationOptions } = await startSignin();
    const bad = user.authenticator.getAssertion(authenticationOptions, { userVerified: false });
    expect((await verifyAssertion(sessionId, bad)).status).toBe(401);
    const good = user.authenticator.getAssertion(authenticationOptions);
    const second = await verifyAssertion(sessionId, good);
    expect(second.status).toBe(401);
    expect(second.body.passkeyProof).toBeUndefined();
  });

  it.each([
    ['another origin', { origin: 'http://evil.example' }, 'assertion-invalid'],
    ['no user verification (UV=0)', { userVerified: false }, 'assertion-invalid'],
    ['a forged signature', { forgeSignature: true }, 'assertion-invalid'],
    [
      'a challenge the server never issued',
      { challenge: 'bm90LWlzc3VlZC1ieS10aGUtc2VydmVy' },
      'assertion-invalid',
    ],
    ['a user handle that belongs to no one', { userHandle: 'c29tZW9uZS1lbHNl' }, 'user-handle-mismatch'],
  ])('rejects an assertion with %s, issues no proof, and records the reason', async (_, options, reason) => {
    const user = await activateUser(nextEmail('bad-assert'));
    const before = await identity.snapshot();
    const logged = (await identity.auditEvents()).length;
    const { sessionId, authenticationOptions } = await startSignin();
    const assertion = user.authenticator.getAssertion(authenticationOptions, options);
    const answer = await verifyAssertion(sessionId, assertion);
    expect(answer.status).toBe(401);
    expect(answer.body.passkeyProof).toBeUndefined();
    // The session came and went; nothing else changed (the signature counter did not move).
    expect(await identity.snapshot()).toEqual(before);
    const added = (await identity.auditEvents()).slice(logged);
    expect(added).toMatchObject([
      { type: 'signin.failed', outcome: 'failure', subjectId: user.userId, details: { reason } },
    ]);
  });

  it("rejects an assertion that claims another user's handle", async () => {
    const victim = await activateUser(nextEmail('handle-victim'));
    const attacker = await activateUser(nextEmail('handle-attacker'));
    const victimHandle = victim.authenticator.credentials[0]?.userHandle ?? '';
    expect(victimHandle).not.toBe(attacker.authenticator.credentials[0]?.userHandle);
    const before = await identity.snapshot();
    const { answer } = await passkeySignin(attacker.authenticator, { userHandle: victimHandle });
    expect(answer.status).toBe(401);
    expect(answer.body.passkeyProof).toBeUndefined();
    expect(await identity.snapshot()).toEqual(before);
  });

  /** A device holding a passkey this server never registered. */
  const strangerDevice = () => {
    const device = new SoftwareAuthenticator(LOCAL_ORIGIN);
    device.createCredential({
      challenge: 'eA',
      rp: { id: 'localhost', name: 'x' },
      user: { id: 'dXNlcg', name: 'u', displayName: 'u' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    });
    return device;
  };

  it('rejects an unknown credential', async () => {
    const stranger = strangerDevice();
    const logged = (await identity.auditEvents()).length;
    const { answer } = await passkeySignin(stranger);
    expect(answer.status).toBe(401);
    const added = (await identity.auditEvents()).slice(logged);
    expect(added).toEqual([
      expect.objectContaining({ type: 'signin.failed', details: { reason: 'unknown-credential' } }),
    ]);
    expect(added[0]?.subjectId).toBeUndefined();
  });

  it('answers a credential id longer than any passkey may have (4,000 bytes, past a DynamoDB key) as unknown, not a server error', async () => {
    const stranger = strangerDevice();
    const { sessionId, authenticationOptions } = await startSignin();
    const assertion = stranger.getAssertion(authenticationOptions);
    const tooLong = Buffer.alloc(4000, 7).toString('base64url');
    const logged = (await identity.auditEvents()).length;
    const answer = await verifyAssertion(sessionId, { ...assertion, id: tooLong, rawId: tooLong });
    expect(answer).toMatchObject({
      status: 401,
      body: { message: API_MESSAGES.signInFailed, unknownCredential: true },
    });
    expect((await identity.auditEvents()).slice(logged)).toEqual([
      expect.objectContaining({ type: 'signin.failed', details: { reason: 'unknown-credential' } }),
    ]);
  });
});

describe('registration', () => {
  const prepare = async (label: string) => {
    const email = nextEmail(label);
    const invitation = await invite({ email, roles: ['users'], createdBy: BOOTSTRAP_CREATOR });
    const verified = (await verifyCode(email, invitation.activationCode)).body as VerifiedActivation;
    const body = {
      email,
      activationCode: invitation.activationCode,
      cognitoUsername: verified.cognitoUsername,
      expectedChallenge: verified.registrationOptions.challenge,
    };
    return { email, body, options: verified.registrationOptions };
  };

  it.each([
    ['an origin of http://evil.example', { origin: 'http://evil.example' }],
    ['UV=0', { userVerified: false }],
    ['a challenge the server never issued', { challenge: 'bm90LWlzc3VlZC1ieS10aGUtc2VydmVy' }],
  ])('rejects a registration with %s and writes nothing', async (_, ceremony) => {
    const { email, body, options } = await prepare('reg');
    const response = new SoftwareAuthenticator(LOCAL_ORIGIN).createCredential(options, ceremony);
    const before = await identity.snapshot();
    const answer = await register(body, response);
    expect(answer.status).toBe(400);
    expect(answer.body.passkeyProof).toBeUndefined();
    expect(await identity.snapshot()).toEqual(before);
    expect((await getInvitation(email))?.codeUsed).toBe(false);
  });

  it('rejects a client-chosen challenge even when the client names it as expected', async () => {
    const { body, options } = await prepare('own-challenge');
    const forged = 'Y2xpZW50LWNob3Nlbi1jaGFsbGVuZ2U';
    const response = new SoftwareAuthenticator(LOCAL_ORIGIN).createCredential(options, { challenge: forged });
    const before = await identity.snapshot();
    expect((await register({ ...body, expectedChallenge: forged }, response)).status).toBe(400);
    expect(await identity.snapshot()).toEqual(before);
  });

  it('lets exactly one of four concurrent registrations with one code win', async () => {
    const { email, body, options } = await prepare('race');
    const devices = Array.from({ length: 4 }, () =>
      new SoftwareAuthenticator(LOCAL_ORIGIN).createCredential(options),
    );
    const answers = await Promise.all(devices.map((device) => register(body, device)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    const snapshot = (await identity.snapshot()) as Record<string, string[]>;
    const stored = (snapshot.passkeys ?? []).filter((item) => item.includes(body.cognitoUsername));
    expect(stored).toHaveLength(1);
    expect((await getInvitation(email))?.codeUsed).toBe(true);

    const later = new SoftwareAuthenticator(LOCAL_ORIGIN).createCredential(options);
    expect((await register(body, later)).status).toBe(409);
  });
});

describe('verify-activation', () => {
  it('gives the same {valid:false} for a wrong code, an unknown email, a used code and a deleted invitation', async () => {
    const pendingEmail = nextEmail('pending');
    const pending = await invite({ email: pendingEmail, createdBy: BOOTSTRAP_CREATOR });
    const deletedEmail = nextEmail('deleted');
    const deleted = await invite({ email: deletedEmail, createdBy: BOOTSTRAP_CREATOR });
    await deletePendingInvitation(deletedEmail);
    const used = await activateUser(nextEmail('used'));
    const usedCode = (await getInvitation(used.email))?.activationCode ?? '';
    const wrongCode = pending.activationCode.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));

    const before = await identity.snapshot();
    const answers = await Promise.all([
      verifyCode(pendingEmail, wrongCode),
      verifyCode(nextEmail('nobody'), pending.activationCode),
      verifyCode(deletedEmail, deleted.activationCode),
      verifyCode(used.email, usedCode),
      verifyCode(pendingEmail),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ valid: false });
    }
    expect(await identity.snapshot()).toEqual(before);
  });

  it('accepts the code in any case, with or without dashes, and reuses one Cognito user on retry', async () => {
    const email = nextEmail('mixed');
    const invitation = await invite({ email, createdBy: BOOTSTRAP_CREATOR });
    const dashed = invitation.activationCode.toLowerCase().replace(/(.{4})(?!$)/g, '$1-');
    const first = await verifyCode(email.toUpperCase(), dashed);
    const second = await verifyCode(email, invitation.activationCode);
    expect(first.body.valid).toBe(true);
    expect(second.body.valid).toBe(true);
    const usernames = [first.body, second.body].map((b) => (b as VerifiedActivation).cognitoUsername);
    expect(usernames[0]).toBe(usernames[1]);
    expect(usernames[0]).toMatch(/^[0-9a-f-]{36}$/);
    const options = (first.body as VerifiedActivation).registrationOptions;
    expect(options.authenticatorSelection).toMatchObject({
      authenticatorAttachment: 'platform',
      residentKey: 'required',
      userVerification: 'required',
    });
    // The WebAuthn user handle is random, not the email.
    const handle = Buffer.from(options.user.id, 'base64url');
    expect(handle).toHaveLength(32);
    expect(handle.toString('latin1')).not.toContain(email);
  });
});
