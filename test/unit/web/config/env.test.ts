import { describe, expect, it } from 'vitest';
import { describeEnvProblems, parseWebEnv } from '../../../../web/src/config/env';

const valid = {
  VITE_USER_POOL_ID: 'us-west-2_AbC123',
  VITE_USER_POOL_CLIENT_ID: 'client-id',
  VITE_API_BASE_URL: 'https://api.example.com/',
};

describe('build-time configuration', () => {
  it('parses the variables, defaulting the region and trimming the API URL', () => {
    expect(parseWebEnv(valid)).toEqual({
      success: true,
      env: {
        userPoolId: 'us-west-2_AbC123',
        userPoolClientId: 'client-id',
        region: 'us-west-2',
        apiBaseUrl: 'https://api.example.com',
        cognitoEndpoint: undefined,
      },
    });
  });

  it('accepts a same-origin API path and a local Cognito endpoint', () => {
    const result = parseWebEnv({
      ...valid,
      VITE_API_BASE_URL: '/',
      VITE_COGNITO_ENDPOINT: 'http://localhost:3000/cognito',
    });
    expect(result.success && result.env).toMatchObject({
      apiBaseUrl: '',
      cognitoEndpoint: 'http://localhost:3000/cognito',
    });
  });

  it('names every missing variable at once, counting empty ones as missing', () => {
    const result = parseWebEnv({ VITE_USER_POOL_CLIENT_ID: '' });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.problems).toEqual([
      'VITE_USER_POOL_ID is required',
      'VITE_USER_POOL_CLIENT_ID is required',
      'VITE_API_BASE_URL is required',
    ]);
    expect(describeEnvProblems(result.problems)).toContain('  - VITE_API_BASE_URL is required');
  });

  it.each([
    [
      { VITE_USER_POOL_ID: 'local-pool' },
      'VITE_USER_POOL_ID must look like us-west-2_xxxx (region, underscore, id)',
    ],
    [
      { VITE_USER_POOL_ID: 'eu-west-1_abc' },
      'VITE_USER_POOL_ID must belong to VITE_AWS_REGION (us-west-2_...)',
    ],
    [
      { VITE_API_BASE_URL: 'api.example.com' },
      'VITE_API_BASE_URL must be an http(s) URL or a path starting with /',
    ],
    [
      { VITE_COGNITO_ENDPOINT: 'localhost:3000' },
      'VITE_COGNITO_ENDPOINT must be an http(s) URL or a path starting with /',
    ],
    [{ VITE_AWS_REGION: 'mars' }, 'VITE_AWS_REGION must be an AWS region such as us-west-2'],
  ])('explains %j', (override, problem) => {
    const result = parseWebEnv({ ...valid, ...override });
    expect(result.success ? [] : result.problems).toContain(problem);
  });

  it('takes the region from VITE_AWS_REGION', () => {
    const result = parseWebEnv({
      ...valid,
      VITE_USER_POOL_ID: 'eu-west-1_abc',
      VITE_AWS_REGION: 'eu-west-1',
    });
    expect(result.success && result.env.region).toBe('eu-west-1');
  });
});
