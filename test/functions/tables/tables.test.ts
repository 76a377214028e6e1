/**
 * Tables over the real local cloud (API §10): generated CSVs whose statistics the test computes
 * itself from the generated cells, uploaded as a form, as JSON and through the file upload; profile,
 * validation, schema, download and the resource's life cycle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platform, setPlatform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, type ApiResponse, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

// ---- a generated table whose every cell the test knows ----

/** What a cell is meant to be: no value, an empty value, or a value. */
type Cell = { kind: 'null'; written: string } | { kind: 'empty'; text: string } | { kind: 'value'; text: string };

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COLUMNS = ['id', 'name', 'amount', 'when', 'day', 'flag', 'mixed', 'note'] as const;
type ColumnName = (typeof COLUMNS)[number];

function generate(rows: number, seed = 7): Array<Record<ColumnName, Cell>> {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const value = (text: string): Cell => ({ kind: 'value', text });
  const nullCell = (): Cell => ({ kind: 'null', written: pick(['', 'NA', 'NULL', 'null', 'N/A']) });
  const names = ['Ada', 'Grace', 'alan', 'Édith', 'O"Brien', 'Smith, John', 'Zoë', 'Multi\nLine', 'bob'];
  const notes = ['plain', 'with "quotes"', 'two\nlines', 'comma, inside', 'crlf\r\ninside'];
  const offsets = ['Z', '+05:00', '-03:30'];
  const out: Array<Record<ColumnName, Cell>> = [];
  // Distinct instants (one per row, shuffled), written with various UTC offsets.
  const minutes = Array.from({ length: rows }, (_, i) => i * 7 + 3);
  for (let i = minutes.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [minutes[i], minutes[j]] = [minutes[j]!, minutes[i]!];
  }
  for (let i = 0; i < rows; i++) {
    const r = rnd();
    const instant = Date.UTC(2024, 0, 1) + minutes[i]! * 60_000;
    const offset = pick(offsets);
    const shift = offset === 'Z' ? 0 : offset === '+05:00' ? 300 : -210;
    const local = new Date(instant + shift * 60_000).toISOString().slice(0, 19);
    out.push({
      id: value(String(i + 1)),
      name: r < 0.06 ? nullCell() : r < 0.09 ? { kind: 'empty', text: '' } : r < 0.11 ? { kind: 'empty', text: '   ' } : value(pick(names)),
      amount: rnd() < 0.1 ? nullCell() : value(pick(['9', '10', '-3.5', '1e3', '0.25', '120', String(Math.floor(rnd() * 1000))])),
      when: value(`${local}${offset}`),
      day: rnd() < 0.05 ? nullCell() : value(new Date(Date.UTC(2020, 0, 1) + Math.floor(rnd() * 2000) * 86_400_000).toISOString().slice(0, 10)),
      flag: value(pick(['true', 'false', 'TRUE', 'False'])),
      mixed: value(rnd() < 0.8 ? String(Math.floor(rnd() * 50)) : pick(['apple', 'Banana', 'cherry'])),
      note: rnd() < 0.2 ? nullCell() : value(pick(notes)),
    });
  }
  return out;
}

function toCsv(rows: Array<Record<ColumnName, Cell>>, options: { delimiter?: string; newline?: string; bom?: boolean } = {}): string {
  const d = options.delimiter ?? ',';
  const nl = options.newline ?? '\n';
  const field = (cell: Cell) => {
    if (cell.kind === 'null') return cell.written;
    const t = cell.text;
    // Empties are written quoted ("" is the only way to write an empty string); values when they must be.
    if (cell.kind === 'empty' || t.includes(d) || t.includes('"') || t.includes('\n') || t.includes('\r')) return `"${t.replace(/"/g, '""')}"`;
    return t;
  };
  const lines = [COLUMNS.join(d), ...rows.map((r) => COLUMNS.map((c) => field(r[c])).join(d))];
  return (options.bom ? '\uFEFF' : '') + lines.join(nl) + nl;
}

