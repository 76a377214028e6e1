/**
 * The one-pass column profiler: fed every record of a CSV, it yields the table summary (inferred
 * types, required/unique flags, sample values and rows, null/empty/distinct counts, typed min/max).
 * Memory is bounded: per column a few scalars, an exact set of 64-bit value hashes up to
 * EXACT_DISTINCT_LIMIT distinct values, then a 64 KB HyperLogLog sketch.
 */
import {
  CellKind,
  compareText,
  dateTimeMillis,
  isBooleanText,
  isDateText,
  isDateTimeText,
  isIntegerText,
  isNumberText,
  plainNumber,
  plainNumberInfo,
  textKind,
  type RawCell,
} from './cells.ts';
import { CsvRecord } from './csv-reader.ts';
import { DistinctCounter, EXACT_DISTINCT_LIMIT, hashString, lastHash } from './hyperloglog.ts';
import { DIAGNOSTIC_ROWS, type Column, type ColumnProfile, type ColumnSchema, type Diagnostic, type Scalar, type TableSummary } from './types.ts';

const INTEGER = 1;
const NUMBER = 2;
const BOOLEAN = 4;
const DATE = 8;
const DATE_TIME = 16;
const ALL_TYPES = INTEGER | NUMBER | BOOLEAN | DATE | DATE_TIME;

const SAMPLE_VALUES = 3;
const SAMPLE_ROWS = 5;

/**
 * Whether the text `s[start, end)` of an integer (as plainNumber read it: at most 15 digits) is exactly
 * what String(value) gives back: no `+`, no leading zero, not `-0`. Such a value's hash can be recomputed.
 */
function isCanonicalInteger(s: string, start: number, end: number): boolean {
  const first = s.charCodeAt(start);
  if (first === 43) return false;
  const lead = first === 45 ? s.charCodeAt(start + 1) : first;
  return lead !== 48 || end - start === 1;
}

/** A copy of a string that does not keep the block it was sliced from alive. */
function detached(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8');
}

class ColumnAccumulator {
  nulls = 0;
  empties = 0;
  values = 0;
  /** Types every value seen so far fits. */
  candidates = ALL_TYPES;
  numMin = Infinity;
  numMax = -Infinity;
  /** Chronological bounds of date-time values (ms) and the texts that hold them. */
  timeMin = Infinity;
  timeMax = -Infinity;
  timeMinText = '';
  timeMaxText = '';
  textMin: string | null = null;
  textMax: string | null = null;
  samples: string[] = [];
  readonly distinct = new DistinctCounter();
  /** Distinct white-space-only values (for `unique`; typically none or one). */
  readonly blanks = new Set<string>();
  /** True while every value so far is a number greater than the one before (then unique for sure). */
  increasing = true;
  /** Value hashes not yet counted (pairs lo, hi), while the values are increasing. */
  private deferred: Uint32Array | undefined = new Uint32Array(2048);
  private deferredLength = 0;
  /**
   * While the values so far are consecutive integers written as String(value) writes them (a row id:
   * 1, 2, 3…), only the first and how many: their hashes are computed if the run ends, never
   * otherwise (see closeRun).
   */
  private runOpen = true;
  private runStart = 0;
  private runLength = 0;
  sawTrue = false;
  sawFalse = false;
  private last = -Infinity;

  constructor(readonly name: string) {}

  /** Adds a cell: the text `s[start, end)`, or null when `start` is -1 (see CsvRecord). */
  add(s: string, start: number, end: number): void {
    const kind = start < 0 ? CellKind.Null : textKind(s, start, end);
    if (kind === CellKind.Null) {
      this.nulls++;
      return;
    }
    if (kind === CellKind.Empty) {
      this.empties++;
      if (this.blanks.size < 1000) this.blanks.add(detached(s.slice(start, end)));
      return;
    }
    this.values++;
    let c = this.candidates;
    if (c & (INTEGER | NUMBER)) {
      let value = plainNumber(s, start, end);
      let integer = plainNumberInfo.integer;
      const plain = !Number.isNaN(value);
      if (!plain) {
        // Exponents, long digit strings: the careful path.
        const text = s.slice(start, end);
        integer = isIntegerText(text);
        value = integer || isNumberText(text) ? Number(text) : NaN;
      }
      if (!integer) c &= ~INTEGER;
      if (!Number.isNaN(value)) {
        if (value < this.numMin) this.numMin = value;
        if (value > this.numMax) this.numMax = value;
        if (value <= this.last) this.stopIncreasing();
        this.last = value;
        const nextInRun = this.runLength === 0 || value === this.runStart + this.runLength;
        if (this.runOpen && plain && integer && nextInRun && isCanonicalInteger(s, start, end)) {
          this.extendRun(value, s, start, end);
          this.textBounds(s, start, end);
        } else if (this.count(s, start, end)) this.textBounds(s, start, end);
        // A number is never a boolean or a date.
        this.candidates = c & (INTEGER | NUMBER);
        return;
      }
      c &= ~NUMBER;
    }
    this.stopIncreasing();
    if (this.count(s, start, end)) this.textBounds(s, start, end);
    if (c === 0) {
      this.candidates = 0;
      return;
    }
    if (c & BOOLEAN) {
      if (!isBooleanText(s, start, end)) c &= ~BOOLEAN;
      else if (end - start === 4) this.sawTrue = true;
      else this.sawFalse = true;
    }
    if (c & DATE && !isDateText(s, start, end)) c &= ~DATE;
    if (c & DATE_TIME) {
      if (isDateTimeText(s, start, end)) {
        const text = s.slice(start, end);
        const t = dateTimeMillis(text);
        if (t < this.timeMin) {
          this.timeMin = t;
          this.timeMinText = detached(text);
        }
        if (t > this.timeMax) {
          this.timeMax = t;
          this.timeMaxText = detached(text);
        }
      } else c &= ~DATE_TIME;
    }
    this.candidates = c;
  }

