/**
 * Big CSVs whose background read outlasts the create/replace request: a 300 ms sync budget, and the
 * stored CSV's stream held back by the test until it lets it go, so `processing` is seen for sure.
 * The table answers `processing` (no row_count, no columns), 409s what needs the CSV, then shows
 * `ready` with the same figures as the CSV read in the request, or `failed` with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platform, setPlatform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { bigCsv, BIG_ROWS, storeCsv } from './background-support.ts';

process.env.QUIRE_TABLE_BACKGROUND_BYTES = '1024';

let cloud: TestCloud;
/** While set, every stored-object stream waits for it (the background read cannot progress). */
let hold: Promise<void> | undefined;
/** While true, every stored-object stream fails (a crashing read). */
let crash = false;
/** Every object key written, to see what a table's reads left in S3. */
const written: string[] = [];

beforeAll(async () => {
  cloud = await startTestCloud({ syncWaitMs: 300 });
  const real = platform();
  // The adapter is a class instance: a Proxy keeps its other methods.
  const blobs = new Proxy(real.blobs, {
    get(target, method) {
      if (method === 'put') {
        return (key: string, body: Uint8Array | string, contentType?: string) => {
          written.push(key);
          return target.put(key, body, contentType);
        };
      }
      if (method === 'stream') {
        return async (key: string) => {
          if (crash) throw new Error('simulated crash of the background read');
          if (hold) await hold;
          return target.stream(key);
        };
      }
      return Reflect.get(target, method);
    },
  });
  setPlatform({ ...real, blobs });
});
afterAll(async () => {
  delete process.env.QUIRE_TABLE_BACKGROUND_BYTES;
  await cloud?.close();
});

/** Holds every background read back until the returned function is called. */
function holdReads(): () => void {
  let release!: () => void;
  hold = new Promise((resolve) => (release = resolve));
  return () => {
    hold = undefined;
    release();
  };
}