type Scalar = string | number | boolean | null;

/** The profile the API must answer, computed here from the cells. */
function expectedProfile(rows: Array<Record<ColumnName, Cell>>) {
  const types: Record<ColumnName, Record<string, string>> = {
    id: { type: 'integer' },
    name: { type: 'string' },
    amount: { type: 'number' },
    when: { type: 'string', format: 'date-time' },
    day: { type: 'string', format: 'date' },
    flag: { type: 'boolean' },
    mixed: { type: 'string' },
    note: { type: 'string' },
  };
  return COLUMNS.map((name) => {
    const cells = rows.map((r) => r[name]);
    const values = cells.filter((c) => c.kind === 'value').map((c) => (c as { text: string }).text);
    const schema = types[name];
    let min: Scalar = null;
    let max: Scalar = null;
    if (schema.type === 'integer' || schema.type === 'number') {
      min = Math.min(...values.map(Number));
      max = Math.max(...values.map(Number));
    } else if (schema.format === 'date-time') {
      const byTime = [...values].sort((a, b) => Date.parse(a) - Date.parse(b));
      [min, max] = [byTime[0]!, byTime.at(-1)!];
    } else if (schema.type === 'boolean') {
      const lower = values.map((v) => v.toLowerCase());
      [min, max] = [!lower.includes('false'), lower.includes('true')];
    } else {
      const sorted = [...values].sort();
      [min, max] = [sorted[0]!, sorted.at(-1)!];
    }
    return {
      name,
      json_schema: schema,
      row_count: rows.length,
      null_count: cells.filter((c) => c.kind === 'null').length,
      empty_count: cells.filter((c) => c.kind === 'empty').length,
      distinct_count: new Set(values).size,
      min,
      max,
      sample_values: [...new Set(values)].slice(0, 3),
      is_estimated: false,
    };
  });
}

async function createJson(csv: string | Buffer, extra: Record<string, unknown> = {}, filename = 'data.csv'): Promise<ApiResponse> {
  return cloud.api('POST', '/v1/tables', { body: { name: 'generated', document: { filename, url: dataUrl('text/csv', csv) }, ...extra } });
}

async function createForm(csv: string | Buffer, fields: Record<string, string> = {}, method = 'POST', path = '/v1/tables'): Promise<ApiResponse> {
  const form = new FormData();
  form.set('name', 'generated');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([csv], { type: 'text/csv' }), 'data.csv');
  const response = await fetch(`${cloud.url}${path}`, { method, headers: { authorization: `Bearer ${cloud.keys.test}` }, body: form });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
}

const ROWS = generate(1500);

