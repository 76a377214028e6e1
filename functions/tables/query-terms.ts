/**
 * The words of a table query (API §10) that the wire schema (./schema.ts) and the compiler
 * (./query.ts) share: kept apart so the schema, which the dashboard bundles, does not carry the
 * compiler.
 */
export const FILTER_OPERATORS = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'in',
  'not_in',
  'between',
  'is_empty',
  'is_not_empty',
  'is_null',
  'is_not_null',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export const AGGREGATION_FUNCTIONS = ['count', 'count_distinct', 'min', 'max', 'sum', 'avg'] as const;
export type AggregationFunction = (typeof AGGREGATION_FUNCTIONS)[number];

/** Rows a page holds at most, and by default. */
export const MAX_QUERY_LIMIT = 1000;
export const DEFAULT_QUERY_LIMIT = 100;
