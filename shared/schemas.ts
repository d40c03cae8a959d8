/**
 * zod schemas for every entity and request of SPEC section 3, with the messages of section 5.
 * The web app and the Lambdas validate what crosses the wire with these, in both directions.
 *
 * Written with zod/mini, zod's tree-shakable form: a Lambda bundle or the SPA's sign-in chunk
 * carries only the validators it uses (about 7 KB gzip) instead of all of zod (about 90 KB).
 *
 * Every value built at load is wrapped in an arrow function called at once under a `@__PURE__` mark,
 * here and in the other schema modules. esbuild does not see zod's own side-effect-free marks across modules (evanw/esbuild#4369),
 * nor can it drop a `.check()` call, so without the wrapper every Lambda built every schema of every
 * module it touched at each cold start (about 15 ms of a 90 ms import, docs/decisions/055-cold-starts.md).
 * With it a bundle keeps only the schemas its handler reaches. A new schema needs the wrapper too:
 * `test/unit/shared/schemas-tree-shaking.test.ts` fails without it.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import en from 'zod/v4/locales/en.js';
import * as z from 'zod/mini';
import { normalizeActivationCode } from './activation-code';
import {
  DEFAULT_LOCALE,
  DEFAULT_MEASUREMENT_SYSTEM,
  DEFAULT_SEX_ASSIGNED_AT_BIRTH,
  DEFAULT_TIMEZONE,
  FAMILY_NAME_MAX,
  HEIGHT_CM_MAX,
  HEIGHT_CM_MIN,
  LOCALE_MAX_LENGTH,
  NAME_MAX,
  ONBOARDING_AGE_MAX,
  PREFERRED_NAME_MAX,
  ROLE_GROUPS,
  TIMEZONE_MAX_LENGTH,
} from './constants';
import { VALIDATION } from './messages';

// zod/mini loads no locale: without this every check that has no message of ours would answer a bare
// "Invalid input" in a deployed Lambda or the SPA (full zod, loaded by tests and local tools, sets it
// globally and would hide the difference).
z.config(en());

/** What the web client and the HTTP wrapper need of a schema: zod's safeParse, nothing more. */
export interface WireSchema<Output> {
  safeParse(
    input: unknown,
  ): { success: true; data: Output } | { success: false; error: { issues: readonly WireIssue[] } };
}
export interface WireIssue {
  readonly message: string;
  readonly path: readonly PropertyKey[];
}

// ---------------------------------------------------------------- primitives

/**
 * Something a person can see: a character that is not a space, a control or format character (a
 * zero-width space, a direction mark) or half of a broken surrogate pair. Trimming removes spaces only,
 * so '\u200b' alone would be a name that shows as nothing.
 */
const VISIBLE_CHARACTER = /[^\s\p{Cc}\p{Cf}\p{Cs}]/u;

interface TextMessages {
  readonly required: string;
  readonly tooLong: string;
}

/**
 * A required text of 1 to `max` characters once trimmed, with the same message for a wrong type and for a
 * missing one: as a stored profile is read back (a name stored before the visible-character rule, only
 * a zero-width space, must not stop the profile from loading, where it can be corrected).
 */
const storedText = (max: number, messages: TextMessages) =>
  z
    .string({ error: messages.required })
    .check(
      z.trim(),
      z.minLength(1, { error: messages.required }),
      z.maxLength(max, { error: messages.tooLong }),
    );

/** A required text as a write takes it: also holding something visible. */
export const requiredText = (max: number, messages: TextMessages) =>
  storedText(max, messages).check(z.regex(VISIBLE_CHARACTER, { error: messages.required }));

const shortText = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));

