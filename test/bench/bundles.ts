/**
 * Lambda bundle sizes and cold import time, per Lambda of the stack (HTTP resource groups and task
 * functions), against a reference bundle that holds only the DynamoDB client (built and measured the
 * same way in the same run, so the ratios are what matters).
 *
 * Each bundle is built exactly as the CDK stack builds it (lib/cloud/bundling.ts
 * `lambdaBuildOptions`: code splitting, `index.mjs` plus `chunks/`, same generated entries), except
 * the target: node20, so the bundle runs on this machine. Per bundle:
 * - total: every file of the bundle (what is deployed; for a task function, its node_modules too:
 *   the runtime packages it ships, see bundling.ts TASK_RUNTIME_PACKAGES);
 * - cold load: the entry plus the chunks it imports statically, transitively (what a cold start
 *   loads; chunks behind a dynamic `import()` load when a route first needs them);
 * - import ms: `import()` of the entry in a fresh node process, median of RUNS (the runs are
 *   interleaved across bundles, so a slow moment of the machine does not land on one bundle).
 *
 *   node --import tsx test/bench/bundles.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { routeGroups } from '../../functions/features.ts';
import { taskFunctions } from '../../functions/features.ts';
import {
  copyRuntimePackages,
  ENTRY_FILE,
  FUNCTIONS_DIR,
  lambdaBuildOptions,
  REPO_ROOT,
  TASK_RUNTIME_PACKAGES,
  writeRouteEntry,
  type LambdaArchitecture,
  type LambdaEntry,
  type RuntimePackage,
} from '../../lib/cloud/bundling.ts';
import { TASK_ARCHITECTURE } from '../../lib/cloud/runs.ts';

export interface BundleMeasure {
  /** A route group, `task:<name>`, or REFERENCE_GROUP. */
  group: string;
  /** Total size of the bundle's files. */
  bytes: number;
  /** Number of files in the bundle (the entry and its chunks). */
  files: number;
  /** Size of the entry and of the chunks it imports statically (transitively). */
  coldBytes: number;
  importMsMedian: number;
}

export const REFERENCE_GROUP = 'reference:client-dynamodb';
const REFERENCE_SOURCE =
  "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const handler = async () => new DynamoDBClient({});\n";

/** The goal for the API Lambdas: each bundle under 1 MB, its import within 2x of the reference. */
const MAX_API_BYTES = 1_000_000;
const MAX_IMPORT_RATIO = 2;

/** Fresh processes per bundle: each import is a cold start of the module graph. */
const RUNS = 5;

/** What a Lambda of the stack has in its environment (config.ts); values are never used here. */
const LAMBDA_LIKE_ENV = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  // The SDK warns about Node 20 on import; the Lambdas run Node 22.
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  QUIRE_TABLE: 'bench-table',
  QUIRE_BUCKET: 'bench-bucket',
  QUIRE_KMS_KEY_ID: 'bench-key',
  QUIRE_RUN_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:bench-run',
  QUIRE_DEPLOYMENT: 'bench',
  POWERTOOLS_SERVICE_NAME: 'quire',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
};

interface Built {
  group: string;
  /** The entry module (outdir/index.mjs) and the name of its handler export. */
  entry: string;
  handler: string;
  bytes: number;
  files: number;
  coldBytes: number;
  times: number[];
}

