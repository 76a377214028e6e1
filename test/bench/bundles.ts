/**
 * Lambda bundle size and cold import time, per HTTP resource group, against a reference bundle that
 * holds only the DynamoDB client (measured in the same run, so the ratio is what matters).
 *
 * Each group is bundled exactly as the CDK stack bundles it (lib/cloud/bundling.ts ESBUILD_OPTIONS,
 * same generated entry), except the target: node20, so the bundle runs on this machine.
 *
 *   node --import tsx test/bench/bundles.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { routeGroups } from '../../functions/platform/dispatch.ts';
import { ESBUILD_OPTIONS, REPO_ROOT, routeEntrySource } from '../../lib/cloud/bundling.ts';

export interface BundleMeasure {
  group: string;
  bytes: number;
  importMsMedian: number;
}

export const REFERENCE_GROUP = 'reference:client-dynamodb';
const REFERENCE_SOURCE =
  "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const handler = async () => new DynamoDBClient({});\n";

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

/** Bundles `source` (resolved from the repository root) to `outfile`; returns its size in bytes. */
async function bundle(source: string, outfile: string): Promise<number> {
  await build({
    ...ESBUILD_OPTIONS,
    target: 'node20',
    stdin: { contents: source, resolveDir: REPO_ROOT, sourcefile: 'entry.ts', loader: 'ts' },
    outfile,
  });
  return statSync(outfile).size;
}

/** Milliseconds one fresh `node` process spends in `import()` of the bundle (startup excluded). */
function importMs(file: string): number {
  const script = [
    'const start = performance.now();',
    `const m = await import(${JSON.stringify(pathToFileURL(file).href)});`,
    'const ms = performance.now() - start;',
    "if (typeof m.handler !== 'function') throw new Error('bundle exports no handler');",
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

async function measure(group: string, source: string, dir: string): Promise<BundleMeasure> {
  const outfile = join(dir, `${group.replace(/[^a-z0-9-]/gi, '_')}.mjs`);
  const bytes = await bundle(source, outfile);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(importMs(outfile));
  return { group, bytes, importMsMedian: median(times) };
}

/** One row per route group, then the reference row (group `reference:client-dynamodb`). */
export async function measureBundles(): Promise<BundleMeasure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bundles-'));
  try {
    const results: BundleMeasure[] = [];
    for (const group of routeGroups()) results.push(await measure(group, routeEntrySource(group), dir));
    results.push(await measure(REFERENCE_GROUP, REFERENCE_SOURCE, dir));
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(): Promise<void> {
  const results = await measureBundles();
  const reference = results.find((r) => r.group === REFERENCE_GROUP)!;
  const rows = results.map((r) => ({
    group: r.group,
    'size (KiB)': (r.bytes / 1024).toFixed(0),
    'size ×ref': (r.bytes / reference.bytes).toFixed(2),
    'import ms (median)': r.importMsMedian.toFixed(1),
    'import ×ref': (r.importMsMedian / reference.importMsMedian).toFixed(2),
  }));
  console.log(`Lambda bundles (esbuild, ${ESBUILD_OPTIONS.format}, minified), import() in a fresh node, median of ${RUNS}:`);
  console.table(rows);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
