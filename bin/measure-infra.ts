/**
 * Measures what the README reports about the infrastructure:
 *   - the time of `cdk synth` as `npm run synth` runs it (the CLI, with esbuild bundling every function),
 *   - the time of a template-only synth as the tests run it (no bundling),
 *   - the size of each Lambda bundle, read from the assets that synth produced, so the numbers are
 *     exactly what the NodejsFunction construct (BUNDLING in infra/constructs/app-function.ts) builds
 *     and `cdk deploy` uploads: bytes and gzip bytes of index.mjs, and bytes of its source map,
 *   - the cold import time of each of those bundles: 5 fresh `node` processes per function that do
 *     nothing but import the handler module (see `IMPORT_PROBE`), the median per function (a function
 *     over the guard is measured once more, see `measureImportsWithRetry`), and Node's own start-up in
 *     the same processes, which tells how fast the machine was (bin/import-guard.ts).
 *
 * It fails (exit code 1) when a bundle is over its guard (`bundleLimitFor`) or a median import is over
 * its guard (`importGuardFor`: IMPORT_LIMIT_MS, more when Node started slower than on issue 12's
 * machine), and when an import fails or leaves anything under way (a socket, a DNS lookup, a timer).
 *
 *   npm run measure:infra [-- --stage dev]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { type FunctionDefinition, ALL_FUNCTIONS } from '../lambdas/routes';
import { stackNameFor } from '../infra/stacks/stage-config';
import { LOADED_ON_DEMAND } from '../infra/constructs/app-function';
import { importedBy } from '../infra/bundling/build-on-demand.mjs';
import { IMPORT_LIMIT_MS, ISSUE_NODE_START_UP_MS, importGuardFor } from './import-guard';
import { median } from './median';
import { waitForQuiet } from './wait-for-quiet';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CDK_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'cdk');

interface TemplateResource {
  readonly Type: string;
  readonly Metadata?: Record<string, string>;
  readonly Properties?: { readonly Environment?: { readonly Variables?: Record<string, unknown> } };
}

const { values } = parseArgs({ options: { stage: { type: 'string', default: 'dev' } } });
const stage = values.stage;
const stackName = stackNameFor(stage);
const definitions: readonly FunctionDefinition[] = ALL_FUNCTIONS;
const entryById = new Map(definitions.map((fn) => [fn.id, fn.entry]));
const webauthnIds = new Set(definitions.filter((fn) => fn.webauthn).map((fn) => fn.id));

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
  /** The bundle's index.mjs. */
  readonly file: string;
  /** The function's environment as the template sets it; values CloudFormation resolves are dummies. */
  readonly environment: Record<string, string>;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly mapBytes: number;
  /**
   * The packages of LOADED_ON_DEMAND the bundle imports, each with the size of its build beside the
   * bundle (0 when it is missing there: loading it then fails the measurement).
   */
  readonly onDemand: readonly { readonly name: string; readonly bytes: number; readonly gzipBytes: number }[];
}

/** The packages of LOADED_ON_DEMAND the bundle `code` in `folder` imports, with their sizes beside it. */
const onDemandIn = (folder: string, code: string): BundleSize['onDemand'] =>
  importedBy(code, LOADED_ON_DEMAND).map((name) => {
    const file = join(folder, 'node_modules', ...name.split('/'), 'index.mjs');
    const built = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
    return { name, bytes: built.length, gzipBytes: built.length && gzipSync(built, { level: 9 }).length };
  });

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
    const variables = resource.Properties?.Environment?.Variables ?? {};
    sizes.push({
      id,
      entry: entryById.get(id) ?? '?',
      file: bundle,
      environment: Object.fromEntries(
        Object.entries(variables).map(([name, value]) => [
          name,
          typeof value === 'string' ? value : `dummy-${name.toLowerCase()}`,
        ]),
      ),
      bytes: code.length,
      gzipBytes: gzipSync(code, { level: 9 }).length,
      mapBytes: existsSync(map) ? statSync(map).size : 0,
      onDemand: onDemandIn(join(outdir, assetPath), code.toString('utf8')),
    });
  }
  return sizes.sort((a, b) => a.entry.localeCompare(b.entry));
}

/**
 * Minified size no handler bundle should need. About 190 KiB of every bundle is the AWS SDK, bundled
 * since issue 12 (docs/decisions/055-cold-starts.md); today's largest is about 291 KiB (DeleteMe).
 */
