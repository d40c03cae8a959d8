import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../../shared/account-messages';
import { passkeyNameSchema } from '../../../shared/account';
import { COACHING_MESSAGES, createNoteRequestSchema } from '../../../shared/coaching';
import { HEALTH_MESSAGES } from '../../../shared/health-messages';
import { createLogRequestSchema } from '../../../shared/health-schemas';
import { VALIDATION } from '../../../shared/messages';
import {
  activationCodeRecordSchema,
  codeCheckRequestSchema,
  createInvitationRequestSchema,
  profileUpdateSchema,
  registerPasskeyRequestSchema,
  registrationRequestSchema,
  localeOrDefault,
  timezoneOrDefault,
  userProfileSchema,
  type WireSchema,
} from '../../../shared/schemas';
import { registrationResponse } from '../web/support/factories';

const firstMessage = (schema: WireSchema<unknown>, value: unknown): string | undefined => {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
};

const NOW = new Date(Date.now() - 60_000).toISOString();

const profile = {
  userId: '6f1c2a52-94f1-4c1e-9a61-2f3f7d0b8c11',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};

describe('user profile', () => {
  it('fills the defaults of SPEC section 3', () => {
    expect(userProfileSchema.parse(profile)).toMatchObject({
      sexAssignedAtBirth: 'prefer-not-to-say',
      measurementSystem: 'metric',
      metadata: { onboardingCompleted: false },
    });
  });

  it.each([
    ['heightCm', 49.9, VALIDATION.heightRange],
    ['heightCm', 50, undefined],
    ['heightCm', 300, undefined],
    ['heightCm', 300.1, VALIDATION.heightRange],
    ['name', 'a'.repeat(200), undefined],
    ['name', 'a'.repeat(201), VALIDATION.nameTooLong],
    ['name', '', VALIDATION.nameRequired],
    ['preferredName', 'a'.repeat(100), undefined],
    ['preferredName', 'a'.repeat(101), VALIDATION.preferredNameTooLong],
    ['preferredName', '', VALIDATION.preferredNameRequired],
    ['familyName', 'a'.repeat(101), VALIDATION.familyNameTooLong],
    ['familyName', '', VALIDATION.familyNameRequired],
    ['email', 'not-an-email', VALIDATION.invalidEmail],
    ['userId', 'not-a-uuid', VALIDATION.userIdUuid],
    ['createdAt', 'yesterday', VALIDATION.invalidDatetime],
    ['updatedAt', '2026-13-01T00:00:00Z', VALIDATION.invalidDatetime],
    ['sexAssignedAtBirth', 'other', expect.any(String)],
    ['measurementSystem', 'furlongs', expect.any(String)],
  ])('%s = %j gives %s', (field, value, message) => {
    expect(firstMessage(userProfileSchema, { ...profile, [field]: value })).toEqual(message);
  });
});

describe('profile update', () => {
  it('accepts an empty update and any single field within bounds', () => {
    expect(profileUpdateSchema.parse({})).toEqual({});
    expect(profileUpdateSchema.parse({ heightCm: 172.5, metadata: { onboardingCompleted: true } })).toEqual({
      heightCm: 172.5,
      metadata: { onboardingCompleted: true },
    });
  });

  it.each([['userId'], ['roles'], ['createdAt'], ['isAdmin']])('rejects the unknown key %s', (key) => {
    expect(profileUpdateSchema.safeParse({ [key]: 'x' }).success).toBe(false);
  });

  it('rejects __proto__ as sent in JSON', () => {
    expect(profileUpdateSchema.safeParse(JSON.parse('{"__proto__":{"admin":true}}')).success).toBe(false);
  });

  it('takes a date of birth from today back to 1 January 121 years ago, and no other', () => {
    const year = new Date().getUTCFullYear();
    const today = new Date().toISOString().slice(0, 10);
    for (const dateOfBirth of [today, `${year - 121}-01-01`, `${year - 13}-06-30`])
      expect(firstMessage(profileUpdateSchema, { dateOfBirth }), dateOfBirth).toBeUndefined();
    for (const dateOfBirth of [`${year + 1}-01-01`, `${year - 122}-12-31`, '0001-01-01'])
      expect(firstMessage(profileUpdateSchema, { dateOfBirth }), dateOfBirth).toBe(
        VALIDATION.invalidDateOfBirth,
      );
  });

  it('applies the same bounds as the profile', () => {
    expect(firstMessage(profileUpdateSchema, { heightCm: 300.1 })).toBe(VALIDATION.heightRange);
    expect(firstMessage(profileUpdateSchema, { name: 'a'.repeat(201) })).toBe(VALIDATION.nameTooLong);
  });
});

