/**
 * Admin calls need the pool's IAM key pair (issue 11, decision 052): the endpoint checks their AWS
 * Signature Version 4 as AWS does, answering its error types and statuses, and changes nothing for
 * a request it refuses. Public calls stay unsigned.
 */
import {
  AdminAddUserToGroupCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import { createLocalCognito } from '../../../infra/local/cognito/local-cognito';
import {
  computeSignature,
  generateCredentials,
  verifySignature,
  type SignedRequest,
} from '../../../infra/local/cognito/sigv4';
import {
  CLIENT_ID,
  REGION,
  TEST_CREDENTIALS,
  USER_POOL_ID,
  createUser,
  match,
  sdkClient,
  silentLogger,
  startPool,
} from './cognito-harness';

const TARGET = 'AWSCognitoIdentityProviderService.';

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

/** The user's groups and existence, read with the right key pair. */
const stateOf = async (client: CognitoIdentityProviderClient, Username: string) => {
  const user = await client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username }));
  const groups = await client.send(new AdminListGroupsForUserCommand({ UserPoolId: USER_POOL_ID, Username }));
  return { username: user.Username, groups: (groups.Groups ?? []).map((g) => g.GroupName) };
};

const addToAdmins = (Username: string) =>
  new AdminAddUserToGroupCommand({ UserPoolId: USER_POOL_ID, Username, GroupName: 'admins' });

