/**
 * Assertions of workflow evals (API §9.5): what one eval checks of its target block's output.
 *
 *   {"id"?, "target": {"output_handle_id": "output", "path"?: "invoice.total"}, "condition": {...}, "label"?}
 *
 * `assertionOf` checks an assertion when an eval is saved (every problem at once, located in the
 * request body: a 422 names each); `evaluateAssertion` evaluates it on a block's handle outputs when
 * an eval run runs. The conditions are the Retab SDK's (`kind`):
 *
 *   exists, not_exists                 a value (not null) is there / is not
 *   equals, not_equals                 JSON equality (objects key by key, lists in order; 1 == 1.0)
 *   contains, not_contains             a substring of text, an item of a list (JSON equality), a key of an object
 *   starts_with, ends_with             text
 *   matches_regex                      a JavaScript regular expression found in the text (search, not full
 *                                      match); `(?i)`, `(?m)`, `(?s)` at its start set flags. Patterns up to
 *                                      1,000 characters; text up to 100,000; each match runs in a `vm`
 *                                      context with a time budget, so a pattern that backtracks without end
 *                                      is stopped (outcome `blocked`, regex_timeout) instead of hanging the task
 *   number_compare, between            numbers, and text that is a plain decimal number ("980.00")
 *   length_compare                     characters of text (code points), items of a list, keys of an object
 *   array_contains                     a list with an item containing `expected` (object subset, key by key)
 *   object_contains                    an object containing `expected` (subset, key by key, nested)
 *   all_items_match, any_item_matches  a nested condition on each item of a list ([] matches all, not any)
 *   json_schema_valid                  valid against `schema` (ajv); without one, against the target extract
 *                                      block's own json_schema, every value nullable (as Quire keeps outputs)
 *   similarity_gte                     Levenshtein similarity (below) ≥ threshold; `embeddings` needs an
 *                                      embeddings provider: blocked
 *   split_iou_gte                      a split's pages per subdocument against `expected` ({name: [pages]}):
 *                                      the mean intersection-over-union over the names either side has
 *   llm_judged_as, llm_not_judged_as   an LLM judges the value against a rubric: blocked, saying so, when no
 *                                      LLM provider is configured
 *
 * Outcomes: `passed` / `failed` when the condition could be evaluated (a missing value or a value of
 * the wrong type fails, naming it); `blocked` when it could not be (no such output handle, an LLM or
 * embeddings provider needed, a pattern out of budget, a value too long to compare).
 *
 * Similarity: Levenshtein distance over Unicode code points (insert, delete, substitute each 1),
 * similarity = 1 − distance / the longer length (1 for two empty texts); values that are not text
 * are compared as their JSON; up to 10,000 code points a side.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { createHash } from 'node:crypto';
import vm from 'node:vm';
import { withNullableValues } from '../models/nullable-schema.ts';
import { Invalid, type ValidationIssue } from '../platform/errors.ts';

export const CONDITION_KINDS = [
  'exists', 'not_exists', 'equals', 'not_equals', 'number_compare', 'contains', 'object_contains', 'array_contains',
  'matches_regex', 'json_schema_valid', 'similarity_gte', 'llm_judged_as', 'llm_not_judged_as', 'not_contains',
  'length_compare', 'between', 'starts_with', 'ends_with', 'all_items_match', 'any_item_matches', 'split_iou_gte',
] as const;
export type ConditionKind = (typeof CONDITION_KINDS)[number];

export type Condition = { kind: ConditionKind } & Record<string, unknown>;

export interface Assertion {
  id: string;
  target: { output_handle_id: string; path: string | null };
  condition: Condition;
  label: string | null;
}

export type Outcome = 'passed' | 'failed' | 'blocked';

export interface AssertionResult {
  assertion_id: string;
  condition_kind: string;
  outcome: Outcome;
  actual_value: unknown;
  expected_value: unknown;
  score: number | null;
  threshold: number | null;
  metric_kind: string | null;
  assertion_label: string | null;
  failure: { code: string; message: string; details: Record<string, unknown> } | null;
}

const COMPARE_OPS = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq'] as const;
const MAX_PATTERN = 1_000;
export const MAX_REGEX_INPUT = 100_000;
/** Time one regular expression match may take, and all the matches of one assertion together. */
export const REGEX_MATCH_MS = 50;
export const REGEX_BUDGET_MS = 250;
const MAX_SIMILARITY_LENGTH = 10_000;
const MAX_NESTING = 4;
const MAX_PATH = 500;
const MAX_RUBRIC = 5_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

// ── Checking an assertion when an eval is saved ──────────────────────────────────────────────────

/** What the check needs to know of the target block. */
export interface TargetInfo {
  blockId: string;
  blockType: string;
  /** The block's output handles ("output", and "document" for blocks that pass a document on). */
  handles: string[];
  /** The block's own JSON Schema (extract blocks), for json_schema_valid without a schema. */
  jsonSchema?: Record<string, unknown> | undefined;
}

