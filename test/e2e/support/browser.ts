/**
 * Debian's Chromium driven by playwright-core, and "devices": one browser context per person with
 * its own CDP virtual platform authenticator (ctap2, internal, resident key, user verification).
 * A person's passkey can be carried from one context to a fresh one (WebAuthn.getCredentials and
 * addCredential), so every test starts from a clean browser and still signs in with the passkey
 * that was created at activation. A context's authenticator can be removed (the device is lost) and
 * another added (a second device); Chromium holds one internal (platform) authenticator at a time.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { CHROMIUM_ARGS } from '../../fixtures/chromium';
import { registerBrowser, watchCsp } from './csp';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;
export type Viewport = { readonly width: number; readonly height: number };
/** Between the two: a tablet upright (no navigation beside the page), and one on its side (with it). */
export const TABLETS: readonly Viewport[] = [
  { width: 820, height: 1180 },
  { width: 1024, height: 768 },
];

/** Generous for a loaded 2-core machine, yet far below the test timeout. */
const ACTION_TIMEOUT_MS = 15_000;

/** Chromium, every context of which the CSP detector (./csp.ts) expects to watch. */
export const launchChromium = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
  registerBrowser(browser);
  return browser;
};

const readPasskeys = (cdp: CDPSession, authenticatorId: string) =>
  cdp.send('WebAuthn.getCredentials', { authenticatorId });

/** A passkey as the virtual authenticator holds it: private key, credential id, user handle, counter. */
export type Passkey = Awaited<ReturnType<typeof readPasskeys>>['credentials'][number];

/** Passkeys created and assertions signed (each one a prompt the person answered). */
export interface Ceremonies {
  created: number;
  asserted: number;
}

/** One CDP virtual authenticator of a context. */
export interface VirtualAuthenticator {
  readonly id: string;
  /** What this authenticator created and signed. */
  readonly ceremonies: Ceremonies;
  /** Every passkey it holds (with its current signature counter). */
  readonly passkeys: () => Promise<Passkey[]>;
  /** The device is gone, with every passkey on it. */
  readonly remove: () => Promise<void>;
}

export type Transport = 'internal' | 'usb' | 'nfc' | 'ble';

export interface Device {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Passkeys this device's authenticators created and assertions they signed (each one a prompt). */
  readonly ceremonies: Ceremonies;
  /** The one passkey this device's first authenticator holds (with its current signature counter). */
  readonly passkey: () => Promise<Passkey>;
  /** The authenticator the context opened with (platform: internal transport). */
  readonly authenticator: VirtualAuthenticator;
  /**
   * One more authenticator in this context, platform (internal) unless told otherwise. Chromium
   * refuses a second internal one while the first is there: remove that first.
   */
  readonly addAuthenticator: (transport?: Transport) => Promise<VirtualAuthenticator>;
  readonly close: () => Promise<void>;
}

export interface DeviceOptions {
  /** A passkey created earlier, placed on this device's authenticator. */
  passkey?: Passkey | undefined;
  viewport?: Viewport;
  /** Lets the page read and write the clipboard (Copy Link). */
  clipboard?: boolean;
}

/**
 * A fresh browser context (no cookies, no storage) with its own virtual authenticator, watched by
 * the CSP detector.
 */
export const openDevice = async (
  browser: Browser,
  origin: string,
  options: DeviceOptions = {},
): Promise<Device> => {
  const context = await browser.newContext({
    baseURL: origin,
    viewport: options.viewport ?? DESKTOP,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  try {
    // Before any page: every CSP violation in this context fails the test (./csp.ts).
    await watchCsp(context);
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const ceremonies: Ceremonies = { created: 0, asserted: 0 };
    const byId = new Map<string, Ceremonies>();
    const addAuthenticator = async (transport: Transport = 'internal') => {
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport,
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      const own: Ceremonies = { created: 0, asserted: 0 };
      byId.set(authenticatorId, own);
      const authenticator: VirtualAuthenticator = {
        id: authenticatorId,
        ceremonies: own,
        passkeys: async () => (await readPasskeys(cdp, authenticatorId)).credentials,
        remove: async () => {
          await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
        },
      };
      return authenticator;
    };
    const authenticator = await addAuthenticator();
    if (options.passkey)
      await cdp.send('WebAuthn.addCredential', {
        authenticatorId: authenticator.id,
        credential: options.passkey,
      });
    // Counted from here: a passkey carried over was not created on this device.
    cdp.on('WebAuthn.credentialAdded', ({ authenticatorId }) => {
      ceremonies.created += 1;
      const own = byId.get(authenticatorId);
      if (own) own.created += 1;
    });
    cdp.on('WebAuthn.credentialAsserted', ({ authenticatorId }) => {
      ceremonies.asserted += 1;
      const own = byId.get(authenticatorId);
      if (own) own.asserted += 1;
    });
    return {
      context,
      page,
      ceremonies,
      authenticator,
      addAuthenticator,
      passkey: async () => {
        const credentials = await authenticator.passkeys();
        if (credentials.length !== 1) {
          throw new Error(`Expected one passkey on this device, found ${credentials.length}.`);
        }
        return credentials[0] as Passkey;
      },
      close: () => context.close(),
    };
  } catch (error) {
    await context.close();
    throw error;
  }
};

/** openDevice, closed when the current test finishes (pass or fail). */
export const openDeviceForTest = async (
  browser: Browser,
  origin: string,
  options: DeviceOptions = {},
): Promise<Device> => {
  const device = await openDevice(browser, origin, options);
  onTestFinished(() => device.close());
  return device;
};
