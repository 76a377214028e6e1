/**
 * The validator (API §10 `POST /v1/tables/{id}/validate`): fed every record of a CSV once, it counts
 * the rows failing each rule and keeps the first DIAGNOSTIC_ROWS of them. Rules on values (type,
 * format, enum, pattern, minimum, maximum) look at values only: nulls and empties are the business of
 * `is_not_empty`. Unique keys keep one 64-bit hash per distinct key (no limit: the answer is exact).
 */
import {
  CellKind,
  cellKind,
  isBooleanText,
  isDateText,
  isDateTimeText,
  isEmailText,
  isIntegerText,
  isNumberText,
  isUriText,
  type RawCell,
} from './cells.ts';
import { combineHash, hashString, HashSet64, lastHash } from './hyperloglog.ts';
import { rowShapeDiagnostic } from './profile.ts';
import { DIAGNOSTIC_ROWS, type Diagnostic } from './types.ts';

export type ValueType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';
export type ValueFormat = 'date' | 'date-time' | 'email' | 'uri';

export interface ColumnRules {
  type?: ValueType | undefined;
  format?: ValueFormat | undefined;
  is_not_empty?: boolean | undefined;
  enum?: string[] | undefined;
  pattern?: string | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
}

export interface ValidationRules {
  required_columns?: string[] | undefined;
  columns?: Record<string, ColumnRules> | undefined;
  unique?: string[][] | undefined;
}

/** Counts and the first failing rows of one rule on one column. */
class Tally {
  count = 0;
  readonly rows: number[] = [];
  constructor(
    readonly column: string | null,
    readonly rule: string,
    readonly describe: (count: number) => string,
  ) {}
  fail(row: number): void {
    this.count++;
    if (this.rows.length < DIAGNOSTIC_ROWS) this.rows.push(row);
  }
  diagnostic(): Diagnostic {
    return { severity: 'error', column: this.column, rule: this.rule, message: this.describe(this.count), count: this.count, rows: this.rows };
  }
}

const rowsAre = (n: number) => (n === 1 ? '1 row is' : `${n} rows are`);

