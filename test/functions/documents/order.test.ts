import { describe, expect, it } from 'vitest';
import { medianOf, orderByKey } from '../../../functions/documents/order.ts';

/** A small deterministic generator, so a failure can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

describe('orderByKey', () => {
  it('orders positions by key, equal keys in position order, like a stable comparator sort', () => {
    const random = seeded(5);
    for (const n of [0, 1, 2, 3, 7, 64, 65, 500, 1023]) {
      // Few distinct values, so most keys tie with others.
      const keys = Float64Array.from({ length: n }, () => Math.floor(random() * 10) - 3.5);
      const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[a]! - keys[b]!);
      expect(Array.from(orderByKey(keys))).toEqual(expected);
    }
  });

  it('keeps runs that are already in order as they are', () => {
    const keys = Float64Array.from([1, 2, 3, 1, 2, 3]);
    expect(Array.from(orderByKey(keys))).toEqual([0, 3, 1, 4, 2, 5]);
    // Longer than one insertion-sorted run: in order (ties included), then reversed.
    const ascending = Float64Array.from({ length: 300 }, (_, i) => Math.floor(i / 3));
    expect(Array.from(orderByKey(ascending))).toEqual(Array.from({ length: 300 }, (_, i) => i));
    const descending = Float64Array.from({ length: 300 }, (_, i) => 300 - i);
    expect(Array.from(orderByKey(descending))).toEqual(Array.from({ length: 300 }, (_, i) => 299 - i));
  });
});

describe('medianOf', () => {
  it('is the middle value, or the mean of the middle two', () => {
    expect(medianOf([5, 1, 3])).toBe(3);
    expect(medianOf([10, 2, 4, 8])).toBe(6);
    expect(medianOf([-2, 100, -7])).toBe(-2);
    expect(medianOf([])).toBeUndefined();
  });
});
