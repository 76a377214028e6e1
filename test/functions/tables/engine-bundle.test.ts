/**
 * The tables Lambda ships DuckDB as files (lib/cloud/bundling.ts DUCKDB_RUNTIME_PACKAGES): the
 * engine bundled as the stack bundles it, with only the packages copied beside it, makes a snapshot
 * and answers a query in a process that can see no other node_modules.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { copyRuntimePackages, DUCKDB_RUNTIME_PACKAGES, lambdaBuildOptions, REPO_ROOT } from '../../../lib/cloud/bundling.ts';

const dir = mkdtempSync(join(tmpdir(), 'quire-engine-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the tables engine as the Lambda ships it', () => {
  it('runs from its bundle with DuckDB copied beside it (linux x86_64)', () => {
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, `export { buildSnapshot, runQuery } from ${JSON.stringify(join(REPO_ROOT, 'functions/tables/engine.ts'))};\n`);
    buildSync(lambdaBuildOptions(entry, dir, DUCKDB_RUNTIME_PACKAGES));
    const shipped = copyRuntimePackages(dir, DUCKDB_RUNTIME_PACKAGES, 'x86_64');
    expect(shipped).toEqual(expect.arrayContaining(['@duckdb/node-api', '@duckdb/node-bindings', '@duckdb/node-bindings-linux-x64']));
    // Only the Lambda's platform's binary.
    expect(shipped.filter((p) => p.startsWith('@duckdb/node-bindings-'))).toEqual(['@duckdb/node-bindings-linux-x64']);
    writeFileSync(join(dir, 'data.csv'), 'k,v\n1,a\n2,NA\n3,c\n');
    writeFileSync(
      join(dir, 'check.mjs'),
      [
        "import { buildSnapshot, runQuery } from './index.mjs';",
        "const n = await buildSnapshot('./data.csv', ',', [{ type: 'integer' }, { type: 'string' }], './s.parquet');",
        "const r = await runQuery('./s.parquet', 'SELECT c1 FROM {snapshot} WHERE t0 >= $1 ORDER BY pos', [2]);",
        'console.log(JSON.stringify({ n, rows: r.rows }));',
      ].join('\n'),
    );
    // NODE_PATH empty and the bundle outside the repository: only the shipped node_modules resolve.
    const out = execFileSync(process.execPath, ['check.mjs'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NODE_PATH: '' } });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ n: 3, rows: [[null], ['c']] });
  }, 120_000);
});
