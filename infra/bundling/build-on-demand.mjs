// @ts-check
/**
 * Builds the packages a Lambda bundle imports only on demand beside the bundle
 * (docs/decisions/055-cold-starts.md). esbuild leaves each of `LOADED_ON_DEMAND`
 * (infra/constructs/app-function.ts) out of the bundle, as an `import("name")` that Node resolves at
 * run time from the bundle's folder; this writes `node_modules/<name>/index.mjs` there, the package and
 * its dependencies in one minified ES module, with a `package.json` that points at it. A bundle that
 * never imports a package gets nothing.
 *
 * Run by every function's bundling, through `after-bundling.mjs`, with esbuild's options
 * (`ON_DEMAND_BUILD`). Plain JavaScript, so the hook needs no TypeScript loader. A package is built once per synth and reused by the next functions, from a cache in
 * `node_modules/.cache` keyed by the package, the options, the lockfile and this script.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository, where the packages are installed. */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What a built package depends on: its name, the options, this script and the packages installed, as
 * npm records the tree it installed (`node_modules/.package-lock.json`), not as the lockfile asks: a
 * lockfile pulled before `npm install` must not file the old build under the new versions.
 */
const cacheKey = (/** @type {string} */ name, /** @type {import('esbuild').BuildOptions} */ options) => {
  const installed = join(REPO_ROOT, 'node_modules', '.package-lock.json');
  return createHash('sha256')
    .update(JSON.stringify({ name, options }))
    .update(readFileSync(existsSync(installed) ? installed : join(REPO_ROOT, 'package-lock.json')))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex')
    .slice(0, 32);
};

/**
 * The packages of `packages` the bundle imports, as esbuild leaves an external import. A subpath of
 * one (`name/helpers`) is refused: the package is built beside the bundle whole, from its main entry,
 * so a subpath would not resolve there, and would fail only in AWS.
 */
export const importedBy = (/** @type {string} */ bundle, /** @type {readonly string[]} */ packages) =>
  packages.filter((name) => {
    if (bundle.includes(`"${name}/`)) {
      throw new Error(
        `The bundle imports a subpath of ${name}, which is loaded on demand: import "${name}" itself`,
      );
    }
    return bundle.includes(`"${name}"`);
  });

/**
 * Builds each package of `packages` that the bundle in `folder` imports into that folder's
 * `node_modules`. Answers the names it built.
 *
 * @param {string} folder
 * @param {readonly string[]} packages
 * @param {import('esbuild').BuildOptions} options
 * @returns {Promise<string[]>}
 */
export async function buildOnDemand(folder, packages, options) {
  const bundle = readFileSync(join(folder, 'index.mjs'), 'utf8');
  /** @type {string[]} */
  const built = [];
  for (const name of importedBy(bundle, packages)) {
    const cached = join(REPO_ROOT, 'node_modules', '.cache', 'on-demand', cacheKey(name, options));
    if (!existsSync(cached)) {
      const building = `${cached}.${process.pid}`;
      mkdirSync(building, { recursive: true });
      // esbuild only when a package is built: most functions have none, and a synth runs this 43 times.
      const { build } = await import('esbuild');
      await build({
        ...options,
        absWorkingDir: REPO_ROOT,
        entryPoints: [name],
        bundle: true,
        outfile: join(building, 'index.mjs'),
        logLevel: 'warning',
      });
      writeFileSync(
        join(building, 'package.json'),
        `${JSON.stringify({ name, private: true, type: 'module', exports: './index.mjs' })}\n`,
      );
      // Whole or not at all: should two synths build it at once, the first one's stays.
      try {
        renameSync(building, cached);
      } catch {
        rmSync(building, { recursive: true, force: true });
        if (!existsSync(cached)) throw new Error(`Could not store the build of ${name} in ${cached}`);
      }
    }
    cpSync(cached, join(folder, 'node_modules', ...name.split('/')), { recursive: true });
    built.push(name);
  }
  return built;
}
