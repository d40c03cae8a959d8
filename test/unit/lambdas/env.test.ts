import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, tableName, webauthnConfig } from '../../../lambdas/common/env';

describe('Lambda configuration', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('names every missing variable at once', () => {
    vi.stubEnv('WEBAUTHN_RP_ID', 'localhost');
    vi.stubEnv('WEBAUTHN_RP_NAME', ' ');
    vi.stubEnv('WEBAUTHN_ORIGINS', '');
    expect(() => webauthnConfig()).toThrow(
      new ConfigurationError('Missing environment variables: WEBAUTHN_RP_NAME, WEBAUTHN_ORIGINS'),
    );
  });

  it('reads the table variable the shared definition names', () => {
    vi.stubEnv('PASSKEYS_TABLE', 'dev-passkeys');
    expect(tableName('passkeys')).toBe('dev-passkeys');
  });

  it('splits and trims the allowed origins', () => {
    vi.stubEnv('WEBAUTHN_RP_ID', 'app.example.com');
    vi.stubEnv('WEBAUTHN_RP_NAME', 'Coaching');
    vi.stubEnv('WEBAUTHN_ORIGINS', 'https://app.example.com, https://www.example.com,');
    expect(webauthnConfig().origins).toEqual(['https://app.example.com', 'https://www.example.com']);
  });
});
