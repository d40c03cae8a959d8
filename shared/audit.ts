/**
 * SPEC-2 section 4: the audit log's event types and shapes. Events hold ids and reason codes only:
 * never a health value, an activation code, a challenge, a proof or a token.
 * Each value built at load sits under a `@__PURE__` mark, so that a Lambda bundle keeps only the
 * schemas it uses (`shared/schemas.ts` says why).
 */
import * as z from 'zod/mini';
import { cursorSchema, instantSchema, limitSchema, rangeCheck } from './health-schemas';
import { emailSchema, userIdInputSchema, userIdSchema } from './schemas';

/** Every event type of SPEC-2 section 4; later issues write theirs through the same module. */
export const AUDIT_EVENT_TYPES = [
  'signin.succeeded',
  'signin.failed',
  'activation.completed',
  'activation.failed',
  'recovery.issued',
  'recovery.used',
  'passkey.added',
  'passkey.renamed',
  'passkey.removed',
  'invitation.created',
  'invitation.resent',
  'invitation.deleted',
  'roles.changed',
  'user.disabled',
  'user.enabled',
  'user.deleted',
  'coach.assigned',
  'coach.unassigned',
  'client.data.read',
  'note.created',
  'data.exported',
  'account.deleted',
  'limit.locked',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** What the person sees under 'Recent activity': their own sign-ins and account security events. */
export const SECURITY_EVENT_TYPES: readonly AuditEventType[] = [
  'signin.succeeded',
  'signin.failed',
  'activation.completed',
  'recovery.issued',
  'recovery.used',
  'passkey.added',
  'passkey.renamed',
  'passkey.removed',
  'roles.changed',
  'user.disabled',
  'user.enabled',
  'data.exported',
  'limit.locked',
];
/** 'Recent activity' shows this many (SPEC-2 section 4, the person's last 20 security events). */
export const RECENT_ACTIVITY_COUNT = 20;
/** Items expire this many days after the event (DynamoDB TTL). */
export const AUDIT_RETENTION_DAYS = 400;
/** `userAgent` is cut to this many characters. */
export const USER_AGENT_MAX = 200;

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Ids, counts and codes: a detail value is never free text a person typed. */
export type AuditDetailValue = string | number | boolean | readonly string[];

export const AUDIT_TYPE_LABELS: Record<AuditEventType, string> = {
  'signin.succeeded': 'Sign-in succeeded',
  'signin.failed': 'Sign-in failed',
  'activation.completed': 'Activation completed',
  'activation.failed': 'Activation failed',
  'recovery.issued': 'Recovery code issued',
  'recovery.used': 'Recovery code used',
  'passkey.added': 'Passkey added',
  'passkey.renamed': 'Passkey renamed',
  'passkey.removed': 'Passkey removed',
  'invitation.created': 'Invitation created',
  'invitation.resent': 'Invitation resent',
  'invitation.deleted': 'Invitation deleted',
  'roles.changed': 'Roles changed',
  'user.disabled': 'Account disabled',
  'user.enabled': 'Account enabled',
  'user.deleted': 'Account deleted by an admin',
  'coach.assigned': 'Coach assigned',
  'coach.unassigned': 'Coach unassigned',
  'client.data.read': "Coach read a client's data",
  'note.created': 'Coach note written',
  'data.exported': 'Data exported',
  'account.deleted': 'Account deleted',
  'limit.locked': 'Locked after too many attempts',
};

export const auditEventSchema = /* @__PURE__ */ (() =>
  z.object({
    eventId: z.string(),
    at: z.string(),
    type: z.enum(AUDIT_EVENT_TYPES),
    actorId: z.optional(z.string()),
    subjectId: z.optional(z.string()),
    outcome: z.enum(AUDIT_OUTCOMES),
    ip: z.string(),
    userAgent: z.string(),
    details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])),
  }))();
export type AuditEvent = z.infer<typeof auditEventSchema>;
/**
 * An entry of 'Recent activity' (the person's own events): the address and browser an event came from
 * only when the person acted themselves (a sign-in, a passkey added, or one failed in their name); an
 * admin's action on them (roles changed, disabled, enabled, a recovery code issued) is marked `byAdmin`
 * instead, without the admin's id, address or browser.
 */
export const activityEventSchema = /* @__PURE__ */ (() =>
  z.object({
    eventId: z.string(),
    at: z.string(),
    type: z.enum(AUDIT_EVENT_TYPES),
    subjectId: z.optional(z.string()),
    outcome: z.enum(AUDIT_OUTCOMES),
    ip: z.optional(z.string()),
    userAgent: z.optional(z.string()),
    byAdmin: z.optional(z.literal(true)),
    details: auditEventSchema.shape.details,
  }))();
export type ActivityEvent = z.infer<typeof activityEventSchema>;
/** Someone a page's events name as actor or subject, as the Audit Log shows them (an erased person is not here). */
export const auditPersonSchema = /* @__PURE__ */ (() =>
  z.object({
    userId: userIdSchema,
    email: emailSchema,
    preferredName: z.optional(z.string()),
    familyName: z.optional(z.string()),
  }))();
export type AuditPerson = z.infer<typeof auditPersonSchema>;
/** A page of the admin's Audit Log: the events and the people they name, so the screen reads no user list. */
export const auditPageSchema = /* @__PURE__ */ (() =>
  z.object({
    events: z.array(auditEventSchema),
    nextCursor: z.optional(z.string()),
    people: z.array(auditPersonSchema),
  }))();
export type AuditPage = z.infer<typeof auditPageSchema>;
export const activityListSchema = /* @__PURE__ */ (() =>
  z.object({ events: z.array(activityEventSchema) }))();

export const AUDIT_MESSAGES = {
  type: 'Type must be an audit event type',
  /** A 503 when the event cannot be written: what it would record was not done (or shown). */
  unavailable: 'This could not be recorded in the audit log, so it was not done. Please try again.',
  /** A 503 when a change that was made already (an invitation) could not be recorded after it. */
  unrecorded: 'This was done, but it could not be recorded in the audit log.',
} as const;

/** GET /internal/v1/admin/audit query string. */
export const auditListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      subjectId: z.optional(userIdInputSchema),
      actorId: z.optional(userIdInputSchema),
      type: z.optional(z.enum(AUDIT_EVENT_TYPES, { error: AUDIT_MESSAGES.type })),
      from: z.optional(instantSchema),
      to: z.optional(instantSchema),
      limit: limitSchema,
      cursor: z.optional(cursorSchema),
    })
    .check(rangeCheck))();
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