/** A regular expression as the condition gives it: `(?i)`, `(?m)`, `(?s)` at its start become flags. */
export function compilePattern(pattern: string): RegExp {
  let source = pattern;
  let flags = '';
  for (;;) {
    const m = /^\(\?([ims]+)\)/.exec(source);
    if (!m) break;
    for (const f of m[1]!) if (!flags.includes(f)) flags += f;
    source = source.slice(m[0].length);
  }
  return new RegExp(source, flags);
}

/** Every problem of a condition, located at `loc`. */
function conditionIssues(c: unknown, loc: Array<string | number>, target: TargetInfo, depth: number): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const issue = (where: Array<string | number>, msg: string, type = 'value_error', input?: unknown) => issues.push({ loc: [...loc, ...where], msg, type, ...(input !== undefined ? { input } : {}) });
  if (!isObject(c)) {
    issue([], 'a condition is an object with a "kind" (e.g. {"kind": "equals", "expected": "INV-1"})', 'model_type');
    return issues;
  }
  const kind = c.kind;
  if (typeof kind !== 'string' || !(CONDITION_KINDS as readonly string[]).includes(kind)) {
    issue(['kind'], `unknown condition kind ${JSON.stringify(kind ?? null)}; one of: ${CONDITION_KINDS.join(', ')}`, 'literal_error', kind);
    return issues;
  }
  const has = (field: string) => Object.hasOwn(c, field) && c[field] !== undefined;
  const need = (field: string, what: string) => {
    if (!has(field)) issue([field], `${kind} needs "${field}" (${what})`, 'missing');
  };
  const text = (field: string) => {
    need(field, 'a string');
    if (has(field) && typeof c[field] !== 'string') issue([field], 'must be a string', 'string_type', c[field]);
  };
  const number = (field: string, required = true) => {
    if (required) need(field, 'a number');
    if (has(field) && c[field] !== null && !isNumber(c[field])) issue([field], 'must be a number', 'float_type', c[field]);
  };
  const op = () => {
    if (!(COMPARE_OPS as readonly string[]).includes(String(c.op))) issue(['op'], `must be one of ${COMPARE_OPS.join(', ')}`, 'literal_error', c.op);
  };
  const threshold = (field: string, required: boolean) => {
    number(field, required);
    if (isNumber(c[field]) && ((c[field] as number) < 0 || (c[field] as number) > 1)) issue([field], 'must be between 0 and 1', 'value_error', c[field]);
  };
  switch (kind as ConditionKind) {
    case 'exists':
    case 'not_exists':
      break;
    case 'equals':
    case 'not_equals':
    case 'contains':
    case 'not_contains':
      need('expected', 'the value to compare with; null is a value');
      break;
    case 'starts_with':
    case 'ends_with':
      text('expected');
      break;
    case 'matches_regex': {
      text('pattern');
      const pattern = c.pattern;
      if (typeof pattern !== 'string') break;
      if (pattern.length === 0) issue(['pattern'], 'must not be empty');
      else if (pattern.length > MAX_PATTERN) issue(['pattern'], `is ${pattern.length} characters; a pattern has at most ${MAX_PATTERN}`, 'string_too_long');
      else {
        try {
          compilePattern(pattern);
        } catch (error) {
          issue(['pattern'], `is not a valid regular expression: ${(error as Error).message}`, 'value_error', pattern);
        }
      }
      break;
    }
    case 'number_compare':
      op();
      number('expected');
      break;
    case 'between':
      number('lower');
      number('upper');
      if (isNumber(c.lower) && isNumber(c.upper) && c.lower > c.upper) issue(['upper'], `must not be below lower (${c.lower})`, 'value_error', c.upper);
      if (has('inclusive') && typeof c.inclusive !== 'boolean') issue(['inclusive'], 'must be true or false', 'bool_type', c.inclusive);
      break;
    case 'length_compare':
      op();
      number('expected');
      if (isNumber(c.expected) && (!Number.isInteger(c.expected) || c.expected < 0)) issue(['expected'], 'must be a whole number, 0 or more', 'value_error', c.expected);
      break;
    case 'array_contains':
    case 'object_contains':
      need('expected', 'an object');
      if (has('expected') && !isObject(c.expected)) issue(['expected'], `must be an object (the ${kind === 'array_contains' ? 'fields an item of the list must have' : 'fields the object must have'})`, 'dict_type', c.expected);
      break;
    case 'all_items_match':
    case 'any_item_matches':
      if (depth >= MAX_NESTING) issue([], `conditions nest at most ${MAX_NESTING} levels deep`);
      else if (!has('condition')) issue(['condition'], `${kind} needs "condition" (the condition each item is checked against)`, 'missing');
      else issues.push(...conditionIssues(c.condition, [...loc, 'condition'], target, depth + 1));
      break;
    case 'json_schema_valid': {
      if (has('schema') && c.schema !== null) {
        if (!isObject(c.schema)) issue(['schema'], 'must be a JSON Schema object', 'dict_type', c.schema);
        else {
          try {
            compileSchema(c.schema);
          } catch (error) {
            issue(['schema'], `is not a valid JSON Schema: ${(error as Error).message}`, 'schema_invalid');
          }
        }
      } else if (!target.jsonSchema) {
        issue(['schema'], `json_schema_valid without a schema checks against the target block's own json_schema, and "${target.blockId}" (${target.blockType}) has none: give a schema`, 'missing');
      }
      break;
    }
    case 'similarity_gte':
      need('reference', 'the value to compare with');
      threshold('threshold', true);
      if (has('method') && c.method !== 'levenshtein' && c.method !== 'embeddings') issue(['method'], 'must be levenshtein or embeddings', 'literal_error', c.method);
      break;
    case 'split_iou_gte': {
      need('expected', 'the pages of each subdocument: {"invoice": [1, 2], "receipt": [3]}');
      if (has('expected')) {
        if (!isObject(c.expected)) issue(['expected'], 'must be an object of subdocument name → list of page numbers', 'dict_type', c.expected);
        else {
          for (const [name, pages] of Object.entries(c.expected)) {
            const flat = Array.isArray(pages) ? pages.flat() : undefined;
            if (!flat || !flat.every((n) => Number.isInteger(n) && (n as number) >= 1)) issue(['expected', name], 'must be a list of page numbers (1-based), or a list of such lists (one per instance)', 'list_type', pages);
          }
        }
      }
      threshold('threshold', false);
      break;
    }
    case 'llm_judged_as':
    case 'llm_not_judged_as':
      text('rubric');
      if (typeof c.rubric === 'string' && !c.rubric.trim()) issue(['rubric'], 'must not be empty');
      if (typeof c.rubric === 'string' && c.rubric.length > MAX_RUBRIC) issue(['rubric'], `is over ${MAX_RUBRIC} characters`, 'string_too_long');
      if (has('expected_label') && c.expected_label !== null && typeof c.expected_label !== 'string') issue(['expected_label'], 'must be a string', 'string_type', c.expected_label);
      break;
  }
  return issues;
}

