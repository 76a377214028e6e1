/**
 * `POST /v1/tables/{table_id}/query` (API §10): a query body checked against the table's columns and
 * turned into SQL for the engine (./engine.ts). Pure: no I/O, no DuckDB.
 *
 * Safety: the SQL is written only from identifiers generated here (`c<i>` a column's text, `t<i>` its
 * typed value, `a<i>` an aggregation, `g<i>` a group, `pos` the row's position) and constants; every
 * value of the caller is a bound parameter (`$1…`). Column names are looked up in the table's columns
 * (an unknown one is a 422 naming it), never written into SQL.
 *
 * Types come from the table's column schemas (inferred, or the overrides given at upload):
 * `integer`/`number` compare as numbers, `boolean` as booleans, `format: date` as dates, `format:
 * date-time` as instants, anything else as text.
 */
import { isDateText, isDateTimeText, isNumberText } from './cells.ts';
import { Invalid, type ValidationIssue } from '../platform/errors.ts';
import type { Column, ColumnSchema } from './types.ts';
import { DEFAULT_QUERY_LIMIT, type AggregationFunction, type FilterOperator } from './query-terms.ts';

export { AGGREGATION_FUNCTIONS, DEFAULT_QUERY_LIMIT, FILTER_OPERATORS, MAX_QUERY_LIMIT, type AggregationFunction, type FilterOperator } from './query-terms.ts';

export type QueryType = 'integer' | 'number' | 'boolean' | 'date' | 'date-time' | 'string';

/** Values an `in` / `not_in` list holds at most. */
export const MAX_IN_VALUES = 1000;

/** The body as the operation's schema hands it over (./schema.ts QueryTableBody). */
export interface QueryRequest {
  filters?: Array<{ column: string; operator: FilterOperator; value?: unknown }> | null;
  search?: { query: string; columns?: string[] | null } | null;
  case_sensitive?: boolean | null;
  select?: string[] | null;
  distinct?: { column: string } | null;
  group_by?: string[] | null;
  aggregations?: Array<{ function: AggregationFunction; column?: string | null; alias?: string | null }> | null;
  sort?: Array<{ column: string; direction?: 'asc' | 'desc' | null }> | null;
  sample?: { size: number } | null;
  tail?: { size: number } | null;
  count_only?: boolean | null;
  include_explain?: boolean | null;
  sort_column?: string | null;
  sort_direction?: 'asc' | 'desc' | null;
  viewer_mode?: 'windowed' | null;
  offset?: number | null;
  limit?: number | null;
  cursor?: string | null;
}

/** A table column as the query sees it. */
export interface QueryColumn {
  index: number;
  name: string;
  type: QueryType;
  column: Column;
}

/** The query type of a column schema: its `type` (the first that is not "null"), and `format` for strings. */
export function queryTypeOf(schema: ColumnSchema): QueryType {
  const raw = schema.type;
  const type = Array.isArray(raw) ? raw.find((t) => t !== 'null') : raw;
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'string' && schema.format === 'date') return 'date';
  if (type === 'string' && schema.format === 'date-time') return 'date-time';
  return 'string';
}

export function queryColumnsOf(columns: readonly Column[]): QueryColumn[] {
  return columns.map((column, index) => ({ index, name: column.name, type: queryTypeOf(column.json_schema), column }));
}

const isNumeric = (type: QueryType) => type === 'integer' || type === 'number';
const hasTypedValue = (type: QueryType) => type !== 'string';

/** What a query's result is made of. */
export type QueryMode = 'rows' | 'distinct' | 'groups';

/**
 * One column of the result: its name on the wire, the SQL aliases of its text and of its typed value,
 * and which of the two `data` shows (typed for numbers, booleans and counts; the cell's text for
 * text, dates and date-times, as the CSV wrote them). A typed value missing (an empty cell, a value
 * an override's type does not fit) falls back to the text.
 */
export interface ResultColumn {
  name: string;
  text?: string;
  typed?: string;
  prefer: 'typed' | 'text';
  /** The Column object answered in `columns`. */
  column: Column;
}

/** The `data` value of a result column in a row read as `{alias: value}`. */
export function resultValue(r: ResultColumn, row: Record<string, unknown>): unknown {
  const t = r.typed !== undefined ? jsonValue(row[r.typed]) : null;
  const x = r.text !== undefined ? jsonValue(row[r.text]) : null;
  return r.prefer === 'typed' ? (t ?? x) : (x ?? t);
}