describe('profile', () => {
  it('gives exact counts, typed min/max and samples for a generated CSV', async () => {
    const created = await createJson(toCsv(ROWS));
    expect(created.status, created.text).toBe(201);
    const table = created.body.tables[0];
    expect(table.row_count).toBe(ROWS.length);
    const profile = await cloud.api('GET', `/v1/tables/${table.id}/profile`);
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual({ table_id: table.id, row_count: ROWS.length, columns: expectedProfile(ROWS) });
    // Chronological, not textual: the earliest instant is not the smallest text.
    const when = profile.body.columns.find((c: { name: string }) => c.name === 'when');
    const textualMin = ROWS.map((r) => (r.when as { text: string }).text).sort()[0];
    expect(when.min).not.toBe(textualMin);
  });

  it('reads the same table from CRLF, a BOM and semicolons', async () => {
    const plain = await createJson(toCsv(ROWS));
    const other = await createJson(toCsv(ROWS, { delimiter: ';', newline: '\r\n', bom: true }));
    expect(other.status, other.text).toBe(201);
    const a = await cloud.api('GET', `/v1/tables/${plain.body.tables[0].id}/profile`);
    const b = await cloud.api('GET', `/v1/tables/${other.body.tables[0].id}/profile`);
    expect(b.body.columns).toEqual(a.body.columns);
  });

  it('describes the columns: types, required, unique, samples and the first five rows', async () => {
    const rows = ROWS.slice(0, 40);
    const created = await createJson(toCsv(rows));
    const table = created.body.tables[0];
    const expected = expectedProfile(rows);
    expect(table.columns).toEqual(
      expected.map((p) => ({
        name: p.name,
        json_schema: p.json_schema,
        sample_values: p.sample_values,
        required: p.null_count === 0 && p.empty_count === 0,
        unique: p.null_count === 0 && p.empty_count === 0 && p.distinct_count === rows.length,
      })),
    );
    expect(table.columns.find((c: { name: string }) => c.name === 'id').unique).toBe(true);
    expect(table.sample_rows).toEqual(rows.slice(0, 5).map((r) => Object.fromEntries(COLUMNS.map((c) => [c, r[c].kind === 'null' ? null : (r[c] as { text: string }).text]))));
    const schema = await cloud.api('GET', `/v1/tables/${table.id}/schema`);
    expect(schema.body).toEqual({ table_id: table.id, columns: table.columns });
  });

  it('selects columns repeated or comma-joined; an unknown column is a 422', async () => {
    const id = (await createJson(toCsv(ROWS.slice(0, 20)))).body.tables[0].id;
    const names = async (query: string) => (await cloud.api('GET', `/v1/tables/${id}/profile?${query}`)).body.columns.map((c: { name: string }) => c.name);
    expect(await names('select=day&select=id')).toEqual(['day', 'id']);
    expect(await names('select=day,id')).toEqual(['day', 'id']);
    expect(await names('select=flag,day&select=id')).toEqual(['flag', 'day', 'id']);
    const bad = await cloud.api('GET', `/v1/tables/${id}/profile?select=id,nope`);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'select']);
    expect(bad.body.detail[0].msg).toContain('"nope"');
  });

  it('lets column_schema_overrides win, and refuses an override of a column the CSV lacks', async () => {
    const csv = toCsv(ROWS.slice(0, 50));
    const created = await createJson(csv, { column_schema_overrides: { amount: { type: 'string' } } });
    expect(created.status, created.text).toBe(201);
    const amount = created.body.tables[0].columns.find((c: { name: string }) => c.name === 'amount');
    expect(amount.json_schema).toEqual({ type: 'string' });
    const profile = await cloud.api('GET', `/v1/tables/${created.body.tables[0].id}/profile?select=amount`);
    const texts = ROWS.slice(0, 50).flatMap((r) => (r.amount.kind === 'value' ? [r.amount.text] : [])).sort();
    // As a string column, min/max compare as text.
    expect([profile.body.columns[0].min, profile.body.columns[0].max]).toEqual([texts[0], texts.at(-1)]);
    const bad = await createJson(csv, { column_schema_overrides: { nope: { type: 'string' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'column_schema_overrides', 'nope']);
  });
});

