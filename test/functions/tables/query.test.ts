/**
 * POST /v1/tables/{table_id}/query over the real local cloud (API §10): every operator, search,
 * select, distinct, group_by and aggregations, sort, sample, tail, count_only, explain, pages and
 * cursors, bad input (422 naming the column, operator or value), isolation. The expected rows are
 * computed here from the generated cells, not by the engine.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey, revokeApiKey } from '../../../functions/auth/service.ts';
import { platform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';

// The query snapshots this test's handlers cache (inline handlers: this process's environment).
const CACHE_DIR = mkdtempSync(join(tmpdir(), 'quire-query-cache-'));
process.env.QUIRE_TABLES_CACHE_DIR = CACHE_DIR;

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(async () => {
  await cloud?.close();
  rmSync(CACHE_DIR, { recursive: true, force: true });
});

/** The keys of the stored objects of a table. */
async function objectsOf(id: string): Promise<string[]> {
  const e = cloud.endpoints;
  const s3 = new S3Client({ endpoint: e.s3, region: e.region, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, forcePathStyle: true });
  try {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: e.bucket }));
    return (page.Contents ?? []).map((o) => o.Key!).filter((k) => k.includes(`/tables/${id}/`));
  } finally {
    s3.destroy();
  }
}

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One generated row: what each cell is (null: no value; '' or '  ': empty; else its text). */
interface Row {
  id: number;
  name: string | null;
  amount: string | null;
  day: string | null;
  when: string;
  flag: string;
  city: string | null;
}

const NAMES = ['Ada', 'Grace', 'alan', 'Édith', 'Smith, John', 'Zoë', 'bob', 'O"Brien'];
const CITIES = ['Paris', 'paris', 'Lyon', 'Nice', 'Saint-Étienne'];

function generate(count: number, seed = 11): Row[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const r = rnd();
    return {
      id: i + 1,
      name: r < 0.05 ? null : r < 0.08 ? '' : r < 0.1 ? '  ' : pick(NAMES),
      amount: rnd() < 0.1 ? null : pick(['9', '10', '-3.5', '1e3', '0.25', '120', String(Math.floor(rnd() * 1000))]),
      day: rnd() < 0.05 ? null : new Date(Date.UTC(2020, 0, 1) + Math.floor(rnd() * 1500) * 86_400_000).toISOString().slice(0, 10),
      when: `${new Date(Date.UTC(2024, 0, 1) + Math.floor(rnd() * 1e6) * 60_000).toISOString().slice(0, 19)}${pick(['Z', '+02:00', '-05:00'])}`,
      flag: pick(['true', 'false', 'TRUE', 'False']),
      city: rnd() < 0.1 ? null : pick(CITIES),
    };
  });
}

const HEADER = ['id', 'name', 'amount', 'day', 'when', 'flag', 'city'] as const;
const NULL_SPELLINGS = ['', 'NA', 'null', 'N/A', 'NULL'];