function jsonValue(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  return String(v);
}

/** A compiled query: SQL texts over `{snapshot}` with their parameters, and how to read their rows. */
export interface CompiledQuery {
  mode: QueryMode;
  /** The filtered row count: `SELECT count(*) … WHERE …`. */
  countSql: string;
  /** The result rows, `LIMIT $limit OFFSET $offset` appended by the caller through `pageSql`. */
  pageSql(offset: number, limit: number): string;
  /** The number of result rows (groups or distinct values); null when it is the filtered count (rows) or 1 (aggregations without groups). */
  resultCountSql: string | null;
  params: unknown[];
  /** The result's columns (a row's `data`), in order; rows carry `pos` too when mode is `rows`. */
  result: ResultColumn[];
  /** What `include_explain` echoes (normalised). */
  explain: {
    selected_columns: string[];
    filters: Array<{ column: string; operator: FilterOperator; value: unknown }>;
    search: { query: string; columns: string[] } | null;
    sort: Array<{ column: string; direction: 'asc' | 'desc' }>;
    distinct: { column: string } | null;
    group_by: string[];
    aggregations: Array<{ function: AggregationFunction; column: string | null; alias: string }>;
  };
  /** Page bounds asked for (before a cursor or `tail` moves them). */
  offset: number;
  limit: number;
  sample: number | null;
  tail: number | null;
  countOnly: boolean;
}

/** Collects 422 issues so one answer names every problem. */
class Problems {
  readonly issues: ValidationIssue[] = [];
  add(loc: (string | number)[], msg: string, input?: unknown): void {
    this.issues.push({ loc: ['body', ...loc], msg, type: 'value_error', ...(input !== undefined ? { input } : {}) });
  }
  throwIfAny(): void {
    if (this.issues.length > 0) throw new Invalid(this.issues);
  }
}

function listNames(names: readonly string[]): string {
  const shown = names.slice(0, 50).map((n) => JSON.stringify(n));
  return shown.join(', ') + (names.length > 50 ? `, … (${names.length} columns)` : '');
}

const TYPE_WORDS: Record<QueryType, string> = {
  integer: 'integers',
  number: 'numbers',
  boolean: 'booleans',
  date: 'dates (YYYY-MM-DD)',
  'date-time': 'date-times (RFC 3339)',
  string: 'text',
};

/**
 * The SQL compiler. Parameters are numbered in the order they are added, and only the WHERE clause
 * adds any: every SQL text of a query shares that clause, so they all take the same parameters.
 */
class Compiler {
  readonly params: unknown[] = [];
  readonly problems = new Problems();
  private readonly byName: Map<string, QueryColumn>;

  constructor(readonly columns: readonly QueryColumn[]) {
    this.byName = new Map(columns.map((c) => [c.name, c]));
  }

  param(value: unknown, cast?: string): string {
    this.params.push(value);
    return cast ? `CAST($${this.params.length} AS ${cast})` : `$${this.params.length}`;
  }

  column(name: unknown, loc: (string | number)[]): QueryColumn | undefined {
    const found = typeof name === 'string' ? this.byName.get(name) : undefined;
    if (!found) this.problems.add(loc, `Unknown column ${JSON.stringify(name)}; the table has ${listNames(this.columns.map((c) => c.name))}`, name);
    return found;
  }

  /** A caller's value as a parameter of the column's type (a 422 naming the column when it does not fit). */
  typedValue(column: QueryColumn, value: unknown, loc: (string | number)[]): string | undefined {
    const wrong = () => {
      this.problems.add(loc, `Column ${JSON.stringify(column.name)} holds ${TYPE_WORDS[column.type]}; ${JSON.stringify(value)} is not one`, value);
      return undefined;
    };
    if (value === null || value === undefined) {
      this.problems.add(loc, `A value is required (to find cells without a value use "is_null" or "is_empty")`, value);
      return undefined;
    }
    switch (column.type) {
      case 'integer':
      case 'number': {
        const n = typeof value === 'number' ? value : typeof value === 'string' && isNumberText(value.trim()) ? Number(value.trim()) : NaN;
        return Number.isFinite(n) ? this.param(n, 'DOUBLE') : wrong();
      }
      case 'boolean': {
        if (typeof value === 'boolean') return this.param(value, 'BOOLEAN');
        if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return this.param(value.trim().toLowerCase() === 'true', 'BOOLEAN');
        return wrong();
      }
      case 'date':
        return typeof value === 'string' && isDateText(value.trim()) ? this.param(value.trim(), 'DATE') : wrong();
      case 'date-time': {
        if (typeof value !== 'string') return wrong();
        const v = value.trim();
        if (isDateTimeText(v)) return this.param(v, 'TIMESTAMPTZ');
        if (isDateText(v)) return this.param(`${v}T00:00:00Z`, 'TIMESTAMPTZ');
        return wrong();
      }
      default:
        if (typeof value === 'string') return this.param(value, 'VARCHAR');
        if (typeof value === 'number' || typeof value === 'boolean') return this.param(String(value), 'VARCHAR');
        return wrong();
    }
  }

