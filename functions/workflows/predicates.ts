/**
 * Review predicates (`config.review.predicate` of an extract, classifier, split or for_each block):
 * when one fires on the block's output, the run waits for a person to approve or correct it
 * (./reviews.ts). Each is `{kind, ...}`:
 *   always                      every output
 *   confidence_lt {threshold}   some value's likelihood (an extraction's, a classification's) is below it
 *   validation_failed           an extraction's output does not satisfy its JSON Schema's `required`
 *   any_required_field_null     a field the JSON Schema requires is null
 *   category_in {categories}    the classification picked one of these
 *   top_margin_lt {margin}      the winning category's likelihood leads the next by less than this
 *   split_count_neq {expected}  the split found another number of documents
 *   any_split_pages_lt {min_pages}  some split document has fewer pages
 *   boundary_confidence_lt {threshold}  some split document's likelihood is below it
 *   any_pages_unassigned        some page of the document is in no split document
 *   branch_in {branches}        the output handle taken is one of these
 *   json_condition {condition}  a condition (./conditions.ts) on the output matches
 *   any_of / all_of {predicates}
 */
import { conditionProblems, evaluateCondition } from './conditions.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const PREDICATE_KINDS = [
  'always', 'validation_failed', 'confidence_lt', 'category_in', 'top_margin_lt', 'split_count_neq', 'any_split_pages_lt',
  'boundary_confidence_lt', 'any_pages_unassigned', 'any_required_field_null', 'json_condition', 'branch_in', 'any_of', 'all_of',
] as const;

/** The block types that can be gated by a review. */
export const REVIEWABLE_TYPES = ['extract', 'classifier', 'split', 'for_each'] as const;

/** What a predicate is evaluated on: the block's output and what its run knew besides. */
export interface GateInput {
  output: unknown;
  /** Likelihoods of an extraction's values (same shape as the output) or of a classification's categories. */
  likelihoods?: unknown;
  /** The block's JSON Schema (extract). */
  jsonSchema?: Record<string, unknown>;
  /** The output handle taken (a classifier's category, a conditional's branch). */
  handle?: string;
  /** The document's page count, when known (splits). */
  pageCount?: number;
}

export function predicateProblems(p: unknown, at: Array<string | number> = []): Array<[Array<string | number>, string]> {
  if (!isObject(p) || !(PREDICATE_KINDS as readonly string[]).includes(String(p.kind))) return [[[...at, 'kind'], `must be one of ${PREDICATE_KINDS.join(', ')}`]];
  const number = (key: string) => (typeof p[key] === 'number' && Number.isFinite(p[key]) ? [] : [[[...at, key], `a ${p.kind} predicate needs ${key}, a number`]] as Array<[Array<string | number>, string]>);
  const strings = (key: string) => (Array.isArray(p[key]) && (p[key] as unknown[]).every((x) => typeof x === 'string') ? [] : [[[...at, key], `a ${p.kind} predicate needs ${key}, a list of strings`]] as Array<[Array<string | number>, string]>);
  switch (p.kind) {
    case 'confidence_lt':
    case 'boundary_confidence_lt':
      return number('threshold');
    case 'top_margin_lt':
      return number('margin');
    case 'split_count_neq':
      return number('expected');
    case 'any_split_pages_lt':
      return number('min_pages');
    case 'category_in':
      return strings('categories');
    case 'branch_in':
      return strings('branches');
    case 'json_condition':
      return conditionProblems(p.condition, [...at, 'condition']);
    case 'any_of':
    case 'all_of':
      if (!Array.isArray(p.predicates) || p.predicates.length === 0) return [[[...at, 'predicates'], 'must be a non-empty list of predicates']];
      return (p.predicates as unknown[]).flatMap((sub, i) => predicateProblems(sub, [...at, 'predicates', i]));
    default:
      return [];
  }
}

/** Every number among the leaves of a likelihoods tree. */
function leaves(v: unknown): number[] {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v)) return v.flatMap(leaves);
  if (isObject(v)) return Object.values(v).flatMap(leaves);
  return [];
}

function requiredNull(schema: Record<string, unknown> | undefined, value: unknown): boolean {
  if (!schema || !isObject(value)) return false;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (required.some((key) => value[key] === null || value[key] === undefined)) return true;
  return Object.entries(properties).some(([key, sub]) => isObject(sub) && isObject(value[key]) && requiredNull(sub, value[key]));
}

/** Whether the predicate fires on this output. */
export function predicateFires(p: Record<string, unknown>, input: GateInput): boolean {
  const output = input.output;
  const documents = Array.isArray(output) ? (output as Array<Record<string, unknown>>) : [];
  switch (p.kind) {
    case 'always':
      return true;
    case 'confidence_lt': {
      const values = leaves(input.likelihoods);
      return values.some((x) => x < Number(p.threshold));
    }
    case 'validation_failed':
    case 'any_required_field_null':
      return requiredNull(input.jsonSchema, output);
    case 'category_in':
      return isObject(output) && (p.categories as string[]).includes(String(output.category));
    case 'top_margin_lt': {
      const values = isObject(input.likelihoods) ? leaves(input.likelihoods).sort((a, b) => b - a) : [];
      return values.length >= 2 && values[0]! - values[1]! < Number(p.margin);
    }
    case 'split_count_neq':
      return documents.length !== Number(p.expected);
    case 'any_split_pages_lt':
      return documents.some((d) => (Array.isArray(d.pages) ? d.pages.length : 0) < Number(p.min_pages));
    case 'boundary_confidence_lt':
      return documents.some((d) => typeof d.likelihood === 'number' && d.likelihood < Number(p.threshold));
    case 'any_pages_unassigned': {
      if (!input.pageCount) return false;
      const assigned = new Set(documents.flatMap((d) => (Array.isArray(d.pages) ? (d.pages as number[]) : [])));
      for (let page = 1; page <= input.pageCount; page++) if (!assigned.has(page)) return true;
      return false;
    }
    case 'branch_in':
      return input.handle !== undefined && (p.branches as string[]).includes(input.handle);
    case 'json_condition':
      return evaluateCondition(p.condition as Record<string, unknown>, output).matched;
    case 'any_of':
      return (p.predicates as Record<string, unknown>[]).some((sub) => predicateFires(sub, input));
    case 'all_of':
      return (p.predicates as Record<string, unknown>[]).every((sub) => predicateFires(sub, input));
    default:
      return false;
  }
}
