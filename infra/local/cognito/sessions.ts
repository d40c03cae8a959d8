/**
 * Custom-auth sessions: the opaque `Session` string between InitiateAuth and RespondToAuthChallenge.
 * They live in memory only (a restart mid-sign-in just means signing in again, as after an expiry),
 * are kept by hash, and are consumed on first presentation whatever the outcome, as Cognito does.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DefineAuthChallengeTriggerEvent } from 'aws-lambda';
import { AUTH_SESSION_VALIDITY_MINUTES } from '../../../shared/session-policy';

/** One entry of a trigger's `request.session` (@types/aws-lambda does not export the name). */
export type CustomChallengeResult = Extract<
  DefineAuthChallengeTriggerEvent['request']['session'][number],
  { challengeName: 'CUSTOM_CHALLENGE' }
>;

/** Cognito's custom-auth session lifetime: the app client's `authSessionValidity`. */
export const SESSION_TTL_MS = AUTH_SESSION_VALIDITY_MINUTES * 60 * 1000;

export interface AuthSession {
  /** The real username, or the name the caller gave when no such user exists. */
  readonly username: string;
  readonly userNotFound: boolean;
  /** Ties a found user's session to that exact account, even if the username is reused later. */
  readonly sub: string | undefined;
  readonly clientId: string;
  readonly challengeName: string;
  readonly history: readonly CustomChallengeResult[];
  readonly privateChallengeParameters: Readonly<Record<string, string>>;
  readonly challengeMetadata: string | undefined;
}

export type SessionLookup =
  | { readonly ok: true; readonly session: AuthSession }
  | { readonly ok: false; readonly reason: 'unknown' | 'used' | 'expired' };

const hash = (token: string): string => createHash('sha256').update(token).digest('base64url');

export class SessionStore {
  private readonly live = new Map<string, { session: AuthSession; expiresAt: number }>();
  /** Hashes of consumed sessions, remembered until they would have expired, to name the error right. */
  private readonly used = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  issue(session: AuthSession): string {
    this.prune();
    const token = randomBytes(96).toString('base64url');
    this.live.set(hash(token), { session, expiresAt: this.now() + SESSION_TTL_MS });
    return token;
  }

  consume(token: string): SessionLookup {
    const key = hash(token);
    const entry = this.live.get(key);
    if (!entry) return { ok: false, reason: this.used.has(key) ? 'used' : 'unknown' };
    this.live.delete(key);
    if (entry.expiresAt <= this.now()) return { ok: false, reason: 'expired' };
    this.used.set(key, entry.expiresAt);
    return { ok: true, session: entry.session };
  }

  clear(): void {
    this.live.clear();
    this.used.clear();
  }

  /** Forgets sessions one lifetime after they expired: late enough to still say "expired" or "used". */
  private prune(): void {
    const horizon = this.now() - SESSION_TTL_MS;
    for (const [key, entry] of this.live) if (entry.expiresAt <= horizon) this.live.delete(key);
    for (const [key, expiresAt] of this.used) if (expiresAt <= horizon) this.used.delete(key);
  }
}
