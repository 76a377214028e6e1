/**
 * How Lambda code is bundled. The CDK stack (function.ts, local bundling through the esbuild API)
 * and the bundle benchmark (test/bench/bundles.ts) both build with `lambdaBuildOptions`, so what we
 * measure is what we deploy.
 *
 * Each HTTP resource group (functions/<group>/) becomes one Lambda whose entry is a tiny generated
 * file: it imports the group's handlers and hands them to `routeDispatcher`, which picks the handler
 * of `event.routeKey`. Generating the entry keeps functions/ free of per-Lambda boilerplate.
 *
 * Bundles are split (esbuild `splitting`): the entry is `index.mjs` and every module reached only
 * through a dynamic `import()` (the S3, KMS and Step Functions clients in functions/platform/
 * platform.ts) becomes a chunk under `chunks/`, loaded the first time a route needs it. A cold start
 * loads the entry and the chunks it imports statically, not the whole bundle.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions, StdinOptions } from 'esbuild';

/** The repository root (this file is lib/cloud/bundling.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FUNCTIONS_DIR = join(REPO_ROOT, 'functions');

/**
 * Where the generated Lambda entries are written: inside the project's cloud assembly directory
 * (gitignored), a fixed place even when a test synthesizes into a temporary directory.
 */
export const ENTRIES_DIR = join(REPO_ROOT, 'cdk.out', '.entries');

/** The entry module of every bundle is `index.mjs`, so a Lambda handler is `index.<export>`. */
export const ENTRY_NAME = 'index';
export const ENTRY_FILE = `${ENTRY_NAME}.mjs`;
/** Where the chunks of a bundle go, relative to its root. */
export const CHUNKS_DIR = 'chunks';

/**
 * The bundle is an ES module, but some dependencies are CommonJS and call `require()` (esbuild turns
 * those calls into a shim that needs a real `require` in scope). `createRequire` provides one.
 * The import is aliased so it cannot clash with a bundled module's own `createRequire` import.
 * esbuild puts the banner at the top of every output file, chunks included (each is its own module).
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __quireCreateRequire } from 'node:module'; const require = __quireCreateRequire(import.meta.url);";

/**
 * The esbuild options shared by the stack and the benchmark (everything but the entry and the
 * output directory, see lambdaBuildOptions). Everything is bundled, the AWS SDK v3 included (the
 * Lambda runtime ships one, but bundling pins our version and makes each bundle self-contained and
 * measurable).
 */
export const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: false,
  // Code splitting (ESM only): modules reached only through `import()` become chunks loaded on
  // demand instead of being inlined into the entry.
  splitting: true,
  // One entry per build, always named index (ENTRY_FILE); chunks go under chunks/ (CHUNKS_DIR).
  entryNames: ENTRY_NAME,
  chunkNames: `${CHUNKS_DIR}/[name]-[hash]`,
  // .mjs: Node (and the Lambda runtime) load the files as ES modules without a package.json.
  outExtension: { '.js': '.mjs' },
  // Prefer the ES module builds of packages (the AWS SDK ships both): they tree-shake better.
  mainFields: ['module', 'main'],
  external: [],
  banner: { js: ESM_REQUIRE_BANNER },
  tsconfig: join(REPO_ROOT, 'tsconfig.json'),
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** What a bundle is built from: a module file, or source text (resolved from `resolveDir`). */
export type LambdaEntry = string | (StdinOptions & { resolveDir: string });

/**
 * The complete esbuild options of one Lambda bundle: `entry` is bundled into `outdir`, as
 * `outdir/index.mjs` plus `outdir/chunks/*.mjs`.
 */
export function lambdaBuildOptions(entry: LambdaEntry, outdir: string): BuildOptions {
  return {
    ...ESBUILD_OPTIONS,
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: entry }),
    outdir,
    write: true,
  };
}

/** The source of the generated Lambda entry of one resource group. */
export function routeEntrySource(group: string): string {
  const handlers = join(FUNCTIONS_DIR, group, 'handlers.ts');
  const dispatch = join(FUNCTIONS_DIR, 'platform', 'dispatch.ts');
  return [
    `import * as handlers from '${handlers}';`,
    `import { routeDispatcher } from '${dispatch}';`,
    `export const handler = routeDispatcher('${group}', handlers);`,
    '',
  ].join('\n');
}

/**
 * Writes `<dir>/<group>.ts` and returns its path. The file is rewritten only when its content
 * changes, so repeated synths leave it (and its timestamp) alone.
 */
export function writeRouteEntry(dir: string, group: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${group}.ts`);
  const source = routeEntrySource(group);
  let existing: string | undefined;
  try {
    existing = readFileSync(file, 'utf8');
  } catch {
    existing = undefined;
  }
  if (existing !== source) writeFileSync(file, source);
  return file;
}
