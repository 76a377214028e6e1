/**
 * How Lambda code is bundled. The CDK stack (through NodejsFunction) and the bundle benchmark
 * (test/bench/bundles.ts, through the esbuild API) both read `ESBUILD_OPTIONS`, so what we measure
 * is what we deploy.
 *
 * Each HTTP resource group (functions/<group>/) becomes one Lambda whose entry is a tiny generated
 * file: it imports the group's handlers and hands them to `routeDispatcher`, which picks the handler
 * of `event.routeKey`. Generating the entry keeps functions/ free of per-Lambda boilerplate.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { OutputFormat, LogLevel, type BundlingOptions, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';

/** The repository root (this file is lib/cloud/bundling.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FUNCTIONS_DIR = join(REPO_ROOT, 'functions');

/**
 * Where the generated Lambda entries are written: inside the project's cloud assembly directory
 * (gitignored). NodejsFunction requires entries under the project root, so this is a fixed place
 * even when a test synthesizes into a temporary directory.
 */
export const ENTRIES_DIR = join(REPO_ROOT, 'cdk.out', '.entries');

/**
 * The bundle is an ES module, but some dependencies are CommonJS and call `require()` (esbuild turns
 * those calls into a shim that needs a real `require` in scope). `createRequire` provides one.
 * The import is aliased so it cannot clash with a bundled module's own `createRequire` import.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __quireCreateRequire } from 'node:module'; const require = __quireCreateRequire(import.meta.url);";

/**
 * The esbuild options shared by the stack and the benchmark. Everything is bundled, the AWS SDK v3
 * included (the Lambda runtime ships one, but bundling pins our version and makes each bundle
 * self-contained and measurable).
 */
export const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: false,
  // Prefer the ES module builds of packages (the AWS SDK ships both): they tree-shake better.
  mainFields: ['module', 'main'],
  external: [],
  banner: { js: ESM_REQUIRE_BANNER },
  tsconfig: join(REPO_ROOT, 'tsconfig.json'),
  logLevel: 'warning',
} as const satisfies BuildOptions;

/**
 * NodejsFunction bundling options derived from ESBUILD_OPTIONS. Local esbuild only (no Docker, no
 * network): `forceDockerBundling: false`, and esbuild is a devDependency.
 */
export function nodejsBundling(commandHooks?: ICommandHooks): BundlingOptions {
  return {
    forceDockerBundling: false,
    format: OutputFormat.ESM,
    target: ESBUILD_OPTIONS.target,
    minify: ESBUILD_OPTIONS.minify,
    sourceMap: ESBUILD_OPTIONS.sourcemap,
    mainFields: [...ESBUILD_OPTIONS.mainFields],
    externalModules: [...ESBUILD_OPTIONS.external],
    banner: ESBUILD_OPTIONS.banner.js,
    tsconfig: ESBUILD_OPTIONS.tsconfig,
    logLevel: LogLevel.WARNING,
    commandHooks,
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
