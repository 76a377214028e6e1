/**
 * Conditions (a `conditional` block's branches, a `while_loop`'s stop condition, a review's
 * `json_condition`) and review predicates (`config.review.predicate`), evaluated on a block's
 * output. A condition is one of:
 *   {"expression": "input.total > 1000"}                      an expression (./expressions.ts) over `input`
 *   {"path": "total", "operator": "gt", "value": 1000}        a path into the value, an operator, a value
 *   {"logical_operator": "and"|"or", "conditions": [...]}      several of these
 * Paths are dotted (`lines[0].amount`, `lines[*].amount`: `*` matches when any item does).
 */
import { evaluate, expressionProblem, sameValue, truthy } from './expressions.ts';

export const OPERATORS = [
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'not_contains', 'in', 'not_in', 'starts_with', 'ends_with',
  'exists', 'not_exists', 'is_null', 'is_not_null', 'is_empty', 'is_not_empty', 'is_true', 'is_false',
] as const;
type Operator = (typeof OPERATORS)[number];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ConditionResult {
  condition_id: string;
  path: string;
  operator: string;
  expected: unknown;
  actual: unknown;
  matched: boolean;
  logical_operator: 'and' | 'or' | null;
  sub_evaluations: Array<{ sub_condition_id: string; path: string; operator: string; expected: unknown; actual: unknown; matched: boolean }> | null;
}

/** The problems of a condition, as [path within it, message]. */
export function conditionProblems(c: unknown, at: Array<string | number> = []): Array<[Array<string | number>, string]> {
  if (!isObject(c)) return [[at, 'a condition must be an object: {expression}, {path, operator, value} or {logical_operator, conditions}']];
  if ('expression' in c) {
    const problem = expressionProblem(c.expression);
    return problem ? [[[...at, 'expression'], problem]] : [];
  }
  if ('conditions' in c || 'logical_operator' in c) {
    const problems: Array<[Array<string | number>, string]> = [];
    if (c.logical_operator !== 'and' && c.logical_operator !== 'or') problems.push([[...at, 'logical_operator'], 'must be "and" or "or"']);
    if (!Array.isArray(c.conditions) || c.conditions.length === 0) problems.push([[...at, 'conditions'], 'must be a non-empty list of conditions']);
    else c.conditions.forEach((sub, i) => problems.push(...conditionProblems(sub, [...at, 'conditions', i])));
    return problems;
  }
  const problems: Array<[Array<string | number>, string]> = [];
  if (typeof c.path !== 'string') problems.push([[...at, 'path'], 'must be a string (a dotted path into the value; "" for the value itself)']);
  if (!(OPERATORS as readonly string[]).includes(String(c.operator))) problems.push([[...at, 'operator'], `must be one of ${OPERATORS.join(', ')}`]);
  return problems;
}

/** The values at a dotted path (several where it has a `*`). */
export function valuesAt(value: unknown, path: string): unknown[] {
  const parts = path.replace(/\[(\*|\d+)\]/g, '.$1').split('.').filter(Boolean);
  let current: unknown[] = [value];
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
  return current;
}

function compare(actual: unknown, operator: Operator, expected: unknown): boolean {
  const empty = actual === undefined || actual === null || actual === '' || (Array.isArray(actual) && actual.length === 0) || (isObject(actual) && Object.keys(actual).length === 0);
  const ordered = (f: (a: number | string, b: number | string) => boolean) => {
    if (actual === null || actual === undefined || expected === null || expected === undefined) return false;
    if (typeof actual === 'string' && typeof expected === 'string') return f(actual, expected);
    const a = Number(actual);
    const b = Number(expected);
    return !Number.isNaN(a) && !Number.isNaN(b) && f(a, b);
  };
  switch (operator) {
    case 'eq':
      return sameValue(actual ?? null, expected ?? null);
    case 'neq':
      return !sameValue(actual ?? null, expected ?? null);
    case 'gt':
      return ordered((a, b) => a > b);
    case 'gte':
      return ordered((a, b) => a >= b);
    case 'lt':
      return ordered((a, b) => a < b);
    case 'lte':
      return ordered((a, b) => a <= b);
    case 'contains':
      return Array.isArray(actual) ? actual.some((x) => sameValue(x, expected)) : typeof actual === 'string' && actual.includes(String(expected));
    case 'not_contains':
      return !compare(actual, 'contains', expected);
    case 'in':
      return Array.isArray(expected) && expected.some((x) => sameValue(x, actual));
    case 'not_in':
      return !compare(actual, 'in', expected);
    case 'starts_with':
      return typeof actual === 'string' && actual.startsWith(String(expected));
    case 'ends_with':
      return typeof actual === 'string' && actual.endsWith(String(expected));
    case 'exists':
      return actual !== undefined;
    case 'not_exists':
      return actual === undefined;
    case 'is_null':
      return actual === null || actual === undefined;
    case 'is_not_null':
      return actual !== null && actual !== undefined;
    case 'is_empty':
      return empty;
    case 'is_not_empty':
      return !empty;
    case 'is_true':
      return actual === true;
    case 'is_false':
      return actual === false;
  }
}

/** Evaluates a condition (checked with conditionProblems first) on `value`. */
export function evaluateCondition(c: Record<string, unknown>, value: unknown, id = 'condition'): ConditionResult {
  const conditionId = typeof c.id === 'string' ? c.id : id;
  if ('expression' in c) {
    const actual = evaluate(String(c.expression), { input: value });
    return { condition_id: conditionId, path: '', operator: 'expression', expected: c.expression, actual, matched: truthy(actual), logical_operator: null, sub_evaluations: null };
  }
  if (Array.isArray(c.conditions)) {
    const op = c.logical_operator === 'or' ? 'or' : 'and';
    const subs = (c.conditions as Record<string, unknown>[]).map((sub, i) => evaluateCondition(sub, value, `${conditionId}.${i}`));
    const matched = op === 'and' ? subs.every((s) => s.matched) : subs.some((s) => s.matched);
    return {
      condition_id: conditionId,
      path: '',
      operator: op,
      expected: null,
      actual: null,
      matched,
      logical_operator: op,
      sub_evaluations: subs.map((s) => ({ sub_condition_id: s.condition_id, path: s.path, operator: s.operator, expected: s.expected, actual: s.actual, matched: s.matched })),
    };
  }
  const path = String(c.path ?? '');
  const operator = c.operator as Operator;
  const values = valuesAt(value, path);
  const matched = path.includes('*') ? values.some((v) => compare(v, operator, c.value)) : compare(values[0], operator, c.value);
  const actual = path.includes('*') ? values : (values[0] ?? null);
  return { condition_id: conditionId, path, operator, expected: c.value ?? null, actual, matched, logical_operator: null, sub_evaluations: null };
}
