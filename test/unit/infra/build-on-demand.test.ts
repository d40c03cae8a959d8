/**
 * The packages a Lambda loads on demand are built beside its bundle (docs/decisions/055-cold-starts.md):
 * the bundling hook, run as every function's bundling runs it, writes SimpleWebAuthn into the folder of
 * a bundle that imports it, and that build, loaded from the folder as Node resolves it at run time,
 * carries a whole registration and sign-in ceremony of a software authenticator. A bundle that does not
 * import it gets nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as WebAuthnServer from '@simplewebauthn/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLING, LOADED_ON_DEMAND } from '../../../infra/constructs/app-function';
import { SoftwareAuthenticator } from '../../fixtures/software-authenticator';

const ORIGIN = 'https://coach.example.com';
const RP_ID = 'coach.example.com';

let root: string;
/** A bundle folder as esbuild leaves it, then after the hook's commands. */
const bundleFolder = (name: string, code: string) => {
  const folder = join(root, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'index.mjs'), code);
  writeFileSync(
    join(folder, 'index.mjs.map'),
    JSON.stringify({ version: 3, sources: [], names: [], mappings: '' }),
  );
  for (const command of BUNDLING.commandHooks.afterBundling(folder, folder)) {
    const ran = spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: 120_000 });
    expect(ran.status, ran.stderr).toBe(0);
  }
  return folder;
};
const builtIn = (folder: string) => join(folder, 'node_modules', '@simplewebauthn', 'server');

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'build-on-demand-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('packages loaded on demand', () => {
  it('are SimpleWebAuthn only, left out of every bundle', () => {
    expect(LOADED_ON_DEMAND).toEqual(['@simplewebauthn/server']);
    for (const name of LOADED_ON_DEMAND) expect(BUNDLING.externalModules).toContain(name);
  });

  it('are built beside a bundle that imports one, and that build runs a whole ceremony', async () => {
    const folder = bundleFolder(
      'webauthn',
      'export const handler = async () => (await import("@simplewebauthn/server")).generateRegistrationOptions;\n',
    );
    expect(existsSync(join(builtIn(folder), 'index.mjs'))).toBe(true);
    // As Node resolves `import("@simplewebauthn/server")` from the bundle at run time: in its folder.
    const resolved = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', 'process.stdout.write(import.meta.resolve("@simplewebauthn/server"))'],
      { cwd: folder, encoding: 'utf8', timeout: 20_000 },
    );
    expect(resolved.stdout).toBe(pathToFileURL(join(builtIn(folder), 'index.mjs')).href);
    const server = (await import(
      pathToFileURL(join(builtIn(folder), 'index.mjs')).href
    )) as typeof WebAuthnServer;

    const device = new SoftwareAuthenticator(ORIGIN);
    const creation = await server.generateRegistrationOptions({
      rpName: 'Coaching',
      rpID: RP_ID,
      userName: 'casey@example.com',
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const registered = await server.verifyRegistrationResponse({
      response: device.createCredential(creation),
      expectedChallenge: creation.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      requireUserVerification: true,
    });
    expect(registered.verified).toBe(true);
    const credential = registered.registrationInfo!.credential;

    const request = await server.generateAuthenticationOptions({ rpID: RP_ID, userVerification: 'required' });
    const signedIn = await server.verifyAuthenticationResponse({
      response: device.getAssertion(request),
      expectedChallenge: request.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential,
      requireUserVerification: true,
    });
    expect(signedIn.verified).toBe(true);
    // And a forged signature is refused by the same build.
    const forgedRequest = await server.generateAuthenticationOptions({ rpID: RP_ID });
    await expect(
      server.verifyAuthenticationResponse({
        response: device.getAssertion(forgedRequest, { forgeSignature: true }),
        expectedChallenge: forgedRequest.challenge,
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
        credential,
      }),
    ).resolves.toMatchObject({ verified: false });
  });

  it('refuse a bundle that imports a subpath of one, which the build beside it would not have', () => {
    const folder = join(root, 'subpath');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'index.mjs'),
      'export const handler = () => import("@simplewebauthn/server/helpers");\n',
    );
    writeFileSync(
      join(folder, 'index.mjs.map'),
      JSON.stringify({ version: 3, sources: [], names: [], mappings: '' }),
    );
    const [command = ''] = BUNDLING.commandHooks.afterBundling(folder, folder);
    const ran = spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: 60_000 });
    expect(ran.status).not.toBe(0);
    expect(ran.stderr).toContain('imports a subpath of @simplewebauthn/server');
    expect(existsSync(join(folder, 'node_modules'))).toBe(false);
  });

  it('are not built beside a bundle that never imports them', () => {
    const folder = bundleFolder('plain', 'export const handler = async () => "ok";\n');
    expect(existsSync(join(folder, 'node_modules'))).toBe(false);
  });
});
