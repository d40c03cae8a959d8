/**
 * `npm run size`: the JavaScript weight of the last `npm run build:web`.
 *
 * The budget (issue 12, docs/decisions/056-signin-weight.md): `/signin` as a browser loads it. The
 * build is served on 127.0.0.1 and opened in Debian's Chromium (./size-signin.ts); every script the
 * page fetches until it is idle (the entry, each modulepreload, each dynamic import, any other script
 * of the page) is gzipped at level 9 and summed. Fails above 100 KB. What moving the pointer onto
 * "Sign In with Passkey" fetches beyond that (the sign-in's code, fetched on intent) is listed too.
 * Step 1 of `/activate`, the page an invitation's link opens, is measured the same way and held to the
 * same budget (docs/decisions/060-activate-alone.md).
 *
 * From the Vite manifest, as before (issue 8): what the Metrics route loads beyond the signed-in shell
 * (its route module with every chunk it imports, statically or on render, the chart library included,
 * less what the shell has loaded already), and the whole SPA. The chart library must be in what the
 * Metrics route loads and in nothing /signin, /activate or the signed-in shell loads: fails otherwise.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ACTIVATE_PAGE, GZIP_LEVEL, measurePageLoad, measureSignInLoad, type Fetched } from './size-signin';

const DIST = join(import.meta.dirname, '..', 'web', 'dist');
const MANIFEST = join(DIST, '.vite', 'manifest.json');
const BUDGET_BYTES = 100 * 1024;
/**
 * The signed-in shell: the entry, the app (router, query client, providers), Amplify, and the
 * dashboard layout every dashboard page renders in.
 */
const SHELL_MODULES = ['index.html', 'src/app/app.tsx', 'src/features/dashboard/layout/dashboard-layout.tsx'];
/** lib/auth/cognito.ts: a manifest key of its own, or (Rolldown may merge it) the chunk named after it. */
const AMPLIFY_MODULE = 'src/lib/auth/cognito.ts';
const METRICS_ROUTE = 'src/app/routes/health.tsx';
/** The chart library and its stylesheet, one lazy chunk (SPEC-2 1.4: loaded only on routes that chart). */
const CHART_MODULE = 'src/features/health/components/uplot-with-styles.ts';

interface Chunk {
  file: string;
  name?: string;
  imports?: string[];
  dynamicImports?: string[];
}

