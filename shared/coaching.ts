/**
 * SPEC-2 section 2: coach assignment, the coach's client list, client detail reads and coach notes.
 * The schemas are shared by the Lambdas (which parse with them) and the SPA (which validates a note
 * with the same rule and reads the answers with them).
 * Each value built at load sits under a `@__PURE__` mark, so that a Lambda bundle keeps only the
 * schemas it uses (`shared/schemas.ts` says why).
 */
import * as z from 'zod/mini';
import { emailSchema, requiredText, userIdInputSchema } from './schemas';

/** A coach note: 1 to 2000 characters (SPEC-2 section 2). */
export const COACH_NOTE_MAX = 2000;
/** The newest notes a thread shows (the rest stay stored; docs/decisions/042-coaching-and-audit.md). */
export const NOTES_SHOWN = 100;
/** "Readings outside target in the last 7 days": the last 7 UTC calendar days, today included. */
export const OUT_OF_TARGET_WINDOW_DAYS = 7;

/** Not worded by SPEC-2; in its tone (docs/decisions/042-coaching-and-audit.md). */
export const COACHING_MESSAGES = {
  noteText: 'Note must be 1 to 2000 characters',
  notACoach: 'Coach must be a member of coaches',
  notAClient: 'Only a member of users can have a coach',
  /** A disabled account is nobody's client and nobody's coach (decision 042). */
  clientDisabled: 'Enable this person before assigning a coach.',
  coachDisabled: 'This coach is disabled. Enable them first.',
  selfCoaching: 'A person cannot be their own coach',
  userNotFound: 'User not found',
  assignmentChanged: 'The assignment changed meanwhile. Please try again.',
  notYourClient: 'This person is not your client',
  noCoach: 'No coach assigned yet.',
  noNotes: 'No notes yet.',
} as const;

export const assignCoachRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({ coachId: userIdInputSchema }))();
export type AssignCoachRequest = z.infer<typeof assignCoachRequestSchema>;
export const assignCoachResponseSchema = /* @__PURE__ */ (() =>
  z.object({ userId: z.string(), coachId: z.string() }))();

export const noteTextSchema = /* @__PURE__ */ (() =>
  requiredText(COACH_NOTE_MAX, {
    required: COACHING_MESSAGES.noteText,
    tooLong: COACHING_MESSAGES.noteText,
  }))();
export const createNoteRequestSchema = /* @__PURE__ */ (() => z.strictObject({ text: noteTextSchema }))();
export type CreateNoteRequest = z.infer<typeof createNoteRequestSchema>;

export const coachNoteSchema = /* @__PURE__ */ (() =>
  z.object({
    noteId: z.string(),
    clientId: z.string(),
    coachId: z.string(),
    /** The coach's name when the note was written. */
    coachName: z.optional(z.string()),
    text: z.string(),
    createdAt: z.string(),
  }))();
export type CoachNote = z.infer<typeof coachNoteSchema>;
export const noteListSchema = /* @__PURE__ */ (() => z.object({ notes: z.array(coachNoteSchema) }))();

export const personSchema = /* @__PURE__ */ (() =>
  z.object({
    userId: z.string(),
    email: emailSchema,
    preferredName: z.optional(z.string()),
    familyName: z.optional(z.string()),
  }))();
export type Person = z.infer<typeof personSchema>;

export const coachClientSchema = /* @__PURE__ */ (() =>
  z.object({
    ...personSchema.shape,
    lastEntryAt: z.optional(z.string()),
    outOfTarget7d: z.number(),
    /** A reading outside a target was logged since this coach's last note to the client (Pending Reviews). */
    pendingReview: z.boolean(),
  }))();
export type CoachClient = z.infer<typeof coachClientSchema>;
export const coachClientListSchema = /* @__PURE__ */ (() =>
  z.object({ clients: z.array(coachClientSchema) }))();
export type CoachClientList = z.infer<typeof coachClientListSchema>;

export const myCoachSchema = /* @__PURE__ */ (() =>
  z.object({
    coach: z.nullable(personSchema),
    notes: z.array(coachNoteSchema),
  }))();
export type MyCoach = z.infer<typeof myCoachSchema>;
