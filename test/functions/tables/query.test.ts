/**
 * POST /v1/tables/{table_id}/query over the real local cloud (API §10): every operator, search,
 * select, distinct, group_by and aggregations, sort, sample, tail, count_only, explain, pages and
 * cursors, bad input (422 naming the column, operator or value), isolation. The expected rows are
 * computed here from the generated cells, not by the engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

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
