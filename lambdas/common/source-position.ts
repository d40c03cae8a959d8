/**
 * Where in our sources a place in a Lambda bundle is (docs/decisions/055-cold-starts.md).
 *
 * The functions run without `--enable-source-maps`: with it Node read the bundle's map and counted the
 * length of every line of the bundle (a loop over each of its 250,000-odd characters) at every cold
 * start, about 11 ms of a 70 ms import, to map stack traces that are almost never written. The one place
 * our logs keep, where an unexpected error was thrown (`errorAt`), is mapped here instead, when it is
 * logged: the map beside the bundle (`index.mjs.map`, trimmed to our own code at bundling) is read and
 * decoded on the first error an instance logs, and kept for the next.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decode, type SourceMapMappings } from '@jridgewell/sourcemap-codec';

interface LoadedMap {
  /** Each source as a path, resolved from the map's folder as Node resolves it. */
  readonly sources: readonly string[];
  readonly lines: SourceMapMappings;
}

/** Each bundle's map once read (undefined: the file has no readable map beside it). */
const maps = new Map<string, LoadedMap | undefined>();

const mapOf = (file: string): LoadedMap | undefined => {
  if (maps.has(file)) return maps.get(file);
  const mapFile = `${file}.map`;
  try {
    const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string };
    const folder = pathToFileURL(mapFile);
    maps.set(file, {
      sources: map.sources.map((source) => fileURLToPath(new URL(source, folder))),
      lines: decode(map.mappings),
    });
  } catch (error) {
    // No map beside the file, or one that does not parse: the same the next time. A read that failed
    // for another reason (too many open files) may pass, so the next error tries again.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined || code === 'ENOENT') maps.set(file, undefined);
  }
  return maps.get(file);
};

/**
 * `file:line:column` of a stack frame (a path or a `file:` URL, line and column counted from 1), in the
 * source the bundle's map names for it; the place as it was when it is in no bundle with a map, or
 * the map has nothing there.
 */
export const sourcePosition = (place: string): string => {
  const parts = /^(.+):(\d+):(\d+)$/.exec(place);
  if (!parts) return place;
  const [, location = '', line = '', column = ''] = parts;
  // Only a file can have a map beside it (not `node:internal/...`, not `<anonymous>`).
  if (!location.startsWith('file:') && !location.startsWith('/')) return place;
  let file: string;
  try {
    file = location.startsWith('file:') ? fileURLToPath(location) : location;
  } catch {
    return place;
  }
  const map = mapOf(file);
  if (!map) return place;
  // The map counts lines and columns from 0. A place takes the last segment that starts at or before
  // it, on its line or, as Node looks it up, on a line before (a package's run of code, trimmed to one
  // segment at bundling, can go on over several lines).
  let at = Number(line) - 1;
  let before = Number(column) - 1;
  if (at >= map.lines.length) [at, before] = [map.lines.length - 1, Infinity];
  let segment: SourceMapMappings[number][number] | undefined;
  for (; at >= 0 && !segment; at--, before = Infinity)
    segment = map.lines[at]?.findLast(([start]) => start <= before);
  if (segment === undefined || segment.length === 1) return place;
  const [, source, sourceLine, sourceColumn] = segment;
  return `${map.sources[source]}:${sourceLine + 1}:${sourceColumn + 1}`;
};
