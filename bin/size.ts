/**
 * `npm run size`: the gzip size of the JavaScript the /signin page loads, from the Vite manifest
 * of the last `npm run build:web`. Fails above the 150 KB budget (issue 4). Also reports what the
 * Metrics route loads beyond the signed-in shell (issue 8): its route module with every chunk it
 * imports, statically or on render (the chart library), less what the shell has loaded already.
 *
 * "Loads" means the first load: the entry (index.html) and the /signin route module, with every
 * chunk they import statically. Chunks fetched only when the person presses "Sign In with
 * Passkey" are listed separately, as are the totals of the whole build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = join(import.meta.dirname, '..', 'web', 'dist');
const MANIFEST = join(DIST, '.vite', 'manifest.json');
const BUDGET_BYTES = 150 * 1024;
/** Manifest keys of what the first load of /signin runs: the entry and the lazy route module. */
const SIGNIN_FIRST_LOAD = ['index.html', 'src/features/auth/signin-page.tsx'];
/** Loaded on intent to sign in (see web/src/features/auth/api/sign-in-with-passkey.ts). */
const SIGNIN_ON_DEMAND = ['src/features/auth/api/run-passkey-sign-in.ts', 'src/lib/auth/cognito-sign-in.ts'];
/** The signed-in shell: the entry and the dashboard layout every dashboard page renders in. */
const DASHBOARD_SHELL = ['index.html', 'src/features/dashboard/layout/dashboard-layout.tsx'];
const METRICS_ROUTE = 'src/app/routes/health.tsx';

interface Chunk {
  file: string;
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
    console.error(
      `"${key}" is not in the manifest: update SIGNIN_FIRST_LOAD / SIGNIN_ON_DEMAND in bin/size.ts.`,
    );
    process.exit(1);
  }
  return found;
};

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
    size = { raw: bytes.length, gzip: gzipSync(bytes).length };
    sizes.set(file, size);
  }
  return size;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sum = (files: Iterable<string>) =>
  [...files].reduce(
    (total, file) => ({ raw: total.raw + sizeOf(file).raw, gzip: total.gzip + sizeOf(file).gzip }),
    {
      raw: 0,
      gzip: 0,
    },
  );

const jsOnly = (files: Set<string>) => new Set([...files].filter((file) => file.endsWith('.js')));
const firstLoad = jsOnly(closure(SIGNIN_FIRST_LOAD));
const onDemand = new Set([...jsOnly(closure(SIGNIN_ON_DEMAND))].filter((file) => !firstLoad.has(file)));
const allJs = new Set(
  Object.values(manifest)
    .map((entry) => entry.file)
    .filter((file) => file.endsWith('.js')),
);

console.log('JavaScript loaded by /signin (first load):');
for (const file of [...firstLoad].sort((a, b) => sizeOf(b).gzip - sizeOf(a).gzip)) {
  console.log(`  ${file.padEnd(48)} ${kb(sizeOf(file).gzip).padStart(10)} gzip`);
}
const first = sum(firstLoad);
const demand = sum(onDemand);
const total = sum(allJs);
console.log(`/signin first load: ${kb(first.gzip)} gzip (${kb(first.raw)} raw), budget ${kb(BUDGET_BYTES)}`);
console.log(`On pressing "Sign In with Passkey": +${kb(demand.gzip)} gzip in ${onDemand.size} chunks`);
const shell = jsOnly(closure(DASHBOARD_SHELL));
// Seeded with the shell, so the walk neither counts its chunks nor follows their lazy imports (every page).
const metrics = new Set(
  [...jsOnly(closure([METRICS_ROUTE], closure(DASHBOARD_SHELL), true))].filter((file) => !shell.has(file)),
);
console.log(`Dashboard shell: ${kb(sum(shell).gzip)} gzip`);
console.log(
  `/dashboard/metrics beyond the shell: ${kb(sum(metrics).gzip)} gzip (${kb(sum(metrics).raw)} raw) in ${metrics.size} chunks:`,
);
for (const file of [...metrics].sort((a, b) => sizeOf(b).gzip - sizeOf(a).gzip)) {
  console.log(`  ${file.padEnd(48)} ${kb(sizeOf(file).gzip).padStart(10)} gzip`);
}
console.log(`Whole SPA: ${kb(total.gzip)} gzip (${kb(total.raw)} raw) in ${allJs.size} JS chunks`);

if (first.gzip > BUDGET_BYTES) {
  console.error(`Over budget by ${kb(first.gzip - BUDGET_BYTES)}.`);
  process.exit(1);
}