  /** A value for a text operator: any scalar, compared with the cell's text. */
  textValue(value: unknown, loc: (string | number)[], caseSensitive: boolean): string | undefined {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      this.problems.add(loc, 'A text value is required', value);
      return undefined;
    }
    const p = this.param(String(value), 'VARCHAR');
    return caseSensitive ? p : `lower(${p})`;
  }
}

/** The typed expression of a column (its `t<i>`, or its text for text columns). */
function typed(c: QueryColumn): string {
  return hasTypedValue(c.type) ? `t${c.index}` : `c${c.index}`;
}
const text = (c: QueryColumn) => `c${c.index}`;

/**
 * What groups and distinct values are told apart by: a typed column's value (`TRUE` and `true` are
 * one boolean, `1.0` and `1` one number, two spellings of an instant one date-time), or the text of
 * a cell its type does not fit; a text column's text.
 */
function groupKeys(c: QueryColumn): string[] {
  return hasTypedValue(c.type) ? [`t${c.index}`, `(CASE WHEN t${c.index} IS NULL THEN c${c.index} END)`] : [`c${c.index}`];
}
function distinctKey(c: QueryColumn): string {
  return hasTypedValue(c.type) ? `(CASE WHEN t${c.index} IS NULL THEN c${c.index} ELSE CAST(t${c.index} AS VARCHAR) END)` : `c${c.index}`;
}

const BLANK = `trim(c{i}, chr(32) || chr(9) || chr(10) || chr(13) || chr(11) || chr(12) || chr(160)) = ''`;
function isBlank(c: QueryColumn): string {
  return `(c${c.index} IS NOT NULL AND ${BLANK.replace('{i}', String(c.index))})`;
}

/** Whether `data` shows a column's typed value (numbers, booleans) or its text. */
function prefers(c: QueryColumn): 'typed' | 'text' {
  return isNumeric(c.type) || c.type === 'boolean' ? 'typed' : 'text';
}

/** The select items of a table column under `prefix<n>` aliases (`wrap` e.g. any_value). */
function columnItems(c: QueryColumn, alias: string, wrap = (sql: string) => sql): { items: string[]; result: ResultColumn } {
  const items = [`${wrap(text(c))} AS x${alias}`];
  const result: ResultColumn = { name: c.name, text: `x${alias}`, prefer: prefers(c), column: c.column };
  if (prefers(c) === 'typed') {
    items.push(`${wrap(`t${c.index}`)} AS y${alias}`);
    result.typed = `y${alias}`;
  }
  return { items, result };
}

