/**
 * The admin lists at scale (issue 12, docs/decisions/058-admin-lists-at-scale.md): the query strings of
 * `GET /internal/v1/admin/users` and `GET /internal/v1/admin/invitations`, and the directory's counts.
 * Pages are newest first; a search by email prefix answers in email order.
 * Each value built at load sits under a `@__PURE__` mark, so that a Lambda bundle keeps only the
 * schemas it uses (`shared/schemas.ts` says why).
 */
import * as z from 'zod/mini';
import { cursorSchema, limitSchema } from './health-schemas';
import { adminUserListItemSchema, invitationSchema } from './schemas';

export const DIRECTORY_MESSAGES = {
  userStatus: 'Status must be active or disabled',
  invitationStatus: 'Status must be pending or activated',
  role: 'Role must be coaches',
  search: 'Search must be 1 to 254 characters of an email address',
} as const;

/** What a search matches: the start of an email address, compared in lower case. */
export const emailPrefixSchema = /* @__PURE__ */ (() =>
  z
    .string()
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, { error: DIRECTORY_MESSAGES.search }),
      z.maxLength(254, { error: DIRECTORY_MESSAGES.search }),
      z.regex(/^\S+$/, { error: DIRECTORY_MESSAGES.search }),
    ))();

/** `status`: an account's state; `role=coaches`: only coaches (the coach picker); `q`: email prefix. */
export const adminUserListQuerySchema = /* @__PURE__ */ (() =>
  z.strictObject({
    status: z.optional(z.enum(['active', 'disabled'], { error: DIRECTORY_MESSAGES.userStatus })),
    role: z.optional(z.literal('coaches', { error: DIRECTORY_MESSAGES.role })),
    q: z.optional(emailPrefixSchema),
    limit: limitSchema,
    cursor: z.optional(cursorSchema),
  }))();
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

/**
 * `status=pending`: invitations not taken up (pending or, past their expiry, expired: the Pending
 * Invitations tab); `status=activated`: taken up.
 */
export const invitationListQuerySchema = /* @__PURE__ */ (() =>
  z.strictObject({
    status: z.optional(z.enum(['pending', 'activated'], { error: DIRECTORY_MESSAGES.invitationStatus })),
    q: z.optional(emailPrefixSchema),
    limit: limitSchema,
    cursor: z.optional(cursorSchema),
  }))();
export type InvitationListQuery = z.infer<typeof invitationListQuerySchema>;

/**
 * Kept up to date in the same transaction as every write that changes them: `people` (activated
 * accounts, disabled ones included), `disabled`, and `pendingInvitations` (not taken up, expired ones
 * included). The stat cards and tab counts are read from these, never by counting.
 */
export const directoryCountsSchema = /* @__PURE__ */ (() =>
  z.object({
    people: z.number(),
    disabled: z.number(),
    pendingInvitations: z.number(),
  }))();
export type DirectoryCounts = z.infer<typeof directoryCountsSchema>;

/** `GET /internal/v1/admin/users`: one page of people; `counts` on every page. */
export const adminUserListSchema = /* @__PURE__ */ (() =>
  z.object({
    users: z.array(adminUserListItemSchema),
    nextCursor: z.optional(z.string()),
    counts: directoryCountsSchema,
  }))();
export type AdminUserList = z.infer<typeof adminUserListSchema>;

/** `GET /internal/v1/admin/invitations`: one page of invitations. */
export const invitationListSchema = /* @__PURE__ */ (() =>
  z.object({
    invitations: z.array(invitationSchema),
    nextCursor: z.optional(z.string()),
  }))();
export type InvitationList = z.infer<typeof invitationListSchema>;