/** An IANA time zone name the runtime's Intl knows ('Europe/Berlin', 'UTC'). */
export const isTimeZone = (value: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

/** A BCP 47 language tag ('en-US', 'de'). */
export const isLocale = (value: string): boolean => {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
};

/**
 * The browser's time zone for a new profile, or UTC when this runtime does not know it (a browser's
 * time-zone data may be newer than the Lambda's): a hint never stops an activation.
 */
export const timezoneOrDefault = (value: string | undefined): string =>
  value !== undefined && isTimeZone(value) ? value : DEFAULT_TIMEZONE;

/** The browser's language for a new profile, or en-US when it is not a language tag. */
export const localeOrDefault = (value: string | undefined): string =>
  value !== undefined && isLocale(value) ? value : DEFAULT_LOCALE;

/**
 * The time zone and language a profile update sets: checked, not any text (read back as stored). A
 * registration takes the browser's as a hint instead (`timezoneOrDefault`, `localeOrDefault`).
 */
const timezoneSchema = /* @__PURE__ */ (() =>
  shortText(TIMEZONE_MAX_LENGTH).check(z.refine(isTimeZone, { error: VALIDATION.invalidTimezone })))();
const localeSchema = /* @__PURE__ */ (() =>
  shortText(LOCALE_MAX_LENGTH).check(z.refine(isLocale, { error: VALIDATION.invalidLocale })))();

export const emailSchema = /* @__PURE__ */ (() =>
  z.pipe(
    z
      .string({ error: VALIDATION.invalidEmail })
      .check(z.trim(), z.maxLength(254, { error: VALIDATION.invalidEmail })),
    z.email({ error: VALIDATION.invalidEmail }),
  ))();

/** An email as the server keys it: trimmed and lowercased. */
export const normalizedEmailSchema = /* @__PURE__ */ (() =>
  z.pipe(
    emailSchema,
    z.transform((email: string) => email.toLowerCase()),
  ))();

export const userIdSchema = /* @__PURE__ */ (() => z.uuid({ error: VALIDATION.userIdUuid }))();
/**
 * A user id a client sends: a UUID in either case (RFC 9562), read as stored, in lowercase; an upper-case
 * id would otherwise match nobody (an Audit Log filter with no events, a coach who is not one).
 */
export const userIdInputSchema = /* @__PURE__ */ (() =>
  z.pipe(
    userIdSchema,
    z.transform((id: string) => id.toLowerCase()),
  ))();
export const datetimeSchema = /* @__PURE__ */ (() => z.iso.datetime({ error: VALIDATION.invalidDatetime }))();
export const dateSchema = /* @__PURE__ */ (() => z.iso.date({ error: VALIDATION.invalidDate }))();

const REGISTRATION_CODE = /^[A-Z0-9]{4}-?[A-Z0-9]{4}-?[A-Z0-9]{4}-?[A-Z0-9]{4}$/;
const STORED_CODE = /^[A-Z0-9]{16}$/;

/** A code as a person types it: case and surrounding spaces forgiven, normalized to 16 characters. */
export const registrationActivationCodeSchema = /* @__PURE__ */ (() =>
  z.pipe(
    z
      .string({ error: VALIDATION.registrationCode })
      .check(z.trim(), z.toUpperCase(), z.regex(REGISTRATION_CODE, { error: VALIDATION.registrationCode })),
    z.transform(normalizeActivationCode),
  ))();

export const storedActivationCodeSchema = /* @__PURE__ */ (() =>
  z.string({ error: VALIDATION.storedCode }).check(z.regex(STORED_CODE, { error: VALIDATION.storedCode })))();

export const roleGroupSchema = /* @__PURE__ */ (() =>
  z.enum(ROLE_GROUPS, { error: VALIDATION.invalidRole }))();

const base64url = /* @__PURE__ */ (() =>
  z.string().check(z.maxLength(16_384), z.regex(/^[A-Za-z0-9_-]*$/, { error: 'Must be base64url' })))();
const nonEmptyBase64url = /* @__PURE__ */ (() => base64url.check(z.minLength(1)))();

// ---------------------------------------------------------------- profile

const NAME_MESSAGES = { required: VALIDATION.nameRequired, tooLong: VALIDATION.nameTooLong };
const PREFERRED_NAME_MESSAGES = {
  required: VALIDATION.preferredNameRequired,
  tooLong: VALIDATION.preferredNameTooLong,
};
const FAMILY_NAME_MESSAGES = {
  required: VALIDATION.familyNameRequired,
  tooLong: VALIDATION.familyNameTooLong,
};
export const nameSchema = /* @__PURE__ */ (() => requiredText(NAME_MAX, NAME_MESSAGES))();
export const preferredNameSchema = /* @__PURE__ */ (() =>
  requiredText(PREFERRED_NAME_MAX, PREFERRED_NAME_MESSAGES))();
export const familyNameSchema = /* @__PURE__ */ (() => requiredText(FAMILY_NAME_MAX, FAMILY_NAME_MESSAGES))();
export const heightCmSchema = /* @__PURE__ */ (() =>
  z
    .number({ error: VALIDATION.heightRange })
    .check(
      z.gte(HEIGHT_CM_MIN, { error: VALIDATION.heightRange }),
      z.lte(HEIGHT_CM_MAX, { error: VALIDATION.heightRange }),
    ))();
export const sexAssignedAtBirthSchema = /* @__PURE__ */ (() =>
  z.enum(['male', 'female', 'prefer-not-to-say']))();
export const measurementSystemSchema = /* @__PURE__ */ (() => z.enum(['metric', 'imperial']))();

export const profileMetadataSchema = /* @__PURE__ */ (() =>
  z.strictObject({ onboardingCompleted: z.boolean() }))();

export const userProfileSchema = /* @__PURE__ */ (() =>
  z.object({
    userId: userIdSchema,
    email: emailSchema,
    // Names as stored (`storedText`): no rule added since decides whether a profile loads.
    name: storedText(NAME_MAX, NAME_MESSAGES),
    createdAt: datetimeSchema,
    updatedAt: datetimeSchema,
    preferredName: z.optional(storedText(PREFERRED_NAME_MAX, PREFERRED_NAME_MESSAGES)),
    familyName: z.optional(storedText(FAMILY_NAME_MAX, FAMILY_NAME_MESSAGES)),
    dateOfBirth: z.optional(dateSchema),
    heightCm: z.optional(heightCmSchema),
    sexAssignedAtBirth: z._default(sexAssignedAtBirthSchema, DEFAULT_SEX_ASSIGNED_AT_BIRTH),
    measurementSystem: z._default(measurementSystemSchema, DEFAULT_MEASUREMENT_SYSTEM),
    phoneNumber: z.optional(shortText(32)),
    timezone: z.optional(shortText(TIMEZONE_MAX_LENGTH)),
    locale: z.optional(shortText(LOCALE_MAX_LENGTH)),
    metadata: z._default(profileMetadataSchema, { onboardingCompleted: false }),
  }))();
export type UserProfile = z.infer<typeof userProfileSchema>;

/**
 * A date of birth a person can have, checked by the server whatever the screen checked (SPEC's age
 * rule of 13 to 120 is the onboarding form's): not after today anywhere on Earth (UTC+14), and not
 * before 1 January of the year 121 years back.
 */
const dateOfBirthSchema = /* @__PURE__ */ (() =>
  dateSchema.check(
    z.refine(
      (value: string) => {
        const now = Date.now();
        const latest = new Date(now + 14 * 3_600_000).toISOString().slice(0, 10);
        const earliest = `${String(new Date(now).getUTCFullYear() - ONBOARDING_AGE_MAX - 1).padStart(4, '0')}-01-01`;
        return value >= earliest && value <= latest;
      },
      { error: VALIDATION.invalidDateOfBirth },
    ),
  ))();

/** Every field optional, same bounds; unknown keys (userId, roles, __proto__...) are rejected. */
export const profileUpdateSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    email: z.optional(emailSchema),
    name: z.optional(nameSchema),
    preferredName: z.optional(preferredNameSchema),
    familyName: z.optional(familyNameSchema),
    dateOfBirth: z.optional(dateOfBirthSchema),
    heightCm: z.optional(heightCmSchema),
    sexAssignedAtBirth: z.optional(sexAssignedAtBirthSchema),
    measurementSystem: z.optional(measurementSystemSchema),
    phoneNumber: z.optional(shortText(32)),
    timezone: z.optional(timezoneSchema),
    locale: z.optional(localeSchema),
    metadata: z.optional(profileMetadataSchema),
  }))();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

