/**
 * SPEC-2 section 3: the account lifecycle. Passkey management, recovery by an admin, admin actions on
 * people and the person's own rights. Texts of SPEC-2 are copied letter for letter; the others are in
 * their tone (docs/decisions/044-account-lifecycle.md). The Lambdas parse with these schemas and the SPA
 * reads the answers with them.
 * Each value built at load sits under a `@__PURE__` mark, so that a Lambda bundle keeps only the
 * schemas it uses (`shared/schemas.ts` says why).
 */
import * as z from 'zod/mini';
import { ACCOUNT_MESSAGES } from './account-messages';
import { ROLE_GROUPS } from './constants';
import { normalizedEmailSchema, registrationResponseSchema, requiredText, roleGroupSchema } from './schemas';

/** Adding or removing a passkey needs a sign-in (the id token's `auth_time`) at most this old. */
export const PASSKEY_REAUTH_MAX_AGE_SECONDS = 10 * 60;
export { RECOVERY_CODE_TTL_SECONDS } from './constants';
export { ACCOUNT_MESSAGES };
/** An invitation expires 7 days after it was created or last resent (SPEC-2 section 3.3). */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** A passkey's name: 1 to 64 characters. */
export const PASSKEY_NAME_MAX = 64;
/** The name of a passkey whose authenticator is not in the AAGUID list. */
export const DEFAULT_PASSKEY_NAME = 'Passkey';

/** SPEC-2's labels and prompts, exact. */
export const ACCOUNT_LABELS = {
  passkeys: 'Passkeys',
  addPasskey: 'Add a passkey',
  rename: 'Rename',
  remove: 'Remove',
  synced: 'Synced',
  deviceBound: 'Device-bound',
  resetAccess: 'Reset access',
  changeRoles: 'Change roles',
  disable: 'Disable',
  enable: 'Enable',
  delete: 'Delete',
  expired: 'Expired',
  /**
   * The status of an account whose delete was cut short and waits for FinishErases (not worded by
   * SPEC-2, whose statuses are active and disabled; decision 045).
   */
  beingDeleted: 'Being deleted',
  /** Offered with a refusal for a sign-in too old (not worded by SPEC-2; decision 045). */
  signInAgain: 'Sign in again',
  resend: 'Resend',
  exportMyData: 'Export my data',
  deleteMyAccount: 'Delete my account',
} as const;

export const confirmRemovePasskey = (name: string): string => `Remove the passkey ${name}?`;
export const confirmResetAccess = (email: string): string =>
  `Reset access for ${email}? Their passkeys stop working.`;
export const confirmDeleteUser = (email: string): string =>
  `Delete ${email} and all their data? This cannot be undone.`;
/** Asked only of a client who has a coach: the disable ends the coaching (not worded by SPEC-2; decision 042). */
export const confirmDisableCoached = (email: string): string =>
  `Disable ${email}? Their coach will be unassigned, and enabling them again does not bring the coach back.`;

/**
 * Asked before a role change that ends coaching (not worded by SPEC-2; decisions 042 and 045): leaving
 * `users` unassigns the person's coach, leaving `coaches` unassigns all their clients from them.
 */
export const confirmRolesEndCoaching = (
  email: string,
  ends: { readonly coach: boolean; readonly clients: boolean },
): string => {
  const what =
    ends.coach && ends.clients
      ? 'They leave the User and Coach roles, so their coach and all their clients will be unassigned; giving the roles back does not bring them back.'
      : ends.coach
        ? 'They leave the User role, so their coach will be unassigned; giving the role back does not bring the coach back.'
        : 'They leave the Coach role, so all their clients will be unassigned from them; giving the role back does not bring the clients back.';
  return `Change the roles of ${email}? ${what}`;
};

export const passkeyNameSchema = /* @__PURE__ */ (() =>
  requiredText(PASSKEY_NAME_MAX, {
    required: ACCOUNT_MESSAGES.passkeyName,
    tooLong: ACCOUNT_MESSAGES.passkeyName,
  }))();

export const passkeySchema = /* @__PURE__ */ (() =>
  z.object({
    credentialId: z.string(),
    name: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.optional(z.string()),
    /** Synced (true) or device-bound (false). */
    backedUp: z.boolean(),
    providerName: z.optional(z.string()),
  }))();
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeyListSchema = /* @__PURE__ */ (() =>
  z.object({
    passkeys: z.array(passkeySchema),
    /**
     * The account's WebAuthn user handle (base64url), which the browser's Signal API names the account
     * by; beside SPEC-2's shape (docs/decisions/045-account-screens.md).
     */
    userHandle: z.optional(z.string()),
  }))();
export type PasskeyList = z.infer<typeof passkeyListSchema>;

export const addPasskeyRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    registrationResponse: registrationResponseSchema,
    name: z.optional(passkeyNameSchema),
  }))();
export type AddPasskeyRequest = z.infer<typeof addPasskeyRequestSchema>;
export const renamePasskeyRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({ name: passkeyNameSchema }))();

export const changeRolesRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    roles: z.array(roleGroupSchema).check(
      z.minLength(1, { error: ACCOUNT_MESSAGES.atLeastOneRole }),
      // More than there are roles is one of them twice.
      z.maxLength(ROLE_GROUPS.length, { error: ACCOUNT_MESSAGES.roleTwice }),
      z.refine((roles) => new Set(roles).size === roles.length, { error: ACCOUNT_MESSAGES.roleTwice }),
    ),
  }))();
export type ChangeRolesRequest = z.infer<typeof changeRolesRequestSchema>;

/** The answer of a recovery and of a resend: the new code and when it stops working. */
export const issuedCodeSchema = /* @__PURE__ */ (() =>
  z.object({ activationCode: z.string(), expiresAt: z.string() }))();
export type IssuedCode = z.infer<typeof issuedCodeSchema>;

export const deleteMeRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({ confirmEmail: normalizedEmailSchema }))();
export type DeleteMeRequest = z.infer<typeof deleteMeRequestSchema>;

/** POST /v1/users/me/sign-out: this session only, or with `everywhere` every session of the person. */
export const signOutRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({ everywhere: z.optional(z.boolean()) }))();
export type SignOutRequest = z.infer<typeof signOutRequestSchema>;