/** A condition as stored: its defaults filled in (between inclusive, similarity method, IoU threshold). */
function normalizedCondition(c: Record<string, unknown>): Condition {
  const kind = c.kind as ConditionKind;
  const out: Record<string, unknown> = { ...c };
  if (kind === 'between') out.inclusive = c.inclusive ?? true;
  if (kind === 'similarity_gte') out.method = c.method ?? 'levenshtein';
  if (kind === 'split_iou_gte') out.threshold = c.threshold ?? 1;
  if (kind === 'json_schema_valid') out.schema = c.schema ?? null;
  if (kind === 'llm_judged_as' || kind === 'llm_not_judged_as') out.expected_label = c.expected_label ?? null;
  if (kind === 'all_items_match' || kind === 'any_item_matches') out.condition = normalizedCondition(c.condition as Record<string, unknown>);
  return out as Condition;
}

/** A path into a handle's value: dotted names, `[0]` indexes, `[*]` for every item ("lines[*].amount"); `$` or `$.` at its start are the value itself. */
export function pathProblem(path: string): string | undefined {
  if (path.length > MAX_PATH) return `is over ${MAX_PATH} characters`;
  const body = path.replace(/^\$\.?/, '');
  if (body === '') return undefined;
  const parts = body.replace(/\[(\*|\d+)\]/g, '.$1').split('.');
  if (parts.some((p) => p === '')) return 'has an empty segment (".." or a trailing "."): use names separated by dots, [0] or [*] for list items';
  if (parts.some((p) => /[[\]]/.test(p))) return 'has a bracket that is not [<number>] or [*]';
  return undefined;
}

const assertionIdOf = (a: unknown) => `asr_${createHash('sha256').update(JSON.stringify(a)).digest('hex').slice(0, 16)}`;

/**
 * An assertion of a request body (at `loc`), checked against its target block: the stored form
 * (its id given or derived from its content, defaults filled in), or a 422 naming every problem.
 */