async function settledTable(id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await cloud.api('GET', `/v1/tables/${id}`);
    if (got.status !== 200 || got.body.table.status !== 'processing' || Date.now() > deadline) return got;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const byRef = (fileId: string, extra: Record<string, unknown> = {}) => ({ name: 'big', document: { id: fileId, filename: 'big.csv', mime_type: 'text/csv' }, ...extra });

describe('tables read in the background, past the request', () => {
  it('answers processing, refuses what needs the CSV with 409, then shows ready with exact figures', async () => {
    const csv = bigCsv(BIG_ROWS);
    const fileId = await storeCsv(cloud, csv);
    const release = holdReads();
    let id: string;
    try {
      const created = await cloud.api('POST', '/v1/tables', { body: byRef(fileId, { project_id: 'proj_big' }) });
      expect(created.status, created.text).toBe(201);
      const table = created.body.tables[0];
      id = table.id;
      expect(table).toMatchObject({ status: 'processing', error: null, row_count: null, columns: [], sample_rows: [], source_file_id: fileId, project_id: 'proj_big' });

      expect((await cloud.api('GET', `/v1/tables/${id}`)).body.table.status).toBe('processing');
      const listed = (await cloud.api('GET', '/v1/tables?project_id=proj_big')).body.tables;
      expect(listed.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([[id, 'processing']]);
      for (const [method, path, body] of [
        ['GET', `/v1/tables/${id}/profile`, undefined],
        ['POST', `/v1/tables/${id}/validate`, {}],
        ['POST', `/v1/tables/${id}/query`, {}],
        ['GET', `/v1/tables/${id}/download`, undefined],
        ['GET', `/v1/tables/${id}/schema`, undefined],
        ['PUT', `/v1/tables/${id}`, byRef(fileId)],
      ] as const) {
        const r = await cloud.api(method, path, body === undefined ? {} : { body });
        expect(r.status, `${method} ${path}`).toBe(409);
        expect(r.body.detail, `${method} ${path}`).toContain('"processing"');
      }
      // A rename while the CSV is read is kept when the read ends.
      const renamed = await cloud.api('PATCH', `/v1/tables/${id}`, { body: { name: 'renamed', metadata: { k: 1 } } });
      expect(renamed.status).toBe(200);
      expect(renamed.body.tables[0]).toMatchObject({ name: 'renamed', status: 'processing' });
    } finally {
      release();
    }

    const ready = (await settledTable(id)).body.table;
    expect(ready).toMatchObject({ status: 'ready', error: null, name: 'renamed', metadata: { k: 1 }, row_count: BIG_ROWS });
    const inline = (await cloud.api('POST', '/v1/tables', { body: { name: 'ref', document: { filename: 'big.csv', url: dataUrl('text/csv', csv) } } })).body.tables[0];
    for (const field of ['row_count', 'columns', 'sample_rows', 'diagnostics'] as const) expect(ready[field], field).toEqual(inline[field]);
    const profile = await cloud.api('GET', `/v1/tables/${id}/profile`);
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual({ ...(await cloud.api('GET', `/v1/tables/${inline.id}/profile`)).body, table_id: id });
    expect(profile.body.columns[1].distinct_count).toBe(7);
    expect((await cloud.api('GET', `/v1/tables/${id}/download`)).text).toBe(csv);
  });

  it('marks a table failed when its CSV turns out invalid after the request, with the reason and no summary', async () => {
    const release = holdReads();
    let id: string;
    try {
      const created = await cloud.api('POST', '/v1/tables', { body: byRef(await storeCsv(cloud, `id,name,id\n${'1,2,3\n'.repeat(500)}`)) });
      expect(created.status, created.text).toBe(201);
      id = created.body.tables[0].id;
      expect(created.body.tables[0].status).toBe('processing');
    } finally {
      release();
    }
    const failed = (await settledTable(id)).body.table;
    expect(failed).toMatchObject({ status: 'failed', row_count: null, columns: [], sample_rows: [] });
    expect(failed.error.code).toBe('document_invalid');
    expect(failed.error.message).toContain('duplicate header name "id"');
    expect(failed.error.details.issues[0].loc).toEqual(['body', 'document']);
    for (const path of [`/v1/tables/${id}/profile`, `/v1/tables/${id}/schema`, `/v1/tables/${id}/download`]) {
      const r = await cloud.api('GET', path);
      expect(r.status, path).toBe(409);
      expect(r.body.detail, path).toContain('"failed"');
      expect(r.body.detail, path).toContain('duplicate header name');
    }
    const query = await cloud.api('POST', `/v1/tables/${id}/query`, { body: { filters: [{ column: 'id', operator: 'eq', value: 1 }] } });
    expect(query.status).toBe(409);
    expect(query.body.detail).toContain('"failed"');
    // Never half written: the failed read stored no summary for this table.
    expect(written.filter((key) => key.includes(`/tables/${id}/`))).toEqual([]);

    // A failed table takes a new CSV, read in the background again.
    const replaced = await cloud.api('PUT', `/v1/tables/${id}`, { body: byRef(await storeCsv(cloud, bigCsv(700))) });
    expect(replaced.status, replaced.text).toBe(200);
    const ready = (await settledTable(id)).body.table;
    expect(ready).toMatchObject({ status: 'ready', error: null, row_count: 700 });
    expect((await cloud.api('GET', `/v1/tables/${id}/profile`)).body.row_count).toBe(700);

    // A replace of a ready table whose new CSV fails after the request: failed, then deletable.
    const releaseAgain = holdReads();
    try {
      const bad = Buffer.concat([Buffer.from(`name\n${'x\n'.repeat(50_000)}caf`), Buffer.from([0xe9]), Buffer.from('\n')]);
      const replacing = await cloud.api('PUT', `/v1/tables/${id}`, { body: byRef(await storeCsv(cloud, bad)) });
      expect(replacing.status, replacing.text).toBe(200);
      expect(replacing.body.tables[0].status).toBe('processing');
    } finally {
      releaseAgain();
    }
    const refused = (await settledTable(id)).body.table;
    expect(refused.status).toBe('failed');
    expect(refused.error.message).toMatch(/UTF-8/);
    expect((await cloud.api('DELETE', `/v1/tables/${id}`)).status).toBe(204);
    expect((await cloud.api('GET', `/v1/tables/${id}`)).status).toBe(404);
  });

  it('marks a table failed (internal) when its background read crashes, instead of processing forever', async () => {
    crash = true;
    let id: string;
    try {
      const created = await cloud.api('POST', '/v1/tables', { body: byRef(await storeCsv(cloud, bigCsv(300))) });
      expect(created.status, created.text).toBe(201);
      id = created.body.tables[0].id;
      const failed = (await settledTable(id)).body.table;
      expect(failed.status).toBe('failed');
      expect(failed.error.code).toBe('internal');
      expect(failed.error.message).toContain('replace the table');
    } finally {
      crash = false;
    }
  });

  it('deletes a table while its CSV is read; the read keeps nothing', async () => {
    const release = holdReads();
    let id: string;
    try {
      const created = await cloud.api('POST', '/v1/tables', { body: byRef(await storeCsv(cloud, bigCsv(400))) });
      id = created.body.tables[0].id;
      expect(created.body.tables[0].status).toBe('processing');
      expect((await cloud.api('DELETE', `/v1/tables/${id}`)).status).toBe(204);
    } finally {
      release();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await cloud.api('GET', `/v1/tables/${id}`)).status).toBe(404);
    // A summary the read may have written was deleted with it.
    for (const key of written.filter((k) => k.includes(`/tables/${id}/`))) expect(await platform().blobs.head(key), key).toBeUndefined();
    expect((await cloud.api('GET', '/v1/tables')).body.tables.map((t: { id: string }) => t.id)).not.toContain(id);
  });
});
