// @ts-check
/**
 * Keeps a Lambda bundle's source map to the project's own code (docs/decisions/055-cold-starts.md).
 * Node, run with `--enable-source-maps`, reads and parses a bundle's map when it loads the bundle, on
 * every cold start. esbuild maps every line it bundles, and most of a bundle is the AWS SDK and, in the
 * WebAuthn functions, SimpleWebAuthn: their segments made 94% of a map of 1 MB. A stack frame in our
 * code keeps its file, line and name; a frame inside a bundled package shows the bundle's own line.
 *
 * Run by every function's bundling (`BUNDLING.commandHooks` in infra/constructs/app-function.ts):
 * `node infra/bundling/trim-source-map.mjs <dir>/index.mjs.map`, which rewrites the file in place.
 * Plain JavaScript, so the hook needs no TypeScript loader.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { decode, encode } from '@jridgewell/sourcemap-codec';

/** A source of the map that is a bundled package, not the project's own code. */
export const isPackageSource = (/** @type {string} */ source) => /(^|[/\\])node_modules[/\\]/.test(source);

/** @typedef {import('@jridgewell/sourcemap-codec').SourceMapSegment} Segment */

/**
 * The map with only the segments that point into the project's own sources, and only the sources and
 * names those segments use (renumbered). Every other field is kept as it was.
 *
 * @template {{ sources: string[]; names: string[]; mappings: string }} SourceMap
 * @param {SourceMap} map
 * @returns {SourceMap}
 */
export function trimSourceMap(map) {
  /** @type {string[]} */
  const sources = [];
  /** @type {string[]} */
  const names = [];
  /** Where an index of `all` went in `kept`, adding it on first use. */
  const renumberer = (/** @type {string[]} */ all, /** @type {string[]} */ kept) => {
    /** @type {Map<number, number>} */
    const index = new Map();
    return (/** @type {number} */ old) => {
      let now = index.get(old);
      if (now === undefined) {
        now = kept.length;
        kept.push(all[old] ?? '');
        index.set(old, now);
      }
      return now;
    };
  };
  const sourceOf = renumberer(map.sources, sources);
  const nameOf = renumberer(map.names, names);
  const mappings = decode(map.mappings).map((line) => {
    /** @type {Segment[]} */
    const kept = [];
    for (const segment of line) {
      if (segment.length === 1 || isPackageSource(map.sources[segment[1]] ?? '')) continue;
      const [column, source, sourceLine, sourceColumn] = segment;
      kept.push(
        segment.length === 5
          ? [column, sourceOf(source), sourceLine, sourceColumn, nameOf(segment[4])]
          : [column, sourceOf(source), sourceLine, sourceColumn],
      );
    }
    return kept;
  });
  return { ...map, sources, names, mappings: encode(mappings) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) throw new Error('Usage: node infra/bundling/trim-source-map.mjs <file.map>');
  writeFileSync(file, JSON.stringify(trimSourceMap(JSON.parse(readFileSync(file, 'utf8')))));
}
