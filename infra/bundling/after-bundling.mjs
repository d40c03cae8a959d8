// @ts-check
/**
 * What every Lambda's bundling runs after esbuild (`BUNDLING.commandHooks` in
 * infra/constructs/app-function.ts; docs/decisions/055-cold-starts.md), in one Node process per
 * function: builds the packages the bundle loads on demand beside it, then trims the bundle's source
 * map to our own code.
 *
 * `node infra/bundling/after-bundling.mjs <bundle folder> <base64url JSON { packages, options }>`
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOnDemand } from './build-on-demand.mjs';
import { trimSourceMap } from './trim-source-map.mjs';

const [folder, encoded] = process.argv.slice(2);
if (!folder || !encoded) {
  throw new Error('Usage: node infra/bundling/after-bundling.mjs <bundle folder> <base64url JSON>');
}
/** @type {unknown} */
const config = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
const { packages, options } = /** @type {{ packages: string[]; options: import('esbuild').BuildOptions }} */ (
  config
);
await buildOnDemand(folder, packages, options);

const mapFile = join(folder, 'index.mjs.map');
/** @type {unknown} */
const map = JSON.parse(readFileSync(mapFile, 'utf8'));
writeFileSync(
  mapFile,
  JSON.stringify(trimSourceMap(/** @type {import('./trim-source-map.mjs').SourceMap} */ (map))),
);