export function assertionOf(raw: unknown, loc: Array<string | number>, target: TargetInfo): Assertion {
  const issues: ValidationIssue[] = [];
  const issue = (where: Array<string | number>, msg: string, type = 'value_error', input?: unknown) => issues.push({ loc: [...loc, ...where], msg, type, ...(input !== undefined ? { input } : {}) });
  if (!isObject(raw)) throw Invalid.at(loc, 'an assertion is an object: {"target": {"output_handle_id": "output", "path": "..."}, "condition": {"kind": ...}}', 'model_type');
  const t = raw.target;
  let handle = 'output';
  let path: string | null = null;
  if (!isObject(t)) issue(['target'], 'needs a target: {"output_handle_id": "output", "path": "a.b"}', t === undefined || t === null ? 'missing' : 'model_type');
  else {
    if (typeof t.output_handle_id !== 'string' || !t.output_handle_id) issue(['target', 'output_handle_id'], `must name an output handle of "${target.blockId}" (${target.handles.join(', ')})`, 'missing');
    else if (!target.handles.includes(t.output_handle_id)) issue(['target', 'output_handle_id'], `"${t.output_handle_id}" is not an output handle of "${target.blockId}" (${target.blockType}): its handles are ${target.handles.join(', ')}`, 'value_error', t.output_handle_id);
    else handle = t.output_handle_id;
    if (t.path !== undefined && t.path !== null) {
      if (typeof t.path !== 'string') issue(['target', 'path'], 'must be a string', 'string_type', t.path);
      else {
        const problem = pathProblem(t.path);
        if (problem) issue(['target', 'path'], `${problem}`, 'value_error', t.path);
        else path = t.path;
      }
    }
  }
  if (raw.condition === undefined || raw.condition === null) issue(['condition'], 'needs a condition: {"kind": "equals", "expected": ...} (kinds: ' + CONDITION_KINDS.join(', ') + ')', 'missing');
  else issues.push(...conditionIssues(raw.condition, [...loc, 'condition'], target, 0));
  if (raw.label !== undefined && raw.label !== null && (typeof raw.label !== 'string' || raw.label.length > 200)) issue(['label'], 'must be a string of at most 200 characters', 'string_type', raw.label);
  if (raw.id !== undefined && raw.id !== null && (typeof raw.id !== 'string' || !/^[A-Za-z0-9_.:-]{1,100}$/.test(raw.id))) issue(['id'], 'must be 1 to 100 letters, digits, _ . : or -', 'string_pattern_mismatch', raw.id);
  if (issues.length) throw new Invalid(issues);
  const condition = normalizedCondition(raw.condition as Record<string, unknown>);
  const assertion = { target: { output_handle_id: handle, path }, condition, label: typeof raw.label === 'string' ? raw.label : null };
  return { id: typeof raw.id === 'string' ? raw.id : assertionIdOf(assertion), ...assertion };
}

// ── Evaluating an assertion ──────────────────────────────────────────────────────────────────────

export type HandlePayload = { type: 'json'; data?: unknown } | { type: 'file'; document: unknown };

/** What an LLM judge answers (./judge.ts), or why none can. */
export type Judge = (question: { rubric: string; value: unknown; expectedLabel: string | null }) => Promise<{ holds: boolean; label: string | null; reasoning: string }>;

export interface EvaluationContext {
  /** The target block's own JSON Schema (json_schema_valid without a schema). */
  blockSchema?: Record<string, unknown> | undefined;
  /** The judge of llm_judged_as; undefined when no LLM provider is configured. */
  judge?: Judge | undefined;
  /** Why there is no judge (the message of a blocked llm_judged_as). */
  noJudge?: string;
}

interface Verdict {
  outcome: Outcome;
  score?: number | null;
  threshold?: number | null;
  metric_kind?: string | null;
  failure?: { code: string; message: string; details?: Record<string, unknown> } | null;
}

const pass = (extra: Partial<Verdict> = {}): Verdict => ({ outcome: 'passed', ...extra });
const fail = (code: string, message: string, extra: Partial<Verdict> = {}): Verdict => ({ outcome: 'failed', failure: { code, message }, ...extra });
const blocked = (code: string, message: string, extra: Partial<Verdict> = {}): Verdict => ({ outcome: 'blocked', failure: { code, message }, ...extra });