/** Builds one bundle into `outdir` as the stack does (runtime packages included) and measures its sizes. */
async function bundle(
  group: string,
  entry: LambdaEntry,
  handler: string,
  outdir: string,
  runtimePackages: readonly RuntimePackage[] = [],
): Promise<Built> {
  const result = await build({ ...lambdaBuildOptions(entry, outdir, runtimePackages), target: 'node20', metafile: true });
  copyRuntimePackages(outdir, runtimePackages, TASK_ARCHITECTURE.name as LambdaArchitecture);
  const files = filesUnder(outdir);
  const entryFile = join(outdir, ENTRY_FILE);
  return {
    group,
    entry: entryFile,
    handler,
    bytes: files.reduce((sum, file) => sum + statSync(file).size, 0),
    files: files.length,
    coldBytes: staticClosureBytes(result.metafile!, entryFile),
    times: [],
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Bytes of `entryFile` and of every output it reaches through static imports (`import ... from`),
 * not through `import()`. Metafile paths are relative to the working directory.
 */
function staticClosureBytes(metafile: Metafile, entryFile: string): number {
  const outputs = new Map(Object.entries(metafile.outputs).map(([path, output]) => [resolve(path), output]));
  const seen = new Set<string>();
  const pending = [resolve(entryFile)];
  let bytes = 0;
  while (pending.length) {
    const path = pending.pop()!;
    const output = outputs.get(path);
    if (seen.has(path) || !output) continue;
    seen.add(path);
    bytes += output.bytes;
    for (const imported of output.imports) {
      if (imported.kind === 'import-statement' && !imported.external) pending.push(resolve(imported.path));
    }
  }
  if (!seen.size) throw new Error(`${entryFile} is not an output of its build`);
  return bytes;
}

/** Milliseconds one fresh `node` process spends in `import()` of the entry (startup excluded). */
function importMs(file: string, handler: string): number {
  const script = [
    'const start = performance.now();',
    `const m = await import(${JSON.stringify(pathToFileURL(file).href)});`,
    'const ms = performance.now() - start;',
    `if (typeof m[${JSON.stringify(handler)}] !== 'function') throw new Error('bundle exports no handler');`,
    'process.stdout.write(String(ms));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: LAMBDA_LIKE_ENV,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return Number(out);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One row per route group, one per task function (`task:<name>`), then the reference row. */
export async function measureBundles(): Promise<BundleMeasure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bundles-'));
  try {
    const built: Built[] = [];
    for (const group of routeGroups()) {
      const entry = writeRouteEntry(join(dir, 'entries'), group);
      built.push(await bundle(group, entry, 'handler', join(dir, group)));
    }
    for (const [name, task] of Object.entries(taskFunctions)) {
      built.push(
        await bundle(`task:${name}`, join(FUNCTIONS_DIR, task.module), task.handler, join(dir, `task-${name}`), TASK_RUNTIME_PACKAGES),
      );
    }
    const reference = { contents: REFERENCE_SOURCE, resolveDir: REPO_ROOT, sourcefile: 'reference.ts', loader: 'ts' } as const;
    built.push(await bundle(REFERENCE_GROUP, reference, 'handler', join(dir, 'reference')));

    for (let run = 0; run < RUNS; run++) {
      for (const b of built) b.times.push(importMs(b.entry, b.handler));
    }
    return built.map(({ group, bytes, files, coldBytes, times }) => ({ group, bytes, files, coldBytes, importMsMedian: median(times) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(): Promise<void> {
  const results = await measureBundles();
  const reference = results.find((r) => r.group === REFERENCE_GROUP)!;
  const kib = (bytes: number) => (bytes / 1024).toFixed(0);
  const rows = results.map((r) => ({
    bundle: r.group,
    files: r.files,
    'total KiB': kib(r.bytes),
    'cold-load KiB': kib(r.coldBytes),
    'cold-load ×ref': (r.coldBytes / reference.coldBytes).toFixed(2),
    'import ms (median)': r.importMsMedian.toFixed(1),
    'import ×ref': (r.importMsMedian / reference.importMsMedian).toFixed(2),
  }));
  console.log(
    `Lambda bundles (esbuild, ESM, minified, code splitting): total = all files, cold load = ${ENTRY_FILE} + chunks it ` +
      `imports statically; import() of ${ENTRY_FILE} in a fresh node, median of ${RUNS}:`,
  );
  console.table(rows);

  const api = results.filter((r) => r.group !== REFERENCE_GROUP && !r.group.startsWith('task:'));
  const tooBig = api.filter((r) => r.bytes >= MAX_API_BYTES).map((r) => r.group);
  const tooSlow = api.filter((r) => r.importMsMedian > MAX_IMPORT_RATIO * reference.importMsMedian).map((r) => r.group);
  const worst = Math.max(...api.map((r) => r.importMsMedian / reference.importMsMedian));
  console.log(
    `API bundles: total under 1 MB: ${tooBig.length ? `no (${tooBig.join(', ')})` : 'all'}; ` +
      `import within ${MAX_IMPORT_RATIO}x of the reference: ${tooSlow.length ? `no (${tooSlow.join(', ')})` : 'all'} (worst ${worst.toFixed(2)}x).`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