if (!existsSync(MANIFEST)) {
  console.error(`No build found at ${MANIFEST}. Run \`npm run build:web\` first.`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, Chunk>;

const chunk = (key: string): Chunk => {
  const found = manifest[key];
  if (!found) {
    console.error(`"${key}" is not in the manifest: update SHELL_MODULES / METRICS_ROUTE in bin/size.ts.`);
    process.exit(1);
  }
  return found;
};

const amplifyKey =
  AMPLIFY_MODULE in manifest
    ? AMPLIFY_MODULE
    : Object.keys(manifest).find((key) => key.startsWith('_') && manifest[key]?.name === 'cognito');
if (!amplifyKey) {
  console.error(`No chunk of ${AMPLIFY_MODULE} in the manifest: update AMPLIFY_MODULE in bin/size.ts.`);
  process.exit(1);
}
const DASHBOARD_SHELL = [...SHELL_MODULES, amplifyKey];

/** Every JS file the keys load, following static imports (and dynamic ones when asked). */
const closure = (keys: string[], seen = new Set<string>(), dynamic = false): Set<string> => {
  for (const key of keys) {
    const entry = chunk(key);
    if (seen.has(entry.file)) continue;
    seen.add(entry.file);
    closure([...(entry.imports ?? []), ...(dynamic ? (entry.dynamicImports ?? []) : [])], seen, dynamic);
  }
  return seen;
};

const sizes = new Map<string, { raw: number; gzip: number }>();
const sizeOf = (file: string) => {
  let size = sizes.get(file);
  if (!size) {
    const bytes = readFileSync(join(DIST, file));
    size = { raw: bytes.length, gzip: gzipSync(bytes, { level: GZIP_LEVEL }).length };
    sizes.set(file, size);
  }
  return size;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const total = (files: Iterable<{ raw: number; gzip: number }>) =>
  [...files].reduce((sum, file) => ({ raw: sum.raw + file.raw, gzip: sum.gzip + file.gzip }), {
    raw: 0,
    gzip: 0,
  });
const sum = (files: Iterable<string>) => total([...files].map(sizeOf));
const jsOnly = (files: Set<string>) => new Set([...files].filter((file) => file.endsWith('.js')));
const list = (files: { path: string; gzip: number }[]) => {
  for (const file of [...files].sort((a, b) => b.gzip - a.gzip))
    console.log(`  ${file.path.padEnd(52)} ${kb(file.gzip).padStart(10)} gzip`);
};

const signin = await measureSignInLoad(DIST);
const scripts = (files: Fetched[]) => files.filter((file) => file.kind === 'script');
const firstLoad = scripts(signin.firstLoad);
const onIntent = scripts(signin.onIntent);
const first = total(firstLoad);
const intent = total(onIntent);
const others = signin.firstLoad.filter((file) => file.kind !== 'script');

console.log(`/signin in Chromium, every script fetched until the page is idle (gzip -${GZIP_LEVEL}):`);
list(firstLoad);
console.log(
  `/signin first load: ${kb(first.gzip)} gzip (${kb(first.raw)} raw) in ${firstLoad.length} scripts, budget ${kb(BUDGET_BYTES)}`,
);
if (others.length > 0)
  console.log(
    `  besides: ${others.map((file) => `${file.path} ${kb(file.gzip)}`).join(', ')} (gzip, not counted)`,
  );
console.log(
  `On intent to sign in (pointer on "Sign In with Passkey"): +${kb(intent.gzip)} gzip in ${onIntent.length} scripts:`,
);
list(onIntent);

const activate = await measurePageLoad(DIST, ACTIVATE_PAGE);
const activateLoad = scripts(activate.firstLoad);
const activateFirst = total(activateLoad);
console.log(`/activate in Chromium, every script fetched until the page is idle (gzip -${GZIP_LEVEL}):`);
list(activateLoad);
console.log(
  `/activate first load: ${kb(activateFirst.gzip)} gzip (${kb(activateFirst.raw)} raw) in ${activateLoad.length} scripts, budget ${kb(BUDGET_BYTES)}`,
);

const shell = jsOnly(closure(DASHBOARD_SHELL));
// Seeded with the shell, so the walk neither counts its chunks nor follows their lazy imports (every page).
const metrics = new Set(
  [...jsOnly(closure([METRICS_ROUTE], closure(DASHBOARD_SHELL), true))].filter((file) => !shell.has(file)),
);
const allJs = new Set(
  Object.values(manifest)
    .map((entry) => entry.file)
    .filter((file) => file.endsWith('.js')),
);
console.log(`Dashboard shell (entry, app, Amplify, layout): ${kb(sum(shell).gzip)} gzip`);
console.log(
  `/dashboard/metrics beyond the shell: ${kb(sum(metrics).gzip)} gzip (${kb(sum(metrics).raw)} raw) in ${metrics.size} chunks:`,
);
list([...metrics].map((file) => ({ path: file, gzip: sizeOf(file).gzip })));
const whole = sum(allJs);
console.log(`Whole SPA: ${kb(whole.gzip)} gzip (${kb(whole.raw)} raw) in ${allJs.size} JS chunks`);

const chart = chunk(CHART_MODULE).file;
const chartWhere = [
  [
    '/signin (first load or on intent)',
    [...firstLoad, ...onIntent].some((file) => file.path.endsWith(`/${chart}`)),
  ],
  ['/activate', activateLoad.some((file) => file.path.endsWith(`/${chart}`))],
  ['the dashboard shell', shell.has(chart)],
] as const;
const chartLoaded = chartWhere.filter(([, loads]) => loads).map(([where]) => where);
console.log(
  `Chart library (${chart}, ${kb(sizeOf(chart).gzip)} gzip): ${metrics.has(chart) ? 'loaded by /dashboard/metrics' : 'NOT in /dashboard/metrics'}; ${chartLoaded.length ? `also loaded by ${chartLoaded.join(', ')}` : 'not loaded by /signin, /activate or the shell'}`,
);

let over = !metrics.has(chart) || chartLoaded.length > 0;
if (over)
  console.error('The chart library must load with the routes that chart, and only there (SPEC-2 1.4).');
for (const [path, weight] of [
  ['/signin', first.gzip],
  ['/activate', activateFirst.gzip],
] as const)
  if (weight > BUDGET_BYTES) {
    console.error(`${path} is over budget by ${kb(weight - BUDGET_BYTES)}.`);
    over = true;
  }
if (over) process.exit(1);
