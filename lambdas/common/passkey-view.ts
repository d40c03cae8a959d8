/** Passkeys as their owner sees them (SPEC-2 section 3.1). The fresh sign-in managing them needs is in session.ts. */
import { DEFAULT_PASSKEY_NAME, type Passkey } from '../../shared/account';
import { providerNameOf } from './aaguid';
import { getPasskeySummaries, type PasskeySummary } from './repositories/passkeys';

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

/** A person's passkeys as the Profile page lists them, oldest first, from their account's list. */
export const listedPasskeys = async (credentialIds: Iterable<string>): Promise<Passkey[]> =>
  (await getPasskeySummaries(credentialIds)).map(toPasskey).sort(byCreation);
