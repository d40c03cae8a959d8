import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../../lambdas/common/logger';

describe('the logger', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('writes one JSON line and redacts secrets and health fields whatever the caller passes', () => {
    vi.stubEnv('LOG_LEVEL', 'info');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    logger.info('signed in', {
      userId: 'u-1',
      passkeyProof: 'p',
      activationCode: 'ABCD',
      idToken: 'ey...',
      heightCm: 170,
      dateOfBirth: '1990-01-01',
      email: 'a@b.co',
      statusCode: 200,
      value: 99.088,
      note: 'felt dizzy',
      latest: { systolic: 147, diastolic: 93 },
      description: 'oats',
      recoveryCode: 'ABCD1234ABCD1234',
      codes: ['ABCD'],
      sessionId: 's-1',
      glucose: 142,
      weightKg: 80,
      bloodPressure: '147/93',
      measurements: [{ type: 'weight' }],
      birthDate: '1990-01-01',
      Session: 'AYABe...',
      nextCursor: 'eyJ...',
      idempotencyKey: 'k-1',
      clientDataJSON: 'eyJ0...',
      authenticatorData: 'SZYN...',
      attestationObject: 'o2Nm...',
      userHandle: 'dS0x',
      notes: ['felt dizzy'],
      conditions: ['type 2 diabetes'],
      height: 170,
    });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 'info', message: 'signed in', userId: 'u-1', statusCode: 200 });
    for (const field of [
      'passkeyProof',
      'activationCode',
      'idToken',
      'heightCm',
      'dateOfBirth',
      'email',
      'value',
      'note',
      'description',
      'recoveryCode',
      'codes',
      'sessionId',
      'glucose',
      'weightKg',
      'bloodPressure',
      'measurements',
      'birthDate',
      'Session',
      'nextCursor',
      'idempotencyKey',
      'clientDataJSON',
      'authenticatorData',
      'attestationObject',
      'userHandle',
      'notes',
      'conditions',
      'height',
    ]) {
      expect(entry[field]).toBe('[redacted]');
    }
    expect(entry.latest).toEqual({ systolic: '[redacted]', diastolic: '[redacted]' });
  });

  it('redacts at any depth and never lets fields overwrite level, time or message', () => {
    vi.stubEnv('LOG_LEVEL', 'info');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    logger.info('nested', {
      message: 'forged',
      level: 'debug',
      request: { body: '{"activationCode":"X"}', user: { email: 'a@b.co', id: 'u-1' } },
      attempts: [{ passkeyProof: 'p', outcome: 'rejected' }],
    });
    const entry = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(entry).toMatchObject({
      level: 'info',
      message: 'nested',
      request: { body: '[redacted]', user: { email: '[redacted]', id: 'u-1' } },
      attempts: [{ passkeyProof: '[redacted]', outcome: 'rejected' }],
    });
    expect(lines[0]).not.toContain('a@b.co');
  });
});
