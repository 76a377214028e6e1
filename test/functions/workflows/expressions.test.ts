/**
 * The safe expression language, conditions and review predicates (functions/workflows/expressions.ts,
 * conditions.ts, predicates.ts): what they compute, and what they refuse — unknown names and
 * functions, prototype reads, runaway evaluation (a step budget), oversized values.
 */
import { describe, expect, it } from 'vitest';
import { conditionProblems, evaluateCondition, valuesAt } from '../../../functions/workflows/conditions.ts';
import { evaluate, ExpressionError, expressionProblem } from '../../../functions/workflows/expressions.ts';
import { predicateFires, predicateProblems } from '../../../functions/workflows/predicates.ts';

const input = { total: 1200, currency: 'EUR', lines: [{ amount: 700, sku: 'A' }, { amount: 500, sku: 'B' }], vendor: { name: 'Acme GmbH' }, note: null };

describe('expressions', () => {
  it('compute over the input', () => {
    expect(evaluate('input.total > 1000 and input.currency == "EUR"', { input })).toBe(true);
    expect(evaluate('sum(input.lines[0].amount, input.lines[1].amount) - input.total', { input })).toBe(0);
    expect(evaluate('len(input.lines) * 2 + 1', { input })).toBe(5);
    expect(evaluate('lower(input.vendor.name) + "!"', { input })).toBe('acme gmbh!');
    expect(evaluate('input.note ?? "none"', { input })).toBe('none');
    expect(evaluate('input.missing.deeper', { input })).toBe(null);
    expect(evaluate('"B" in ["A", "B"] ? {ok: true, n: 2} : [1]', { input })).toEqual({ ok: true, n: 2 });
    expect(evaluate('round(10 / 3, 2)', {})).toBe(3.33);
    expect(evaluate('not (1 < 2) || input["currency"] != "USD"', { input })).toBe(true);
    expect(evaluate("contains(input.vendor.name, 'GmbH') && starts_with('abc', 'a')", { input })).toBe(true);
  });

  it('refuse what they must not do, with a clear message', () => {
    const problem = (text: string, scope: Record<string, unknown> = { input }) => {
      try {
        evaluate(text, scope);
      } catch (error) {
        expect(error).toBeInstanceOf(ExpressionError);
        return (error as Error).message;
      }
      return 'no error';
    };
    expect(problem('process.exit(1)')).toMatch(/only the listed functions can be called/);
    expect(problem('process')).toMatch(/unknown name "process"/);
    expect(problem('eval("1")')).toMatch(/unknown function eval/);
    expect(problem('input.constructor')).toMatch(/"constructor" cannot be read/);
    expect(problem('input["__proto__"]')).toMatch(/cannot be read/);
    expect(problem('{__proto__: 1}')).toMatch(/cannot be a key/);
    expect(problem('1 / 0')).toMatch(/division by zero/);
    expect(problem('input.total +')).toMatch(/ends too early/);
    // A budget of steps: no expression runs away.
    expect(() => evaluate('sum(input.lines[0].amount, input.lines[1].amount)', { input }, 5)).toThrow(/more than 5 steps/);
    expect(problem(Array.from({ length: 3000 }, () => '1').join(' + '))).toMatch(/longer than 10000 characters/);
    expect(problem('('.repeat(150) + '1' + ')'.repeat(150))).toMatch(/nested too deeply/);
    expect(expressionProblem(42)).toMatch(/must be a string/);
    expect(expressionProblem('a ==')).toBeDefined();
    expect(expressionProblem('a == 1')).toBeUndefined();
  });
});