describe('a text a person must give', () => {
  // Each shows as nothing, and trimming keeps it: a zero-width space, a direction mark, a NUL, a lone
  // surrogate, a word joiner.
  const invisible = ['\u200b', '\u200e', '\u0000', '\ud800', ' \u2060 '];

  it.each(invisible.map((text) => [JSON.stringify(text), text]))(
    'is refused when it holds nothing visible: %s',
    (_, text) => {
      expect(firstMessage(profileUpdateSchema, { preferredName: text })).toBe(
        VALIDATION.preferredNameRequired,
      );
      expect(firstMessage(profileUpdateSchema, { familyName: text })).toBe(VALIDATION.familyNameRequired);
      expect(firstMessage(passkeyNameSchema, text)).toBe(ACCOUNT_MESSAGES.passkeyName);
      expect(firstMessage(createNoteRequestSchema, { text })).toBe(COACHING_MESSAGES.noteText);
      expect(firstMessage(createLogRequestSchema, { kind: 'meal', description: text, eatenAt: NOW })).toBe(
        HEALTH_MESSAGES.mealDescription.required,
      );
    },
  );

  it('is read back as stored, so a name taken before the rule still loads (and can be corrected)', () => {
    expect(
      userProfileSchema.safeParse({ ...profile, preferredName: '\u200b', familyName: '\u200b' }),
    ).toMatchObject({ success: true });
  });

  it('takes any script, and invisible characters beside visible ones', () => {
    for (const name of ['José', 'Łukasz', '李', 'أحمد', '\u200fأحمد', 'A\u200bB'])
      expect(firstMessage(profileUpdateSchema, { preferredName: name }), name).toBeUndefined();
  });
});

/** A registration of a passkey the schema takes, as the SPA sends it. */
const REGISTER = {
  email: 'ada@example.com',
  activationCode: 'ABCDEFGH2345WXYZ',
  cognitoUsername: 'ada-cognito',
  registrationResponse: registrationResponse(),
};

