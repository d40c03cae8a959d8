/**
 * The passkey proof: what links a verified WebAuthn assertion to Cognito's custom-auth challenge.
 * Two verbs. `issue` mints 32 random bytes, stores only their SHA-256 bound to the user, valid for
 * about two minutes. `redeem` consumes it atomically, for that user only, before it expires.
 */
import { createHash, randomBytes } from 'node:crypto';
import { PASSKEY_PROOF_TTL_SECONDS } from '../../shared/constants';
import { getAccountGate } from '../common/repositories/accounts';
import { consumeProof, putProof, expiresIn } from '../common/repositories/auth-challenges';

const hash = (proof: string): string => createHash('sha256').update(proof, 'utf8').digest('hex');

export const issuePasskeyProof = async (user: {
  userId: string;
  cognitoUsername: string;
}): Promise<string> => {
  const proof = randomBytes(32).toString('base64url');
  await putProof(hash(proof), {
    userId: user.userId,
    cognitoUsername: user.cognitoUsername,
    issuedAt: Date.now(),
    expiresAt: expiresIn(PASSKEY_PROOF_TTL_SECONDS),
  });
  return proof;
};

/**
 * True only for a proof issued to this user, unexpired and unused (the proof is then spent), whose
 * account is still active and did not change after the proof was issued: a proof from an old passkey
 * that was in flight when a recovery, disable or role change committed opens no session.
 */
export const redeemPasskeyProof = async (proof: unknown, cognitoUsername: string): Promise<boolean> => {
  if (typeof proof !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(proof)) return false;
  const stored = await consumeProof(hash(proof), cognitoUsername);
  if (!stored) return false;
  const account = await getAccountGate(stored.userId);
  return account?.status === 'active' && (stored.issuedAt ?? 0) >= account.tokensValidAfter * 1000;
};
