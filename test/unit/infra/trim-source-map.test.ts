/**
 * The source maps of the Lambda bundles keep only our own code (docs/decisions/055-cold-starts.md):
 * a real esbuild bundle of an entry that uses a package from node_modules, trimmed as every function's
 * bundling trims it, still maps a crash in our code to its file, line and name under
 * `--enable-source-maps`, and its map no longer names the package.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLING } from '../../../infra/constructs/app-function';
import { trimSourceMap } from '../../../infra/bundling/trim-source-map.mjs';

type SourceMap = { version: number; sources: string[]; names: string[]; mappings: string; file?: string };

const ENTRY = [
  "import { shout } from 'loud';",
  '',
  'export function failLoudly(text: string): never {',
  '  throw new Error(shout(text));',
  '}',
  '',
  "failLoudly('boom');",
].join('\n');
const PACKAGE = 'export function shout(text) {\n  return text.toUpperCase() + "!";\n}\n';

let dir: string;
const bundle = () => join(dir, 'out', 'index.mjs');
const mapFile = () => `${bundle()}.map`;
const readMap = () => JSON.parse(readFileSync(mapFile(), 'utf8')) as SourceMap;
const run = () =>
  spawnSync(process.execPath, ['--enable-source-maps', bundle()], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 20_000,
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trim-source-map-'));
  mkdirSync(join(dir, 'node_modules', 'loud'), { recursive: true });
  writeFileSync(
    join(dir, 'node_modules', 'loud', 'package.json'),
    '{"name":"loud","type":"module","main":"index.js"}',
  );
  writeFileSync(join(dir, 'node_modules', 'loud', 'index.js'), PACKAGE);
  writeFileSync(join(dir, 'entry.ts'), ENTRY);
  await build({
    absWorkingDir: dir,
    entryPoints: ['entry.ts'],
    outfile: bundle(),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLING.target,
    minify: BUNDLING.minify,
    sourcemap: true,
    sourcesContent: BUNDLING.sourcesContent,
    logLevel: 'silent',
  });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('trimming a bundle source map', () => {
  it("maps a crash in our code to its file and line, before and after, and drops the package's share", () => {
    const before = readMap();
    expect(before.sources.some((source) => source.includes('node_modules'))).toBe(true);
    const untrimmed = run();
    expect(untrimmed.stderr).toMatch(/entry\.ts:4:\d+/);

    // As the bundling hook runs it: the file rewritten in place.
    const hook = BUNDLING.commandHooks.afterBundling(dir, join(dir, 'out'));
    expect(hook).toHaveLength(1);
    const [command = ''] = hook;
    expect(command).toContain('trim-source-map.mjs');
    expect(spawnSync('sh', ['-c', command], { encoding: 'utf8' }).status).toBe(0);

    const after = readMap();
    expect(after.sources).toEqual(['../entry.ts']);
    expect(after.sources.some((source) => source.includes('node_modules'))).toBe(false);
    expect(after.mappings.length).toBeLessThan(before.mappings.length);
    const trimmed = run();
    expect(trimmed.status).not.toBe(0);
    expect(trimmed.stderr).toContain('BOOM!');
    expect(trimmed.stderr).toMatch(/at failLoudly \(.*entry\.ts:4:\d+\)/);
  });

  it('keeps every segment of our sources exactly, with their names, and every other field', () => {
    // Absolute segments: [column, source, line, column, name?]; a lone column maps nothing.
    const map = {
      version: 3,
      file: 'index.mjs',
      sources: ['../node_modules/pkg/a.js', '../src/b.ts', '../node_modules/pkg/c.js'],
      names: ['fromPackage', 'ours', 'alsoOurs'],
      mappings: encode([
        [
          [0, 0, 0, 0, 0],
          [1, 1, 0, 0, 1],
        ],
        [[0], [3, 1, 3, 2, 2], [5, 2, 1, 1]],
        [[7, 1, 9, 4]],
      ]),
    };
    const trimmed = trimSourceMap(map);
    expect(trimmed).toMatchObject({ version: 3, file: 'index.mjs', sources: ['../src/b.ts'] });
    expect(trimmed.names).toEqual(['ours', 'alsoOurs']);
    expect(decode(trimmed.mappings)).toEqual([[[1, 0, 0, 0, 0]], [[3, 0, 3, 2, 1]], [[7, 0, 9, 4]]]);
  });
});