describe('registration request', () => {
  const request = { email: 'Ada@Example.com ', name: 'Ada' };

  it.each([
    ['ABCD-EFGH-2345-WXYZ', 'ABCDEFGH2345WXYZ'],
    ['ABCDEFGH2345WXYZ', 'ABCDEFGH2345WXYZ'],
    ['abcd-efgh-2345-wxyz', 'ABCDEFGH2345WXYZ'],
    [' abcdefgh2345wxyz ', 'ABCDEFGH2345WXYZ'],
  ])('accepts %j as %s', (code, normalized) => {
    expect(registrationRequestSchema.parse({ ...request, activationCode: code })).toMatchObject({
      activationCode: normalized,
      email: 'ada@example.com',
      timezone: 'UTC',
      locale: 'en-US',
    });
  });

  it.each([
    ['ABCD-EFGH-2345'],
    ['ABCD-EFGH-2345-WXYZ-1'],
    ['ABCD_EFGH_2345_WXYZ'],
    ['ABCD--EFGH2345WXYZ'],
    [''],
  ])('rejects %j with the registration message', (code) => {
    expect(firstMessage(registrationRequestSchema, { ...request, activationCode: code })).toBe(
      VALIDATION.registrationCode,
    );
  });

  it.each([
    ['timezone', 'Mars/Olympus_Mons', VALIDATION.invalidTimezone],
    ['locale', 'not a language', VALIDATION.invalidLocale],
  ])('refuses to set a %s that is none (%j) on a profile', (field, value, message) => {
    expect(firstMessage(profileUpdateSchema, { [field]: value })).toBe(message);
  });

  it('takes an IANA time zone, an alias among them, and a language tag', () => {
    for (const timezone of ['Europe/Berlin', 'UTC', 'Asia/Calcutta', 'America/Argentina/Buenos_Aires'])
      expect(profileUpdateSchema.safeParse({ timezone }).success).toBe(true);
    for (const locale of ['en-US', 'de', 'zh-Hant-TW', 'en-US-u-ca-buddhist'])
      expect(profileUpdateSchema.safeParse({ locale }).success).toBe(true);
  });

  it("takes a registration's time zone and language as hints: one the runtime does not know is the default", () => {
    for (const hint of [{ timezone: 'Mars/Olympus_Mons' }, { locale: 'not a language' }])
      expect(registerPasskeyRequestSchema.safeParse({ ...REGISTER, ...hint }).success).toBe(true);
    expect(timezoneOrDefault('Europe/Berlin')).toBe('Europe/Berlin');
    expect(timezoneOrDefault('Mars/Olympus_Mons')).toBe('UTC');
    expect(timezoneOrDefault(undefined)).toBe('UTC');
    expect(localeOrDefault('de-DE')).toBe('de-DE');
    expect(localeOrDefault('not a language')).toBe('en-US');
    expect(localeOrDefault(undefined)).toBe('en-US');
    // Still a bounded text: one longer than a time zone name or a language tag can be is refused.
    expect(registerPasskeyRequestSchema.safeParse({ ...REGISTER, timezone: 'x'.repeat(65) }).success).toBe(
      false,
    );
    expect(registerPasskeyRequestSchema.safeParse({ ...REGISTER, locale: 'x'.repeat(36) }).success).toBe(
      false,
    );
  });

  it('requires a name', () => {
    expect(
      firstMessage(registrationRequestSchema, { email: 'a@b.co', activationCode: 'ABCDEFGH2345WXYZ' }),
    ).toBe(VALIDATION.nameRequired);
  });
});

describe('activation code record', () => {
  const record = {
    email: 'ada@example.com',
    codeUsed: false,
    createdBy: '6f1c2a52-94f1-4c1e-9a61-2f3f7d0b8c11',
    createdAt: '2026-11-21T10:00:00.000Z',
  };

  it.each([
    ['ABCDEFGH2345WXYZ', undefined],
    ['ABCD-EFGH-2345-WXYZ', VALIDATION.storedCode],
    ['abcdefgh2345wxyz', VALIDATION.storedCode],
    ['ABCDEFGH2345WXY', VALIDATION.storedCode],
  ])('stored code %j gives %s', (activationCode, message) => {
    expect(firstMessage(activationCodeRecordSchema, { ...record, activationCode })).toBe(message);
  });

  it('requires createdBy to be a UUID', () => {
    expect(
      firstMessage(activationCodeRecordSchema, {
        ...record,
        activationCode: 'ABCDEFGH2345WXYZ',
        createdBy: 'admin',
      }),
    ).toBe(VALIDATION.createdByUuid);
  });
});

describe('code check and invitation requests', () => {
  it('takes only an email, or an email and a code', () => {
    expect(codeCheckRequestSchema.parse({ email: 'A@B.CO' })).toEqual({ email: 'a@b.co' });
    expect(codeCheckRequestSchema.parse({ email: 'a@b.co', activationCode: 'abcd-efgh-2345-wxyz' })).toEqual({
      email: 'a@b.co',
      activationCode: 'ABCDEFGH2345WXYZ',
    });
  });

  it('defaults nothing server-side for roles but rejects unknown roles', () => {
    expect(createInvitationRequestSchema.parse({ email: 'c@d.co' })).toEqual({ email: 'c@d.co' });
    expect(firstMessage(createInvitationRequestSchema, { email: 'c@d.co', roles: ['root'] })).toBe(
      VALIDATION.invalidRole,
    );
    expect(firstMessage(createInvitationRequestSchema, { email: 'nope' })).toBe(VALIDATION.invalidEmail);
  });
});
