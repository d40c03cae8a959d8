/**
 * The passkey proof: what links a verified WebAuthn assertion to Cognito's custom-auth challenge.
 * Two verbs. `issue` mints 32 random bytes, stores only their SHA-256 bound to the user and to the
 * account's `tokensValidAfter` the issuer checked, valid for about two minutes. `redeem` consumes it
 * atomically, for that user only, before it expires.
 */
import { randomBytes } from 'node:crypto';
import { PASSKEY_PROOF_TTL_SECONDS } from '../../shared/constants';
import { getAccountGate } from '../common/repositories/accounts';
import { consumeProof, putProof, expiresIn } from '../common/repositories/auth-challenges';
import { sha256Hex as hash } from '../common/secrets';

export const issuePasskeyProof = async (user: {
  userId: string;
  cognitoUsername: string;
  /**
   * The account's `tokensValidAfter` when the issuer checked it (a sign-in's account check, or what an
   * activation or a recovery committed): the proof is good only while the account still has it.
   */
  tokensValidAfter: number;
}): Promise<string> => {
  const proof = randomBytes(32).toString('base64url');
  await putProof(hash(proof), {
    userId: user.userId,
    cognitoUsername: user.cognitoUsername,
    issuedAt: Date.now(),
    tokensValidAfter: user.tokensValidAfter,
    expiresAt: expiresIn(PASSKEY_PROOF_TTL_SECONDS),
  });
  return proof;
};

/**
 * True only for a proof issued to this user, unexpired and unused (the proof is then spent), whose
 * account is still active and has the `tokensValidAfter` the issuer checked: a proof from an old
 * passkey that was in flight when a recovery, disable or role change committed opens no session, even
 * one issued after that change (the change committed after the check, before the issue).
 */
export const redeemPasskeyProof = async (proof: unknown, cognitoUsername: string): Promise<boolean> => {
  if (typeof proof !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(proof)) return false;
  const stored = await consumeProof(hash(proof), cognitoUsername);
  if (!stored) return false;
  const account = await getAccountGate(stored.userId);
  if (account?.status !== 'active') return false;
  if (stored.tokensValidAfter !== undefined) return stored.tokensValidAfter === account.tokensValidAfter;
  // A proof issued before proofs carried the value (they live two minutes): the earlier rule.
  return (stored.issuedAt ?? 0) >= account.tokensValidAfter * 1000;
};
