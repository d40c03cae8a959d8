/**
 * zod schemas for every entity and request of SPEC section 3, with the messages of section 5.
 * The web app and the Lambdas validate what crosses the wire with these, in both directions.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import { normalizeActivationCode } from './activation-code';
import {
  DEFAULT_LOCALE,
  DEFAULT_MEASUREMENT_SYSTEM,
  DEFAULT_SEX_ASSIGNED_AT_BIRTH,
  DEFAULT_TIMEZONE,
  FAMILY_NAME_MAX,
  HEIGHT_CM_MAX,
  HEIGHT_CM_MIN,
  NAME_MAX,
  PREFERRED_NAME_MAX,
  ROLE_GROUPS,
} from './constants';
import { VALIDATION } from './messages';

// ---------------------------------------------------------------- primitives

export const emailSchema = z
  .string({ error: VALIDATION.invalidEmail })
  .trim()
  .max(254, { error: VALIDATION.invalidEmail })
  .pipe(z.email({ error: VALIDATION.invalidEmail }));

/** An email as the server keys it: trimmed and lowercased. */
export const normalizedEmailSchema = emailSchema.transform((email) => email.toLowerCase());

export const userIdSchema = z.uuid({ error: VALIDATION.userIdUuid });
export const datetimeSchema = z.iso.datetime({ error: VALIDATION.invalidDatetime });
export const dateSchema = z.iso.date({ error: VALIDATION.invalidDate });

const REGISTRATION_CODE = /^[A-Z0-9]{4}-?[A-Z0-9]{4}-?[A-Z0-9]{4}-?[A-Z0-9]{4}$/;
const STORED_CODE = /^[A-Z0-9]{16}$/;

/** A code as a person types it: case and surrounding spaces forgiven, normalized to 16 characters. */
export const registrationActivationCodeSchema = z
  .string({ error: VALIDATION.registrationCode })
  .transform((code) => code.trim().toUpperCase())
  .pipe(z.string().regex(REGISTRATION_CODE, { error: VALIDATION.registrationCode }))
  .transform(normalizeActivationCode);

export const storedActivationCodeSchema = z
  .string({ error: VALIDATION.storedCode })
  .regex(STORED_CODE, { error: VALIDATION.storedCode });

export const roleGroupSchema = z.enum(ROLE_GROUPS, { error: VALIDATION.invalidRole });

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, { error: 'Must be base64url' });

// ---------------------------------------------------------------- profile

export const nameSchema = z
  .string({ error: VALIDATION.nameRequired })
  .trim()
  .min(1, { error: VALIDATION.nameRequired })
  .max(NAME_MAX, { error: VALIDATION.nameTooLong });
export const preferredNameSchema = z
  .string({ error: VALIDATION.preferredNameRequired })
  .trim()
  .min(1, { error: VALIDATION.preferredNameRequired })
  .max(PREFERRED_NAME_MAX, { error: VALIDATION.preferredNameTooLong });
export const familyNameSchema = z
  .string({ error: VALIDATION.familyNameRequired })
  .trim()
  .min(1, { error: VALIDATION.familyNameRequired })
  .max(FAMILY_NAME_MAX, { error: VALIDATION.familyNameTooLong });
export const heightCmSchema = z
  .number({ error: VALIDATION.heightRange })
  .min(HEIGHT_CM_MIN, { error: VALIDATION.heightRange })
  .max(HEIGHT_CM_MAX, { error: VALIDATION.heightRange });
export const sexAssignedAtBirthSchema = z.enum(['male', 'female', 'prefer-not-to-say']);
export const measurementSystemSchema = z.enum(['metric', 'imperial']);
const shortText = (max: number) => z.string().trim().min(1).max(max);

export const profileMetadataSchema = z.strictObject({ onboardingCompleted: z.boolean() });