const show = (v: unknown) => {
  if (v === undefined) return 'nothing';
  const text = JSON.stringify(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : isObject(v) ? 'an object' : typeof v === 'string' ? 'text' : typeof v);

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

/** Whether `actual` has everything `expected` has: objects key by key (recursively), anything else by JSON equality. */
function containsSubset(actual: unknown, expected: unknown): boolean {
  if (isObject(expected)) return isObject(actual) && Object.entries(expected).every(([k, v]) => Object.hasOwn(actual, k) && containsSubset(actual[k], v));
  return sameJson(actual, expected);
}

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
function numberOf(v: unknown): number | undefined {
  if (isNumber(v)) return v;
  if (typeof v === 'string' && NUMERIC.test(v.trim())) return Number(v.trim());
  return undefined;
}

function compareNumbers(a: number, op: string, b: number): boolean {
  const eq = Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  switch (op) {
    case 'eq':
      return eq;
    case 'neq':
      return !eq;
    case 'gt':
      return a > b && !eq;
    case 'gte':
      return a > b || eq;
    case 'lt':
      return a < b && !eq;
    default:
      return a < b || eq;
  }
}

const OP_TEXT: Record<string, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=', neq: '≠' };

function lengthOf(v: unknown): number | undefined {
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (isObject(v)) return Object.keys(v).length;
  return undefined;
}

/** Levenshtein similarity of two texts (see the header); undefined when either is too long to compare. */
export function levenshteinSimilarity(a: string, b: string): number | undefined {
  const x = [...a];
  const y = [...b];
  if (x.length > MAX_SIMILARITY_LENGTH || y.length > MAX_SIMILARITY_LENGTH) return undefined;
  if (x.length === 0 && y.length === 0) return 1;
  let previous = new Int32Array(y.length + 1).map((_, j) => j);
  let current = new Int32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    current[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    [previous, current] = [current, previous];
  }
  return 1 - previous[y.length]! / Math.max(x.length, y.length);
}

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** The pages of each name of a split output ([{name, pages}]) or of an expectation ({name: [pages] | [[pages]]}). */
function pagesByName(v: unknown): Map<string, Set<number>> | undefined {
  const out = new Map<string, Set<number>>();
  const add = (name: string, pages: unknown[]) => {
    const set = out.get(name) ?? new Set<number>();
    for (const p of pages.flat()) if (Number.isInteger(p)) set.add(p as number);
    out.set(name, set);
  };
  if (Array.isArray(v)) {
    for (const entry of v) {
      if (!isObject(entry) || typeof entry.name !== 'string' || !Array.isArray(entry.pages)) return undefined;
      add(entry.name, entry.pages);
    }
    return out;
  }
  if (isObject(v)) {
    if (Array.isArray(v.documents)) return pagesByName(v.documents);
    for (const [name, pages] of Object.entries(v)) {
      if (!Array.isArray(pages)) return undefined;
      add(name, pages);
    }
    return out;
  }
  return undefined;
}

/** The mean IoU of two page assignments over the names either side has (names both leave empty are skipped). */
export function splitIou(actual: Map<string, Set<number>>, expected: Map<string, Set<number>>): { score: number; by_name: Record<string, number> } {
  const names = [...new Set([...expected.keys(), ...actual.keys()])];
  const byName: Record<string, number> = {};
  for (const name of names) {
    const a = actual.get(name) ?? new Set<number>();
    const e = expected.get(name) ?? new Set<number>();
    const union = new Set([...a, ...e]).size;
    if (union === 0) continue;
    byName[name] = [...a].filter((p) => e.has(p)).length / union;
  }
  const scores = Object.values(byName);
  return { score: scores.length ? scores.reduce((s, x) => s + x, 0) / scores.length : 1, by_name: byName };
}

/** Runs regular expressions with a time budget: a match that takes too long is stopped by V8, not waited for. */
class RegexRunner {
  private context = vm.createContext(Object.create(null));
  private script = new vm.Script('pattern.lastIndex = 0; pattern.test(input)');
  private left = REGEX_BUDGET_MS;
  test(pattern: RegExp, input: string): boolean | 'timeout' {
    if (this.left <= 0) return 'timeout';
    const started = Date.now();
    (this.context as Record<string, unknown>).pattern = pattern;
    (this.context as Record<string, unknown>).input = input;
    try {
      return Boolean(this.script.runInContext(this.context, { timeout: Math.max(1, Math.min(REGEX_MATCH_MS, this.left)) }));
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
      throw error;
    } finally {
      this.left -= Date.now() - started;
      (this.context as Record<string, unknown>).input = undefined;
    }
  }
}

const ajvCache = new Map<string, ValidateFunction>();
function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = ajvCache.get(key);
  if (!validate) {
    const { $schema: _dialect, ...rest } = schema;
    validate = new Ajv({ strict: false, allErrors: false, validateFormats: false }).compile(rest);
    if (ajvCache.size > 100) ajvCache.clear();
    ajvCache.set(key, validate);
  }
  return validate;
}