describe('signed admin calls', () => {
  it("performs an admin call signed with the pool's key pair", async () => {
    const { client } = await startPool();
    const user = await createUser(client, { groups: ['users'] });

    await client.send(addToAdmins(user.username));

    expect(await stateOf(client, user.username)).toEqual({
      username: user.username,
      groups: ['admins', 'users'],
    });
  });

  it.each([
    [
      'a wrong secret',
      { ...TEST_CREDENTIALS, secretAccessKey: 'not-the-secret-0123456789' },
      { name: 'InvalidSignatureException', message: SIGNATURE_MISMATCH },
    ],
    [
      'an unknown key id',
      { ...generateCredentials(), secretAccessKey: TEST_CREDENTIALS.secretAccessKey },
      {
        name: 'UnrecognizedClientException',
        message: 'The security token included in the request is invalid.',
      },
    ],
    [
      "the old fixed 'local' pair",
      { accessKeyId: 'local', secretAccessKey: 'local' },
      {
        name: 'UnrecognizedClientException',
        message: 'The security token included in the request is invalid.',
      },
    ],
  ])('refuses %s with 400 and changes nothing', async (_, credentials, error) => {
    const { server, client } = await startPool();
    const user = await createUser(client, { groups: ['users'] });
    const before = await stateOf(client, user.username);
    const intruder = sdkClient(server.url, credentials);

    const attempts = [
      () => intruder.send(addToAdmins(user.username)),
      () => intruder.send(new AdminDeleteUserCommand({ UserPoolId: USER_POOL_ID, Username: user.username })),
    ];
    for (const attempt of attempts) {
      await expect(attempt()).rejects.toMatchObject({ ...error, $metadata: { httpStatusCode: 400 } });
    }
    intruder.destroy();
    expect(await stateOf(client, user.username)).toEqual(before);
  });

  it('refuses a call without Authorization with 403 MissingAuthenticationTokenException, changing nothing', async () => {
    const { server, client } = await startPool();
    const user = await createUser(client, { groups: ['users'] });

    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `${TARGET}AdminAddUserToGroup`,
      },
      body: JSON.stringify({ UserPoolId: USER_POOL_ID, Username: user.username, GroupName: 'admins' }),
    });

    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
    expect(await response.json()).toEqual({
      __type: 'MissingAuthenticationTokenException',
      message: 'Missing Authentication Token',
    });
    expect((await stateOf(client, user.username)).groups).toEqual(['users']);
  });

  it('refuses a signature dated more than 5 minutes from its clock, either way, changing nothing', async () => {
    const clock = { now: Date.now() };
    const { client } = await startPool({ now: () => clock.now });
    const user = await createUser(client, { groups: ['users'] });
    const stamp = '\\d{8}T\\d{6}Z';

    clock.now += 5 * 60_000 + 2_000; // the client's request is now too old for the endpoint
    await expect(client.send(addToAdmins(user.username))).rejects.toMatchObject({
      name: 'InvalidSignatureException',
      message: match.matching(
        new RegExp(`^Signature expired: ${stamp} is now earlier than ${stamp} \\(${stamp} - 5 min\\.\\)$`),
      ),
      $metadata: { httpStatusCode: 400 },
    });
    clock.now -= 2 * (5 * 60_000 + 2_000); // and now from the future
    await expect(client.send(addToAdmins(user.username))).rejects.toMatchObject({
      name: 'InvalidSignatureException',
      message: match.matching(
        new RegExp(
          `^Signature not yet current: ${stamp} is still later than ${stamp} \\(${stamp} \\+ 5 min\\.\\)$`,
        ),
      ),
      $metadata: { httpStatusCode: 400 },
    });

    clock.now = Date.now();
    expect((await stateOf(client, user.username)).groups).toEqual(['users']);
  });

  it('serves the public calls unsigned, as AWS does', async () => {
    const { server } = await startPool();

    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET}InitiateAuth` },
      body: JSON.stringify({
        AuthFlow: 'CUSTOM_AUTH',
        ClientId: CLIENT_ID,
        AuthParameters: { USERNAME: 'x' },
      }),
    });

    // Reached the sign-in logic: Define ran and failed the unknown user.
    expect(await response.json()).toEqual({
      __type: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
  });

  it('draws a random key pair per pool when given none, and accepts calls signed with it', async () => {
    const first = await startPool({ credentials: undefined });
    const second = await startPool({ credentials: undefined });

    expect(first.server.credentials).not.toEqual(second.server.credentials);
    expect(first.server.credentials.accessKeyId).toMatch(/^LOCAL[0-9A-F]{15}$/);
    expect(first.server.credentials.secretAccessKey).toHaveLength(40);
    const own = sdkClient(first.server.url, first.server.credentials);
    await expect(createUser(own)).resolves.toHaveProperty('sub');
    own.destroy();
    await expect(
      sdkClient(second.server.url, first.server.credentials).send(
        new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: 'someone' }),
      ),
    ).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
  });

  it('refuses a weak or malformed key pair as an option', () => {
    const options = {
      region: REGION,
      userPoolId: USER_POOL_ID,
      clientId: CLIENT_ID,
      publicUrl: 'http://localhost:3000',
      logger: silentLogger,
    };
    expect(() =>
      createLocalCognito({ ...options, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    ).toThrow(/credentials\.accessKeyId.*credentials\.secretAccessKey/);
    expect(() =>
      createLocalCognito({
        ...options,
        credentials: {
          accessKeyId: 'LOCAL/ID/WITH/SLASH',
          secretAccessKey: TEST_CREDENTIALS.secretAccessKey,
        },
      }),
    ).toThrow(/credentials\.accessKeyId/);
  });
});

describe('verifySignature', () => {
  const credentials = {
    accessKeyId: 'AKIDEXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  };
  const amzDate = '20150830T123600Z';
  const nowMs = Date.parse('2015-08-30T12:36:00Z');

  it("reproduces the AWS Signature Version 4 test suite's get-vanilla signature", () => {
    const request: SignedRequest = {
      method: 'GET',
      url: '/',
      headers: { host: 'example.amazonaws.com', 'x-amz-date': amzDate },
      body: Buffer.alloc(0),
    };

    const signature = computeSignature(
      request,
      credentials.secretAccessKey,
      { amzDate, region: 'us-east-1', service: 'service' },
      ['host', 'x-amz-date'],
    );

    expect(signature).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  /** A Cognito admin call signed over host, content type, target and date. */
  const signed = (
    overrides: Partial<SignedRequest> = {},
    scope = { region: REGION, service: 'cognito-idp' },
  ) => {
    const request: SignedRequest = {
      method: 'POST',
      url: '/cognito',
      headers: {
        host: 'localhost:3000',
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `${TARGET}AdminDeleteUser`,
        'x-amz-date': amzDate,
      },
      body: Buffer.from(JSON.stringify({ UserPoolId: USER_POOL_ID, Username: 'alice' })),
    };
    const signedHeaders = ['content-type', 'host', 'x-amz-date', 'x-amz-target'];
    const signature = computeSignature(
      request,
      credentials.secretAccessKey,
      { amzDate, ...scope },
      signedHeaders,
    );
    const authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${amzDate.slice(0, 8)}/${scope.region}/${scope.service}/aws4_request, SignedHeaders=${signedHeaders.join(';')}, Signature=${signature}`;
    return { ...request, headers: { ...request.headers, authorization }, ...overrides };
  };
  const verify = (request: SignedRequest) =>
    verifySignature(request, { credentials, region: REGION, service: 'cognito-idp', nowMs });

  it('accepts the request as signed', () => {
    expect(() => verify(signed())).not.toThrow();
  });

  it.each([
    ['another body', { body: Buffer.from(JSON.stringify({ UserPoolId: USER_POOL_ID, Username: 'bob' })) }],
    ['another path', { url: '/cognito/other' }],
    ['a query string', { url: '/cognito?Username=bob' }],
    ['another method', { method: 'PUT' }],
  ])('refuses the same signature over %s', (_, change) => {
    expect(() => verify({ ...signed(), ...change })).toThrow(
      expect.objectContaining({
        type: 'InvalidSignatureException',
        statusCode: 400,
        message: SIGNATURE_MISMATCH,
      }),
    );
  });

  it('refuses a changed or missing signed header', () => {
    const request = signed();
    const headers = { ...request.headers, 'x-amz-target': `${TARGET}AdminAddUserToGroup` };
    expect(() => verify({ ...request, headers })).toThrow(
      expect.objectContaining({ type: 'InvalidSignatureException' }),
    );
    const { 'content-type': _dropped, ...without } = request.headers;
    expect(() => verify({ ...request, headers: without })).toThrow(
      expect.objectContaining({ type: 'InvalidSignatureException' }),
    );
  });

  it('refuses a signature scoped to another region or service', () => {
    expect(() => verify(signed({}, { region: 'eu-west-1', service: 'cognito-idp' }))).toThrow(
      expect.objectContaining({
        type: 'InvalidSignatureException',
        message: 'Credential should be scoped to a valid region.',
      }),
    );
    expect(() => verify(signed({}, { region: REGION, service: 'dynamodb' }))).toThrow(
      expect.objectContaining({
        type: 'InvalidSignatureException',
        message: "Credential should be scoped to correct service: 'cognito-idp'.",
      }),
    );
  });

  it('answers IncompleteSignatureException for an Authorization header without its parts or date', () => {
    const request = signed();
    const incomplete =
      (authorization: string, extra: Record<string, string | undefined> = {}) =>
      () =>
        verify({ ...request, headers: { ...request.headers, authorization, ...extra } });
    expect(
      incomplete('AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-west-2/cognito-idp/aws4_request'),
    ).toThrow(
      expect.objectContaining({
        type: 'IncompleteSignatureException',
        statusCode: 400,
        message:
          "Authorization header requires 'Signature' parameter. Authorization header requires 'SignedHeaders' parameter.",
      }),
    );
    expect(incomplete('Bearer some-token')).toThrow(
      expect.objectContaining({ type: 'IncompleteSignatureException' }),
    );
    expect(incomplete(String(request.headers.authorization), { 'x-amz-date': undefined })).toThrow(
      expect.objectContaining({
        type: 'IncompleteSignatureException',
        message: "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.",
      }),
    );
  });
});
