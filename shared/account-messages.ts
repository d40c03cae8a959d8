/**
 * SPEC-2 section 3 texts, and the others of the account lifecycle in their tone
 * (docs/decisions/044-account-lifecycle.md). Kept apart from shared/account.ts's schemas so that the
 * sign-in's passkey signals, which read one of them, do not carry those.
 */
import { MAX_PASSKEYS } from './constants';

export const ACCOUNT_MESSAGES = {
  // SPEC-2 section 3, exact.
  onlyPasskey: 'You cannot remove your only passkey.',
  reauthRequired: 'Please sign in again to manage passkeys.',
  ownAdminRole: 'You cannot remove your own admin role.',
  // In SPEC-2's tone.
  selfDisable: 'You cannot disable your own account.',
  selfDelete: 'You cannot delete your own account from User Management.',
  /** Erasing the account asks for a sign-in as recent as managing passkeys (decision 044). */
  reauthToDelete: 'Please sign in again to delete your account.',
  /** A recovery code hands over an account: issuing one asks for the same recent sign-in (decision 044). */
  reauthToReset: 'Please sign in again to reset access.',
  lastAdmin: 'You are the only admin. Make someone else an admin first.',
  confirmEmail: 'Type your email address exactly to confirm.',
  passkeyName: 'Name must be 1 to 64 characters',
  passkeyNotFound: 'Passkey not found',
  passkeyExists: 'This passkey is already registered.',
  tooManyPasskeys: `You can have at most ${MAX_PASSKEYS} passkeys. Remove one to add another.`,
  userNotFound: 'User not found',
  notResendable: 'Only pending or expired invitations can be resent',
  changedMeanwhile: 'This account changed meanwhile. Please try again.',
  /** Change roles with none (the dialog's own text too), or with one twice (decision 045). */
  atLeastOneRole: 'Choose at least one role.',
  roleTwice: 'Each role may be given once.',
  /** A recovery hands over the account: not while it is disabled (decision 044). */
  resetDisabled: 'Enable this person before resetting their access.',
  // An erase cannot be undone: what it removed (passkeys, sign-in, records) is gone (ADR 044).
  beingDeleted: 'This account is being deleted and cannot be enabled.',
  beingDeletedRoles: 'This account is being deleted and its roles cannot be changed.',
} as const;
