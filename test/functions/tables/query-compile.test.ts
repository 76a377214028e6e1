/**
 * The query compiler (functions/tables/query.ts) writes SQL from identifiers it generates: no column
 * name, alias or value of a caller ever reaches SQL text, whatever it holds; values are parameters.
 */
import { describe, expect, it } from 'vitest';
import { compileQuery, queryColumnsOf, type QueryRequest } from '../../../functions/tables/query.ts';
import type { Column } from '../../../functions/tables/types.ts';

const EVIL = [`x'); DROP TABLE t; --`, 'a"b', '$1', '{snapshot}', "read_csv('/etc/passwd')", 'c0'];

function column(name: string, schema: Record<string, unknown>): Column {
  return { name, json_schema: schema, sample_values: [], required: false, unique: false };
}

const columns = queryColumnsOf([
  column(EVIL[0]!, { type: 'string' }),
  column(EVIL[1]!, { type: 'integer' }),
  column(EVIL[3]!, { type: 'string', format: 'date-time' }),
  column(EVIL[4]!, { type: 'boolean' }),
]);

describe('compileQuery', () => {
  it('keeps every name and value of the caller out of the SQL text', () => {
    const bodies: QueryRequest[] = [
      {
        filters: [
          { column: EVIL[0]!, operator: 'contains', value: EVIL[2] },
          { column: EVIL[0]!, operator: 'in', value: EVIL },
          { column: EVIL[1]!, operator: 'between', value: [1, '2'] },
          { column: EVIL[3]!, operator: 'gt', value: '2024-01-01T00:00:00Z' },
          { column: EVIL[4]!, operator: 'ne', value: true },
        ],
        search: { query: EVIL[4]!, columns: [EVIL[0]!] },
        select: [EVIL[0]!, EVIL[1]!],
        sort: [{ column: EVIL[3]!, direction: 'desc' }],
      },
      { group_by: [EVIL[0]!], aggregations: [{ function: 'sum', column: EVIL[1]!, alias: EVIL[5] }, { function: 'max', column: EVIL[3]!, alias: EVIL[2] }], sort: [{ column: EVIL[5]! }] },
      { distinct: { column: EVIL[4]! }, filters: [{ column: EVIL[0]!, operator: 'starts_with', value: EVIL[0] }] },
    ];
    for (const body of bodies) {
      const q = compileQuery(columns, body);
      const texts = [q.countSql, q.pageSql(10, 20), q.resultCountSql ?? ''];
      for (const sql of texts) {
        for (const evil of [EVIL[0]!, EVIL[1]!, EVIL[4]!]) expect(sql).not.toContain(evil);
        expect(sql).not.toContain('passwd');
        // Only the placeholder the engine fills, once, in FROM.
        expect(sql.split('{snapshot}').length - 1).toBeLessThanOrEqual(1);
      }
    }
    // Every value went in as a parameter.
    const first = compileQuery(columns, bodies[0]!);
    expect(first.params).toEqual(expect.arrayContaining([EVIL[2], ...EVIL, 1, 2, EVIL[4]]));
  });

  it('maps results back to the names the caller used, aliases included', () => {
    const q = compileQuery(columns, { group_by: [EVIL[0]!], aggregations: [{ function: 'count', alias: EVIL[2] }] });
    expect(q.result.map((r) => r.name)).toEqual([EVIL[0], EVIL[2]]);
    expect(q.explain.aggregations).toEqual([{ function: 'count', column: null, alias: EVIL[2] }]);
  });
});
