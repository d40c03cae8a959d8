// @ts-check
/**
 * Keeps a Lambda bundle's source map to the project's own code (docs/decisions/055-cold-starts.md).
 * A function reads and decodes its bundle's map when it first logs where an error was thrown
 * (`lambdas/common/source-position.ts`), and an operator's tools read it to map a stack trace by hand.
 * esbuild maps every line it bundles, and most of a bundle is the AWS SDK and, in the
 * WebAuthn functions, SimpleWebAuthn: their segments made 94% of a map of 1 MB. A stack frame in our
 * code keeps its file, line and name. A frame inside a bundled package names the package, at its line 1:
 * each run of a package's segments becomes one segment pointing at the package's folder, because a
 * position without a segment of its own takes the nearest segment before it, which would otherwise be
 * a line of our code.
 *
 * Run by every function's bundling, through `after-bundling.mjs`, which rewrites the map in place.
 */
import { decode, encode } from '@jridgewell/sourcemap-codec';

/**
 * The bundled package a source belongs to, as the path of its folder (`../node_modules/@smithy/core`),
 * or undefined for the project's own code.
 */
export const packageOf = (/** @type {string} */ source) => {
  const folder = [...source.matchAll(/(?:^|[/\\])node_modules[/\\]/g)].at(-1);
  if (!folder) return undefined;
  const start = folder.index + folder[0].length;
  const [first = '', second = ''] = source.slice(start).split(/[/\\]/);
  return source.slice(0, start) + (first.startsWith('@') ? `${first}/${second}` : first);
};

/** @typedef {import('@jridgewell/sourcemap-codec').SourceMapSegment} Segment */

/**
 * @typedef {{ version: number; file?: string; sourceRoot?: string; sources: string[]; names: string[];
 *   mappings: string }} SourceMap
 */

/**
 * The map with every segment that points into the project's own sources as it was, every run of
 * segments of one bundled package as one segment pointing at the package's folder, and only the
 * sources and names those use (renumbered). What else the map held about its sources (their content,
 * ignore lists) is dropped with them.
 *
 * @param {SourceMap} map
 * @returns {SourceMap}
 */
export function trimSourceMap(map) {
  /** @type {string[]} */
  const sources = [];
  /** @type {string[]} */
  const names = [];
  /** Where a value went in `kept`, adding it on first use. */
  const renumberer = (/** @type {string[]} */ kept) => {
    /** @type {Map<string, number>} */
    const index = new Map();
    return (/** @type {string} */ value) => {
      let now = index.get(value);
      if (now === undefined) {
        now = kept.length;
        kept.push(value);
        index.set(value, now);
      }
      return now;
    };
  };
  const sourceOf = renumberer(sources);
  const nameOf = renumberer(names);
  /** The package of the last segment written, across lines (lookups fall back across lines too). */
  let lastPackage = /** @type {string | undefined} */ (undefined);
  const mappings = decode(map.mappings).map((line) => {
    /** @type {Segment[]} */
    const kept = [];
    for (const segment of line) {
      if (segment.length === 1) continue;
      const [column, source, sourceLine, sourceColumn] = segment;
      const path = map.sources[source] ?? '';
      const inPackage = packageOf(path);
      if (inPackage !== undefined) {
        if (inPackage !== lastPackage) kept.push([column, sourceOf(inPackage), 0, 0]);
        lastPackage = inPackage;
        continue;
      }
      lastPackage = undefined;
      kept.push(
        segment.length === 5
          ? [column, sourceOf(path), sourceLine, sourceColumn, nameOf(map.names[segment[4]] ?? '')]
          : [column, sourceOf(path), sourceLine, sourceColumn],
      );
    }
    return kept;
  });
  return {
    version: map.version,
    ...(map.file !== undefined && { file: map.file }),
    ...(map.sourceRoot !== undefined && { sourceRoot: map.sourceRoot }),
    sources,
    names,
    mappings: encode(mappings),
  };
}
