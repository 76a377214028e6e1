/**
 * Types shared by the table engines (reader, profiler, validator) and the service. No I/O here.
 */

/** A JSON Schema of one column (inferred or an override). */
export type ColumnSchema = Record<string, unknown>;

/** API §10 Column. */
export interface Column {
  name: string;
  json_schema: ColumnSchema;
  sample_values: string[];
  required: boolean;
  unique: boolean;
}

export type Scalar = string | number | boolean | null;

/** API §10 profile column. */
export interface ColumnProfile {
  name: string;
  json_schema: ColumnSchema;
  row_count: number;
  null_count: number;
  empty_count: number;
  distinct_count: number;
  min: Scalar;
  max: Scalar;
  sample_values: string[];
  is_estimated: boolean;
}

/** API §10 validation diagnostic. */
export interface Diagnostic {
  severity: 'error' | 'warning';
  column: string | null;
  rule: string;
  message: string;
  count: number;
  rows: number[];
}

/** What one pass over a CSV yields: everything a table record, its schema and its profile need. */
export interface TableSummary {
  row_count: number;
  delimiter: string;
  columns: Column[];
  profile: ColumnProfile[];
  sample_rows: Array<Record<string, string | null>>;
  /** Ragged rows found while reading (API §10 `row_shape`); never padded silently. */
  diagnostics: Diagnostic[];
}

/** How many failing rows a diagnostic lists. */
export const DIAGNOSTIC_ROWS = 20;