export const userProfileSchema = z.object({
  userId: userIdSchema,
  email: emailSchema,
  name: nameSchema,
  createdAt: datetimeSchema,
  updatedAt: datetimeSchema,
  preferredName: preferredNameSchema.optional(),
  familyName: familyNameSchema.optional(),
  dateOfBirth: dateSchema.optional(),
  heightCm: heightCmSchema.optional(),
  sexAssignedAtBirth: sexAssignedAtBirthSchema.default(DEFAULT_SEX_ASSIGNED_AT_BIRTH),
  measurementSystem: measurementSystemSchema.default(DEFAULT_MEASUREMENT_SYSTEM),
  phoneNumber: shortText(32).optional(),
  timezone: shortText(64).optional(),
  locale: shortText(35).optional(),
  metadata: profileMetadataSchema.default({ onboardingCompleted: false }),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** Every field optional, same bounds; unknown keys (userId, roles, __proto__...) are rejected. */
export const profileUpdateSchema = z.strictObject({
  email: emailSchema.optional(),
  name: nameSchema.optional(),
  preferredName: preferredNameSchema.optional(),
  familyName: familyNameSchema.optional(),
  dateOfBirth: dateSchema.optional(),
  heightCm: heightCmSchema.optional(),
  sexAssignedAtBirth: sexAssignedAtBirthSchema.optional(),
  measurementSystem: measurementSystemSchema.optional(),
  phoneNumber: shortText(32).optional(),
  timezone: shortText(64).optional(),
  locale: shortText(35).optional(),
  metadata: profileMetadataSchema.optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

// ---------------------------------------------------------------- activation and invitations

export const activationCodeRecordSchema = z.object({
  email: emailSchema,
  activationCode: storedActivationCodeSchema,
  codeUsed: z.boolean(),
  createdBy: z.uuid({ error: VALIDATION.createdByUuid }),
  createdAt: datetimeSchema,
  usedAt: datetimeSchema.optional(),
  usedBy: userIdSchema.optional(),
});
export type ActivationCodeRecord = z.infer<typeof activationCodeRecordSchema>;

export const registrationRequestSchema = z.object({
  email: normalizedEmailSchema,
  activationCode: registrationActivationCodeSchema,
  name: nameSchema,
  phoneNumber: shortText(32).optional(),
  timezone: shortText(64).default(DEFAULT_TIMEZONE),
  locale: shortText(35).default(DEFAULT_LOCALE),
});
export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

/** Code-check request: email and an optional code (a further request carries only email). */
export const codeCheckRequestSchema = z.strictObject({
  email: normalizedEmailSchema,
  activationCode: registrationActivationCodeSchema.optional(),
});
export type CodeCheckRequest = z.infer<typeof codeCheckRequestSchema>;

export const invitationStatusSchema = z.enum(['pending', 'activated']);
export const invitationSchema = z.object({
  email: emailSchema,
  status: invitationStatusSchema,
  activationCode: storedActivationCodeSchema,
  roles: z.array(roleGroupSchema),
  userId: userIdSchema.optional(),
  createdAt: datetimeSchema,
});
export type Invitation = z.infer<typeof invitationSchema>;
export const invitationListSchema = z.object({ invitations: z.array(invitationSchema) });

export const createInvitationRequestSchema = z.strictObject({
  email: normalizedEmailSchema,
  roles: z
    .array(roleGroupSchema)
    .min(1, { error: VALIDATION.invalidRole })
    .max(ROLE_GROUPS.length)
    .optional(),
});
export type CreateInvitationRequest = z.infer<typeof createInvitationRequestSchema>;

export const adminUserListItemSchema = z.object({
  userId: userIdSchema,
  email: emailSchema,
  preferredName: z.string().optional(),
  familyName: z.string().optional(),
  roles: z.array(z.string()),
  createdAt: datetimeSchema,
});
export type AdminUserListItem = z.infer<typeof adminUserListItemSchema>;
export const adminUserListSchema = z.object({ users: z.array(adminUserListItemSchema) });

// ---------------------------------------------------------------- WebAuthn payloads

const credentialDescriptor = z.object({
  id: base64url,
  type: z.literal('public-key'),
  transports: z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).optional(),
});

export const registrationOptionsSchema = z.looseObject({
  challenge: base64url,
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: base64url, name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
    })
    .optional(),
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).optional(),
}) satisfies z.ZodType<PublicKeyCredentialCreationOptionsJSON>;