function isJsonOf(text: string, kind: 'array' | 'object'): boolean {
  const first = text.trimStart()[0];
  if (first !== (kind === 'array' ? '[' : '{')) return false;
  try {
    const value: unknown = JSON.parse(text);
    return kind === 'array' ? Array.isArray(value) : value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

function typeCheck(type: ValueType): ((v: string) => boolean) | undefined {
  switch (type) {
    case 'string':
      return undefined;
    case 'integer':
      return isIntegerText;
    case 'number':
      return isNumberText;
    case 'boolean':
      return isBooleanText;
    case 'null':
      return () => false;
    case 'array':
      return (v) => isJsonOf(v, 'array');
    case 'object':
      return (v) => isJsonOf(v, 'object');
  }
}

const FORMAT_CHECKS: Record<ValueFormat, (v: string) => boolean> = {
  date: isDateText,
  'date-time': isDateTimeText,
  email: isEmailText,
  uri: isUriText,
};

/** One check on the values of one column. */
interface ValueCheck {
  index: number;
  tally: Tally;
  /** Applies to values only (false), or to every cell (true: is_not_empty). */
  allCells: boolean;
  passes: (value: string, kind: CellKind) => boolean;
}

interface UniqueKey {
  indexes: number[];
  seen: HashSet64;
  tally: Tally;
}

export class TableValidator {
  private readonly upfront: Diagnostic[] = [];
  private checks: ValueCheck[] = [];
  private keys: UniqueKey[] = [];
  private width = 0;
  private raggedCount = 0;
  private readonly raggedRows: number[] = [];

  /** `rules` must have been checked already (patterns compile). */
  constructor(private readonly rules: ValidationRules) {}

  header(names: string[]): void {
    this.width = names.length;
    const indexOf = new Map(names.map((n, i) => [n, i]));
    const absent = (column: string, rule: string, what: string) =>
      this.upfront.push({ severity: 'error', column, rule, message: `Column "${column}" ${what}, but the table has no such column`, count: 1, rows: [] });

    for (const column of this.rules.required_columns ?? []) {
      if (!indexOf.has(column)) absent(column, 'required_column', 'is required');
    }
    for (const [column, rules] of Object.entries(this.rules.columns ?? {})) {
      const index = indexOf.get(column);
      const named = Object.entries(rules).filter(([, v]) => v !== undefined && v !== false).map(([k]) => k);
      if (index === undefined) {
        if (named.length > 0) absent(column, named[0]!, `has rules (${named.join(', ')})`);
        continue;
      }
      this.addColumnChecks(column, index, rules);
    }
    for (const key of this.rules.unique ?? []) {
      const missing = key.filter((c) => !indexOf.has(c));
      const label = key.length === 1 ? key[0]! : null;
      const keyText = key.map((c) => `"${c}"`).join(', ');
      if (missing.length > 0) {
        this.upfront.push({
          severity: 'error',
          column: label,
          rule: 'unique',
          message: `Unique key (${keyText}) names ${missing.map((c) => `"${c}"`).join(', ')}, which the table does not have`,
          count: 1,
          rows: [],
        });
        continue;
      }
      this.keys.push({
        indexes: key.map((c) => indexOf.get(c)!),
        seen: new HashSet64(),
        tally: new Tally(label, 'unique', (n) => `${n === 1 ? '1 row repeats' : `${n} rows repeat`} the (${keyText}) key of an earlier row`),
      });
    }
  }

  private addColumnChecks(column: string, index: number, rules: ColumnRules): void {
    const add = (rule: string, describe: (n: number) => string, passes: ValueCheck['passes'], allCells = false) =>
      this.checks.push({ index, tally: new Tally(column, rule, (n) => `Column "${column}": ${describe(n)}`), allCells, passes });
    if (rules.type !== undefined) {
      const check = typeCheck(rules.type);
      if (check) add('type', (n) => `${rowsAre(n)} not of type ${rules.type}`, (v) => check(v));
    }
    if (rules.format !== undefined) {
      const check = FORMAT_CHECKS[rules.format];
      add('format', (n) => `${rowsAre(n)} not in format ${rules.format}`, (v) => check(v));
    }
    if (rules.is_not_empty) add('is_not_empty', (n) => `${rowsAre(n)} null or empty`, (_v, kind) => kind === CellKind.Value, true);
    if (rules.enum !== undefined) {
      const allowed = new Set(rules.enum);
      add('enum', (n) => `${rowsAre(n)} not one of ${rules.enum!.map((e) => JSON.stringify(e)).join(', ')}`, (v) => allowed.has(v));
    }
    if (rules.pattern !== undefined) {
      const pattern = new RegExp(rules.pattern, 'u');
      add('pattern', (n) => `${rowsAre(n)} not matching /${rules.pattern}/`, (v) => pattern.test(v));
    }
    // JSON Schema semantics: bounds apply to numbers; other values are the type rule's business.
    if (rules.minimum !== undefined) {
      const min = rules.minimum;
      add('minimum', (n) => `${rowsAre(n)} below the minimum ${min}`, (v) => !isNumberText(v) || Number(v) >= min);
    }
    if (rules.maximum !== undefined) {
      const max = rules.maximum;
      add('maximum', (n) => `${rowsAre(n)} above the maximum ${max}`, (v) => !isNumberText(v) || Number(v) <= max);
    }
  }

  row(fields: RawCell[], rowNumber: number): void {
    if (fields.length !== this.width) {
      this.raggedCount++;
      if (this.raggedRows.length < DIAGNOSTIC_ROWS) this.raggedRows.push(rowNumber);
    }
    for (const check of this.checks) {
      const cell = check.index < fields.length ? fields[check.index]! : null;
      const kind = cellKind(cell);
      if (!check.allCells && kind !== CellKind.Value) continue;
      if (!check.passes(cell ?? '', kind)) check.tally.fail(rowNumber);
    }
    keys: for (const key of this.keys) {
      let lo = 0x12345678;
      let hi = key.indexes.length;
      for (const index of key.indexes) {
        const cell = index < fields.length ? fields[index]! : null;
        // A key containing a null is not compared.
        if (cellKind(cell) === CellKind.Null) continue keys;
        hashString(cell!);
        combineHash(lo, hi, lastHash.lo, lastHash.hi);
        lo = lastHash.lo;
        hi = lastHash.hi;
      }
      if (!key.seen.add(lo, hi)) key.tally.fail(rowNumber);
    }
  }

  finish(): { diagnostics: Diagnostic[]; has_errors: boolean } {
    const diagnostics = [...this.upfront];
    if (this.raggedCount > 0) diagnostics.push(rowShapeDiagnostic(this.width, this.raggedCount, this.raggedRows));
    for (const check of this.checks) if (check.tally.count > 0) diagnostics.push(check.tally.diagnostic());
    for (const key of this.keys) if (key.tally.count > 0) diagnostics.push(key.tally.diagnostic());
    return { diagnostics, has_errors: diagnostics.some((d) => d.severity === 'error') };
  }
}