const BUNDLE_LIMIT_BYTES = 400 * 1024;
/**
 * The same for the WebAuthn functions (`webauthn: true` in the manifest), counting the bundle and the
 * `@simplewebauthn/server` built beside it (about 310 KiB with its ASN.1/X.509 dependencies, loaded only
 * when a ceremony needs it); today's largest is about 606 KiB (RegisterPasskey). Before the SDK was
 * bundled the one guard was 450 KiB for every function.
 */
const WEBAUTHN_BUNDLE_LIMIT_BYTES = 700 * 1024;
const bundleLimitFor = (id: string) =>
  webauthnIds.has(id) ? WEBAUTHN_BUNDLE_LIMIT_BYTES : BUNDLE_LIMIT_BYTES;

/** Fresh processes per function; the median is what counts. */
const IMPORT_RUNS = 5;

/**
 * What each fresh process runs (an ES module, as the Lambda runtime loads index.mjs): it reads the
 * clock, imports the bundle given as its one argument, reads the clock again, and reports both times
 * (milliseconds since the process started, `performance.timeOrigin`) and what the import left under
 * way, and whether the bundle exports `handler` (what the runtime calls, `index.handler`) as a function.
 * `import` is the difference: the module loading and top-level code of the bundle, which is what
 * bundling changes, and not Node's own start-up (`started`, about `node -e 0`), which the Lambda runtime
 * pays anyway, and which tells how fast the machine was while this process ran.
 */
const IMPORT_PROBE = [
  'const cpu = process.cpuUsage();',
  'const started = performance.now();',
  'const { handler } = await import(process.argv[1]);',
  'const imported = performance.now();',
  'const { user, system } = process.cpuUsage(cpu);',
  'const pending = process.getActiveResourcesInfo();',
  'const exported = typeof handler;',
  'process.stdout.write(JSON.stringify({ started, imported, cpu: (user + system) / 1000, pending, exported }));',
].join(' ');

/**
 * What an import may not leave under way: a socket, a DNS lookup, a timer. (The module loader's own
 * file reads and the standard streams are not counted.)
 */
const NETWORK_OR_TIMER = /TCP|UDP|TLS|PipeConnectWrap|GetAddrInfo|GetNameInfo|Query|HTTP|Timeout|Immediate/;

/**
 * What the Lambda runtime sets and a handler might read at import: a region and credentials that are
 * dummies, so that nothing can reach AWS (and the SDK never asks the instance metadata service).
 * Nothing else of this process's environment is passed: no NODE_OPTIONS of tsx, no real credentials.
 */
const RUNTIME_ENVIRONMENT = {
  AWS_REGION: 'us-west-2',
  AWS_DEFAULT_REGION: 'us-west-2',
  AWS_ACCESS_KEY_ID: 'AKIAMEASUREIMPORTONLY',
  AWS_SECRET_ACCESS_KEY: 'measure-import-only',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  TZ: 'UTC',
  // The SDK warns once, when its first client is made, that it will soon need Node 22. Lambda runs
  // Node 22, where the warning is never written; on an older build machine it would be counted here.
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

interface ImportTime {
  /** Milliseconds of each run, in the order they ran. */
  readonly runs: number[];
  readonly median: number;
  /**
   * Median milliseconds from process start to the probe's first line: Node's own start-up in the same
   * processes, the machine's speed at the time (`importGuardFor`).
   */
  readonly startUpMedian: number;
  /**
   * Median CPU milliseconds of the import (all threads of the process). Beside `median` it shows a busy
   * machine: there the wall-clock time grows well past the CPU time.
   */
  readonly cpuMedian: number;
  /** What an import left under way (a socket, a DNS lookup, a timer), if anything. */
  readonly pending: string[];
  /** The median of the first measurement, when it was over the guard and the function was measured again. */
  readonly firstMedian?: number;
}

/** The most a function's median import may be, from how fast Node started in the same processes. */
const guardOf = (time: ImportTime): number => importGuardFor(time.startUpMedian);

/** Imports one bundle in one fresh process, as IMPORT_PROBE says. */
function importOnce(bundle: BundleSize) {
  const result = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', IMPORT_PROBE, pathToFileURL(bundle.file).href],
    {
      cwd: dirname(bundle.file),
      encoding: 'utf8',
      env: { ...bundle.environment, ...RUNTIME_ENVIRONMENT, AWS_LAMBDA_FUNCTION_NAME: bundle.id },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    },
  );
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`Importing ${bundle.id} (${bundle.file}) failed with exit code ${result.status}`);
  }
  const probe = JSON.parse(result.stdout) as {
    started: number;
    imported: number;
    cpu: number;
    pending: string[];
    exported: string;
  };
  if (probe.exported !== 'function')
    throw new Error(`${bundle.id} (${bundle.file}) exports no handler function (${probe.exported})`);
  return probe;
}