export const authenticationOptionsSchema = z.looseObject({
  challenge: base64url,
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  timeout: z.number().optional(),
  userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
}) satisfies z.ZodType<PublicKeyCredentialRequestOptionsJSON>;

const attachment = z.enum(['platform', 'cross-platform']);
const extensionResults = z.record(z.string(), z.unknown()).default({});

export const registrationResponseSchema = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  response: z.object({
    clientDataJSON: base64url.min(1),
    attestationObject: base64url.min(1),
    authenticatorData: base64url.optional(),
    transports: z.array(z.string()).optional(),
    publicKeyAlgorithm: z.number().optional(),
    publicKey: base64url.optional(),
  }),
  authenticatorAttachment: attachment.optional(),
  clientExtensionResults: extensionResults,
  type: z.literal('public-key'),
}) satisfies z.ZodType<RegistrationResponseJSON, unknown>;

export const authenticationResponseSchema = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  response: z.object({
    authenticatorData: base64url.min(1),
    clientDataJSON: base64url.min(1),
    signature: base64url.min(1),
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: attachment.optional(),
  clientExtensionResults: extensionResults,
  type: z.literal('public-key'),
}) satisfies z.ZodType<AuthenticationResponseJSON, unknown>;

// ---------------------------------------------------------------- auth calls (SPEC section 7)

export const verifyActivationRequestSchema = codeCheckRequestSchema;

export const activationVerifyResponseSchema = z.discriminatedUnion('valid', [
  z.object({ valid: z.literal(false) }),
  z.object({
    valid: z.literal(true),
    cognitoUsername: z.string().min(1),
    registrationOptions: registrationOptionsSchema,
  }),
]);
export type ActivationVerifyResponse = z.infer<typeof activationVerifyResponseSchema>;

export const registerPasskeyRequestSchema = z.strictObject({
  email: normalizedEmailSchema,
  activationCode: registrationActivationCodeSchema,
  cognitoUsername: z.string().min(1).max(128),
  registrationResponse: registrationResponseSchema,
  /** At most a cross-check: the server verifies against the challenge it stored. */
  expectedChallenge: base64url.min(1).optional(),
  name: nameSchema.optional(),
  phoneNumber: shortText(32).optional(),
  timezone: shortText(64).optional(),
  locale: shortText(35).optional(),
});
export type RegisterPasskeyRequest = z.infer<typeof registerPasskeyRequestSchema>;

export const initiateSigninRequestSchema = z.strictObject({});

export const signInStartResponseSchema = z.object({
  sessionId: z.string().min(1),
  authenticationOptions: authenticationOptionsSchema,
});
export type SignInStartResponse = z.infer<typeof signInStartResponseSchema>;

export const verifyWebauthnRequestSchema = z.strictObject({
  sessionId: z.string().min(1).max(128),
  authenticationResponse: authenticationResponseSchema,
});
export type VerifyWebauthnRequest = z.infer<typeof verifyWebauthnRequestSchema>;

export const passkeyVerifyResponseSchema = z.object({
  userId: userIdSchema,
  cognitoUsername: z.string().min(1),
  passkeyProof: z.string().min(1),
});
export type PasskeyVerifyResponse = z.infer<typeof passkeyVerifyResponseSchema>;

/** register-passkey answers the same shape, so the SPA signs in without a second prompt. */
export const registerPasskeyResponseSchema = passkeyVerifyResponseSchema;

export const apiErrorSchema = z.object({ message: z.string() });
