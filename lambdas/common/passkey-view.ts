/** Passkeys as their owner sees them (SPEC-2 section 3.1), and the fresh sign-in that managing them needs. */
import {
  ACCOUNT_MESSAGES,
  DEFAULT_PASSKEY_NAME,
  PASSKEY_REAUTH_MAX_AGE_SECONDS,
  type Passkey,
} from '../../shared/account';
import { providerNameOf } from './aaguid';
import { Unauthorized } from './errors';
import type { Caller } from './http';
import type { PasskeySummary } from './repositories/passkeys';

export const toPasskey = (summary: PasskeySummary): Passkey => {
  const providerName = providerNameOf(summary.aaguid);
  return {
    credentialId: summary.credentialId,
    name: summary.name ?? providerName ?? DEFAULT_PASSKEY_NAME,
    createdAt: summary.createdAt,
    ...(summary.lastUsedAt !== undefined && { lastUsedAt: summary.lastUsedAt }),
    backedUp: summary.backedUp,
    ...(providerName !== undefined && { providerName }),
  };
};

/** Oldest first, as they were added. */
export const byCreation = (a: Passkey, b: Passkey): number => a.createdAt.localeCompare(b.createdAt);

/**
 * Adding or removing a passkey, and deleting the account, need a sign-in (`auth_time`) within the
 * last 10 minutes; else 401 with `message`.
 */
export const requireRecentSignIn = (
  caller: Caller,
  message: string = ACCOUNT_MESSAGES.reauthRequired,
): void => {
  if (Math.floor(Date.now() / 1000) - caller.authTime > PASSKEY_REAUTH_MAX_AGE_SECONDS)
    throw new Unauthorized(message);
};