describe('conditions', () => {
  it('match paths, wildcards, operators and compounds', () => {
    expect(valuesAt(input, 'lines[*].amount')).toEqual([700, 500]);
    expect(evaluateCondition({ path: 'total', operator: 'gt', value: 1000 }, input).matched).toBe(true);
    expect(evaluateCondition({ path: 'lines[*].amount', operator: 'lt', value: 600 }, input).matched).toBe(true);
    expect(evaluateCondition({ path: 'lines[*].sku', operator: 'eq', value: 'Z' }, input).matched).toBe(false);
    expect(evaluateCondition({ path: 'note', operator: 'is_null' }, input).matched).toBe(true);
    expect(evaluateCondition({ expression: 'input.total >= 1200' }, input)).toMatchObject({ matched: true, operator: 'expression' });
    const both = evaluateCondition({ logical_operator: 'and', conditions: [{ path: 'currency', operator: 'in', value: ['EUR', 'USD'] }, { path: 'vendor.name', operator: 'contains', value: 'Acme' }] }, input);
    expect(both).toMatchObject({ matched: true, logical_operator: 'and' });
    expect(both.sub_evaluations).toHaveLength(2);
    expect(conditionProblems({ path: 'x', operator: 'resembles' })).toEqual([[['operator'], expect.stringContaining('must be one of')]]);
    expect(conditionProblems({ logical_operator: 'xor', conditions: [] }).map(([path]) => path.join('.'))).toEqual(['logical_operator', 'conditions']);
    expect(conditionProblems({ expression: 'a +' })[0]![0]).toEqual(['expression']);
  });
});

describe('review predicates', () => {
  const schema = { type: 'object', required: ['invoice_number'], properties: { invoice_number: { type: ['string', 'null'] } } };
  it('fire on the output as their kind says', () => {
    expect(predicateFires({ kind: 'always' }, { output: {} })).toBe(true);
    expect(predicateFires({ kind: 'confidence_lt', threshold: 0.8 }, { output: {}, likelihoods: { a: 0.9, b: { c: 0.5 } } })).toBe(true);
    expect(predicateFires({ kind: 'confidence_lt', threshold: 0.4 }, { output: {}, likelihoods: { a: 0.9, b: { c: 0.5 } } })).toBe(false);
    expect(predicateFires({ kind: 'any_required_field_null' }, { output: { invoice_number: null }, jsonSchema: schema })).toBe(true);
    expect(predicateFires({ kind: 'validation_failed' }, { output: { invoice_number: 'X' }, jsonSchema: schema })).toBe(false);
    expect(predicateFires({ kind: 'category_in', categories: ['invoice'] }, { output: { category: 'invoice' } })).toBe(true);
    expect(predicateFires({ kind: 'top_margin_lt', margin: 0.2 }, { output: {}, likelihoods: { a: 0.5, b: 0.4 } })).toBe(true);
    expect(predicateFires({ kind: 'split_count_neq', expected: 2 }, { output: [{ name: 'a', pages: [1] }] })).toBe(true);
    expect(predicateFires({ kind: 'any_split_pages_lt', min_pages: 2 }, { output: [{ name: 'a', pages: [1] }] })).toBe(true);
    expect(predicateFires({ kind: 'any_pages_unassigned' }, { output: [{ name: 'a', pages: [1, 3] }], pageCount: 3 })).toBe(true);
    expect(predicateFires({ kind: 'branch_in', branches: ['high'] }, { output: {}, handle: 'high' })).toBe(true);
    expect(predicateFires({ kind: 'json_condition', condition: { path: 'total', operator: 'gte', value: 1000 } }, { output: input })).toBe(true);
    expect(predicateFires({ kind: 'any_of', predicates: [{ kind: 'category_in', categories: ['x'] }, { kind: 'always' }] }, { output: {} })).toBe(true);
    expect(predicateFires({ kind: 'all_of', predicates: [{ kind: 'category_in', categories: ['x'] }, { kind: 'always' }] }, { output: {} })).toBe(false);
  });

  it('name what is wrong in a predicate', () => {
    expect(predicateProblems({ kind: 'maybe' })[0]![1]).toMatch(/must be one of always/);
    expect(predicateProblems({ kind: 'confidence_lt' })).toEqual([[['threshold'], expect.stringContaining('needs threshold')]]);
    expect(predicateProblems({ kind: 'all_of', predicates: [{ kind: 'category_in', categories: 'invoice' }] })[0]![0]).toEqual(['predicates', 0, 'categories']);
  });
});
