/**
 * `npm run bench` (fourth part), issue 11: 200 concurrent passkey sign-ins through the local stack
 * (DynamoDB Local, the local Cognito endpoint, the real handlers; loopback only) from 20 people, each
 * person's client bound to a loopback source address of its own (127.0.0.2 to 127.0.0.21; Linux routes
 * all of 127.0.0.0/8 to loopback), so the per-IP limits of SPEC-2 section 5 see 20 clients. Every
 * sign-in is the whole chain a browser makes: initiate-signin, the passkey assertion, verify-webauthn,
 * Cognito's CUSTOM_AUTH and the proof as the answer. Fails on any error or 429; prints p50/p95/p99.
 *
 * Seeding: the people are invited by the admin route and activate from their own address with a
 * synced passkey (counter 0, as iCloud Keychain and Google report: ten sign-ins of one person at once
 * arrive in any order).
 */
import { Agent } from 'node:http';
import { resolve } from 'node:path';
import { hardLimit, ms, startBenchStack } from './bench-support';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';
const { CognitoIdentityProviderClient } = await import('@aws-sdk/client-cognito-identity-provider');
const { LOCAL_CLIENT_ID } = await import('../infra/local/stack');
const { customAuth } = await import('../test/fixtures/custom-auth');
const { loopbackClient } = await import('../test/fixtures/loopback-client');
const { SoftwareAuthenticator } = await import('../test/fixtures/software-authenticator');

const PEOPLE = 20;
const SIGN_INS = 200;
const HARD_LIMIT_MS = 4 * 60_000;
const SYNCED = { backupEligible: true, backedUp: true } as const;
const root = resolve(import.meta.dirname, '..');
hardLimit(HARD_LIMIT_MS);

type Json = Record<string, unknown>;

const { stack, http: admin, admin: adminTokens, stop } = await startBenchStack(root);

/** One person's device: its own source address for the API and for Cognito. */
const deviceOf = (index: number) => {
  const address = `127.0.0.${index + 2}`;
  const api = loopbackClient(stack.origin, address);
  const agent = new Agent({ keepAlive: true, localAddress: address });
  const cognito = new CognitoIdentityProviderClient({
    endpoint: `${stack.origin}/cognito`,
    region: 'us-west-2',
    requestHandler: { httpAgent: agent },
    // Public calls only (sign-in); Cognito signs nothing here.
    credentials: { accessKeyId: 'none', secretAccessKey: 'none' },
  });
  const authenticator = new SoftwareAuthenticator(stack.origin);
  const post = async (path: string, json: Json): Promise<Json> => {
    const answer = await api.post(path, json);
    if (answer.status !== 200)
      throw new Error(`${path} from ${address}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  return {
    address,
    authenticator,
    post,
    cognito,
    close: () => {
      api.close();
      cognito.destroy();
      agent.destroy();
    },
  };
};
type Device = ReturnType<typeof deviceOf>;

const activate = async (device: Device, email: string, activationCode: string) => {
  const verified = await device.post('/v1/auth/verify-activation', { email, activationCode });
  const options = verified.registrationOptions as Parameters<Device['authenticator']['createCredential']>[0];
  const registered = await device.post('/v1/auth/register-passkey', {
    email,
    activationCode,
    cognitoUsername: verified.cognitoUsername,
    expectedChallenge: options.challenge,
    registrationResponse: device.authenticator.createCredential(options, SYNCED),
  });
  await customAuth(
    device.cognito,
    LOCAL_CLIENT_ID,
    String(registered.cognitoUsername),
    String(registered.passkeyProof),
  );
};

/** One whole passkey sign-in, as the SPA makes it; answers its duration in ms. */
const signIn = async (device: Device): Promise<number> => {
  const started = performance.now();
  const start = await device.post('/v1/auth/initiate-signin', {});
  const options = start.authenticationOptions as Parameters<Device['authenticator']['getAssertion']>[0];
  const verified = await device.post('/v1/auth/verify-webauthn', {
    sessionId: start.sessionId,
    authenticationResponse: device.authenticator.getAssertion(options, { ...SYNCED, zeroCounter: true }),
  });
  const tokens = await customAuth(
    device.cognito,
    LOCAL_CLIENT_ID,
    String(verified.cognitoUsername),
    String(verified.passkeyProof),
  );
  if (!tokens.IdToken) throw new Error('no id token');
  return performance.now() - started;
};

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

const devices: Device[] = [];
let failed = false;
try {
  for (let i = 0; i < PEOPLE; i += 1) {
    const email = `person${i + 1}@example.com`;
    const invite = await admin.request<{ activationCode: string }>('POST', '/internal/v1/admin/invitations', {
      token: adminTokens.idToken,
      json: { email },
    });
    if (invite.status !== 201) throw new Error(`invitation for ${email}: ${invite.status}`);
    const device = deviceOf(i);
    devices.push(device);
    await activate(device, email, invite.body.activationCode);
  }

  const began = performance.now();
  const results = await Promise.allSettled(
    Array.from({ length: SIGN_INS }, (_, i) => signIn(devices[i % PEOPLE] as Device)),
  );
  const wall = performance.now() - began;
  const errors = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  const times = results
    .flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
    .sort((a, b) => a - b);
  console.log(
    `${SIGN_INS} concurrent passkey sign-ins from ${PEOPLE} people (${devices[0]?.address} to ${devices.at(-1)?.address}), whole chain each: ` +
      `p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, p99 ${ms(percentile(times, 99))}, ` +
      `all done in ${ms(wall)}; ${errors.length} errors, ${errors.filter((e) => e.includes(' 429 ')).length} of them 429`,
  );
  if (errors.length > 0) {
    failed = true;
    console.error(errors.slice(0, 5).join('\n'));
  }
} finally {
  for (const device of devices) device.close();
  await stop();
}
process.exit(failed ? 1 : 0);
