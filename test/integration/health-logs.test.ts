/**
 * No health value in any log line: `npm start` runs as a developer runs it, at the most verbose log
 * level, the browser journey's API calls are made against it (with values chosen to be unmistakable),
 * and everything the stack printed is scanned for each value sent or stored. The same run proves the
 * entries survive a restart, as the rest of the local data does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';
import { LOCAL_CLIENT_ID } from '../../infra/local/stack';
import type { Measurement } from '../../shared/health-schemas';
import { codeFromLink, createHttpClient } from '../fixtures/http-client';
import { runNpmStart, type RunningStart } from '../fixtures/npm-start';

let dataDir: string;
let port: number;
const env = () => ({
  PORT: String(port),
  LOCAL_DATA_DIR: dataDir,
  BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
  LOG_LEVEL: 'debug',
});
const running: RunningStart[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'health-logs-'));
  port = await freePort();
});
afterAll(async () => {
  for (const run of running) await run.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** What a client with imperial units sends in the browser journey, with values found nowhere else. */
const MEASUREMENTS = [
  {
    type: 'glucose',
    value: 7.31,
    enteredUnit: 'mmol/L',
    context: 'fasting',
    takenAt: at(50),
    note: 'felt-dizzy-QX7',
  },
  { type: 'weight', value: 173.9, enteredUnit: 'lb', takenAt: at(40) },
  { type: 'waist', value: 37.25, enteredUnit: 'in', takenAt: at(30) },
  { type: 'blood_pressure', value: { systolic: 147, diastolic: 93 }, takenAt: at(20) },
  { type: 'hba1c', value: 6.35, takenAt: at(10) },
  { type: 'triglycerides', value: 187.5, takenAt: at(5) },
];
const LOGS = [
  { kind: 'meal', description: 'Quinoa-bowl-ZP4', carbsGrams: 61.5, eatenAt: at(120) },
  { kind: 'activity', activity: 'Rowing-KV8', minutes: 47, intensity: 'vigorous', startedAt: at(240) },
  { kind: 'sleep', start: at(17 * 60), end: at(9 * 60), quality: 2 },
];

/** The numbers and texts sent, and the numbers stored after conversion. */
const secrets = (stored: Measurement[]): string[] => {
  const numbers = new Set<number>([7.31, 173.9, 37.25, 147, 93, 6.35, 187.5, 61.5, 47]);
  for (const m of stored) {
    if (typeof m.value === 'number') numbers.add(m.value);
  }
  return [...[...numbers].map(String), 'felt-dizzy-QX7', 'Quinoa-bowl-ZP4', 'Rowing-KV8'];
};

/** The printed text, less what legitimately holds digits: times, ids, ports, durations. */
const scrub = (text: string) =>
  text
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<time>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/localhost:\d+|127\.0\.0\.1:\d+/g, '<host>');

describe('logs of a journey on npm start', () => {
  it('hold none of the health values sent or stored, and the entries survive a restart', async () => {
    const first = runNpmStart(['--reset'], env());
    running.push(first);
    const lines = await first.ready;
    const link = lines
      .find((line) => line.startsWith('Admin activation link: '))
      ?.slice('Admin activation link: '.length);
    const http = createHttpClient(`http://localhost:${port}`, LOCAL_CLIENT_ID);
    const admin = await http.activate('admin@example.com', codeFromLink(link ?? ''));
    const invite = await http.request<{ activationCode: string }>('POST', '/internal/v1/admin/invitations', {
      token: admin.idToken,
      json: { email: 'imperial@example.com' },
    });
    const client = await http.activate('imperial@example.com', invite.body.activationCode);
    const token = client.idToken;
    await http.request('PUT', '/v1/users/me', { token, json: { measurementSystem: 'imperial' } });

    const stored: Measurement[] = [];
    for (const json of MEASUREMENTS) {
      const answer = await http.request<Measurement>('POST', '/v1/measurements', { token, json });
      expect(answer.status).toBe(201);
      stored.push(answer.body);
    }
    for (const json of LOGS)
      expect((await http.request('POST', '/v1/logs', { token, json })).status).toBe(201);
    // Refusals are logged (a positive control that handler logs reach this output): still no value in them.
    const refused = await http.request('POST', '/v1/measurements', {
      token,
      json: { type: 'weight', value: 9173.9, enteredUnit: 'lb', takenAt: at(1) },
    });
    expect(refused.status).toBe(400);
    expect((await http.request('GET', '/v1/measurements?limit=200', { token })).status).toBe(200);
    expect((await http.request('GET', '/v1/logs?limit=200', { token })).status).toBe(200);
    expect((await http.request('GET', '/v1/users/me/export?format=fhir', { token })).status).toBe(200);
    expect(
      (await http.request('DELETE', `/v1/measurements/${stored[0]?.measurementId}`, { token })).status,
    ).toBe(204);

    expect(await first.stop('SIGINT')).toBe(0);
    const printed = scrub(first.lines.join('\n'));
    expect(printed).toContain('"message":"request rejected"');
    for (const value of [...secrets(stored), '9173.9']) {
      const pattern = new RegExp(`(^|[^\\w.])${value.replace(/\./g, '\\.')}($|[^\\w.])`);
      expect(pattern.test(printed), `"${value}" appears in the output`).toBe(false);
    }

    const second = runNpmStart([], env());
    running.push(second);
    await second.ready;
    const tokens = await http.signIn(client.authenticator);
    const after = await http.request<{ items: Measurement[] }>('GET', '/v1/measurements?limit=200', {
      token: tokens.idToken,
    });
    expect(after.body.items.map((m) => m.measurementId).sort()).toEqual(
      stored
        .slice(1)
        .map((m) => m.measurementId)
        .sort(),
    );
    http.close();
    expect(await second.stop()).toBe(0);
  }, 120_000);
});