  /** The text minimum and maximum (compared as text: every value takes part, whatever its type). */
  private textBounds(s: string, start: number, end: number): void {
    if (this.textMin === null) this.textMin = this.textMax = detached(s.slice(start, end));
    else if (compareText(s, start, end, this.textMin) < 0) this.textMin = detached(s.slice(start, end));
    else if (compareText(s, start, end, this.textMax!) > 0) this.textMax = detached(s.slice(start, end));
  }

  /**
   * Distinct counting. While the column's values are strictly increasing numbers they are all
   * distinct, so their hashes are only appended to a buffer (no hash-table work): the common
   * row-id column costs next to nothing, and the buffer goes into the counter if the order breaks.
   * False when the value was certainly seen before (then it is no new minimum or maximum either:
   * a column of few distinct values skips their text comparisons).
   */
  private count(s: string, start: number, end: number): boolean {
    this.closeRun();
    hashString(s, start, end);
    let isNew = true;
    if (this.deferred) this.defer(lastHash.lo, lastHash.hi);
    else {
      isNew = this.distinct.addHash(lastHash.lo, lastHash.hi);
      if (this.distinct.seen) return false;
    }
    if (isNew && this.samples.length < SAMPLE_VALUES) this.samples.push(detached(s.slice(start, end)));
    return true;
  }

  /** A value one more than the run's last (or the first value): new, and not hashed yet. */
  private extendRun(value: number, s: string, start: number, end: number): void {
    if (this.runLength === 0) this.runStart = value;
    this.runLength++;
    if (this.samples.length < SAMPLE_VALUES) this.samples.push(detached(s.slice(start, end)));
  }

  /** The run ends: its values' hashes are counted, in order, as if each had been counted on arrival. */
  private closeRun(): void {
    if (!this.runOpen) return;
    this.runOpen = false;
    for (let k = 0; k < this.runLength; k++) {
      hashString(String(this.runStart + k));
      if (this.deferred) this.defer(lastHash.lo, lastHash.hi);
      else this.distinct.addHash(lastHash.lo, lastHash.hi);
    }
  }

  /** Appends a hash to the deferred ones; once they reach the exact limit they go into the counter. */
  private defer(lo: number, hi: number): void {
    if (this.deferredLength === this.deferred!.length) this.growDeferred();
    if (this.deferred) {
      this.deferred[this.deferredLength++] = lo;
      this.deferred[this.deferredLength++] = hi;
    } else this.distinct.addHash(lo, hi);
  }

  private growDeferred(): void {
    const deferred = this.deferred!;
    if (deferred.length / 2 >= EXACT_DISTINCT_LIMIT) {
      this.flushDeferred();
      return;
    }
    const bigger = new Uint32Array(deferred.length * 2);
    bigger.set(deferred);
    this.deferred = bigger;
  }

  private flushDeferred(): void {
    const deferred = this.deferred;
    if (!deferred) return;
    for (let i = 0; i < this.deferredLength; i += 2) this.distinct.addHash(deferred[i]!, deferred[i + 1]!);
    this.deferred = undefined;
    this.deferredLength = 0;
  }

  private stopIncreasing(): void {
    if (!this.increasing) return;
    this.increasing = false;
    this.closeRun();
    this.flushDeferred();
  }

  distinctCount(): { count: number; estimated: boolean } {
    if (this.increasing) return { count: this.values, estimated: false };
    return { count: this.distinct.count(), estimated: !this.distinct.isExact };
  }

  inferredSchema(): ColumnSchema {
    const c = this.candidates;
    if (this.values === 0) return { type: 'string' };
    if (c & INTEGER) return { type: 'integer' };
    if (c & NUMBER) return { type: 'number' };
    if (c & BOOLEAN) return { type: 'boolean' };
    if (c & DATE) return { type: 'string', format: 'date' };
    if (c & DATE_TIME) return { type: 'string', format: 'date-time' };
    return { type: 'string' };
  }

