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
import { FUNCTION_BUILD } from '../../fixtures/function-bundling';

type SourceMap = { version: number; sources: string[]; names: string[]; mappings: string; file?: string };

// Our module, then the package, then the entry: esbuild writes them in this order, so the package's
// code comes after some of ours in the bundle.
const OURS = 'export const greet = (text: string): string => `hello ${text}`;\n';
const ENTRY = [
  "import { greet } from './ours';",
  "import { shout } from 'loud';",
  '',
  'export function failLoudly(text: string): never {',
  '  throw new Error(shout(greet(text)));',
  '}',
  '',
  "if (process.argv[2] === 'ours') failLoudly('you');",
  "else shout('boom');",
].join('\n');
const PACKAGE = [
  'export function shout(text) {',
  "  if (text === 'boom') throw new Error('the package refused');",
  '  return text.toUpperCase() + "!";',
  '}',
  '',
].join('\n');

let dir: string;
const bundle = () => join(dir, 'out', 'index.mjs');
const mapFile = () => `${bundle()}.map`;
const readMap = () => JSON.parse(readFileSync(mapFile(), 'utf8')) as SourceMap;
/** The first stack frame of a crash in our code (`ours`) or in the package's. */
const run = (where: 'ours' | 'package') =>
  spawnSync(process.execPath, ['--enable-source-maps', bundle(), where], {
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
  writeFileSync(join(dir, 'ours.ts'), OURS);
  await build({ ...FUNCTION_BUILD, absWorkingDir: dir, entryPoints: ['entry.ts'], outfile: bundle() });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The first frame of a crash's stack trace. */
const firstFrame = (stderr: string) => stderr.split('\n').find((line) => line.trim().startsWith('at ')) ?? '';

describe('trimming a bundle source map', () => {
  it('maps a crash in our code to its file and line, and one in a package to the package, before and after', () => {
    const before = readMap();
    expect(before.sources.some((source) => source.includes('node_modules'))).toBe(true);
    expect(firstFrame(run('ours').stderr)).toMatch(/at failLoudly \(.*entry\.ts:5:\d+\)/);
    expect(firstFrame(run('package').stderr)).toMatch(/node_modules\/loud\/index\.js:2:\d+/);

    // As the bundling hook runs it: the file rewritten in place.
    const hook = BUNDLING.commandHooks.afterBundling(dir, join(dir, 'out'));
    expect(hook).toEqual([expect.stringContaining('after-bundling.mjs')]);
    for (const command of hook) {
      expect(spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: 60_000 }).status).toBe(0);
    }

    const after = readMap();
    expect([...after.sources].sort()).toEqual(['../entry.ts', '../node_modules/loud', '../ours.ts']);
    expect(after.mappings.length).toBeLessThan(before.mappings.length);
    const ours = run('ours');
    expect(ours.status).not.toBe(0);
    expect(ours.stderr).toContain('HELLO YOU!');
    expect(firstFrame(ours.stderr)).toMatch(/at failLoudly \(.*entry\.ts:5:\d+\)/);
    // The package's frame comes after our greet() in the bundle: it names the package, never our code.
    const inPackage = run('package');
    expect(inPackage.stderr).toContain('the package refused');
    expect(firstFrame(inPackage.stderr)).toMatch(/node_modules\/loud:1:\d+/);
    expect(firstFrame(inPackage.stderr)).not.toMatch(/ours\.ts|entry\.ts/);
  });

  it("keeps our segments exactly, with their names, and each run of a package's segments as one", () => {
    // Absolute segments: [column, source, line, column, name?]; a lone column maps nothing.
    const map = {
      version: 3,
      file: 'index.mjs',
      sources: ['../node_modules/pkg/a.js', '../src/b.ts', '../node_modules/pkg/c.js'],
      sourcesContent: ['a', 'b', 'c'],
      names: ['fromPackage', 'ours', 'alsoOurs'],
      mappings: encode([
        [
          [0, 0, 0, 0, 0],
          [1, 1, 0, 0, 1],
        ],
        [[0], [3, 1, 3, 2, 2], [5, 2, 1, 1]],
        [[7, 1, 9, 4]],
        [
          [0, 0, 5, 5],
          [4, 2, 6, 6],
        ],
      ]),
    };
    const trimmed = trimSourceMap(map);
    expect(trimmed).toEqual({
      version: 3,
      file: 'index.mjs',
      sources: ['../node_modules/pkg', '../src/b.ts'],
      names: ['ours', 'alsoOurs'],
      mappings: expect.any(String) as string,
    });
    expect(decode(trimmed.mappings)).toEqual([
      [
        [0, 0, 0, 0],
        [1, 1, 0, 0, 0],
      ],
      [
        [3, 1, 3, 2, 1],
        [5, 0, 0, 0],
      ],
      [[7, 1, 9, 4]],
      [[0, 0, 0, 0]],
    ]);
  });
});
