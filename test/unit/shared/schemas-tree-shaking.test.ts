/**
 * A Lambda bundle keeps only the schemas its handler uses (shared/schemas.ts, docs/decisions/055-cold-starts.md).
 * Each schema module is bundled the way every function is bundled (esbuild, ES module for Node, the same
 * main fields and externals), from an entry that uses one schema and one plain value of each module; the
 * bundle may build that schema and what it is made of, and no other. A schema left without its
 * `@__PURE__` wrapper is built in every bundle that touches its module, and fails here.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { FUNCTION_BUILD } from '../../fixtures/function-bundling';

const SCHEMA_MODULES = ['schemas', 'account', 'audit', 'coaching', 'directory', 'health-schemas'];

/** Bundles `entry` (run from the repository root) without minifying, so that each value keeps its name. */
async function bundle(entry: string) {
  const result = await build({
    ...FUNCTION_BUILD,
    stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts', sourcefile: 'entry.ts' },
    minify: false,
    sourcemap: false,
    // The banner's `createRequire(import.meta.url)` cannot run from the data: URL the test imports.
    banner: {},
    write: false,
  });
  return result.outputFiles[0]!.text;
}

/**
 * The top-level values the bundle declares from each shared schema module, each with its whole
 * declaration. esbuild heads each module's code with its path and declares each value with `var`; a
 * declaration goes on over the lines that are indented or close a bracket.
 */
function valuesBuiltFrom(code: string) {
  const values = new Map<string, Map<string, string>>();
  let module: string | undefined;
  let open: { module: string; name: string } | undefined;
  for (const line of code.split('\n')) {
    if (open && /^[\s})\]]/.test(line)) {
      const declared = values.get(open.module)!;
      declared.set(open.name, `${declared.get(open.name)!}\n${line}`);
      continue;
    }
    open = undefined;
    const heading = /^\/\/ (\S+)$/.exec(line);
    if (heading) {
      const name = /^shared\/([a-z-]+)\.ts$/.exec(heading[1]!)?.[1];
      module = name && SCHEMA_MODULES.includes(name) ? name : undefined;
      continue;
    }
    const declared = /^var (\w+) = (.*)$/.exec(line);
    if (!module || !declared) continue;
    if (!values.has(module)) values.set(module, new Map());
    values.get(module)!.set(declared[1]!, declared[2]!);
    open = { module, name: declared[1]! };
  }
  return values;
}
/** The code of a declaration without its comments and the text of its strings. */
function codeOnly(declaration: string) {
  let code = '';
  for (let i = 0; i < declaration.length; i++) {
    const rest = declaration.slice(i);
    const skipped =
      /^\/\/[^\n]*/.exec(rest) ??
      /^\/\*[\s\S]*?\*\//.exec(rest) ??
      /^"(?:\\.|[^"\\])*"|^'(?:\\.|[^'\\])*'|^`(?:\\.|[^`\\])*`/.exec(rest);
    if (skipped) {
      code += skipped[0].startsWith('/') ? '' : '""';
      i += skipped[0].length - 1;
    } else code += declaration[i];
  }
  return code;
}
const schemasIn = (values: ReturnType<typeof valuesBuiltFrom>) =>
  [...values.values()].flatMap((declared) => [...declared.keys()]).filter((name) => /Schema$/.test(name));

describe('the shared schema modules in a Lambda bundle', () => {
  it('build only the schemas the code uses, and what those are made of', async () => {
    const code = await bundle(
      [
        "import { userIdSchema } from './shared/schemas';",
        "import { ACCOUNT_MESSAGES, signOutRequestSchema } from './shared/account';",
        "import { AUDIT_TYPE_LABELS } from './shared/audit';",
        "import { COACHING_MESSAGES } from './shared/coaching';",
        "import { DIRECTORY_MESSAGES } from './shared/directory';",
        "import { logTime } from './shared/health-schemas';",
        'export const used = [userIdSchema, ACCOUNT_MESSAGES, signOutRequestSchema, AUDIT_TYPE_LABELS,',
        '  COACHING_MESSAGES, DIRECTORY_MESSAGES, logTime];',
      ].join('\n'),
    );
    const values = valuesBuiltFrom(code);
    // Every module is in the bundle, so a schema of any of them could have been built ...
    expect(code).toContain('// shared/health-schemas.ts');
    expect([...values.keys()].sort()).toEqual([
      'account',
      'audit',
      'coaching',
      'directory',
      'health-schemas',
      'schemas',
    ]);
    // ... and the schemas built are the two used ones (the sign-out request is made of no other),
    expect(schemasIn(values).sort()).toEqual(['signOutRequestSchema', 'userIdSchema']);
    // and nothing else is built by a call: what is left is plain values and functions.
    for (const [module, declared] of values)
      for (const [name, value] of declared)
        if (!['signOutRequestSchema', 'userIdSchema'].includes(name))
          expect(codeOnly(value), `${module}: ${name}`).toMatch(/^(\(\w*(, \w+)*\) =>|[^(]*$)/);
    // zod's locale is set whatever the bundle uses: a side effect, never dropped.
    expect(code).toMatch(/^config\(en_default\(\)\);$/m);
  });

  it('build what a used schema is made of, in the order it needs', async () => {
    const code = await bundle(
      "import { deleteMeRequestSchema } from './shared/account'; export const used = deleteMeRequestSchema;",
    );
    expect(schemasIn(valuesBuiltFrom(code))).toEqual([
      'emailSchema',
      'normalizedEmailSchema',
      'deleteMeRequestSchema',
    ]);
    // And it is the schema, whole: run as the bundle runs it, it parses and refuses as it should.
    const url = `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
    const { used } = (await import(/* @vite-ignore */ url)) as {
      used: { safeParse(input: unknown): { success: boolean; data?: unknown } };
    };
    expect(used.safeParse({ confirmEmail: '  Ana@Example.com ' })).toEqual({
      success: true,
      data: { confirmEmail: 'ana@example.com' },
    });
    expect(used.safeParse({ confirmEmail: 'not an email' }).success).toBe(false);
  });
});
