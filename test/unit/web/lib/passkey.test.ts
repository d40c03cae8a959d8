import type * as Browser from '@simplewebauthn/browser';
import { WebAuthnError } from '@simplewebauthn/browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../../shared/messages';
import {
  createPasskey,
  getPasskeyAssertion,
  isPlatformAuthenticatorAvailable,
  isWebAuthnSupported,
  PasskeyError,
} from '../../../../web/src/lib/passkey';
import {
  authenticationOptions,
  authenticationResponse,
  registrationOptions,
  registrationResponse,
} from '../support/factories';

const browser = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  platformAuthenticatorIsAvailable: vi.fn(() => Promise.resolve(true)),
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
}));

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof Browser>()),
  ...browser,
}));

const webAuthnError = (code: ConstructorParameters<typeof WebAuthnError>[0]['code'], message = code) =>
  new WebAuthnError({ code, message, cause: new Error(message) });

const failureOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PasskeyError);
  return error as PasskeyError;
};

describe('lib/passkey', () => {
  beforeEach(() => {
    browser.browserSupportsWebAuthn.mockReturnValue(true);
    browser.platformAuthenticatorIsAvailable.mockResolvedValue(true);
  });

  it('reports browser support and the platform authenticator', async () => {
    expect(isWebAuthnSupported()).toBe(true);
    browser.browserSupportsWebAuthn.mockReturnValue(false);
    expect(isWebAuthnSupported()).toBe(false);
    expect(await isPlatformAuthenticatorAvailable()).toBe(true);
    browser.platformAuthenticatorIsAvailable.mockRejectedValue(new Error('blocked'));
    expect(await isPlatformAuthenticatorAvailable()).toBe(false);
  });

  it('creates a passkey from the server options', async () => {
    browser.startRegistration.mockResolvedValue(registrationResponse());
    await expect(createPasskey(registrationOptions())).resolves.toEqual(registrationResponse());
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: registrationOptions() });
  });

  it('gets an assertion from the server options', async () => {
    browser.startAuthentication.mockResolvedValue(authenticationResponse());
    await expect(getPasskeyAssertion(authenticationOptions())).resolves.toEqual(authenticationResponse());
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: authenticationOptions() });
  });

  it('refuses both ceremonies without WebAuthn, with the SPEC text', async () => {
    browser.browserSupportsWebAuthn.mockReturnValue(false);
    const registration = await failureOf(createPasskey(registrationOptions()));
    const authentication = await failureOf(getPasskeyAssertion(authenticationOptions()));
    for (const error of [registration, authentication]) {
      expect(error.code).toBe('unsupported');
      expect(error.message).toBe(MESSAGES.webAuthnUnsupported);
    }
  });

  it.each([
    ['ERROR_CEREMONY_ABORTED', 'cancelled', MESSAGES.noCredentialCreated, MESSAGES.authNotCompleted],
    [
      'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY',
      'cancelled',
      MESSAGES.noCredentialCreated,
      MESSAGES.authNotCompleted,
    ],
    ['ERROR_INVALID_DOMAIN', 'invalid-domain', 'ERROR_INVALID_DOMAIN', 'ERROR_INVALID_DOMAIN'],
    ['ERROR_INVALID_RP_ID', 'invalid-domain', 'ERROR_INVALID_RP_ID', 'ERROR_INVALID_RP_ID'],
    [
      'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED',
      'already-registered',
      'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED',
      'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED',
    ],
    [
      'ERROR_AUTHENTICATOR_GENERAL_ERROR',
      'authenticator-error',
      'ERROR_AUTHENTICATOR_GENERAL_ERROR',
      'ERROR_AUTHENTICATOR_GENERAL_ERROR',
    ],
  ] as const)('maps %s to %s', async (webAuthnCode, code, registrationMessage, authenticationMessage) => {
    browser.startRegistration.mockRejectedValue(webAuthnError(webAuthnCode));
    browser.startAuthentication.mockRejectedValue(webAuthnError(webAuthnCode));
    const registration = await failureOf(createPasskey(registrationOptions()));
    const authentication = await failureOf(getPasskeyAssertion(authenticationOptions()));
    expect([registration.code, registration.message]).toEqual([code, registrationMessage]);
    expect([authentication.code, authentication.message]).toEqual([code, authenticationMessage]);
  });

  it('treats a raw NotAllowedError as a dismissed prompt', async () => {
    browser.startAuthentication.mockRejectedValue(
      new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
    );
    const error = await failureOf(getPasskeyAssertion(authenticationOptions()));
    expect([error.code, error.message]).toEqual(['cancelled', MESSAGES.authNotCompleted]);
  });

  it('reports a ceremony that ends without a credential', async () => {
    browser.startRegistration.mockRejectedValue(new Error('Registration was not completed'));
    browser.startAuthentication.mockRejectedValue(new Error('Authentication was not completed'));
    expect((await failureOf(createPasskey(registrationOptions()))).message).toBe(
      MESSAGES.noCredentialCreated,
    );
    expect((await failureOf(getPasskeyAssertion(authenticationOptions()))).message).toBe(
      MESSAGES.authNotCompleted,
    );
    browser.startRegistration.mockResolvedValue(undefined);
    expect((await failureOf(createPasskey(registrationOptions()))).code).toBe('no-credential');
  });
});
