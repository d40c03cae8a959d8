import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createLocalCognito, type LocalCognitoOptions } from '../../../infra/local/cognito/local-cognito';
import { PREFLIGHT_REFUSED } from '../../../infra/local/cognito/protocol';
import {
  CLIENT_ID,
  REGION,
  USER_POOL_ID,
  match,
  createTestTriggers,
  silentLogger,
  startPool,
} from './cognito-harness';

const TARGET = 'AWSCognitoIdentityProviderService.';

const post = (url: string, action: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': TARGET + action, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('Cognito JSON protocol', () => {
  it('refuses an unsigned admin call with MissingAuthenticationTokenException', async () => {
    const { server } = await startPool();

    const response = await post(server.url, 'AdminGetUser', {
      UserPoolId: USER_POOL_ID,
      Username: 'someone',
    });

    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
    expect(await response.json()).toEqual({
      __type: 'MissingAuthenticationTokenException',
      message: 'Missing Authentication Token',
    });
  });

  it('serves public calls without a signature and names errors in body and header', async () => {
    const { server } = await startPool();

    const response = await post(server.url, 'InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: CLIENT_ID,
      AuthParameters: { USERNAME: 'a', PASSWORD: 'b' },
    });

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/x-amz-json-1.1');
    expect(response.headers.get('x-amzn-errortype')).toBe('InvalidParameterException');
    expect(await response.json()).toEqual({
      __type: 'InvalidParameterException',
      message: 'USER_PASSWORD_AUTH flow not enabled for this client',
    });
  });

  it('refuses a cross-origin preflight, granting nothing (the SPA shares its origin)', async () => {
    const { server } = await startPool();

    const response = await fetch(server.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-amz-target,x-amz-user-agent',
      },
    });

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: PREFLIGHT_REFUSED });
    expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('sends no CORS header on any answer, success or error', async () => {
    const { server } = await startPool();

    const answers = [
      await post(server.url, 'InitiateAuth', {}, { origin: 'https://elsewhere.example' }),
      await fetch(server.jwksUri, { headers: { origin: 'https://elsewhere.example' } }),
    ];

    expect(answers.map((answer) => answer.status)).toEqual([400, 200]);
    for (const answer of answers) {
      expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('serves the JWKS under the issuer', async () => {
    const { server } = await startPool();

    const response = await fetch(server.jwksUri);

    expect(server.jwksUri).toBe(`${server.issuer}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      keys: [{ kty: 'RSA', kid: match.string, n: match.string, e: 'AQAB', alg: 'RS256', use: 'sig' }],
    });
  });

  it('refuses a body over 1 MB with 413', async () => {
    const { server } = await startPool();

    const response = await post(server.url, 'InitiateAuth', { padding: 'x'.repeat(1024 * 1024 + 1) });

    expect(response.status).toBe(413);
  });

  it('refuses a body that is not JSON with SerializationException', async () => {
    const { server } = await startPool();

    const response = await post(server.url, 'InitiateAuth', '{not json');

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ __type: 'SerializationException' });
  });

  it('answers UnknownOperationException for an action it does not implement', async () => {
    const { server } = await startPool();

    const response = await post(server.url, 'SignUp', { ClientId: CLIENT_ID });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ __type: 'UnknownOperationException' });
  });

  it('listens on 127.0.0.1', async () => {
    const { server } = await startPool();

    expect(new URL(server.url).hostname).toBe('127.0.0.1');
  });
});

describe('createLocalCognito', () => {
  const options = (publicUrl: string): LocalCognitoOptions => ({
    region: REGION,
    userPoolId: USER_POOL_ID,
    clientId: CLIENT_ID,
    publicUrl,
    endpointPath: '/cognito/',
    triggers: createTestTriggers().triggers,
    logger: silentLogger,
  });

  it('mounts inside a host server and leaves other requests to it', async () => {
    const host = createServer();
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    const cognito = createLocalCognito(options(`${origin}/auth`));
    host.on('request', (req: IncomingMessage, res: ServerResponse) => {
      void cognito.handle(req, res).then((handled) => {
        if (!handled) res.writeHead(200, { 'content-type': 'text/plain' }).end('host');
      });
    });
    onTestFinished(async () => {
      host.closeAllConnections();
      await new Promise((resolve) => host.close(resolve));
      await cognito.close();
    });

    const cognitoCall = await post(`${origin}/cognito/`, 'GetUser', { AccessToken: 'nope' });
    const untargeted = await fetch(`${origin}/cognito/`, { method: 'POST', body: '{}' });
    const other = await fetch(`${origin}/dashboard`);
    const jwks = await fetch(`${origin}${cognito.jwksPath}`);

    expect(await cognitoCall.json()).toMatchObject({
      __type: 'NotAuthorizedException',
      message: 'Invalid Access Token',
    });
    expect(await untargeted.text()).toBe('host');
    expect(await other.text()).toBe('host');
    expect(cognito.issuer).toBe(`${origin}/auth/${USER_POOL_ID}`);
    expect(cognito.jwksPath).toBe(`/auth/${USER_POOL_ID}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
  });

  it('refuses a pool id that does not look like <region>_xxxx', () => {
    expect(() =>
      createLocalCognito({ ...options('http://localhost:3000'), userPoolId: 'local-pool' }),
    ).toThrow(/userPoolId/);
  });
});
