/**
 * SPEC-2 section 5 in the Lambdas: wrong activation codes per email, activation attempts and sign-in
 * starts per source IP (API Gateway's socket address, never a header), counted in DynamoDB, identical
 * locally and in the cloud (docs/decisions/049-abuse-limits.md).
 */
import {
  ACTIVATION_EMAIL_FAILURES,
  ACTIVATION_IP_ATTEMPTS,
  SIGNIN_IP_STARTS,
  TOO_MANY_ATTEMPTS,
  TOO_MANY_SIGNIN_STARTS,
} from '../../shared/limits';
import { recordAudit, type RequestOrigin } from './audit';
import { TooManyRequests } from './errors';
import {
  forgetEntry,
  lockSubject,
  refundSlot,
  takeLogEntry,
  takeSlot,
  withinLimit,
  type LimitRule,
  type LimitScope,
  type Slot,
} from './repositories/limit-counters';

const recordLock = (origin: RequestOrigin, scope: LimitScope, until: number, email?: string) =>
  recordAudit(origin, {
    type: 'limit.locked',
    outcome: 'failure',
    details: { limit: scope, until: new Date(until).toISOString(), ...(email !== undefined && { email }) },
  });

/** Refuses the attempt when the source IP is over the rule; the first refusal of a window is audited. */
const takeAddressSlot = async (
  origin: RequestOrigin,
  scope: LimitScope,
  rule: LimitRule,
  message: string,
): Promise<Slot> => {
  const slot = await takeSlot(scope, origin.ip, rule);
  if (withinLimit(slot, rule)) return slot;
  if (slot.number === rule.limit + 1) await recordLock(origin, scope, slot.windowEndsAt);
  throw new TooManyRequests(message);
};

/** POST /v1/auth/initiate-signin: 300 starts per 5 minutes per source IP. */
export const limitSigninStart = async (origin: RequestOrigin): Promise<void> => {
  await takeAddressSlot(origin, 'signin-ip', SIGNIN_IP_STARTS, TOO_MANY_SIGNIN_STARTS);
};

export interface ActivationAttempt {
  /**
   * The code was right, or the attempt met a server error: it counts against neither the email nor,
   * if asked, the address.
   */
  succeeded(): Promise<void>;
  /**
   * The code was right but refused all the same (used, expired, its issuer no longer an admin, the
   * registration not verified): not a wrong code, so not against the email; the address keeps it.
   */
  refused(): Promise<void>;
  /**
   * The code was wrong: it counts, and the one that fills the email's quota locks it from now. The lock's
   * audit event names the email only when `invited` (an invitation's id is its email: decision 042);
   * an email nobody was invited with is what an anonymous caller typed, and is not kept.
   */
  failed(invited: boolean): Promise<void>;
}

/**
 * An attempt at an activation code (verify-activation, register-passkey), admitted only within both
 * limits: 429 otherwise, a right code included. The email's slot is taken before the code is looked at,
 * so two attempts at once can never both be the fifth.
 */
export const startActivationAttempt = async (
  origin: RequestOrigin,
  email: string,
  options: { readonly addressCountsOnlyFailures: boolean },
): Promise<ActivationAttempt> => {
  const address = await takeAddressSlot(origin, 'activation-ip', ACTIVATION_IP_ATTEMPTS, TOO_MANY_ATTEMPTS);
  const rule = ACTIVATION_EMAIL_FAILURES;
  const entry = await takeLogEntry('activation-email', email, rule);
  if (entry.lockedUntil > Date.now() || entry.number > rule.limit) {
    // A refused attempt does not count: the lock lifts when it says, however often it is tried.
    await forgetEntry(entry);
    throw new TooManyRequests(TOO_MANY_ATTEMPTS);
  }
  return {
    succeeded: async () => {
      await forgetEntry(entry);
      if (options.addressCountsOnlyFailures) await refundSlot(address);
    },
    refused: () => forgetEntry(entry),
    failed: async (invited) => {
      if (entry.number < rule.limit) return;
      // 'Please wait 15 minutes': the lock runs a whole window from the failure that filled the quota.
      const until = Date.now() + rule.windowMs;
      await lockSubject(entry, until);
      await recordLock(origin, 'activation-email', until, invited ? email : undefined);
    },
  };
};

/**
 * Audits a failed activation (issue 11): why, and the email only when someone was invited with it (an
 * invitation's id: decision 042), so every reason but `no-invitation`; never the code, nor an email
 * nobody was invited with, which is only what an anonymous caller typed.
 */
export const recordActivationFailure = (origin: RequestOrigin, email: string, reason: string) =>
  recordAudit(origin, {
    type: 'activation.failed',
    outcome: 'failure',
    details: { ...(reason !== 'no-invitation' && { email }), reason },
  });