async function check(c: Condition, actual: unknown, ctx: EvaluationContext, regex: RegexRunner, wildcard = false): Promise<Verdict> {
  const missing = actual === undefined || actual === null;
  // A [*] path reaches a list of values: exists when one of them is there.
  const present = wildcard && Array.isArray(actual) ? actual.some((v) => v !== undefined && v !== null) : !missing;
  switch (c.kind) {
    case 'exists':
      return present ? pass() : fail('value_missing', 'There is no value here (null or absent)');
    case 'not_exists':
      return !present ? pass() : fail('value_present', `There is a value here: ${show(actual)}`);
    case 'equals':
      return sameJson(actual ?? null, c.expected ?? null) ? pass() : fail('not_equal', `Expected ${show(c.expected ?? null)}, got ${show(actual ?? null)}`);
    case 'not_equals':
      return !sameJson(actual ?? null, c.expected ?? null) ? pass() : fail('equal', `Expected anything but ${show(c.expected ?? null)}`);
    case 'contains':
    case 'not_contains': {
      const negate = c.kind === 'not_contains';
      let found: boolean;
      if (missing) return negate ? pass() : fail('value_missing', `Expected a value containing ${show(c.expected)}; there is none`);
      if (typeof actual === 'string') found = actual.includes(typeof c.expected === 'string' ? c.expected : asText(c.expected));
      else if (Array.isArray(actual)) found = actual.some((item) => sameJson(item, c.expected));
      else if (isObject(actual) && typeof c.expected === 'string') found = Object.hasOwn(actual, c.expected);
      else return fail('type_mismatch', `${c.kind} applies to text, a list or an object's keys; the value is ${typeName(actual)}`);
      if (found !== negate) return pass();
      return negate ? fail('contains', `${show(actual)} contains ${show(c.expected)}`) : fail('not_contained', `${show(actual)} does not contain ${show(c.expected)}`);
    }
    case 'starts_with':
    case 'ends_with': {
      if (missing) return fail('value_missing', `Expected text ${c.kind === 'starts_with' ? 'starting' : 'ending'} with ${show(c.expected)}; there is none`);
      if (typeof actual !== 'string') return fail('type_mismatch', `${c.kind} applies to text; the value is ${typeName(actual)}`);
      const ok = c.kind === 'starts_with' ? actual.startsWith(c.expected as string) : actual.endsWith(c.expected as string);
      return ok ? pass() : fail(c.kind === 'starts_with' ? 'prefix_mismatch' : 'suffix_mismatch', `${show(actual)} does not ${c.kind === 'starts_with' ? 'start' : 'end'} with ${show(c.expected)}`);
    }
    case 'matches_regex': {
      if (missing) return fail('value_missing', 'Expected text to match; there is none');
      if (typeof actual !== 'string' && typeof actual !== 'number' && typeof actual !== 'boolean') return fail('type_mismatch', `matches_regex applies to text (and numbers as their text); the value is ${typeName(actual)}`);
      const input = String(actual);
      if (input.length > MAX_REGEX_INPUT) return blocked('regex_input_too_long', `The text is ${input.length} characters; patterns are matched against at most ${MAX_REGEX_INPUT}`);
      const matched = regex.test(compilePattern(c.pattern as string), input);
      if (matched === 'timeout') return blocked('regex_timeout', `The pattern took longer than its time budget (${REGEX_MATCH_MS} ms a match, ${REGEX_BUDGET_MS} ms an assertion) and was stopped: it backtracks too much (nested repetition such as (a+)+); simplify it`);
      return matched ? pass() : fail('no_match', `${show(actual)} does not match /${c.pattern as string}/`);
    }
    case 'number_compare': {
      const n = numberOf(actual);
      if (missing) return fail('value_missing', `Expected a number ${OP_TEXT[c.op as string]} ${c.expected as number}; there is none`);
      if (n === undefined) return fail('type_mismatch', `number_compare applies to numbers (or text that is one); the value is ${show(actual)}`);
      return compareNumbers(n, c.op as string, c.expected as number) ? pass() : fail('comparison_failed', `${n} is not ${OP_TEXT[c.op as string]} ${c.expected as number}`);
    }
    case 'between': {
      const n = numberOf(actual);
      if (missing) return fail('value_missing', `Expected a number between ${c.lower as number} and ${c.upper as number}; there is none`);
      if (n === undefined) return fail('type_mismatch', `between applies to numbers (or text that is one); the value is ${show(actual)}`);
      const inclusive = c.inclusive !== false;
      const ok = inclusive ? compareNumbers(n, 'gte', c.lower as number) && compareNumbers(n, 'lte', c.upper as number) : compareNumbers(n, 'gt', c.lower as number) && compareNumbers(n, 'lt', c.upper as number);
      return ok ? pass() : fail('out_of_range', `${n} is not between ${c.lower as number} and ${c.upper as number} (${inclusive ? 'inclusive' : 'exclusive'})`);
    }
    case 'length_compare': {
      if (missing) return fail('value_missing', 'Expected a value with a length; there is none');
      const length = lengthOf(actual);
      if (length === undefined) return fail('type_mismatch', `length_compare applies to text, lists and objects; the value is ${typeName(actual)}`);
      return compareNumbers(length, c.op as string, c.expected as number) ? pass({ score: length }) : fail('comparison_failed', `Its length ${length} is not ${OP_TEXT[c.op as string]} ${c.expected as number}`);
    }
    case 'array_contains': {
      if (missing) return fail('value_missing', 'Expected a list; there is none');
      if (!Array.isArray(actual)) return fail('type_mismatch', `array_contains applies to a list; the value is ${typeName(actual)}`);
      return actual.some((item) => containsSubset(item, c.expected)) ? pass() : fail('not_contained', `No item of the list (${actual.length} items) has ${show(c.expected)}`);
    }
    case 'object_contains': {
      if (missing) return fail('value_missing', 'Expected an object; there is none');
      if (!isObject(actual)) return fail('type_mismatch', `object_contains applies to an object; the value is ${typeName(actual)}`);
      return containsSubset(actual, c.expected) ? pass() : fail('not_contained', `The object does not have ${show(c.expected)}`);
    }
    case 'all_items_match':
    case 'any_item_matches': {
      if (missing) return fail('value_missing', 'Expected a list; there is none');
      if (!Array.isArray(actual)) return fail('type_mismatch', `${c.kind} applies to a list; the value is ${typeName(actual)}`);
      const inner = c.condition as Condition;
      const verdicts: Verdict[] = [];
      for (const item of actual) verdicts.push(await check(inner, item, ctx, regex));
      const passed = verdicts.filter((v) => v.outcome === 'passed').length;
      const failedAt = verdicts.findIndex((v) => v.outcome === 'failed');
      const blockedAt = verdicts.findIndex((v) => v.outcome === 'blocked');
      const score = actual.length ? passed / actual.length : 1;
      if (c.kind === 'all_items_match') {
        if (failedAt >= 0) return fail('item_failed', `Item ${failedAt} does not match: ${verdicts[failedAt]!.failure?.message ?? ''}`.trim(), { score });
        if (blockedAt >= 0) return blocked(verdicts[blockedAt]!.failure?.code ?? 'blocked', `Item ${blockedAt}: ${verdicts[blockedAt]!.failure?.message ?? ''}`, { score });
        return pass({ score });
      }
      if (passed > 0) return pass({ score });
      if (blockedAt >= 0) return blocked(verdicts[blockedAt]!.failure?.code ?? 'blocked', `Item ${blockedAt}: ${verdicts[blockedAt]!.failure?.message ?? ''}`, { score });
      return fail('no_item_matched', actual.length ? `None of the ${actual.length} items matches` : 'The list is empty', { score });
    }
    case 'json_schema_valid': {
      const schema = (c.schema as Record<string, unknown> | null) ?? (ctx.blockSchema ? (withNullableValues(ctx.blockSchema as never) as Record<string, unknown>) : undefined);
      if (!schema) return blocked('schema_missing', 'There is no schema to validate against: the target block has no json_schema now; give one in the condition');
      let validate: ValidateFunction;
      try {
        validate = compileSchema(schema);
      } catch (error) {
        return blocked('schema_invalid', `The block's json_schema does not compile: ${(error as Error).message}`);
      }
      if (validate(actual === undefined ? null : actual)) return pass();
      const first = validate.errors?.[0];
      const message = `Not valid against the schema: ${first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'invalid'}`;
      return { outcome: 'failed', failure: { code: 'schema_invalid', message, details: { errors: (validate.errors ?? []).slice(0, 10) } } };
    }
    case 'similarity_gte': {
      const threshold = c.threshold as number;
      if (c.method === 'embeddings') return blocked('embeddings_provider_required', 'similarity_gte with method "embeddings" needs an embeddings model, and Quire has none configured: use method "levenshtein"', { threshold, metric_kind: 'embedding_similarity' });
      const similarity = levenshteinSimilarity(asText(actual ?? null), asText(c.reference ?? null));
      if (similarity === undefined) return blocked('value_too_long', `Levenshtein similarity compares texts of at most ${MAX_SIMILARITY_LENGTH} characters`, { threshold, metric_kind: 'levenshtein_similarity' });
      const score = Math.round(similarity * 10_000) / 10_000;
      return similarity >= threshold ? pass({ score, threshold, metric_kind: 'levenshtein_similarity' }) : fail('below_threshold', `Similarity ${score} is below ${threshold}`, { score, threshold, metric_kind: 'levenshtein_similarity' });
    }
    case 'split_iou_gte': {
      const threshold = c.threshold as number;
      if (missing) return fail('value_missing', 'Expected a split (a list of {name, pages}); there is none', { threshold, metric_kind: 'split_iou' });
      const got = pagesByName(actual);
      if (!got) return fail('type_mismatch', `split_iou_gte applies to a split's output (a list of {name, pages}); the value is ${typeName(actual)}`, { threshold, metric_kind: 'split_iou' });
      const { score: raw, by_name } = splitIou(got, pagesByName(c.expected)!);
      const score = Math.round(raw * 10_000) / 10_000;
      const extra = { score, threshold, metric_kind: 'split_iou' };
      return raw >= threshold ? pass(extra) : { outcome: 'failed', failure: { code: 'below_threshold', message: `Mean IoU ${score} is below ${threshold}`, details: { iou_by_name: by_name } }, ...extra };
    }
    case 'llm_judged_as':
    case 'llm_not_judged_as': {
      if (!ctx.judge) return blocked('llm_provider_required', ctx.noJudge ?? `${c.kind} needs an LLM provider to judge the value, and none is configured`, { metric_kind: 'llm_judgment' });
      let answer: Awaited<ReturnType<Judge>>;
      try {
        answer = await ctx.judge({ rubric: c.rubric as string, value: actual ?? null, expectedLabel: (c.expected_label as string | null) ?? null });
      } catch (error) {
        return blocked('llm_judge_failed', `The LLM judge could not answer: ${(error as Error).message}`, { metric_kind: 'llm_judgment' });
      }
      const expectedLabel = c.expected_label as string | null;
      const judgedAs = expectedLabel ? (answer.label ?? '').trim().toLowerCase() === expectedLabel.trim().toLowerCase() : answer.holds;
      const ok = c.kind === 'llm_judged_as' ? judgedAs : !judgedAs;
      const what = expectedLabel ? `labelled ${JSON.stringify(answer.label)} (expected ${c.kind === 'llm_judged_as' ? '' : 'not '}${JSON.stringify(expectedLabel)})` : answer.holds ? 'judged to meet the rubric' : 'judged not to meet the rubric';
      return ok ? pass({ metric_kind: 'llm_judgment' }) : { outcome: 'failed', metric_kind: 'llm_judgment', failure: { code: 'llm_judgment', message: `The value was ${what}`, details: { label: answer.label, reasoning: answer.reasoning } } };
    }
  }
}

