import * as z from 'zod';
import type { FormFile } from '../platform/multipart.ts';
import { DocumentInput, PrimitiveError } from '../platform/schemas.ts';
import { AGGREGATION_FUNCTIONS, DEFAULT_QUERY_LIMIT, FILTER_OPERATORS, MAX_QUERY_LIMIT } from './query-terms.ts';

/** The biggest CSV a table takes (through a FileRef; inline uploads stop at the 6 MB request ceiling). */
export const MAX_TABLE_BYTES = 1024 * 1024 * 1024;

const ColumnSchema = z.record(z.string(), z.unknown());

export const Column = z
  .object({
    name: z.string(),
    json_schema: ColumnSchema,
    sample_values: z.array(z.string()),
    required: z.boolean(),
    unique: z.boolean(),
  })
  .meta({ id: 'TableColumn' });

export const Diagnostic = z
  .object({
    severity: z.enum(['error', 'warning']),
    column: z.string().nullable(),
    rule: z.string(),
    message: z.string(),
    count: z.number().int(),
    rows: z.array(z.number().int()).describe('The first 20 failing data rows, 1-based'),
  })
  .meta({ id: 'TableDiagnostic' });

/**
 * An addition to the Table of API §10: a big CSV given by FileRef is read after the create or replace
 * answered. `processing` until then (no row_count, no columns), then `ready`, or `failed` with an error.
 */
export const TableStatus = z.enum(['processing', 'ready', 'failed']).describe('processing: the CSV is still being read; ready; failed: see error');
export type TableStatus = z.infer<typeof TableStatus>;

export const Table = z
  .object({
    id: z.string(),
    name: z.string(),
    filename: z.string(),
    project_id: z.string().nullable(),
    source_file_id: z.string(),
    snapshot_file_id: z.string(),
    row_count: z.number().int().nullable().describe('null until the CSV has been read (status processing or failed)'),
    columns: z.array(Column),
    sample_rows: z.array(z.record(z.string(), z.string().nullable())),
    metadata: z.record(z.string(), z.unknown()),
    diagnostics: z.array(Diagnostic).describe('Problems found while reading the CSV (ragged rows: row_shape)'),
    status: TableStatus,
    error: PrimitiveError.nullable().describe('Why the CSV could not be read (status failed); null otherwise'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Table' });
export type Table = z.infer<typeof Table>;

export const TablesEnvelope = z.object({ tables: z.array(Table) });
export const TableEnvelope = z.object({ table: Table });

/** Overrides come as a JSON object, or (always in a form, optionally in JSON) as its text. */
const Overrides = z.union([
  z.record(z.string(), ColumnSchema),
  z.string().transform((text, ctx) => {
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => v && typeof v === 'object' && !Array.isArray(v))) {
        return value as Record<string, Record<string, unknown>>;
      }
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'column_schema_overrides must be a JSON object mapping column names to JSON Schemas' });
    return z.NEVER;
  }),
]);

const Name = z.string().trim().min(1).max(255);

export const CreateTableJson = z.object({
  name: Name,
  document: DocumentInput,
  project_id: z.string().min(1).max(255).optional(),
  column_schema_overrides: Overrides.optional(),
});

const FormFileSchema = z
  .custom<FormFile>((v) => typeof v === 'object' && v !== null && Buffer.isBuffer((v as FormFile).bytes), 'Expected a file part')
  .meta({ type: 'string', format: 'binary' });

export const CreateTableForm = z.object({
  name: Name,
  file: FormFileSchema,
  project_id: z.string().min(1).max(255).optional(),
  column_schema_overrides: Overrides.optional(),
});

/** What a create or replace handler receives: the JSON body or the form. */
export type TableUpload = z.infer<typeof CreateTableJson> | z.infer<typeof CreateTableForm>;

export const PatchTableBody = z.object({
  name: Name.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const TableIdParams = z.object({ table_id: z.string() });
export const ListTablesQuery = z.object({ project_id: z.string().optional() });

export const TableSchema = z.object({ table_id: z.string(), columns: z.array(Column) }).meta({ id: 'TableSchema' });

const ValueRules = z.object({
  type: z.enum(['string', 'integer', 'number', 'boolean', 'null', 'array', 'object']).optional(),
  format: z.enum(['date', 'date-time', 'email', 'uri']).optional(),
  is_not_empty: z.boolean().optional(),
  enum: z.array(z.string()).optional(),
  pattern: z
    .string()
    .refine((p) => {
      try {
        new RegExp(p, 'u');
        return true;
      } catch {
        return false;
      }
    }, 'Invalid regular expression')
    .optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
});

export const ValidateTableBody = z
  .object({
    required_columns: z.array(z.string()).optional(),
    columns: z.record(z.string(), ValueRules).optional(),
    unique: z.array(z.array(z.string()).min(1)).optional(),
  })
  .default({});

export const ValidationReport = z
  .object({ table_id: z.string(), diagnostics: z.array(Diagnostic), has_errors: z.boolean() })
  .meta({ id: 'TableValidation' });

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const ColumnProfile = z
  .object({
    name: z.string(),
    json_schema: ColumnSchema,
    row_count: z.number().int(),
    null_count: z.number().int(),
    empty_count: z.number().int(),
    distinct_count: z.number().int(),
    min: Scalar,
    max: Scalar,
    sample_values: z.array(z.string()),
    is_estimated: z.boolean(),
  })
  .meta({ id: 'TableColumnProfile' });

export const TableProfile = z
  .object({ table_id: z.string(), row_count: z.number().int(), columns: z.array(ColumnProfile) })
  .meta({ id: 'TableProfile' });

/** `select=a&select=b` or `select=a,b`. */
export const ProfileQuery = z.object({
  select: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v])),
});