/**
 * Imports each bundle in `IMPORT_RUNS` fresh processes, one process at a time, the functions in turn
 * (round by round, so that a busy moment of the machine spreads over all of them). Each process gets the
 * function's environment from the template (as in the cloud: no `--enable-source-maps`) and runs from
 * the synth output in the temporary directory, where no node_modules can be found: a bundle that still
 * imports a package fails here.
 */
function measureImports(bundles: readonly BundleSize[]): Map<string, ImportTime> {
  const runs = new Map(
    bundles.map((b) => [b.id, { import: [] as number[], startUp: [] as number[], cpu: [] as number[] }]),
  );
  const pending = new Map(bundles.map((b) => [b.id, new Set<string>()]));
  for (let round = 0; round < IMPORT_RUNS; round++) {
    for (const bundle of bundles) {
      const probe = importOnce(bundle);
      runs.get(bundle.id)!.import.push(probe.imported - probe.started);
      runs.get(bundle.id)!.startUp.push(probe.started);
      runs.get(bundle.id)!.cpu.push(probe.cpu);
      for (const resource of probe.pending.filter((name) => NETWORK_OR_TIMER.test(name)))
        pending.get(bundle.id)!.add(resource);
    }
  }
  return new Map(
    [...runs].map(([id, times]) => [
      id,
      {
        runs: times.import,
        median: median(times.import),
        startUpMedian: median(times.startUp),
        cpuMedian: median(times.cpu),
        pending: [...pending.get(id)!],
      },
    ]),
  );
}

/**
 * The cold imports, with one second chance: on a shared machine a burst of other work can stretch a
 * whole round, so a function whose median is over the guard is measured once more (another
 * `IMPORT_RUNS` processes) and that median counts. A function that is really too slow is slow twice.
 */
async function measureImportsWithRetry(bundles: readonly BundleSize[]): Promise<Map<string, ImportTime>> {
  const first = measureImports(bundles);
  const slow = bundles.filter((b) => first.get(b.id)!.median > guardOf(first.get(b.id)!));
  if (slow.length === 0) return first;
  console.log(`Over the guard in the first round: measured again ${await waitForQuiet()}.`);
  const second = measureImports(slow);
  for (const bundle of slow) {
    const again = second.get(bundle.id)!;
    const before = first.get(bundle.id)!;
    first.set(bundle.id, {
      ...again,
      pending: [...new Set([...before.pending, ...again.pending])],
      firstMedian: before.median,
    });
  }
  return first;
}

/**
 * Imports a package a bundle loads on demand in a fresh process, from the bundle's folder, as the
 * function's first ceremony does: it must resolve there (a package left out of the asset would fail only
 * then, in AWS) and export functions. Answers the milliseconds the import took.
 */
function loadOnDemand(bundle: BundleSize, name: string): number {
  const probe =
    'const started = performance.now(); const loaded = await import(process.argv[1]);' +
    ' const functions = Object.values(loaded).filter((value) => typeof value === "function").length;' +
    ' process.stdout.write(JSON.stringify({ ms: performance.now() - started, functions }));';
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', probe, name], {
    cwd: dirname(bundle.file),
    encoding: 'utf8',
    env: { ...bundle.environment, ...RUNTIME_ENVIRONMENT },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 30_000,
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`${bundle.id} cannot load ${name} from its own folder (exit code ${result.status})`);
  }
  const loaded = JSON.parse(result.stdout) as { ms: number; functions: number };
  if (loaded.functions === 0) throw new Error(`${bundle.id}: ${name} exports no function`);
  return loaded.ms;
}

