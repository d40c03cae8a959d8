/**
 * Measures what the README reports about the infrastructure:
 *   - the time of `cdk synth` as `npm run synth` runs it (the CLI, with esbuild bundling every function),
 *   - the time of a template-only synth as the tests run it (no bundling),
 *   - the size of each Lambda bundle, read from the assets that synth produced, so the numbers are
 *     exactly what the NodejsFunction construct (BUNDLING in infra/constructs/app-function.ts) builds
 *     and `cdk deploy` uploads: bytes and gzip bytes of index.mjs, and bytes of its source map.
 *
 *   npm run measure:infra [-- --stage dev]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ROUTES, TRIGGERS } from '../lambdas/routes';
import { stackNameFor } from '../infra/stacks/stage-config';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CDK_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'cdk');

interface TemplateResource {
  readonly Type: string;
  readonly Metadata?: Record<string, string>;
}

const { values } = parseArgs({ options: { stage: { type: 'string', default: 'dev' } } });
const stage = values.stage;
const stackName = stackNameFor(stage);
const entryById = new Map([...ROUTES, ...Object.values(TRIGGERS)].map((fn) => [fn.id, fn.entry]));

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function measureCliSynth(outdir: string): number {
  const started = performance.now();
  const result = spawnSync(
    CDK_BIN,
    ['synth', '--quiet', '--no-notices', '-c', `stage=${stage}`, '--output', outdir],
    { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const elapsed = performance.now() - started;
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`cdk synth failed with exit code ${result.status}`);
  }
  return elapsed;
}

async function measureTemplateOnlySynth(outdir: string): Promise<number> {
  // Loaded here so that module loading is not counted, as in a test file.
  const { App } = await import('aws-cdk-lib');
  const { definePlatform } = await import('../infra/stacks/platform-app');
  const context = (JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: object })
    .context;
  const started = performance.now();
  const app = new App({ outdir, context: { ...context, stage, 'aws:cdk:bundling-stacks': [] } });
  definePlatform(app);
  app.synth();
  return performance.now() - started;
}

interface BundleSize {
  readonly id: string;
  readonly entry: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly mapBytes: number;
}

function bundleSizes(outdir: string): BundleSize[] {
  const template = JSON.parse(readFileSync(join(outdir, `${stackName}.template.json`), 'utf8')) as {
    Resources: Record<string, TemplateResource>;
  };
  const sizes: BundleSize[] = [];
  for (const resource of Object.values(template.Resources)) {
    const assetPath = resource.Metadata?.['aws:asset:path'];
    const [, scope, id] = (resource.Metadata?.['aws:cdk:path'] ?? '').split('/');
    if (resource.Type !== 'AWS::Lambda::Function' || scope !== 'Functions' || !assetPath || !id) continue;
    const bundle = join(outdir, assetPath, 'index.mjs');
    const code = readFileSync(bundle);
    const map = `${bundle}.map`;
    sizes.push({
      id,
      entry: entryById.get(id) ?? '?',
      bytes: code.length,
      gzipBytes: gzipSync(code, { level: 9 }).length,
      mapBytes: existsSync(map) ? statSync(map).size : 0,
    });
  }
  return sizes.sort((a, b) => a.entry.localeCompare(b.entry));
}

/** Minified size no handler bundle should need; today's largest is about 354 KiB. */
const BUNDLE_LIMIT_BYTES = 450 * 1024;

const outdir = mkdtempSync(join(tmpdir(), 'measure-infra-'));
try {
  console.log(`Measuring stage "${stage}" on ${availableParallelism()} cores, Node ${process.version}...`);
  const cliMs = measureCliSynth(join(outdir, 'cli'));
  const templateMs = await measureTemplateOnlySynth(join(outdir, 'template-only'));
  const sizes = bundleSizes(join(outdir, 'cli'));

  console.log(
    `\ncdk synth (npm run synth: CLI, esbuild bundling of ${sizes.length} functions): ${seconds(cliMs)}`,
  );
  console.log(`template-only synth (as the tests run it, no bundling):          ${seconds(templateMs)}\n`);

  const rows = sizes.map((s) => [
    s.id,
    s.entry,
    String(s.bytes),
    String(s.gzipBytes),
    kib(s.bytes),
    kib(s.gzipBytes),
    kib(s.mapBytes),
  ]);
  const header = ['function', 'entry', 'bytes', 'gzip bytes', 'size', 'gzip', 'source map'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  const total = sizes.reduce((sum, s) => ({ bytes: sum.bytes + s.bytes, gzip: sum.gzip + s.gzipBytes }), {
    bytes: 0,
    gzip: 0,
  });
  console.log(
    `\ntotal: ${total.bytes} bytes (${kib(total.bytes)}), gzip ${total.gzip} bytes (${kib(total.gzip)})`,
  );
  // A guard rather than a contract: an import that drags in a whole library (all of zod's locales once
  // took every handler from 45 KB to 300 KB and the WebAuthn ones past 580 KB) fails CI here.
  const over = sizes.filter((s) => s.bytes > BUNDLE_LIMIT_BYTES);
  if (over.length > 0) {
    console.error(
      `\nOver the ${kib(BUNDLE_LIMIT_BYTES)} bundle guard: ${over.map((s) => `${s.id} (${kib(s.bytes)})`).join(', ')}`,
    );
    process.exitCode = 1;
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
