/**
 * Big CSVs (a FileRef above the background threshold) are read by an internal run in the task
 * Lambda; the create/replace waits for it up to the sync budget (here the default 25 s, so it always
 * ends in time). The threshold is forced down to 1 KB so small generated CSVs take that path; the same
 * CSV sent inline (read in the request, the path tables.test.ts checks figure by figure) is the
 * reference. background-slow.test.ts covers reads that outlast the request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platform, setPlatform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { bigCsv, BIG_ROWS, storeCsv } from './background-support.ts';

process.env.QUIRE_TABLE_BACKGROUND_BYTES = '1024';

let cloud: TestCloud;
/** Background reads started (runs of kind table_summary): proves which path a create took. */
let backgroundReads = 0;
/** The scope (organization, environment) the last background read ran in. */
let readScope: { orgId: string; envId: string } | undefined;
beforeAll(async () => {
  cloud = await startTestCloud();
  const real = platform();
  // A Proxy keeps the adapter's other methods (it may be a class instance).
  const runner = new Proxy(real.runner, {
    get(target, method) {
      if (method !== 'start') return Reflect.get(target, method);
      return (...args: Parameters<typeof real.runner.start>) => {
        const run = (args[1].input as { run?: { kind?: string; orgId: string; envId: string } }).run;
        if (run?.kind === 'table_summary') {
          backgroundReads++;
          readScope = { orgId: run.orgId, envId: run.envId };
        }
        return target.start(...args);
      };
    },
  });
  setPlatform({ ...real, runner });
});
afterAll(async () => {
  delete process.env.QUIRE_TABLE_BACKGROUND_BYTES;
  await cloud?.close();
});

const byRef = (fileId: string, extra: Record<string, unknown> = {}) => ({ name: 'big', document: { id: fileId, filename: 'big.csv', mime_type: 'text/csv' }, ...extra });