function filterSql(k: Compiler, rule: { column: string; operator: FilterOperator; value?: unknown }, i: number, caseSensitive: boolean): string | undefined {
  const column = k.column(rule.column, ['filters', i, 'column']);
  if (!column) return undefined;
  const loc = ['filters', i, 'value'];
  const t = typed(column);
  const x = text(column);
  const textOf = caseSensitive ? x : `lower(${x})`;
  const negate = (sql: string) => `NOT coalesce(${sql}, false)`;
  switch (rule.operator) {
    case 'eq':
    case 'ne':
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const v = k.typedValue(column, rule.value, loc);
      if (!v) return undefined;
      const op = { eq: '=', ne: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' }[rule.operator];
      return rule.operator === 'ne' ? negate(`${t} = ${v}`) : `${t} ${op} ${v}`;
    }
    case 'in':
    case 'not_in': {
      if (!Array.isArray(rule.value) || rule.value.length === 0 || rule.value.length > MAX_IN_VALUES) {
        k.problems.add(loc, `"${rule.operator}" takes a list of 1 to ${MAX_IN_VALUES} values`, rule.value);
        return undefined;
      }
      const values = rule.value.map((v, j) => k.typedValue(column, v, [...loc, j]));
      if (values.some((v) => v === undefined)) return undefined;
      const sql = `${t} IN (${values.join(', ')})`;
      return rule.operator === 'not_in' ? negate(sql) : sql;
    }
    case 'between': {
      const pair = Array.isArray(rule.value) ? rule.value : undefined;
      if (!pair || pair.length !== 2) {
        k.problems.add(loc, '"between" takes a list of two values [low, high] (both included)', rule.value);
        return undefined;
      }
      const low = k.typedValue(column, pair[0], [...loc, 0]);
      const high = k.typedValue(column, pair[1], [...loc, 1]);
      return low && high ? `${t} BETWEEN ${low} AND ${high}` : undefined;
    }
    case 'contains':
    case 'not_contains': {
      const v = k.textValue(rule.value, loc, caseSensitive);
      if (!v) return undefined;
      const sql = `contains(${textOf}, ${v})`;
      return rule.operator === 'not_contains' ? negate(sql) : sql;
    }
    case 'starts_with': {
      const v = k.textValue(rule.value, loc, caseSensitive);
      return v ? `starts_with(${textOf}, ${v})` : undefined;
    }
    case 'ends_with': {
      const v = k.textValue(rule.value, loc, caseSensitive);
      return v ? `suffix(${textOf}, ${v})` : undefined;
    }
    case 'is_null':
      return `${x} IS NULL`;
    case 'is_not_null':
      return `${x} IS NOT NULL`;
    case 'is_empty':
      return `(${x} IS NULL OR ${isBlank(column)})`;
    case 'is_not_empty':
      return `(${x} IS NOT NULL AND NOT ${isBlank(column)})`;
  }
}

function syntheticColumn(name: string, schema: ColumnSchema): Column {
  return { name, json_schema: schema, sample_values: [], required: false, unique: false };
}

/**
 * Checks the body against the table's columns and compiles it. Throws Invalid (422) naming every bad
 * column, operator value, combination or alias.
 */