// ---- POST /v1/tables/{table_id}/query (./query.ts) ----

const FilterOperator = z.enum(FILTER_OPERATORS).describe('How a cell is compared with `value` (API §10)');
const SortDirection = z.enum(['asc', 'desc']);

const FilterRule = z
  .object({
    column: z.string(),
    operator: FilterOperator,
    value: z.unknown().optional().describe('A value of the column\'s type; a list for in / not_in; [low, high] for between; none for is_null, is_not_null, is_empty, is_not_empty'),
  })
  .meta({ id: 'TableFilterRule' });

const SortRule = z.object({ column: z.string(), direction: SortDirection.nullish() }).meta({ id: 'TableSortRule' });

const Aggregation = z
  .object({
    function: z.enum(AGGREGATION_FUNCTIONS),
    column: z.string().nullish().describe('Required except for count (count without a column counts rows)'),
    alias: z.string().min(1).max(128).nullish().describe('The result column\'s name; default <function>_<column>, or count'),
  })
  .meta({ id: 'TableAggregation' });

const Size = z.object({ size: z.number().int().min(1).max(MAX_QUERY_LIMIT) });

export const QueryTableBody = z
  .object({
    filters: z.array(FilterRule).max(100).nullish(),
    search: z.object({ query: z.string().max(1000), columns: z.array(z.string()).nullish() }).nullish(),
    case_sensitive: z.boolean().nullish().describe('For search and the text operators (contains, not_contains, starts_with, ends_with); default false'),
    select: z.array(z.string()).max(10_000).nullish(),
    distinct: z.object({ column: z.string() }).nullish(),
    group_by: z.array(z.string()).max(32).nullish(),
    aggregations: z.array(Aggregation).max(64).nullish(),
    sort: z.array(SortRule).max(32).nullish(),
    sample: Size.nullish().describe('A fixed pseudo-random sample of the filtered rows, answered in table order'),
    tail: Size.nullish().describe('The last rows of the result'),
    count_only: z.boolean().nullish(),
    include_explain: z.boolean().nullish(),
    sort_column: z.string().nullish(),
    sort_direction: SortDirection.nullish(),
    viewer_mode: z.literal('windowed').nullish(),
    offset: z.number().int().min(0).max(1_000_000_000).nullish(),
    limit: z.number().int().min(1).max(MAX_QUERY_LIMIT).nullish().describe(`Rows per page: 1..${MAX_QUERY_LIMIT}, default ${DEFAULT_QUERY_LIMIT}`),
    cursor: z.string().max(2048).nullish().describe('next_cursor or previous_cursor of an earlier answer to the same query'),
  })
  .default({});

const TableRow = z
  .object({ id: z.string(), data: z.record(z.string(), z.unknown()), position: z.number().int().describe('0-based data row of the CSV; for distinct and grouped results, the 0-based place in the result') })
  .meta({ id: 'TableRow' });

const Explain = z
  .object({
    table_id: z.string(),
    snapshot_file_id: z.string(),
    selected_columns: z.array(z.string()),
    filters: z.array(z.object({ column: z.string(), operator: FilterOperator, value: z.unknown() })),
    search: z.object({ query: z.string(), columns: z.array(z.string()) }).nullable(),
    sort: z.array(z.object({ column: z.string(), direction: SortDirection })),
    offset: z.number().int(),
    limit: z.number().int().nullable(),
    distinct: z.object({ column: z.string() }).nullable(),
    group_by: z.array(z.string()),
    aggregations: z.array(z.object({ function: z.enum(AGGREGATION_FUNCTIONS), column: z.string().nullable(), alias: z.string() })),
  })
  .meta({ id: 'TableQueryExplain' });

export const TableRows = z
  .object({
    table_id: z.string(),
    columns: z.array(Column),
    rows: z.array(TableRow),
    row_count: z.number().int(),
    filtered_row_count: z.number().int().nullable(),
    offset: z.number().int(),
    limit: z.number().int().nullable(),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
    previous_cursor: z.string().nullable(),
    explain: Explain.nullable(),
  })
  .meta({ id: 'TableRows' });