// ---------------------------------------------------------------- activation and invitations

export const activationCodeRecordSchema = /* @__PURE__ */ (() =>
  z.object({
    email: emailSchema,
    activationCode: storedActivationCodeSchema,
    codeUsed: z.boolean(),
    createdBy: z.uuid({ error: VALIDATION.createdByUuid }),
    createdAt: datetimeSchema,
    usedAt: z.optional(datetimeSchema),
    usedBy: z.optional(userIdSchema),
  }))();
export type ActivationCodeRecord = z.infer<typeof activationCodeRecordSchema>;

export const registrationRequestSchema = /* @__PURE__ */ (() =>
  z.object({
    email: normalizedEmailSchema,
    activationCode: registrationActivationCodeSchema,
    name: nameSchema,
    phoneNumber: z.optional(shortText(32)),
    timezone: z._default(shortText(TIMEZONE_MAX_LENGTH), DEFAULT_TIMEZONE),
    locale: z._default(shortText(LOCALE_MAX_LENGTH), DEFAULT_LOCALE),
  }))();
export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

/** Code-check request: email and an optional code (a further request carries only email). */
export const codeCheckRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    email: normalizedEmailSchema,
    activationCode: z.optional(registrationActivationCodeSchema),
  }))();
export type CodeCheckRequest = z.infer<typeof codeCheckRequestSchema>;

