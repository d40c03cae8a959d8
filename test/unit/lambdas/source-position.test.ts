/**
 * Where an unexpected error was thrown, as a deployed function logs it (docs/decisions/055-cold-starts.md).
 * The functions run without `--enable-source-maps`, so the wrapper maps `errorAt` through the bundle's
 * map when it logs it. A real bundle of a handler on the HTTP wrapper, built and trimmed as every
 * function's bundling builds it, run in a fresh Node without source maps, logs the line of our source
 * that threw; without its map it logs the place in the bundle.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encode } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLING } from '../../../infra/constructs/app-function';
import { sourcePosition } from '../../../lambdas/common/source-position';
import { FUNCTION_BUILD } from '../../fixtures/function-bundling';

const HTTP = join(process.cwd(), 'lambdas', 'common', 'http');
// The throw is on line 4 of the entry.
const ENTRY = [
  `import { httpHandler } from ${JSON.stringify(HTTP)};`,
  '',
  "export const handler = httpHandler({ auth: 'public' }, async () => {",
  "  throw new RangeError('a reading out of range: 31.4');",
  '});',
  '',
].join('\n');
// Two requests, as two on one warm instance: the second error is mapped from the map read for the first.
const RUN = [
  'const { handler } = await import(process.argv[1]);',
  "const event = { httpMethod: 'POST', resource: '/crash', path: '/crash', headers: {}, body: null, requestContext: {} };",
  'const answers = [await handler(event), await handler(event)];',
  "process.stdout.write(answers.map((answer) => answer.statusCode).join(' '));",
].join(' ');

let dir: string;
const out = () => join(dir, 'out');
const bundle = () => join(out(), 'index.mjs');

/** Runs the bundle's handler once in a fresh Node, as Lambda would (no NODE_OPTIONS), and reads what it logged. */
const crash = () => {
  const ran = spawnSync(process.execPath, ['--input-type=module', '-e', RUN, pathToFileURL(bundle()).href], {
    encoding: 'utf8',
    timeout: 30_000,
    env: {
      PATH: process.env.PATH,
      AWS_REGION: 'us-west-2',
      AWS_ACCESS_KEY_ID: 'AKIATESTONLY',
      AWS_SECRET_ACCESS_KEY: 'test-only',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      LOG_LEVEL: 'INFO',
    },
  });
  expect(ran.status, ran.stderr).toBe(0);
  expect(ran.stdout).toBe('500 500');
  const logged = ran.stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(logged).toHaveLength(2);
  expect(logged[1]).toMatchObject({ errorAt: logged[0]!.errorAt });
  expect(ran.stderr).not.toContain('31.4');
  return logged[0]!;
};

beforeAll(async () => {
  // The real path: where the temporary folder is a link (macOS), a stack names the target.
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'source-position-')));
  mkdirSync(out());
  writeFileSync(join(dir, 'crash-entry.ts'), ENTRY);
  await build({ ...FUNCTION_BUILD, entryPoints: [join(dir, 'crash-entry.ts')], outfile: bundle() });
  // The map trimmed to our own code, as every function's bundling leaves it.
  for (const command of BUNDLING.commandHooks.afterBundling(dir, out())) {
    const ran = spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: 120_000 });
    expect(ran.status, ran.stderr).toBe(0);
  }
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the place an unexpected error was thrown, logged by a bundled function', () => {
  it('is the line of our source that threw, read from the map beside the bundle', () => {
    const logged = crash();
    expect(logged).toMatchObject({ level: 'error', message: 'request failed', errorName: 'RangeError' });
    // Where V8 places a `throw new RangeError(...)`: the `new`, line 4, column 9 of the entry.
    expect(logged.errorAt).toBe(`${join(dir, 'crash-entry.ts')}:4:9`);
  });

  it('is the place in the bundle when the map is missing, and any other place is kept as it is', () => {
    rmSync(`${bundle()}.map`);
    expect(crash().errorAt).toMatch(/^file:\/\/\/.*\/out\/index\.mjs:\d+:\d+$/);

    expect(sourcePosition('node:internal/process/task_queues:95:5')).toBe(
      'node:internal/process/task_queues:95:5',
    );
    expect(sourcePosition(`${join(dir, 'no-such-file.mjs')}:1:1`)).toBe(
      `${join(dir, 'no-such-file.mjs')}:1:1`,
    );
    expect(sourcePosition('file:///%E0%A4%A:1:1')).toBe('file:///%E0%A4%A:1:1');
    expect(sourcePosition('not a place')).toBe('not a place');
  });

  it('takes the last segment at or before the place, on its line or a line before it, as Node does', () => {
    const file = join(dir, 'handmade.mjs');
    writeFileSync(file, 'export {};\n');
    // Segments: [column, source, line, column], all counted from 0; a lone column maps nothing.
    const lines = [
      [
        [0, 0, 10, 4],
        [20, 1, 2, 0],
      ],
      [],
      [[5], [8, 0, 30, 6]],
    ] as Parameters<typeof encode>[0];
    writeFileSync(
      `${file}.map`,
      JSON.stringify({ version: 3, sources: ['src/a.ts', '../b.ts'], names: [], mappings: encode(lines) }),
    );
    const a = (line: number, column: number) => `${join(dir, 'src', 'a.ts')}:${line}:${column}`;
    const b = (line: number, column: number) => `${join(dirname(dir), 'b.ts')}:${line}:${column}`;
    const at = (line: number, column: number) =>
      sourcePosition(`${pathToFileURL(file).href}:${line}:${column}`);

    expect(at(1, 1)).toBe(a(11, 5));
    expect(at(1, 20)).toBe(a(11, 5));
    expect(at(1, 21)).toBe(b(3, 1));
    // A line with no segment of its own, and a place before a line's first segment: the line before.
    expect(at(2, 1)).toBe(b(3, 1));
    expect(at(3, 5)).toBe(b(3, 1));
    // A lone column maps nothing: the place is kept.
    expect(at(3, 7)).toBe(`${pathToFileURL(file).href}:3:7`);
    expect(at(3, 9)).toBe(a(31, 7));
    // Past the map's last line: its last segment.
    expect(at(9, 1)).toBe(a(31, 7));
    // A plain path is read like a file URL, and the map is read once: gone now, the answers stay.
    rmSync(`${file}.map`);
    expect(sourcePosition(`${file}:1:21`)).toBe(b(3, 1));
  });
});