describe('tables read in the background, ending within the request', () => {
  it('answers the finished table, the same as the CSV read in the request', async () => {
    const csv = bigCsv(BIG_ROWS);
    const fileId = await storeCsv(cloud, csv);
    const reads = backgroundReads;
    const created = await cloud.api('POST', '/v1/tables', { body: byRef(fileId) });
    expect(created.status, created.text).toBe(201);
    expect(backgroundReads).toBe(reads + 1);
    const table = created.body.tables[0];
    expect(table.status).toBe('ready');
    expect(table.error).toBeNull();
    expect(table.row_count).toBe(BIG_ROWS);
    expect(table.source_file_id).toBe(fileId);

    // The reference: the same bytes inline, read in the request.
    const inline = await cloud.api('POST', '/v1/tables', { body: { name: 'big', document: { filename: 'big.csv', url: dataUrl('text/csv', csv) } } });
    expect(inline.status, inline.text).toBe(201);
    const reference = inline.body.tables[0];
    for (const field of ['row_count', 'columns', 'sample_rows', 'diagnostics', 'status'] as const) expect(table[field], field).toEqual(reference[field]);

    const profile = await cloud.api('GET', `/v1/tables/${table.id}/profile`);
    expect(profile.status).toBe(200);
    expect(profile.body.columns).toEqual((await cloud.api('GET', `/v1/tables/${reference.id}/profile`)).body.columns);
    // Figures the generator fixes: ids 1..n, 7 categories, every 10th note null.
    const [id, category, , note] = profile.body.columns;
    expect([id.distinct_count, id.min, id.max, id.null_count]).toEqual([BIG_ROWS, 1, BIG_ROWS, 0]);
    expect(category.distinct_count).toBe(7);
    expect(note.null_count).toBe(BIG_ROWS / 10);

    expect((await cloud.api('GET', `/v1/tables/${table.id}`)).body.table).toEqual(table);
    expect((await cloud.api('GET', `/v1/tables/${table.id}/schema`)).body.columns).toEqual(reference.columns);
    const validation = await cloud.api('POST', `/v1/tables/${table.id}/validate`, { body: { columns: { category: { enum: ['c0', 'c1'] } } } });
    expect(validation.status).toBe(200);
    expect(validation.body.diagnostics[0].count).toBe(BIG_ROWS - Math.ceil(BIG_ROWS / 7) - Math.ceil((BIG_ROWS - 1) / 7));
    expect((await cloud.api('GET', `/v1/tables/${table.id}/download`)).text).toBe(csv);

    // The internal run left nothing behind: no record, no usage line.
    const runs = await platform().store.listRecords(readScope!, 'table_summary', { limit: 10, order: 'desc' });
    expect(runs.items).toEqual([]);
    const usage = await cloud.api('GET', '/v1/usage');
    expect(usage.status, usage.text).toBe(200);
    expect(Object.keys(usage.body.by_operation)).not.toContain('table_summary');
  });

  it('refuses an invalid big CSV with the same 422 as a small one, keeping no table', async () => {
    const count = async () => (await cloud.api('GET', '/v1/tables')).body.tables.length;
    const before = await count();
    const dup = await cloud.api('POST', '/v1/tables', { body: byRef(await storeCsv(cloud, `id,name,id\n${'1,2,3\n'.repeat(500)}`)) });
    expect(dup.status, dup.text).toBe(422);
    expect(dup.body.detail[0].loc).toEqual(['body', 'document']);
    expect(dup.body.detail[0].msg).toContain('duplicate header name "id"');

    // A byte that is not UTF-8 far past the head the file upload sniffs.
    const latin1 = Buffer.concat([Buffer.from(`name\n${'x\n'.repeat(50_000)}caf`), Buffer.from([0xe9]), Buffer.from('\n')]);
    const bad = await cloud.api('POST', '/v1/tables', { body: byRef(await storeCsv(cloud, latin1)) });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.detail[0].msg).toMatch(/UTF-8/);

    const unknown = await cloud.api('POST', '/v1/tables', { body: byRef(await storeCsv(cloud, bigCsv(200)), { column_schema_overrides: { nope: { type: 'string' } } }) });
    expect(unknown.status, unknown.text).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'column_schema_overrides', 'nope']);
    expect(await count()).toBe(before);
  });

  it('replaces with a big CSV; an invalid one leaves the table as it was', async () => {
    const first = (await cloud.api('POST', '/v1/tables', { body: byRef(await storeCsv(cloud, bigCsv(300))) })).body.tables[0];
    expect(first.status).toBe('ready');
    const replaced = await cloud.api('PUT', `/v1/tables/${first.id}`, { body: byRef(await storeCsv(cloud, bigCsv(600)), { name: 'bigger' }) });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.tables[0]).toMatchObject({ id: first.id, name: 'bigger', row_count: 600, status: 'ready' });
    const kept = (await cloud.api('GET', `/v1/tables/${first.id}`)).body.table;

    const refused = await cloud.api('PUT', `/v1/tables/${first.id}`, { body: byRef(await storeCsv(cloud, `a,a\n${'1,2\n'.repeat(600)}`), { name: 'broken' }) });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.detail[0].msg).toContain('duplicate header name "a"');
    expect((await cloud.api('GET', `/v1/tables/${first.id}`)).body.table).toEqual(kept);
    const profile = await cloud.api('GET', `/v1/tables/${first.id}/profile`);
    expect(profile.status).toBe(200);
    expect(profile.body.row_count).toBe(600);
  });

  it('reads a table stored before `status` existed as ready', async () => {
    const table = (await cloud.api('POST', '/v1/tables', { body: byRef(await storeCsv(cloud, bigCsv(250))) })).body.tables[0];
    expect(table.status).toBe('ready');
    // The record as the first version of tables wrote it: no status, no error.
    const { status: _status, error: _error, ...legacy } = table;
    expect(await platform().store.updateRecord(readScope!, 'table', table.id, { table: legacy })).toBeDefined();
    const got = await cloud.api('GET', `/v1/tables/${table.id}`);
    expect(got.body.table).toEqual(table);
    expect((await cloud.api('GET', `/v1/tables/${table.id}/profile`)).status).toBe(200);
  });

  it('keeps reading small FileRef CSVs and inline CSVs in the request', async () => {
    delete process.env.QUIRE_TABLE_BACKGROUND_BYTES;
    try {
      const reads = backgroundReads;
      const created = await cloud.api('POST', '/v1/tables', { body: byRef(await storeCsv(cloud, bigCsv(500))) });
      expect(created.status).toBe(201);
      expect(created.body.tables[0]).toMatchObject({ status: 'ready', error: null, row_count: 500 });
      expect(backgroundReads).toBe(reads);
    } finally {
      process.env.QUIRE_TABLE_BACKGROUND_BYTES = '1024';
    }
  });
});