/** SPEC-2 section 3.3 adds 'expired': 7 days after the invitation was created or last resent. */
export const invitationStatusSchema = /* @__PURE__ */ (() => z.enum(['pending', 'activated', 'expired']))();
export const invitationSchema = /* @__PURE__ */ (() =>
  z.object({
    email: emailSchema,
    status: invitationStatusSchema,
    activationCode: storedActivationCodeSchema,
    roles: z.array(roleGroupSchema),
    userId: z.optional(userIdSchema),
    createdAt: datetimeSchema,
    /** When a pending invitation's code stops working (SPEC-2 section 3.3). */
    expiresAt: z.optional(datetimeSchema),
  }))();
export type Invitation = z.infer<typeof invitationSchema>;

export const createInvitationRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    email: normalizedEmailSchema,
    roles: z.optional(
      z
        .array(roleGroupSchema)
        .check(z.minLength(1, { error: VALIDATION.invalidRole }), z.maxLength(ROLE_GROUPS.length)),
    ),
  }))();
export type CreateInvitationRequest = z.infer<typeof createInvitationRequestSchema>;

export const adminUserListItemSchema = /* @__PURE__ */ (() =>
  z.object({
    userId: userIdSchema,
    email: emailSchema,
    preferredName: z.optional(z.string()),
    familyName: z.optional(z.string()),
    roles: z.array(z.string()),
    createdAt: datetimeSchema,
    /** SPEC-2 section 2: the client's coach, when one is assigned. */
    coachId: z.optional(z.string()),
    /** SPEC-2 section 2: whether the account may sign in. */
    status: z.enum(['active', 'disabled']),
    /**
     * Set once an erase began, while it runs or after it was cut short and waits for FinishErases
     * (docs/decisions/044-account-lifecycle.md): the account is disabled and can only be deleted (which
     * finishes the erase), never enabled.
     */
    beingDeleted: z.optional(z.literal(true)),
  }))();
export type AdminUserListItem = z.infer<typeof adminUserListItemSchema>;

// ---------------------------------------------------------------- WebAuthn payloads

const userVerification = /* @__PURE__ */ (() => z.enum(['discouraged', 'preferred', 'required']))();
const attachment = /* @__PURE__ */ (() => z.enum(['platform', 'cross-platform']))();

const credentialDescriptor = /* @__PURE__ */ (() =>
  z.object({
    id: base64url,
    type: z.literal('public-key'),
    transports: z.optional(
      z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])),
    ),
  }))();

export const registrationOptionsSchema = /* @__PURE__ */ (() =>
  z.looseObject({
    challenge: base64url,
    rp: z.object({ name: z.string(), id: z.optional(z.string()) }),
    user: z.object({ id: base64url, name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number() })),
    timeout: z.optional(z.number()),
    excludeCredentials: z.optional(z.array(credentialDescriptor)),
    authenticatorSelection: z.optional(
      z.object({
        authenticatorAttachment: z.optional(attachment),
        requireResidentKey: z.optional(z.boolean()),
        residentKey: z.optional(userVerification),
        userVerification: z.optional(userVerification),
      }),
    ),
    attestation: z.optional(z.enum(['direct', 'enterprise', 'indirect', 'none'])),
  }))() satisfies WireSchema<PublicKeyCredentialCreationOptionsJSON>;

export const authenticationOptionsSchema = /* @__PURE__ */ (() =>
  z.looseObject({
    challenge: base64url,
    rpId: z.optional(z.string()),
    allowCredentials: z.optional(z.array(credentialDescriptor)),
    timeout: z.optional(z.number()),
    userVerification: z.optional(userVerification),
  }))() satisfies WireSchema<PublicKeyCredentialRequestOptionsJSON>;

