/**
 * Eval assertions (functions/evals/assertions.ts), pure: each condition kind evaluated on a block's
 * handle outputs, and the checks made when an eval is saved (every problem located).
 */
import { describe, expect, it } from 'vitest';
import { assertionOf, evaluateAssertion, levenshteinSimilarity, splitIou, type TargetInfo } from '../../../functions/evals/assertions.ts';
import { Invalid } from '../../../functions/platform/errors.ts';

const SCHEMA = { type: 'object', properties: { total: { type: 'number' }, number: { type: 'string' } }, required: ['total'] };
const EXTRACT: TargetInfo = { blockId: 'fields', blockType: 'extract', handles: ['output', 'document'], jsonSchema: SCHEMA };
const OUTPUT = {
  number: 'INV-3301',
  total: 980,
  amount_text: '980.00',
  lines: [
    { sku: 'A', qty: 2 },
    { sku: 'B', qty: 5 },
  ],
  note: null,
};
const outputs = { output: { type: 'json' as const, data: OUTPUT } };

async function outcome(condition: Record<string, unknown>, path: string | null = null, ctx = {}) {
  const assertion = assertionOf({ target: { output_handle_id: 'output', path }, condition }, ['assertion'], EXTRACT);
  return evaluateAssertion(assertion, outputs, { blockSchema: SCHEMA, ...ctx });
}

describe('conditions', () => {
  it.each([
    [{ kind: 'exists' }, 'number', 'passed'],
    [{ kind: 'exists' }, 'note', 'failed'],
    [{ kind: 'not_exists' }, 'missing', 'passed'],
    [{ kind: 'equals', expected: 'INV-3301' }, 'number', 'passed'],
    [{ kind: 'equals', expected: 980.0 }, 'total', 'passed'],
    [{ kind: 'not_equals', expected: 'INV-3301' }, 'number', 'failed'],
    [{ kind: 'contains', expected: '3301' }, 'number', 'passed'],
    [{ kind: 'not_contains', expected: 'X' }, 'number', 'passed'],
    [{ kind: 'starts_with', expected: 'INV' }, 'number', 'passed'],
    [{ kind: 'ends_with', expected: '01' }, 'number', 'passed'],
    [{ kind: 'matches_regex', pattern: '(?i)^inv-\\d{4}$' }, 'number', 'passed'],
    [{ kind: 'matches_regex', pattern: '^\\d+$' }, 'number', 'failed'],
    [{ kind: 'number_compare', op: 'gte', expected: 900 }, 'total', 'passed'],
    [{ kind: 'number_compare', op: 'lt', expected: 900 }, 'amount_text', 'failed'],
    [{ kind: 'between', lower: 900, upper: 1000 }, 'total', 'passed'],
    [{ kind: 'length_compare', op: 'eq', expected: 2 }, 'lines', 'passed'],
    [{ kind: 'array_contains', expected: { sku: 'B' } }, 'lines', 'passed'],
    [{ kind: 'object_contains', expected: { number: 'INV-3301', total: 980 } }, null, 'passed'],
    [{ kind: 'all_items_match', condition: { kind: 'object_contains', expected: { sku: 'A' } } }, 'lines', 'failed'],
    [{ kind: 'any_item_matches', condition: { kind: 'object_contains', expected: { sku: 'A' } } }, 'lines', 'passed'],
    [{ kind: 'json_schema_valid' }, null, 'passed'],
    [{ kind: 'json_schema_valid', schema: { type: 'string' } }, null, 'failed'],
    [{ kind: 'similarity_gte', reference: 'INV-3310', threshold: 0.7 }, 'number', 'passed'],
    [{ kind: 'similarity_gte', reference: 'something else', threshold: 0.9 }, 'number', 'failed'],
    [{ kind: 'llm_judged_as', rubric: 'an invoice number' }, 'number', 'blocked'],
  ])('%j at %s: %s', async (condition, path, expected) => {
    const result = await outcome(condition, path, { noJudge: 'llm_judged_as needs an LLM provider' });
    expect(result.outcome, JSON.stringify(result)).toBe(expected);
  });

  it('a failure says what was found', async () => {
    const result = await outcome({ kind: 'equals', expected: 'INV-1' }, 'number');
    expect(result).toMatchObject({ outcome: 'failed', actual_value: 'INV-3301', expected_value: 'INV-1', failure: { message: expect.stringContaining('INV-3301') } });
  });

  it('an LLM judge decides llm_judged_as when there is one', async () => {
    const judge = async ({ value }: { value: unknown }) => ({ holds: value === 'INV-3301', label: null, reasoning: 'looks right' });
    expect((await outcome({ kind: 'llm_judged_as', rubric: 'an invoice number' }, 'number', { judge })).outcome).toBe('passed');
    expect((await outcome({ kind: 'llm_not_judged_as', rubric: 'an invoice number' }, 'number', { judge })).outcome).toBe('failed');
  });

  it('a pattern that backtracks without end is stopped, not run forever', async () => {
    const assertion = assertionOf({ target: { output_handle_id: 'output', path: 'text' }, condition: { kind: 'matches_regex', pattern: '^(a+)+$' } }, ['assertion'], EXTRACT);
    const started = Date.now();
    const result = await evaluateAssertion(assertion, { output: { type: 'json', data: { text: `${'a'.repeat(40)}!` } } }, {});
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.outcome).toBe('blocked');
  });

  it('a handle the block did not produce blocks the assertion', async () => {
    const assertion = assertionOf({ target: { output_handle_id: 'document' }, condition: { kind: 'exists' } }, ['assertion'], EXTRACT);
    expect((await evaluateAssertion(assertion, outputs, {})).outcome).toBe('blocked');
  });
});