export function compileQuery(columns: readonly QueryColumn[], body: QueryRequest): CompiledQuery {
  const k = new Compiler(columns);
  const caseSensitive = body.case_sensitive === true;
  const filters = body.filters ?? [];
  const groupBy = body.group_by ?? [];
  const aggregations = body.aggregations ?? [];
  const grouped = groupBy.length > 0 || aggregations.length > 0;
  const distinct = body.distinct ?? null;
  const select = body.select ?? [];

  // Combinations that cannot mean one thing.
  if (distinct && grouped) k.problems.add(['distinct'], '"distinct" cannot be combined with "group_by" or "aggregations"');
  if (select.length > 0 && (grouped || distinct)) k.problems.add(['select'], '"select" names the columns of rows; with "distinct", "group_by" or "aggregations" the result has their columns');
  if (body.sample && body.tail) k.problems.add(['sample'], '"sample" cannot be combined with "tail"');
  if (body.sample && (grouped || distinct)) k.problems.add(['sample'], '"sample" draws rows of the table; it cannot be combined with "distinct", "group_by" or "aggregations"');
  if ((body.sample || body.tail) && (body.offset ?? 0) > 0) k.problems.add(['offset'], `"offset" cannot be combined with "${body.sample ? 'sample' : 'tail'}"`);
  if ((body.sample || body.tail) && body.cursor) k.problems.add(['cursor'], `"cursor" cannot be combined with "${body.sample ? 'sample' : 'tail'}"`);

  // WHERE: the filters, then the search.
  const where: string[] = [];
  filters.forEach((rule, i) => {
    const sql = filterSql(k, rule, i, caseSensitive);
    if (sql) where.push(sql);
  });
  let search: CompiledQuery['explain']['search'] = null;
  if (body.search && body.search.query !== '') {
    const names = body.search.columns && body.search.columns.length > 0 ? body.search.columns : columns.map((c) => c.name);
    const searched = names.map((name, i) => k.column(name, ['search', 'columns', i])).filter((c): c is QueryColumn => c !== undefined);
    const q = k.param(body.search.query, 'VARCHAR');
    const needle = caseSensitive ? q : `lower(${q})`;
    if (searched.length > 0) where.push(`(${searched.map((c) => `coalesce(contains(${caseSensitive ? text(c) : `lower(${text(c)})`}, ${needle}), false)`).join(' OR ')})`);
    search = { query: body.search.query, columns: names };
  }
  const whereSql = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';

  // Sort rules: `sort`, or the single `sort_column` / `sort_direction`.
  const sortRules = (body.sort ?? []).map((s) => ({ column: s.column, direction: s.direction ?? 'asc' }));
  if (sortRules.length === 0 && body.sort_column) sortRules.push({ column: body.sort_column, direction: body.sort_direction ?? 'asc' });
  const sortLoc = (i: number) => (body.sort && body.sort.length > 0 ? ['sort', i, 'column'] : ['sort_column']);

  let mode: QueryMode = 'rows';
  let result: ResultColumn[] = [];
  let items: string[] = [];
  const order: string[] = [];
  let fromSql = `{snapshot}${whereSql}`;
  let resultCountSql: string | null;
  const explainAggregations: CompiledQuery['explain']['aggregations'] = [];
  const sortExplain: CompiledQuery['explain']['sort'] = [];

  if (grouped) {
    mode = 'groups';
    const groups = groupBy.map((name, i) => k.column(name, ['group_by', i])).filter((c): c is QueryColumn => c !== undefined);
    const seen = new Set<string>();
    // Sort keys of the result's columns, by name.
    const sortKeys = new Map<string, string[]>();
    groups.forEach((c, i) => {
      if (seen.has(c.name)) k.problems.add(['group_by', i], `Column ${JSON.stringify(c.name)} is grouped by twice`, c.name);
      seen.add(c.name);
      const g = columnItems(c, `g${i}`, (sql) => `any_value(${sql})`);
      items.push(...g.items);
      result.push(g.result);
      sortKeys.set(c.name, hasTypedValue(c.type) ? [`any_value(t${c.index})`, `any_value(${text(c)})`] : [`any_value(${text(c)})`]);
    });
    aggregations.forEach((a, i) => {
      const loc = ['aggregations', i];
      let column: QueryColumn | undefined;
      if (a.column !== undefined && a.column !== null) {
        column = k.column(a.column, [...loc, 'column']);
        if (!column) return;
      } else if (a.function !== 'count') {
        k.problems.add([...loc, 'column'], `"${a.function}" needs a column`);
        return;
      }
      const alias = a.alias ?? (column ? `${a.function}_${column.name}` : 'count');
      if (seen.has(alias)) {
        k.problems.add([...loc, 'alias'], `The result already has a column named ${JSON.stringify(alias)}; give this aggregation another alias`, alias);
        return;
      }
      seen.add(alias);
      const name = `a${i}`;
      let r: ResultColumn;
      switch (a.function) {
        case 'count':
        case 'count_distinct':
          items.push(`${a.function === 'count' ? (column ? `count(${text(column)})` : 'count(*)') : `count(DISTINCT ${distinctKey(column!)})`} AS y${name}`);
          r = { name: alias, typed: `y${name}`, prefer: 'typed', column: syntheticColumn(alias, { type: 'integer' }) };
          sortKeys.set(alias, [`y${name}`]);
          break;
        case 'sum':
        case 'avg':
          if (!isNumeric(column!.type)) {
            k.problems.add([...loc, 'column'], `"${a.function}" needs a column of numbers; ${JSON.stringify(column!.name)} holds ${TYPE_WORDS[column!.type]}`, column!.name);
            return;
          }
          items.push(`${a.function}(t${column!.index}) AS y${name}`);
          r = { name: alias, typed: `y${name}`, prefer: 'typed', column: syntheticColumn(alias, a.function === 'sum' && column!.type === 'integer' ? { type: 'integer' } : { type: 'number' }) };
          sortKeys.set(alias, [`y${name}`]);
          break;
        case 'min':
        case 'max': {
          // Compared by the column's type; answered as the row holding it shows it.
          const c = column!;
          if (hasTypedValue(c.type)) {
            items.push(`arg_${a.function}(${text(c)}, t${c.index}) AS x${name}`, `${a.function}(t${c.index}) AS y${name}`);
            r = { name: alias, text: `x${name}`, typed: `y${name}`, prefer: prefers(c), column: syntheticColumn(alias, c.column.json_schema) };
            sortKeys.set(alias, [`y${name}`]);
          } else {
            items.push(`${a.function}(${text(c)}) AS x${name}`);
            r = { name: alias, text: `x${name}`, prefer: 'text', column: syntheticColumn(alias, c.column.json_schema) };
            sortKeys.set(alias, [`x${name}`]);
          }
          break;
        }
      }
      result.push(r);
      explainAggregations.push({ function: a.function, column: column?.name ?? null, alias });
    });
    if (groups.length > 0) fromSql = `{snapshot}${whereSql} GROUP BY ${groups.flatMap(groupKeys).join(', ')}`;
    sortRules.forEach((s, i) => {
      const keys = sortKeys.get(s.column);
      if (!keys) {
        k.problems.add(sortLoc(i), `Sort by a column of the result: ${listNames(result.map((r) => r.name))}`, s.column);
        return;
      }
      for (const key of keys) order.push(`${key} ${s.direction.toUpperCase()} NULLS LAST`);
      sortExplain.push(s);
    });
    // Then the groups in order, so pages are stable.
    for (const c of groups) for (const key of sortKeys.get(c.name)!) order.push(`${key} ASC NULLS LAST`);
    resultCountSql = groups.length > 0 ? `SELECT count(*) FROM (SELECT 1 FROM ${fromSql})` : null;
  } else if (distinct) {
    mode = 'distinct';
    const c = k.column(distinct.column, ['distinct', 'column']);
    if (c) {
      const g = columnItems(c, 'g0', (sql) => `any_value(${sql})`);
      items = g.items;
      result = [g.result];
      fromSql = `{snapshot}${whereSql} GROUP BY ${groupKeys(c).join(', ')}`;
      let direction: 'asc' | 'desc' = 'asc';
      sortRules.forEach((s, i) => {
        if (s.column !== c.name) k.problems.add(sortLoc(i), `A distinct query sorts by its column, ${JSON.stringify(c.name)}`, s.column);
        else direction = s.direction;
      });
      sortExplain.push({ column: c.name, direction });
      if (hasTypedValue(c.type)) order.push(`any_value(t${c.index}) ${direction.toUpperCase()} NULLS LAST`);
      order.push(`any_value(${text(c)}) ${direction.toUpperCase()} NULLS LAST`);
    }
    resultCountSql = `SELECT count(*) FROM (SELECT 1 FROM ${fromSql})`;
  } else {
    const selected = select.length > 0 ? select.map((name, i) => k.column(name, ['select', i])).filter((c): c is QueryColumn => c !== undefined) : [...columns];
    const unique = [...new Map(selected.map((c) => [c.name, c])).values()];
    items = ['pos'];
    for (const c of unique) {
      const one = columnItems(c, `c${c.index}`);
      items.push(...one.items);
      result.push(one.result);
    }
    if (body.sample) {
      // A fixed pseudo-random order of the rows: a sample of 5 is the start of a sample of 10.
      order.push('hash(pos)');
    } else {
      sortRules.forEach((s, i) => {
        const c = k.column(s.column, sortLoc(i));
        if (!c) return;
        order.push(`${typed(c)} ${s.direction.toUpperCase()} NULLS LAST`);
        if (hasTypedValue(c.type)) order.push(`${text(c)} ${s.direction.toUpperCase()} NULLS LAST`);
        sortExplain.push(s);
      });
    }
    order.push('pos ASC');
    resultCountSql = null;
  }
  k.problems.throwIfAny();

  const base = `SELECT ${items.length > 0 ? items.join(', ') : '1'} FROM ${fromSql}${order.length > 0 ? ` ORDER BY ${order.join(', ')}` : ''}`;
  return {
    mode,
    countSql: `SELECT count(*) FROM {snapshot}${whereSql}`,
    pageSql: (o, l) =>
      body.sample
        ? // A sample: the first rows of that order, answered in table order.
          `SELECT * FROM (${base} LIMIT ${Math.trunc(l)}) ORDER BY pos`
        : `${base} LIMIT ${Math.trunc(l)} OFFSET ${Math.trunc(o)}`,
    resultCountSql,
    params: k.params,
    result,
    explain: {
      selected_columns: result.map((r) => r.name),
      filters: filters.map((f) => ({ column: f.column, operator: f.operator, value: f.value ?? null })),
      search,
      sort: sortExplain,
      distinct: distinct ? { column: distinct.column } : null,
      group_by: groupBy,
      aggregations: explainAggregations,
    },
    offset: body.offset ?? 0,
    limit: body.limit ?? DEFAULT_QUERY_LIMIT,
    sample: body.sample?.size ?? null,
    tail: body.tail?.size ?? null,
    countOnly: body.count_only === true,
  };
}
