/**
 * Stand-in for web/src/lib/passkey (the WebAuthn boundary). Use with
 * `vi.mock('<path>/web/src/lib/passkey', () => import('<path>/support/passkey-mock'))`.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { vi } from 'vitest';

export class PasskeyError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const isWebAuthnSupported = vi.fn<() => boolean>(() => true);
export const isPlatformAuthenticatorAvailable = vi.fn<() => Promise<boolean>>(() => Promise.resolve(true));
export const createPasskey =
  vi.fn<(options: PublicKeyCredentialCreationOptionsJSON) => Promise<RegistrationResponseJSON>>();
export const getPasskeyAssertion =
  vi.fn<(options: PublicKeyCredentialRequestOptionsJSON) => Promise<AuthenticationResponseJSON>>();
