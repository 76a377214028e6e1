/**
 * The reconciliation of JSON answers (models/shared/consensus.ts `reconcile`): what POST /v1/consensus
 * answers and what the LLM providers' n_consensus consolidates — list items aligned by content,
 * then every leaf voted.
 */
import { describe, expect, it } from 'vitest';
import { consolidateValues, reconcile } from '../../../functions/models/shared/consensus.ts';

describe('reconcile', () => {
  it('aligns list items by content whatever their order, then votes each leaf', () => {
    const a = { invoice: 'INV-1', total: 1250, items: [{ d: 'Widget A', q: 2 }, { d: 'Gadget B', q: 1 }, { d: 'Thing C', q: 5 }] };
    const b = { invoice: 'inv-1', total: 1205, items: [{ d: 'Gadget B', q: 1 }, { d: 'Widget A', q: 2 }, { d: 'Thing C', q: 5 }] };
    const c = { invoice: 'INV-1', total: 1250, items: [{ d: 'Thing C', q: 5 }, { d: 'Widget  A', q: 3 }] };
    const r = reconcile([a, b, c], { alignment: true });
    // The reference (most complete: a) gives the order; "Widget  A" is Widget A, spacing aside.
    expect(r.value).toEqual({ invoice: 'INV-1', total: 1250, items: [{ d: 'Widget A', q: 2 }, { d: 'Gadget B', q: 1 }, { d: 'Thing C', q: 5 }] });
    expect(r.referenceIndex).toBe(0);
    expect(r.likelihoods).toEqual({ invoice: 1, total: 2 / 3, items: [{ d: 1, q: 2 / 3 }, { d: 2 / 3, q: 2 / 3 }, { d: 1, q: 1 }] });
    expect(r.fields.find((f) => f.path === 'items.1.q')).toEqual({ path: 'items.1.q', value: 1, likelihood: 2 / 3, supporting: 2, total: 3 });
    expect(r.pathAlignments).toEqual([
      { canonicalPath: 'items.0', sourcePaths: ['items.0', 'items.1', 'items.1'] },
      { canonicalPath: 'items.1', sourcePaths: ['items.1', 'items.0', null] },
      { canonicalPath: 'items.2', sourcePaths: ['items.2', 'items.2', 'items.0'] },
    ]);
    expect(r.alignedInputs![2]).toEqual({ invoice: 'INV-1', total: 1250, items: [{ d: 'Widget  A', q: 3 }, null, { d: 'Thing C', q: 5 }] });
  });

  it('keeps an item at least half of the inputs have; drops one only a minority has', () => {
    const base = [{ sku: 'A-1', qty: 1 }, { sku: 'B-2', qty: 2 }];
    const r = reconcile([{ items: base }, { items: [...base, { sku: 'Z-9', qty: 9 }] }, { items: [base[1], base[0]] }]);
    expect(r.value).toEqual({ items: base });
    const two = reconcile([{ items: base }, { items: [base[0], { sku: 'C-3', qty: 3 }] }]);
    expect((two.value as { items: unknown[] }).items).toHaveLength(3);
  });

  it('an item\'s fields are voted among the inputs that have the item; likelihoods are shares of all inputs', () => {
    const r = reconcile([{ items: [{ a: 1, b: 'x' }] }, { items: [{ a: 1 }] }, { items: [] }, { items: [{ a: 1, b: 'x' }] }]);
    expect(r.value).toEqual({ items: [{ a: 1, b: 'x' }] });
    expect(r.likelihoods).toEqual({ items: [{ a: 3 / 4, b: 2 / 4 }] });
  });

  it('with a schema: its property order, and null (likelihood 0) for what no input gives', () => {
    const r = reconcile([{ b: 2, a: 1 }, { a: 1 }], { schema: { type: 'object', properties: { a: {}, b: {}, c: {} } } });
    expect(Object.keys(r.value as object)).toEqual(['a', 'b', 'c']);
    expect(r.value).toEqual({ a: 1, b: 2, c: null });
    expect(r.fields.map((f) => [f.path, f.supporting])).toEqual([
      ['a', 2],
      ['b', 1],
      ['c', 0],
    ]);
  });

  it('null is a vote; a key most inputs lack is left out; numbers and numeric text vote alike', () => {
    const r = reconcile([{ x: null, y: '1250.0', z: 1 }, { x: null, y: 1250 }, { x: 'v', y: 1250 }]);
    expect(r.value).toEqual({ x: null, y: 1250 });
    expect(r.likelihoods).toEqual({ x: 2 / 3, y: 1 });
  });

  it('consolidateValues (the providers\' n_consensus) is the same reconciliation', () => {
    const votes = [{ items: [{ n: 'a' }, { n: 'b' }] }, { items: [{ n: 'b' }, { n: 'a' }] }, { items: [{ n: 'a' }, { n: 'b' }] }];
    expect(consolidateValues(votes)).toEqual({ value: { items: [{ n: 'a' }, { n: 'b' }] }, likelihoods: { items: [{ n: 1 }, { n: 1 }] } });
  });
});