/** What an assertion compares against, for the result's `expected_value`. */
function expectedValueOf(c: Condition): unknown {
  switch (c.kind) {
    case 'exists':
    case 'not_exists':
      return null;
    case 'matches_regex':
      return c.pattern;
    case 'between':
      return { lower: c.lower, upper: c.upper, inclusive: c.inclusive };
    case 'similarity_gte':
      return c.reference;
    case 'json_schema_valid':
      return c.schema;
    case 'all_items_match':
    case 'any_item_matches':
      return c.condition;
    case 'llm_judged_as':
    case 'llm_not_judged_as':
      return { rubric: c.rubric, expected_label: c.expected_label };
    default:
      return c.expected ?? null;
  }
}

/** The value an assertion looks at: the handle's data (a file handle: its FileRef) at the path; a `[*]` path gives the list of what it reaches. */
export function valueAt(handle: HandlePayload, path: string | null): unknown {
  const root = handle.type === 'json' ? handle.data : handle.document;
  const body = (path ?? '').replace(/^\$\.?/, '');
  if (!body) return root;
  const parts = body.replace(/\[(\*|\d+)\]/g, '.$1').split('.');
  let current: unknown[] = [root];
  for (const part of parts) {
    const next: unknown[] = [];
    for (const v of current) {
      if (part === '*') {
        if (Array.isArray(v)) next.push(...v);
      } else if (Array.isArray(v) && /^\d+$/.test(part)) next.push(v[Number(part)]);
      else if (isObject(v) && Object.hasOwn(v, part)) next.push(v[part]);
      else next.push(undefined);
    }
    current = next;
  }
  return parts.includes('*') ? current : current[0];
}