  /** min/max compared as the column's schema says, when every value fits it (else as text). */
  bounds(schema: ColumnSchema): { min: Scalar; max: Scalar } {
    if (this.values === 0) return { min: null, max: null };
    const type = schema.type;
    const c = this.candidates;
    if ((type === 'integer' || type === 'number') && c & (INTEGER | NUMBER)) return { min: this.numMin, max: this.numMax };
    if (type === 'boolean' && c & BOOLEAN) return { min: !this.sawFalse, max: this.sawTrue };
    if (type === 'string' && schema.format === 'date-time' && c & DATE_TIME) return { min: this.timeMinText, max: this.timeMaxText };
    // Dates (YYYY-MM-DD) and text both order as text.
    return { min: this.textMin, max: this.textMax };
  }

  /** Exact while the distinct set is, or when the values were strictly increasing numbers. */
  uniqueness(rowCount: number): boolean {
    if (this.nulls > 0) return false;
    if (this.increasing) return this.empties === 0 && this.values === rowCount;
    if (this.distinct.isExact) return this.distinct.count() === this.values && this.blanks.size === this.empties;
    return false;
  }
}

export interface ProfileOptions {
  /** Column → JSON Schema; wins over the inferred one. */
  overrides?: Record<string, ColumnSchema>;
}

/** Feed it the header, then every row; `finish` gives the summary. */
export class TableProfiler {
  private columns: ColumnAccumulator[] = [];
  private names: string[] = [];
  private rowCount = 0;
  private delimiter = ',';
  private readonly sampleRows: Array<Record<string, string | null>> = [];
  private raggedCount = 0;
  private readonly raggedRows: number[] = [];

  header(names: string[], delimiter: string): void {
    this.names = names;
    this.delimiter = delimiter;
    this.columns = names.map((n) => new ColumnAccumulator(n));
  }

  /** The record `row` makes of its fields. */
  private readonly fromFields = new CsvRecord();

  row(fields: RawCell[], rowNumber: number): void {
    this.record(this.fromFields.setFields(fields), rowNumber);
  }

  /** A record as the CSV reader hands it over (no string per field): what `row` does. */
  record(record: CsvRecord, rowNumber: number): void {
    this.rowCount++;
    const columns = this.columns;
    const width = columns.length;
    const { length, sources, starts, ends } = record;
    if (length !== width) {
      this.raggedCount++;
      if (this.raggedRows.length < DIAGNOSTIC_ROWS) this.raggedRows.push(rowNumber);
    }
    // Missing fields of a short row count as nulls; extra fields belong to no column.
    for (let i = 0; i < width; i++) {
      if (i < length) columns[i]!.add(sources[i]!, starts[i]!, ends[i]!);
      else columns[i]!.add('', -1, -1);
    }
    if (this.sampleRows.length < SAMPLE_ROWS) {
      const sample: Record<string, string | null> = {};
      for (let i = 0; i < width; i++) {
        const start = i < length ? starts[i]! : -1;
        const isNull = start < 0 || textKind(sources[i]!, start, ends[i]!) === CellKind.Null;
        sample[this.names[i]!] = isNull ? null : detached(record.field(i)!);
      }
      this.sampleRows.push(sample);
    }
  }

  finish(options: ProfileOptions = {}): TableSummary {
    const overrides = options.overrides ?? {};
    const columns: Column[] = [];
    const profile: ColumnProfile[] = [];
    for (const acc of this.columns) {
      const schema = overrides[acc.name] ?? acc.inferredSchema();
      const required = acc.nulls === 0 && acc.empties === 0;
      columns.push({ name: acc.name, json_schema: schema, sample_values: acc.samples, required, unique: acc.uniqueness(this.rowCount) });
      const { min, max } = acc.bounds(schema);
      profile.push({
        name: acc.name,
        json_schema: schema,
        row_count: this.rowCount,
        null_count: acc.nulls,
        empty_count: acc.empties,
        distinct_count: acc.distinctCount().count,
        min,
        max,
        sample_values: acc.samples,
        is_estimated: acc.distinctCount().estimated,
      });
    }
    return {
      row_count: this.rowCount,
      delimiter: this.delimiter,
      columns,
      profile,
      sample_rows: this.sampleRows,
      diagnostics: this.raggedCount > 0 ? [rowShapeDiagnostic(this.names.length, this.raggedCount, this.raggedRows)] : [],
    };
  }
}

export function rowShapeDiagnostic(width: number, count: number, rows: number[]): Diagnostic {
  return {
    severity: 'error',
    column: null,
    rule: 'row_shape',
    message: `${count} row${count === 1 ? ' has' : 's have'} more or fewer fields than the ${width} columns of the header`,
    count,
    rows,
  };
}