describe('upload', () => {
  it('gives the same table through a multipart form and through JSON', async () => {
    const csv = toCsv(ROWS.slice(0, 300));
    const form = await createForm(csv, { project_id: 'proj_a', column_schema_overrides: JSON.stringify({ mixed: { type: 'string', maxLength: 9 } }) });
    const json = await createJson(csv, { project_id: 'proj_a', column_schema_overrides: { mixed: { type: 'string', maxLength: 9 } } });
    expect(form.status, form.text).toBe(201);
    expect(json.status, json.text).toBe(201);
    const strip = (t: Record<string, unknown>) => ({ ...t, id: undefined, created_at: undefined, updated_at: undefined });
    expect(strip(form.body.tables[0])).toEqual(strip(json.body.tables[0]));
    const profiles = await Promise.all([form, json].map((r) => cloud.api('GET', `/v1/tables/${r.body.tables[0].id}/profile`)));
    expect(profiles[0]!.body.columns).toEqual(profiles[1]!.body.columns);
  });

  it('reads a CSV uploaded as a file (FileRef), and one over 6 MB through the three-step upload', async () => {
    const small = toCsv(ROWS.slice(0, 10));
    const file = await cloud.api('POST', '/v1/files', { body: { document: { filename: 'f.csv', url: dataUrl('text/csv', small) } } });
    const byRef = await cloud.api('POST', '/v1/tables', { body: { name: 'ref', document: { id: file.body.id, filename: 'f.csv', mime_type: 'text/csv' } } });
    expect(byRef.status, byRef.text).toBe(201);
    expect(byRef.body.tables[0].source_file_id).toBe(file.body.id);

    const lines = ['k,v'];
    for (let i = 0; i < 400_000; i++) lines.push(`${i},value-${i % 1000}`);
    const big = Buffer.from(`${lines.join('\n')}\n`);
    expect(big.length).toBeGreaterThan(6 * 1024 * 1024);
    const ticket = await cloud.api('POST', '/v1/files/upload', { body: { filename: 'big.csv', size_bytes: big.length, content_type: 'text/csv' } });
    expect((await fetch(ticket.body.uploadUrl, { method: 'PUT', headers: ticket.body.uploadHeaders, body: big })).status).toBe(200);
    expect((await cloud.api('POST', `/v1/files/upload/${ticket.body.fileId}/complete`, { body: {} })).status).toBe(200);
    const created = await cloud.api('POST', '/v1/tables', { body: { name: 'big', document: { id: ticket.body.fileId, filename: 'big.csv', mime_type: 'text/csv' } } });
    expect(created.status, created.text).toBe(201);
    const table = created.body.tables[0];
    expect(table.row_count).toBe(400_000);
    const profile = await cloud.api('GET', `/v1/tables/${table.id}/profile`);
    expect(profile.body.columns.map((c: { distinct_count: number }) => c.distinct_count)).toEqual([400_000, 1000]);
    // Too big to answer inline: the download redirects to the stored CSV.
    const download = await cloud.api('GET', `/v1/tables/${table.id}/download`);
    expect(download.status).toBe(303);
    const fetched = Buffer.from(await (await fetch(download.headers.get('location')!)).arrayBuffer());
    expect(fetched.equals(big)).toBe(true);
  });

  it('answers 413 to an inline CSV over the 6 MB request ceiling, pointing at the file upload', async () => {
    const big = `k\n${'1234567\n'.repeat(900_000)}`;
    const r = await createForm(big);
    expect(r.status).toBe(413);
    expect(r.text).toContain('/v1/files/upload');
  });

  it('lets the file upload take CSVs up to 1 GB (other files stay at 500 MB)', async () => {
    const size = 600 * 1024 * 1024;
    expect((await cloud.api('POST', '/v1/files/upload', { body: { filename: 'big.csv', size_bytes: size } })).status).toBe(201);
    expect((await cloud.api('POST', '/v1/files/upload', { body: { filename: 'big.bin', size_bytes: size, content_type: 'text/csv' } })).status).toBe(201);
    const txt = await cloud.api('POST', '/v1/files/upload', { body: { filename: 'big.txt', size_bytes: size } });
    expect(txt.status).toBe(422);
    expect(txt.body.detail[0].loc).toEqual(['body', 'size_bytes']);
    expect((await cloud.api('POST', '/v1/files/upload', { body: { filename: 'huge.csv', size_bytes: 1024 * 1024 * 1024 + 1 } })).status).toBe(422);
  });

  it('refuses bad headers (naming the columns), non-UTF-8 text and non-CSV files with a 422, storing nothing', async () => {
    const fileIds = async () => (await cloud.api('GET', '/v1/files?limit=100')).body.data.map((f: { id: string }) => f.id).sort();
    const filesBefore = await fileIds();
    const dup = await createJson('id,name,id,,x\n1,2,3,4,5\n');
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0].msg).toContain('empty header name in column 4');
    expect(dup.body.detail[0].msg).toContain('duplicate header name "id"');
    expect(dup.body.detail[0].loc).toEqual(['body', 'document']);
    const formDup = await createForm('a,a\n1,2\n');
    expect(formDup.status).toBe(422);
    expect(formDup.body.detail[0].loc).toEqual(['body', 'file']);

    const latin1 = Buffer.concat([Buffer.from('name\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect((await createJson(latin1)).status).toBe(422);
    // Past the part the file sniffer looks at: the reader finds it.
    const late = Buffer.concat([Buffer.from(`name\n${'x\n'.repeat(200_000)}caf`), Buffer.from([0xe9]), Buffer.from('\n')]);
    const lateAnswer = await createJson(late);
    expect(lateAnswer.status).toBe(422);
    expect(lateAnswer.body.detail[0].msg).toContain('not valid UTF-8');

    const pdf = await cloud.api('POST', '/v1/tables', { body: { name: 'x', document: { filename: 'x.txt', url: dataUrl('text/markdown', '# title\n') } } });
    expect(pdf.status).toBe(422);
    const tables = (await cloud.api('GET', '/v1/tables')).body.tables.map((t: { name: string }) => t.name);
    expect(tables).not.toContain('x');
    // A refused upload stores no file either (API §0.2).
    expect(await fileIds()).toEqual(filesBefore);
  });

  it('keeps ragged rows and reports them (row_shape) on upload and in validation', async () => {
    const created = await createJson('a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n');
    expect(created.status, created.text).toBe(201);
    const table = created.body.tables[0];
    expect(table.row_count).toBe(4);
    expect(table.diagnostics).toEqual([expect.objectContaining({ rule: 'row_shape', severity: 'error', count: 2, rows: [2, 3] })]);
    const report = await cloud.api('POST', `/v1/tables/${table.id}/validate`, { body: {} });
    expect(report.body.has_errors).toBe(true);
    expect(report.body.diagnostics).toEqual([expect.objectContaining({ rule: 'row_shape', column: null, count: 2, rows: [2, 3] })]);
    // The missing field of the short row is a null.
    const profile = await cloud.api('GET', `/v1/tables/${table.id}/profile?select=c`);
    expect(profile.body.columns[0].null_count).toBe(1);
  });
});

describe('validate', () => {
  it('counts every rule exactly and lists the first 20 failing rows', async () => {
    const rows = generate(1200, 11);
    const id = (await createJson(toCsv(rows))).body.tables[0].id;
    const allowed = ['Ada', 'Grace', 'bob'];
    const report = await cloud.api('POST', `/v1/tables/${id}/validate`, {
      body: {
        required_columns: ['id', 'missing_col'],
        columns: {
          amount: { type: 'number', minimum: 0, maximum: 500 },
          name: { is_not_empty: true, enum: allowed, pattern: '^[A-Z]' },
          mixed: { type: 'integer' },
          day: { format: 'date' },
          when: { format: 'date-time' },
          ghost: { type: 'string' },
        },
        unique: [['id'], ['name', 'day']],
      },
    });
    expect(report.status, report.text).toBe(200);

    // The same figures, computed from the cells.
    const failing = (test: (r: Record<ColumnName, Cell>) => boolean) => {
      const numbers = rows.flatMap((r, i) => (test(r) ? [i + 1] : []));
      return { count: numbers.length, rows: numbers.slice(0, 20) };
    };
    const text = (c: Cell) => (c.kind === 'value' ? c.text : undefined);
    const duplicateKeys = (() => {
      const seen = new Set<string>();
      return failing((r) => {
        if (r.name.kind === 'null' || r.day.kind === 'null') return false;
        const key = JSON.stringify([(r.name as { text: string }).text, (r.day as { text: string }).text]);
        if (seen.has(key)) return true;
        seen.add(key);
        return false;
      });
    })();
    const expected = [
      { column: 'missing_col', rule: 'required_column', count: 1, rows: [] },
      { column: 'ghost', rule: 'type', count: 1, rows: [] },
      { column: 'amount', rule: 'minimum', ...failing((r) => text(r.amount) !== undefined && Number(text(r.amount)) < 0) },
      { column: 'amount', rule: 'maximum', ...failing((r) => text(r.amount) !== undefined && Number(text(r.amount)) > 500) },
      { column: 'name', rule: 'is_not_empty', ...failing((r) => r.name.kind !== 'value') },
      { column: 'name', rule: 'enum', ...failing((r) => text(r.name) !== undefined && !allowed.includes(text(r.name)!)) },
      { column: 'name', rule: 'pattern', ...failing((r) => text(r.name) !== undefined && !/^[A-Z]/u.test(text(r.name)!)) },
      { column: 'mixed', rule: 'type', ...failing((r) => !/^\d+$/.test(text(r.mixed)!)) },
      { column: null, rule: 'unique', ...duplicateKeys },
    ];
    for (const e of expected) expect(e.count, `${e.column} ${e.rule}`).toBeGreaterThan(0);
    expect(report.body.diagnostics.map((d: Record<string, unknown>) => ({ column: d.column, rule: d.rule, count: d.count, rows: d.rows }))).toEqual(expected);
    expect(report.body.diagnostics.every((d: { severity: string; message: string }) => d.severity === 'error' && d.message.length > 0)).toBe(true);
    expect(report.body.has_errors).toBe(true);
  });

  it('answers no diagnostics and has_errors false for rules the table keeps', async () => {
    const id = (await createJson(toCsv(ROWS))).body.tables[0].id;
    const report = await cloud.api('POST', `/v1/tables/${id}/validate`, {
      body: { required_columns: ['id', 'when'], columns: { id: { type: 'integer', is_not_empty: true, minimum: 1 }, day: { format: 'date' }, flag: { type: 'boolean' } }, unique: [['id'], ['id', 'when']] },
    });
    expect(report.body).toEqual({ table_id: id, diagnostics: [], has_errors: false });
  });

  it('refuses an invalid pattern or rule with a 422', async () => {
    const id = (await createJson('a\n1\n')).body.tables[0].id;
    const bad = await cloud.api('POST', `/v1/tables/${id}/validate`, { body: { columns: { a: { pattern: '([' } } } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'columns', 'a', 'pattern']);
    expect((await cloud.api('POST', `/v1/tables/${id}/validate`, { body: { columns: { a: { type: 'decimal' } } } })).status).toBe(422);
  });
});

describe('life cycle', () => {
  it('gets, lists by project, renames, replaces, downloads and deletes', async () => {
    const csv = 'k,v\n1,a\n2,b\n';
    const created = await createJson(csv, { project_id: 'proj_life' });
    const table = created.body.tables[0];
    expect(table).toMatchObject({ name: 'generated', filename: 'data.csv', project_id: 'proj_life', row_count: 2, metadata: {} });
    expect(table.id).toMatch(/^tbl_[0-9a-z]{26}$/);
    expect((await cloud.api('GET', `/v1/tables/${table.id}`)).body).toEqual({ table });

    const other = await createJson('x\n1\n');
    const inProject = (await cloud.api('GET', '/v1/tables?project_id=proj_life')).body.tables.map((t: { id: string }) => t.id);
    expect(inProject).toEqual([table.id]);
    const all = (await cloud.api('GET', '/v1/tables')).body.tables.map((t: { id: string }) => t.id);
    expect(all.indexOf(other.body.tables[0].id)).toBeLessThan(all.indexOf(table.id));

    const patched = await cloud.api('PATCH', `/v1/tables/${table.id}`, { body: { name: 'renamed', metadata: { owner: 'ops' } } });
    expect(patched.status).toBe(200);
    expect(patched.body.tables[0]).toMatchObject({ name: 'renamed', metadata: { owner: 'ops' }, row_count: 2 });

    const download = await cloud.api('GET', `/v1/tables/${table.id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(download.text).toBe(csv);

    const replaced = await createForm('k,v,w\n1,a,x\n2,b,y\n3,c,z\n', {}, 'PUT', `/v1/tables/${table.id}`);
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.tables[0]).toMatchObject({ id: table.id, row_count: 3, metadata: { owner: 'ops' }, created_at: table.created_at });
    expect(replaced.body.tables[0].source_file_id).not.toBe(table.source_file_id);
    expect((await cloud.api('GET', `/v1/tables/${table.id}/schema`)).body.columns.map((c: { name: string }) => c.name)).toEqual(['k', 'v', 'w']);
    expect((await cloud.api('GET', `/v1/tables/${table.id}/download`)).text).toBe('k,v,w\n1,a,x\n2,b,y\n3,c,z\n');

    expect((await cloud.api('DELETE', `/v1/tables/${table.id}`)).status).toBe(204);
    const gone = await cloud.api('GET', `/v1/tables/${table.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ detail: `Table ${table.id} not found` });
    expect((await cloud.api('GET', `/v1/tables/${table.id}/profile`)).status).toBe(404);
    expect((await cloud.api('DELETE', `/v1/tables/${table.id}`)).status).toBe(404);
  });

  it('serves a table too wide for its record (columns kept in the stored summary) whole', async () => {
    const width = 60;
    const header = Array.from({ length: width }, (_, c) => `column_${c}`);
    const rows = Array.from({ length: 6 }, (_, r) => header.map((_, c) => `${r}-${c}-${'x'.repeat(600)}`));
    const csv = [header, ...rows].map((r) => r.join(',')).join('\n') + '\n';
    const created = await createJson(csv);
    expect(created.status, created.text.slice(0, 300)).toBe(201);
    const table = created.body.tables[0];
    expect(JSON.stringify(table).length).toBeGreaterThan(100 * 1024);
    expect(table.columns).toHaveLength(width);
    expect((await cloud.api('GET', `/v1/tables/${table.id}`)).body.table).toEqual(table);
    expect((await cloud.api('GET', '/v1/tables')).body.tables.find((t: { id: string }) => t.id === table.id)).toEqual(table);
    const renamed = await cloud.api('PATCH', `/v1/tables/${table.id}`, { body: { name: 'wide' } });
    expect(renamed.body.tables[0]).toEqual({ ...table, name: 'wide', updated_at: renamed.body.tables[0].updated_at });
  });

  it('answers 409 to a replace that lost a race with another replace, keeping the winner whole', async () => {
    const table = (await createJson('k\n1\n')).body.tables[0];
    const real = platform();
    let raced = false;
    // Just before this replace writes, another replace of the same table lands.
    const store = new Proxy(real.store, {
      get(target, method) {
        if (method !== 'moveStatus' || raced) return Reflect.get(target, method);
        return async (...args: Parameters<typeof real.store.moveStatus>) => {
          raced = true;
          setPlatform(real);
          const winner = await createForm('k\n1\n2\n3\n', {}, 'PUT', `/v1/tables/${table.id}`);
          expect(winner.status).toBe(200);
          return target.moveStatus(...args);
        };
      },
    });
    setPlatform({ ...real, store });
    try {
      const loser = await createForm('k\n9\n', {}, 'PUT', `/v1/tables/${table.id}`);
      expect(loser.status, loser.text).toBe(409);
    } finally {
      setPlatform(real);
    }
    const now = await cloud.api('GET', `/v1/tables/${table.id}`);
    expect(now.body.table.row_count).toBe(3);
    expect((await cloud.api('GET', `/v1/tables/${table.id}/profile`)).body.row_count).toBe(3);
  });

  it('refuses a create without a name or document, naming the field', async () => {
    const r = await cloud.api('POST', '/v1/tables', { body: { document: { filename: 'a.csv', url: dataUrl('text/csv', 'a\n1\n') } } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'name']);
    const form = new FormData();
    form.set('name', 'no file');
    const f = await fetch(`${cloud.url}/v1/tables`, { method: 'POST', headers: { authorization: `Bearer ${cloud.keys.test}` }, body: form });
    expect(f.status).toBe(422);
    expect(((await f.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual(['body', 'file']);
  });
});