const MAX_SHOWN_VALUE = 16 * 1024;

/** Evaluates an assertion on a block's handle outputs. */
export async function evaluateAssertion(assertion: Assertion, outputs: Record<string, HandlePayload>, ctx: EvaluationContext): Promise<AssertionResult> {
  const c = assertion.condition;
  const handle = outputs[assertion.target.output_handle_id];
  const base = { assertion_id: assertion.id, condition_kind: c.kind, expected_value: expectedValueOf(c), assertion_label: assertion.label };
  if (!handle) {
    return {
      ...base,
      outcome: 'blocked',
      actual_value: null,
      score: null,
      threshold: null,
      metric_kind: null,
      failure: { code: 'handle_missing', message: `The block produced no "${assertion.target.output_handle_id}" output (it produced: ${Object.keys(outputs).join(', ') || 'nothing'})`, details: {} },
    };
  }
  const wildcard = (assertion.target.path ?? '').includes('*');
  const actual = valueAt(handle, assertion.target.path);
  const verdict = await check(c, actual, ctx, new RegexRunner(), wildcard);
  const shown = actual === undefined ? null : JSON.stringify(actual).length > MAX_SHOWN_VALUE ? `${JSON.stringify(actual).slice(0, MAX_SHOWN_VALUE)}… (cut at ${MAX_SHOWN_VALUE} characters)` : actual;
  return {
    ...base,
    outcome: verdict.outcome,
    actual_value: shown,
    score: verdict.score ?? null,
    threshold: verdict.threshold ?? null,
    metric_kind: verdict.metric_kind ?? null,
    failure: verdict.failure ? { code: verdict.failure.code, message: verdict.failure.message, details: verdict.failure.details ?? {} } : null,
  };
}