describe('split IoU and similarity', () => {
  it('split_iou_gte compares pages by subdocument name', async () => {
    const split = { type: 'json' as const, data: [{ name: 'invoice', pages: [1, 2] }, { name: 'letter', pages: [3] }] };
    const target: TargetInfo = { blockId: 's', blockType: 'split', handles: ['output', 'document'] };
    const good = assertionOf({ target: { output_handle_id: 'output' }, condition: { kind: 'split_iou_gte', expected: { invoice: [1, 2], letter: [3] }, threshold: 0.99 } }, ['a'], target);
    const bad = assertionOf({ target: { output_handle_id: 'output' }, condition: { kind: 'split_iou_gte', expected: { invoice: [1], letter: [2, 3] }, threshold: 0.9 } }, ['a'], target);
    expect((await evaluateAssertion(good, { output: split }, {})).outcome).toBe('passed');
    expect((await evaluateAssertion(bad, { output: split }, {})).outcome).toBe('failed');
    expect(splitIou(new Map([['a', new Set([1, 2])]]), new Map([['a', new Set([2, 3])]])).score).toBeCloseTo(1 / 3);
  });

  it('Levenshtein similarity over code points', () => {
    expect(levenshteinSimilarity('', '')).toBe(1);
    expect(levenshteinSimilarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7);
  });
});

describe('checking an assertion when an eval is saved', () => {
  function issuesOf(raw: unknown) {
    try {
      assertionOf(raw, ['body', 'assertion'], EXTRACT);
    } catch (error) {
      if (error instanceof Invalid) return error.issues.map((i) => `${i.loc.join('.')}: ${i.msg}`);
      throw error;
    }
    return [];
  }

  it('names every problem at its place', () => {
    const issues = issuesOf({ target: { output_handle_id: 'nope', path: 5 }, condition: { kind: 'number_compare', op: 'about' } });
    expect(issues.some((i) => i.startsWith('body.assertion.target.output_handle_id') && i.includes('"nope"'))).toBe(true);
    expect(issues.some((i) => i.startsWith('body.assertion.target.path'))).toBe(true);
    expect(issues.some((i) => i.startsWith('body.assertion.condition.op'))).toBe(true);
    expect(issuesOf({ target: { output_handle_id: 'output' } })).toEqual([expect.stringMatching(/^body\.assertion\.condition: needs a condition/)]);
    expect(issuesOf({ target: { output_handle_id: 'output' }, condition: { kind: 'matches_regex', pattern: '(' } })[0]).toMatch(/pattern/);
    expect(issuesOf('equals')).toHaveLength(1);
  });

  it('gives an assertion an id that follows from it, unless one is given', () => {
    const a = assertionOf({ target: { output_handle_id: 'output', path: 'total' }, condition: { kind: 'exists' } }, ['a'], EXTRACT);
    const b = assertionOf({ target: { output_handle_id: 'output', path: 'total' }, condition: { kind: 'exists' } }, ['a'], EXTRACT);
    expect(a.id).toBe(b.id);
    expect(assertionOf({ id: 'total-exists', target: { output_handle_id: 'output' }, condition: { kind: 'exists' } }, ['a'], EXTRACT).id).toBe('total-exists');
  });
});