const outdir = mkdtempSync(join(tmpdir(), 'measure-infra-'));
try {
  console.log(`Measuring stage "${stage}" on ${availableParallelism()} cores, Node ${process.version}...`);
  const cliMs = measureCliSynth(join(outdir, 'cli'));
  const templateMs = await measureTemplateOnlySynth(join(outdir, 'template-only'));
  const sizes = bundleSizes(join(outdir, 'cli'));
  const loadBefore = loadavg()[0]!;
  const importStarted = performance.now();
  const imports = await measureImportsWithRetry(sizes);
  const importMs = performance.now() - importStarted;
  const loadAfter = loadavg()[0]!;

  console.log(
    `\ncdk synth (npm run synth: CLI, esbuild bundling of ${sizes.length} functions): ${seconds(cliMs)}`,
  );
  console.log(`template-only synth (as the tests run it, no bundling):          ${seconds(templateMs)}`);
  console.log(
    `cold imports (${IMPORT_RUNS} fresh node processes per function, one at a time):     ${seconds(importMs)}` +
      ` (load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after)\n`,
  );

  const rows = sizes.map((s) => [
    s.id,
    s.entry,
    String(s.bytes),
    String(s.gzipBytes),
    kib(s.bytes),
    kib(s.gzipBytes),
    kib(s.mapBytes),
    imports.get(s.id)!.median.toFixed(1),
    imports.get(s.id)!.cpuMedian.toFixed(1),
    imports.get(s.id)!.startUpMedian.toFixed(1),
    guardOf(imports.get(s.id)!).toFixed(1),
    [
      ...imports.get(s.id)!.runs.map((ms) => ms.toFixed(0)),
      ...(imports.get(s.id)!.firstMedian === undefined
        ? []
        : [`(again: first median ${imports.get(s.id)!.firstMedian!.toFixed(1)})`]),
    ].join(' '),
  ]);
  const header = [
    'function',
    'entry',
    'bytes',
    'gzip bytes',
    'size',
    'gzip',
    'source map',
    'import ms',
    'cpu ms',
    'start-up ms',
    'guard ms',
    'import runs',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(
    `\nimport ms: median of ${IMPORT_RUNS} fresh processes, wall clock from the first line of the probe to the handler module imported;` +
      `\ncpu ms: median CPU time of the same import; start-up ms: median from process start (performance.timeOrigin) to the probe's first line;` +
      `\nguard ms: what import ms may be: ${IMPORT_LIMIT_MS} ms on issue 12's machine (start-up ${ISSUE_NODE_START_UP_MS} ms), as much more as start-up took longer, at most half more.`,
  );
  const total = sizes.reduce((sum, s) => ({ bytes: sum.bytes + s.bytes, gzip: sum.gzip + s.gzipBytes }), {
    bytes: 0,
    gzip: 0,
  });
  console.log(
    `\ntotal: ${total.bytes} bytes (${kib(total.bytes)}), gzip ${total.gzip} bytes (${kib(total.gzip)})`,
  );
  const onDemand = sizes.flatMap((bundle) =>
    bundle.onDemand.map((built) => ({ bundle, built, ms: loadOnDemand(bundle, built.name) })),
  );
  if (onDemand.length > 0)
    console.log('\nloaded on demand, beside the bundle (the first ceremony of an instance):');
  for (const { bundle, built, ms } of onDemand) {
    console.log(
      `  ${bundle.id.padEnd(widths[0]!)}  ${built.name}  ${kib(built.bytes)} (${kib(built.gzipBytes)} gzip), imported in ${ms.toFixed(1)} ms`,
    );
  }
  // A guard rather than a contract: an import that drags in a whole library (all of zod's locales once
  // took every handler from 45 KB to 300 KB and the WebAuthn ones past 580 KB) fails CI here.
  // The whole of a function's code counts, the packages it loads on demand included.
  const codeBytes = (s: BundleSize) => s.bytes + s.onDemand.reduce((sum, built) => sum + built.bytes, 0);
  const over = sizes.filter((s) => codeBytes(s) > bundleLimitFor(s.id));
  if (over.length > 0) {
    console.error(
      `\nOver the bundle guard (${kib(BUNDLE_LIMIT_BYTES)}, WebAuthn functions ${kib(WEBAUTHN_BUNDLE_LIMIT_BYTES)}): ${over
        .map((s) => `${s.id} (${kib(codeBytes(s))})`)
        .join(', ')}`,
    );
    process.exitCode = 1;
  }
  // Issue 12: a cold sign-in pays the import of three functions one after another.
  const slow = sizes.filter((s) => imports.get(s.id)!.median > guardOf(imports.get(s.id)!));
  if (slow.length > 0) {
    console.error(
      `\nOver the cold import guard (median of ${IMPORT_RUNS}, twice): ${slow
        .map(
          (s) =>
            `${s.id} (${imports.get(s.id)!.median.toFixed(1)} ms, guard ${guardOf(imports.get(s.id)!).toFixed(1)} ms)`,
        )
        .join(', ')}`,
    );
    process.exitCode = 1;
  }
  // Nothing may start at import: no network call, no timer (they belong in the handler, per request).
  const busy = sizes.filter((s) => imports.get(s.id)!.pending.length > 0);
  if (busy.length > 0) {
    console.error(
      `\nLeft under way after import: ${busy.map((s) => `${s.id} (${imports.get(s.id)!.pending.join(', ')})`).join(', ')}`,
    );
    process.exitCode = 1;
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