function toCsv(rows: Row[]): string {
  const field = (v: string | null, i: number) => {
    if (v === null) return NULL_SPELLINGS[i % NULL_SPELLINGS.length]!;
    if (v === '' || v.trim() === '' || /[",\n]/.test(v)) return `"${v.replace(/"/g, '""')}"`;
    return v;
  };
  return [HEADER.join(','), ...rows.map((r, i) => HEADER.map((h) => field(h === 'id' ? String(r.id) : (r[h] as string | null), i)).join(','))].join('\n') + '\n';
}

const ROWS = generate(600);
let tableId: string;

async function query(body: unknown, id = tableId, key?: string) {
  return cloud.api('POST', `/v1/tables/${id}/query`, { body, ...(key ? { key } : {}) });
}

/** The ids of every row a query answers, following its cursors. */
async function allIds(body: Record<string, unknown>): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const r = await query({ ...body, limit: 250, ...(cursor ? { cursor } : {}) });
    expect(r.status, r.text).toBe(200);
    ids.push(...r.body.rows.map((row: { data: { id: number } }) => row.data.id));
    cursor = r.body.next_cursor;
    if (!cursor) return ids;
  }
  throw new Error('too many pages');
}

/** The typed data value the API answers for a cell. */
function num(v: string | null): number | null {
  return v === null || v.trim() === '' ? null : Number(v);
}

beforeAll(async () => {
  const created = await cloud.api('POST', '/v1/tables', { body: { name: 'query', document: { filename: 'q.csv', url: dataUrl('text/csv', toCsv(ROWS)) } } });
  expect(created.status, created.text).toBe(201);
  tableId = created.body.tables[0].id;
});

describe('rows', () => {
  it('answers the first page of rows in table order, typed by the column schemas', async () => {
    const r = await query({});
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ table_id: tableId, row_count: 600, filtered_row_count: 600, offset: 0, limit: 100, has_more: true, previous_cursor: null, explain: null });
    expect(r.body.columns.map((c: { name: string }) => c.name)).toEqual([...HEADER]);
    expect(r.body.rows).toHaveLength(100);
    const first = r.body.rows[0];
    const row = ROWS[0]!;
    expect(first).toEqual({
      id: 'row_0',
      position: 0,
      data: { id: 1, name: row.name, amount: num(row.amount), day: row.day, when: row.when, flag: row.flag.toLowerCase() === 'true', city: row.city },
    });
  });
});

const blank = (v: string | null) => v === null || v.trim() === '';
const idsWhere = (keep: (r: Row) => boolean) => ROWS.filter(keep).map((r) => r.id);
const time = (s: string) => Date.parse(s);

describe('filters: every operator, by the column types', () => {
  const cases: Array<[string, Record<string, unknown>, (r: Row) => boolean]> = [
    // numbers (amount: integers, decimals and an exponent; nulls)
    ['eq number', { column: 'amount', operator: 'eq', value: 1000 }, (r) => num(r.amount) === 1000],
    ['eq number given as text', { column: 'amount', operator: 'eq', value: '10' }, (r) => num(r.amount) === 10],
    ['ne number keeps nulls', { column: 'amount', operator: 'ne', value: 9 }, (r) => num(r.amount) !== 9],
    ['gt', { column: 'amount', operator: 'gt', value: 100 }, (r) => num(r.amount) !== null && num(r.amount)! > 100],
    ['gte', { column: 'amount', operator: 'gte', value: 120 }, (r) => num(r.amount) !== null && num(r.amount)! >= 120],
    ['lt', { column: 'amount', operator: 'lt', value: 0.25 }, (r) => num(r.amount) !== null && num(r.amount)! < 0.25],
    ['lte', { column: 'amount', operator: 'lte', value: 0.25 }, (r) => num(r.amount) !== null && num(r.amount)! <= 0.25],
    ['in numbers', { column: 'amount', operator: 'in', value: [9, 10, -3.5] }, (r) => [9, 10, -3.5].includes(num(r.amount)!)],
    ['not_in numbers keeps nulls', { column: 'amount', operator: 'not_in', value: [9, 10] }, (r) => ![9, 10].includes(num(r.amount)!)],
    ['between numbers, both ends', { column: 'amount', operator: 'between', value: [10, 120] }, (r) => num(r.amount) !== null && num(r.amount)! >= 10 && num(r.amount)! <= 120],
    ['id between', { column: 'id', operator: 'between', value: [590, 700] }, (r) => r.id >= 590],
    // dates
    ['date gte', { column: 'day', operator: 'gte', value: '2023-06-01' }, (r) => r.day !== null && r.day >= '2023-06-01'],
    ['date between', { column: 'day', operator: 'between', value: ['2021-01-01', '2021-12-31'] }, (r) => r.day !== null && r.day >= '2021-01-01' && r.day <= '2021-12-31'],
    // date-times compare as instants, whatever the offset they are written with
    ['date-time lt', { column: 'when', operator: 'lt', value: '2024-06-01T00:00:00+02:00' }, (r) => time(r.when) < time('2024-06-01T00:00:00+02:00')],
    ['date-time gt a date', { column: 'when', operator: 'gt', value: '2025-01-01' }, (r) => time(r.when) > time('2025-01-01T00:00:00Z')],
    // booleans, in any letter case in the CSV
    ['boolean eq', { column: 'flag', operator: 'eq', value: true }, (r) => r.flag.toLowerCase() === 'true'],
    ['boolean eq as text', { column: 'flag', operator: 'eq', value: 'FALSE' }, (r) => r.flag.toLowerCase() === 'false'],
    // text
    ['text eq is exact', { column: 'city', operator: 'eq', value: 'Paris' }, (r) => r.city === 'Paris'],
    ['text in', { column: 'city', operator: 'in', value: ['Lyon', 'Nice'] }, (r) => r.city === 'Lyon' || r.city === 'Nice'],
    ['text gt', { column: 'city', operator: 'gt', value: 'M' }, (r) => r.city !== null && r.city > 'M'],
    ['contains, any case', { column: 'city', operator: 'contains', value: 'PAR' }, (r) => r.city !== null && r.city.toLowerCase().includes('par')],
    ['not_contains keeps nulls', { column: 'city', operator: 'not_contains', value: 'par' }, (r) => r.city === null || !r.city.toLowerCase().includes('par')],
    ['starts_with', { column: 'name', operator: 'starts_with', value: 'a' }, (r) => r.name !== null && r.name.toLowerCase().startsWith('a')],
    ['ends_with on text with a comma', { column: 'name', operator: 'ends_with', value: ', john' }, (r) => r.name === 'Smith, John'],
    ['contains a quote', { column: 'name', operator: 'contains', value: 'o"b' }, (r) => r.name === 'O"Brien'],
    ['contains on a number column reads its text', { column: 'amount', operator: 'contains', value: 'e3' }, (r) => r.amount === '1e3'],
    // no value, empty values
    ['is_null', { column: 'name', operator: 'is_null' }, (r) => r.name === null],
    ['is_not_null', { column: 'name', operator: 'is_not_null' }, (r) => r.name !== null],
    ['is_empty: null or blank', { column: 'name', operator: 'is_empty' }, (r) => blank(r.name)],
    ['is_not_empty', { column: 'name', operator: 'is_not_empty' }, (r) => !blank(r.name)],
  ];
  for (const [label, filter, keep] of cases) {
    it(label, async () => {
      const expected = idsWhere(keep);
      expect(expected.length, `${label} matches some rows`).toBeGreaterThan(0);
      expect(await allIds({ filters: [filter] })).toEqual(expected);
    });
  }

  it('applies case_sensitive to the text operators, and ANDs filters', async () => {
    expect(await allIds({ filters: [{ column: 'city', operator: 'starts_with', value: 'p' }], case_sensitive: true })).toEqual(idsWhere((r) => r.city?.startsWith('p') === true));
    const both = [
      { column: 'amount', operator: 'gte', value: 0 },
      { column: 'flag', operator: 'eq', value: false },
      { column: 'day', operator: 'is_not_null' },
    ];
    expect(await allIds({ filters: both })).toEqual(idsWhere((r) => num(r.amount) !== null && num(r.amount)! >= 0 && r.flag.toLowerCase() === 'false' && r.day !== null));
  });

  it('searches every column, or the ones named, for text in any case', async () => {
    const r = await query({ search: { query: 'SMITH' }, limit: 1000 });
    expect(r.body.rows.map((x: { data: { id: number } }) => x.data.id)).toEqual(idsWhere((row) => Object.values(row).some((v) => typeof v === 'string' && v.toLowerCase().includes('smith'))));
    expect(r.body.filtered_row_count).toBe(r.body.rows.length);
    expect(await allIds({ search: { query: 'is', columns: ['city'] } })).toEqual(idsWhere((row) => row.city?.toLowerCase().includes('is') === true));
  });
});

describe('shape of the result', () => {
  it('selects columns in the order asked, and sorts by several columns (nulls last, ties by position)', async () => {
    const r = await query({ select: ['city', 'id'], sort: [{ column: 'city', direction: 'desc' }, { column: 'amount' }], limit: 1000 });
    expect(r.status, r.text).toBe(200);
    expect(r.body.columns.map((c: { name: string }) => c.name)).toEqual(['city', 'id']);
    expect(Object.keys(r.body.rows[0].data)).toEqual(['city', 'id']);
    const cmpNull = <T>(a: T | null, b: T | null, cmp: (x: T, y: T) => number) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : cmp(a, b));
    const expected = [...ROWS]
      .sort((a, b) => cmpNull(a.city, b.city, (x, y) => (x < y ? 1 : x > y ? -1 : 0)) || cmpNull(num(a.amount), num(b.amount), (x, y) => x - y) || a.id - b.id)
      .map((row) => row.id);
    expect(r.body.rows.map((x: { data: { id: number } }) => x.data.id)).toEqual(expected);
    // The position is the row's place in the CSV, whatever the order.
    for (const row of r.body.rows) expect(row.position).toBe(row.data.id - 1);
    const legacy = await query({ select: ['id'], sort_column: 'when', sort_direction: 'desc', limit: 5 });
    expect(legacy.body.rows.map((x: { data: { id: number } }) => x.data.id)).toEqual([...ROWS].sort((a, b) => time(b.when) - time(a.when) || a.id - b.id).slice(0, 5).map((x) => x.id));
  });

  it('answers the distinct values of a column, sorted by its type', async () => {
    const r = await query({ distinct: { column: 'amount' }, limit: 1000 });
    expect(r.status, r.text).toBe(200);
    const texts = [...new Set(ROWS.map((x) => x.amount))];
    const values = r.body.rows.map((x: { data: { amount: unknown } }) => x.data.amount);
    expect(values).toHaveLength(texts.length);
    expect(values.slice(0, -1)).toEqual([...values.slice(0, -1)].sort((a, b) => (a as number) - (b as number)));
    expect(values.at(-1)).toBeNull();
    expect(r.body.filtered_row_count).toBe(600);
    expect(r.body.rows[0]).toMatchObject({ id: 'value_0', position: 0 });
    const cities = await query({ distinct: { column: 'city' }, sort: [{ column: 'city', direction: 'desc' }] });
    expect(cities.body.rows.map((x: { data: { city: unknown } }) => x.data.city)).toEqual([...[...new Set(ROWS.map((x) => x.city).filter((c) => c !== null))].sort().reverse(), null]);
  });

  it('groups and aggregates: count, count_distinct, min, max, sum, avg', async () => {
    const r = await query({
      filters: [{ column: 'amount', operator: 'is_not_null' }],
      group_by: ['city'],
      aggregations: [
        { function: 'count' },
        { function: 'count_distinct', column: 'name', alias: 'names' },
        { function: 'min', column: 'amount' },
        { function: 'max', column: 'when' },
        { function: 'sum', column: 'amount', alias: 'total' },
        { function: 'avg', column: 'amount' },
      ],
      sort: [{ column: 'count', direction: 'desc' }],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.columns.map((c: { name: string }) => c.name)).toEqual(['city', 'count', 'names', 'min_amount', 'max_when', 'total', 'avg_amount']);
    const groups = new Map<string | null, Row[]>();
    for (const row of ROWS.filter((x) => x.amount !== null)) groups.set(row.city, [...(groups.get(row.city) ?? []), row]);
    const expected = [...groups.entries()].map(([city, rows]) => {
      const amounts = rows.map((x) => num(x.amount)!);
      const total = amounts.reduce((a, b) => a + b, 0);
      return {
        city,
        count: rows.length,
        names: new Set(rows.map((x) => x.name).filter((n) => n !== null)).size,
        min_amount: Math.min(...amounts),
        max_when: [...rows].sort((a, b) => time(b.when) - time(a.when))[0]!.when,
        total,
        avg_amount: total / rows.length,
      };
    });
    const got = r.body.rows.map((x: { data: Record<string, unknown> }) => x.data);
    expect(got.map((g: { count: number }) => g.count)).toEqual([...got.map((g: { count: number }) => g.count)].sort((a, b) => b - a));
    for (const e of expected) {
      const g = got.find((x: { city: string | null }) => x.city === e.city);
      expect(g).toMatchObject({ city: e.city, count: e.count, names: e.names, min_amount: e.min_amount, max_when: e.max_when });
      expect(g.total).toBeCloseTo(e.total, 6);
      expect(g.avg_amount).toBeCloseTo(e.avg_amount, 6);
    }
    const all = await query({ aggregations: [{ function: 'count' }, { function: 'max', column: 'day' }] });
    expect(all.body.rows).toEqual([{ id: 'group_0', position: 0, data: { count: 600, max_day: ROWS.map((x) => x.day).filter((d) => d !== null).sort().at(-1) } }]);
    const only = await query({ group_by: ['flag'] });
    expect(only.body.rows.map((x: { data: { flag: boolean } }) => x.data.flag)).toEqual([false, true]);
  });

  it('samples, tails, counts only and explains', async () => {
    const sample = await query({ sample: { size: 20 }, filters: [{ column: 'flag', operator: 'eq', value: true }] });
    expect(sample.status, sample.text).toBe(200);
    const ids = sample.body.rows.map((x: { data: { id: number } }) => x.data.id);
    expect(ids).toHaveLength(20);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    for (const id of ids) expect(ROWS[id - 1]!.flag.toLowerCase()).toBe('true');
    expect(sample.body).toMatchObject({ has_more: false, next_cursor: null });
    const again = await query({ sample: { size: 20 }, filters: [{ column: 'flag', operator: 'eq', value: true }] });
    expect(again.body.rows).toEqual(sample.body.rows);

    const tail = await query({ tail: { size: 3 }, select: ['id'] });
    expect(tail.body.rows.map((x: { data: { id: number } }) => x.data.id)).toEqual([598, 599, 600]);
    expect(tail.body).toMatchObject({ offset: 597, limit: 3, has_more: false });
    const groupTail = await query({ distinct: { column: 'city' }, tail: { size: 1 } });
    expect(groupTail.body.rows.map((x: { data: { city: unknown } }) => x.data.city)).toEqual([null]);

    const counted = await query({ count_only: true, filters: [{ column: 'name', operator: 'is_empty' }] });
    expect(counted.body).toMatchObject({ rows: [], filtered_row_count: idsWhere((r) => blank(r.name)).length, row_count: 600, has_more: false, next_cursor: null });

    const explained = await query({ include_explain: true, filters: [{ column: 'id', operator: 'lt', value: 3 }], sort: [{ column: 'id', direction: 'desc' }], select: ['id'], limit: 1 });
    expect(explained.body.explain).toEqual({
      table_id: tableId,
      snapshot_file_id: expect.stringMatching(/^file_/),
      selected_columns: ['id'],
      filters: [{ column: 'id', operator: 'lt', value: 3 }],
      search: null,
      sort: [{ column: 'id', direction: 'desc' }],
      offset: 0,
      limit: 1,
      distinct: null,
      group_by: [],
      aggregations: [],
    });
  });
});

describe('pages and cursors', () => {
  it('pages with offset and limit, and with next_cursor / previous_cursor', async () => {
    const filters = [{ column: 'amount', operator: 'is_not_null' }];
    const expected = idsWhere((r) => r.amount !== null);
    const first = await query({ filters, select: ['id'], limit: 200 });
    expect(first.body).toMatchObject({ offset: 0, limit: 200, has_more: true, filtered_row_count: expected.length, previous_cursor: null });
    const second = await query({ filters, select: ['id'], cursor: first.body.next_cursor });
    expect(second.body).toMatchObject({ offset: 200, limit: 200 });
    expect(second.body.rows.map((x: { data: { id: number } }) => x.data.id)).toEqual(expected.slice(200, 400));
    const back = await query({ filters, select: ['id'], cursor: second.body.previous_cursor });
    expect(back.body.rows).toEqual(first.body.rows);
    const byOffset = await query({ filters, select: ['id'], offset: 200, limit: 200 });
    expect(byOffset.body.rows).toEqual(second.body.rows);
    const last = await query({ filters, select: ['id'], offset: expected.length - 1, limit: 10 });
    expect(last.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(last.body.rows).toHaveLength(1);
    const past = await query({ filters, offset: 100_000 });
    expect(past.body).toMatchObject({ rows: [], has_more: false });
  });

  it('refuses a cursor of another query (422) or a malformed one (422), and one older than the CSV (409)', async () => {
    const csv = 'k,v\n1,a\n2,b\n3,c\n';
    const table = (await cloud.api('POST', '/v1/tables', { body: { name: 'paged', document: { filename: 'p.csv', url: dataUrl('text/csv', csv) } } })).body.tables[0];
    const first = await query({ limit: 1 }, table.id);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const other = await query({ limit: 1, cursor: first.body.next_cursor, filters: [{ column: 'k', operator: 'gt', value: 0 }] }, table.id);
    expect(other.status).toBe(422);
    expect(other.body.detail[0].loc).toEqual(['body', 'cursor']);
    const malformed = await query({ cursor: 'not-a-cursor' }, table.id);
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(['body', 'cursor']);
    const form = new FormData();
    form.set('name', 'paged');
    form.set('file', new Blob(['k,v\n9,z\n8,y\n'], { type: 'text/csv' }), 'p.csv');
    const replaced = await fetch(`${cloud.url}/v1/tables/${table.id}`, { method: 'PUT', headers: { authorization: `Bearer ${cloud.keys.test}` }, body: form });
    expect(replaced.status).toBe(200);
    const stale = await query({ limit: 1, cursor: first.body.next_cursor }, table.id);
    expect(stale.status).toBe(409);
    // The new CSV is what a query reads now.
    expect((await query({}, table.id)).body.rows.map((x: { data: { k: number } }) => x.data.k)).toEqual([9, 8]);
  });
});

describe('bad input', () => {
  const bad = async (body: unknown) => {
    const r = await query(body);
    expect(r.status, r.text).toBe(422);
    return r.body.detail as Array<{ loc: unknown[]; msg: string }>;
  };

  it('names an unknown column wherever it is used', async () => {
    expect((await bad({ filters: [{ column: 'nope', operator: 'eq', value: 1 }] }))[0]).toMatchObject({ loc: ['body', 'filters', 0, 'column'], msg: expect.stringContaining('"nope"') });
    expect((await bad({ select: ['id', 'ghost'] }))[0]!.loc).toEqual(['body', 'select', 1]);
    expect((await bad({ sort: [{ column: 'ghost' }] }))[0]!.loc).toEqual(['body', 'sort', 0, 'column']);
    expect((await bad({ sort_column: 'ghost' }))[0]!.loc).toEqual(['body', 'sort_column']);
    expect((await bad({ group_by: ['ghost'] }))[0]!.loc).toEqual(['body', 'group_by', 0]);
    expect((await bad({ distinct: { column: 'ghost' } }))[0]!.loc).toEqual(['body', 'distinct', 'column']);
    expect((await bad({ search: { query: 'a', columns: ['ghost'] } }))[0]!.loc).toEqual(['body', 'search', 'columns', 0]);
    expect((await bad({ aggregations: [{ function: 'max', column: 'ghost' }] }))[0]!.loc).toEqual(['body', 'aggregations', 0, 'column']);
    // Every problem at once.
    expect(await bad({ filters: [{ column: 'a1', operator: 'eq', value: 1 }, { column: 'a2', operator: 'eq', value: 1 }] })).toHaveLength(2);
  });

  it('names a wrong operator, a missing or mistyped value, and an aggregation that needs numbers', async () => {
    expect((await bad({ filters: [{ column: 'id', operator: 'like', value: 1 }] }))[0]!.loc).toEqual(['body', 'filters', 0, 'operator']);
    expect((await bad({ filters: [{ column: 'amount', operator: 'gt', value: 'lots' }] }))[0]).toMatchObject({ loc: ['body', 'filters', 0, 'value'], msg: expect.stringContaining('"amount" holds numbers') });
    expect((await bad({ filters: [{ column: 'day', operator: 'lt', value: '01/02/2023' }] }))[0]!.msg).toContain('dates');
    expect((await bad({ filters: [{ column: 'flag', operator: 'eq', value: 'yes' }] }))[0]!.msg).toContain('booleans');
    expect((await bad({ filters: [{ column: 'when', operator: 'gt', value: 5 }] }))[0]!.msg).toContain('date-times');
    expect((await bad({ filters: [{ column: 'city', operator: 'eq' }] }))[0]!.msg).toContain('is_null');
    expect((await bad({ filters: [{ column: 'city', operator: 'in', value: 'Paris' }] }))[0]!.loc).toEqual(['body', 'filters', 0, 'value']);
    expect((await bad({ filters: [{ column: 'amount', operator: 'between', value: [1] }] }))[0]!.msg).toContain('two values');
    expect((await bad({ filters: [{ column: 'amount', operator: 'in', value: [1, 'x'] }] }))[0]!.loc).toEqual(['body', 'filters', 0, 'value', 1]);
    expect((await bad({ aggregations: [{ function: 'sum', column: 'city' }] }))[0]!.msg).toContain('numbers');
    expect((await bad({ aggregations: [{ function: 'avg' }] }))[0]!.loc).toEqual(['body', 'aggregations', 0, 'column']);
    expect((await bad({ aggregations: [{ function: 'median', column: 'id' }] }))[0]!.loc).toEqual(['body', 'aggregations', 0, 'function']);
    expect((await bad({ group_by: ['city'], aggregations: [{ function: 'count', alias: 'city' }] }))[0]!.loc).toEqual(['body', 'aggregations', 0, 'alias']);
  });

  it('refuses a huge or negative page, and combinations that mean nothing', async () => {
    expect((await bad({ limit: 1_000_000 }))[0]!.loc).toEqual(['body', 'limit']);
    expect((await bad({ limit: 0 }))[0]!.loc).toEqual(['body', 'limit']);
    expect((await bad({ offset: -1 }))[0]!.loc).toEqual(['body', 'offset']);
    expect((await bad({ sample: { size: 5000 } }))[0]!.loc).toEqual(['body', 'sample', 'size']);
    expect((await bad({ distinct: { column: 'id' }, group_by: ['city'] }))[0]!.loc).toEqual(['body', 'distinct']);
    expect((await bad({ select: ['id'], aggregations: [{ function: 'count' }] }))[0]!.loc).toEqual(['body', 'select']);
    expect((await bad({ sample: { size: 3 }, tail: { size: 3 } }))[0]!.loc).toEqual(['body', 'sample']);
    expect((await bad({ tail: { size: 3 }, offset: 5 }))[0]!.loc).toEqual(['body', 'offset']);
    expect((await bad({ group_by: ['city'], aggregations: [{ function: 'count' }], sort: [{ column: 'amount' }] }))[0]!.loc).toEqual(['body', 'sort', 0, 'column']);
    expect((await query('not json at all' as unknown)).status).toBe(422);
  });
});

describe('isolation', () => {
  it("answers 404 for a table of the other environment or organization, and for an unknown id", async () => {
    for (const key of [cloud.keys.live, cloud.keys.otherOrgTest, cloud.keys.otherOrgLive]) {
      const r = await query({}, tableId, key);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ detail: `Table ${tableId} not found` });
    }
    expect((await query({}, 'tbl_00000000000000000000000000')).status).toBe(404);
  });
});

describe('the key of a query', () => {
  it('is read once when the container knows it (after the work, as a GET reads it), and a key revoked since answers 401', async () => {
    const { key, item } = await createApiKey(platform(), { orgId: cloud.orgId, environment: 'test', name: 'query reader', role: 'admin' });
    expect((await query({ count_only: true }, tableId, key)).status).toBe(200);
    const getItem = vi.spyOn(platform().store, 'getItem');
    try {
      expect((await query({ count_only: true }, tableId, key)).status).toBe(200);
      expect(getItem.mock.calls.filter(([k]) => String(k).startsWith('apikey#'))).toHaveLength(1);
    } finally {
      getItem.mockRestore();
    }
    await revokeApiKey(platform(), cloud.orgId, item.id);
    const r = await query({ count_only: true }, tableId, key);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ detail: 'API key revoked' });
  });
});

describe('reading the CSV as the table reader does', () => {
  it('keeps null tokens, empties, ragged rows, embedded newlines, a BOM, CRLF and semicolons', async () => {
    const csv = '\uFEFFk;text;n\r\n1;"a;b";5\r\n2;"NA";\r\n3;"";7\r\n4;"two\r\nlines"\r\n5;x;8;extra\r\n6;  ;N/A\r\n';
    const created = await cloud.api('POST', '/v1/tables', { body: { name: 'tricky', document: { filename: 't.csv', url: dataUrl('text/csv', csv) } } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.tables[0].id;
    const r = await query({}, id);
    expect(r.status, r.text).toBe(200);
    expect(r.body.rows.map((x: { data: unknown }) => x.data)).toEqual([
      { k: 1, text: 'a;b', n: 5 },
      { k: 2, text: null, n: null },
      { k: 3, text: '', n: 7 },
      { k: 4, text: 'two\r\nlines', n: null },
      { k: 5, text: 'x', n: 8 },
      { k: 6, text: '  ', n: null },
    ]);
    const empty = await query({ filters: [{ column: 'text', operator: 'is_empty' }], select: ['k'] }, id);
    expect(empty.body.rows.map((x: { data: { k: number } }) => x.data.k)).toEqual([2, 3, 6]);
  });

  it('reads quotes in odd places as the table reader does', async () => {
    const tail = Array.from({ length: 20 }, (_, i) => `${i + 4},"quoted"then text`).join('\n');
    const csv = `k,v\n1,say "hi" there\n2,5"\n3,"x"  \n${tail}\n`;
    const created = await cloud.api('POST', '/v1/tables', { body: { name: 'quotes', document: { filename: 'q.csv', url: dataUrl('text/csv', csv) } } });
    expect(created.status, created.text).toBe(201);
    const table = created.body.tables[0];
    const r = await query({}, table.id);
    expect(r.status, r.text).toBe(200);
    expect(r.body.rows).toHaveLength(table.row_count);
    expect(r.body.rows.at(-1).data).toEqual({ k: 23, v: 'quotedthen text' });
    expect(r.body.rows.slice(0, 5).map((x: { data: unknown }) => x.data)).toEqual(table.sample_rows.map((s: Record<string, string | null>) => ({ ...s, k: Number(s.k) })));
  });

  it('compares by the type an override gives', async () => {
    const csv = 'code,qty\n10,1\n9,2\n100,3\n';
    const created = await cloud.api('POST', '/v1/tables', { body: { name: 'typed', document: { filename: 'o.csv', url: dataUrl('text/csv', csv) }, column_schema_overrides: { code: { type: 'string' } } } });
    const id = created.body.tables[0].id;
    // As text, "9" sorts after "100"; the data stays text.
    const r = await query({ sort: [{ column: 'code' }], filters: [{ column: 'code', operator: 'gt', value: '1' }] }, id);
    expect(r.body.rows.map((x: { data: { code: string } }) => x.data.code)).toEqual(['10', '100', '9']);
  });
});

describe('the query snapshot', () => {
  it('is made once, kept in S3 beside the summary, read back from S3 by a process without it, and deleted with the table', async () => {
    const created = await cloud.api('POST', '/v1/tables', { body: { name: 'snap', document: { filename: 's.csv', url: dataUrl('text/csv', 'k,v\n1,a\n2,b\n') } } });
    const id = created.body.tables[0].id;
    expect((await objectsOf(id)).filter((k) => k.endsWith('.parquet'))).toEqual([]);
    const first = await query({}, id);
    expect(first.status, first.text).toBe(200);
    const parquet = (await objectsOf(id)).filter((k) => k.endsWith('.parquet'));
    expect(parquet).toHaveLength(1);
    // Another container: nothing cached locally, the snapshot comes from S3.
    for (const f of readdirSync(CACHE_DIR)) if (f.endsWith('.parquet')) rmSync(join(CACHE_DIR, f));
    const again = await query({}, id);
    expect(again.body.rows).toEqual(first.body.rows);
    expect(readdirSync(CACHE_DIR).filter((f) => f.endsWith('.parquet')).length).toBeGreaterThan(0);
    // A new CSV: a new snapshot, the old one gone.
    const form = new FormData();
    form.set('name', 'snap');
    form.set('file', new Blob(['k,v\n3,c\n'], { type: 'text/csv' }), 's.csv');
    expect((await fetch(`${cloud.url}/v1/tables/${id}`, { method: 'PUT', headers: { authorization: `Bearer ${cloud.keys.test}` }, body: form })).status).toBe(200);
    expect((await query({}, id)).body.rows.map((x: { data: { k: number } }) => x.data.k)).toEqual([3]);
    const after = (await objectsOf(id)).filter((k) => k.endsWith('.parquet'));
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(parquet[0]);
    expect((await cloud.api('DELETE', `/v1/tables/${id}`)).status).toBe(204);
    expect(await objectsOf(id)).toEqual([]);
  });
});