const extensionResults = /* @__PURE__ */ (() => z._default(z.record(z.string(), z.unknown()), {}))();

export const registrationResponseSchema = /* @__PURE__ */ (() =>
  z.object({
    id: nonEmptyBase64url,
    rawId: nonEmptyBase64url,
    response: z.object({
      clientDataJSON: nonEmptyBase64url,
      attestationObject: nonEmptyBase64url,
      authenticatorData: z.optional(base64url),
      transports: z.optional(z.array(z.string())),
      publicKeyAlgorithm: z.optional(z.number()),
      publicKey: z.optional(base64url),
    }),
    authenticatorAttachment: z.optional(attachment),
    clientExtensionResults: extensionResults,
    type: z.literal('public-key'),
  }))() satisfies WireSchema<RegistrationResponseJSON>;

export const authenticationResponseSchema = /* @__PURE__ */ (() =>
  z.object({
    id: nonEmptyBase64url,
    rawId: nonEmptyBase64url,
    response: z.object({
      authenticatorData: nonEmptyBase64url,
      clientDataJSON: nonEmptyBase64url,
      signature: nonEmptyBase64url,
      userHandle: z.optional(base64url),
    }),
    authenticatorAttachment: z.optional(attachment),
    clientExtensionResults: extensionResults,
    type: z.literal('public-key'),
  }))() satisfies WireSchema<AuthenticationResponseJSON>;

// ---------------------------------------------------------------- auth calls (SPEC section 7)

export const verifyActivationRequestSchema = codeCheckRequestSchema;

export const activationVerifyResponseSchema = /* @__PURE__ */ (() =>
  z.discriminatedUnion('valid', [
    z.object({ valid: z.literal(false) }),
    z.object({
      valid: z.literal(true),
      cognitoUsername: z.string().check(z.minLength(1)),
      registrationOptions: registrationOptionsSchema,
    }),
  ]))();
export type ActivationVerifyResponse = z.infer<typeof activationVerifyResponseSchema>;

export const registerPasskeyRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    email: normalizedEmailSchema,
    activationCode: registrationActivationCodeSchema,
    cognitoUsername: z.string().check(z.minLength(1), z.maxLength(128)),
    registrationResponse: registrationResponseSchema,
    /** At most a cross-check: the server verifies against the challenge it stored. */
    expectedChallenge: z.optional(nonEmptyBase64url),
    name: z.optional(nameSchema),
    phoneNumber: z.optional(shortText(32)),
    /** The browser's, for the new profile: one `Intl` does not know is replaced by the default. */
    timezone: z.optional(shortText(TIMEZONE_MAX_LENGTH)),
    locale: z.optional(shortText(LOCALE_MAX_LENGTH)),
  }))();
export type RegisterPasskeyRequest = z.infer<typeof registerPasskeyRequestSchema>;

export const initiateSigninRequestSchema = /* @__PURE__ */ (() => z.strictObject({}))();

export const signInStartResponseSchema = /* @__PURE__ */ (() =>
  z.object({
    sessionId: z.string().check(z.minLength(1)),
    authenticationOptions: authenticationOptionsSchema,
  }))();
export type SignInStartResponse = z.infer<typeof signInStartResponseSchema>;

export const verifyWebauthnRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    sessionId: z.string().check(z.minLength(1), z.maxLength(128)),
    authenticationResponse: authenticationResponseSchema,
  }))();
export type VerifyWebauthnRequest = z.infer<typeof verifyWebauthnRequestSchema>;

export const passkeyVerifyResponseSchema = /* @__PURE__ */ (() =>
  z.object({
    userId: userIdSchema,
    cognitoUsername: z.string().check(z.minLength(1)),
    passkeyProof: z.string().check(z.minLength(1)),
  }))();
export type PasskeyVerifyResponse = z.infer<typeof passkeyVerifyResponseSchema>;

/** register-passkey answers the same shape, so the SPA signs in without a second prompt. */
export const registerPasskeyResponseSchema = passkeyVerifyResponseSchema;

export const apiErrorSchema = /* @__PURE__ */ (() => z.object({ message: z.string() }))();
