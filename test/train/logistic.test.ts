/** The fit behind the learned likelihoods: weighted rows, and how much each source counts in the calibration. */
import { describe, expect, it } from 'vitest';
import { perSourceWeights } from './candidates.ts';
import { fitLogistic } from './logistic.ts';

describe('fitLogistic', () => {
  const xs = [[0], [1], [2], [3], [1], [2]];
  const ys = [0, 0, 1, 1, 1, 0];

  it('counts a row of weight 2 as that row twice', () => {
    const twice = fitLogistic([...xs, xs[4]!], [...ys, ys[4]!], 0.5);
    const weighted = fitLogistic(xs, ys, 0.5, 25, [1, 1, 1, 1, 2, 1]);
    expect(weighted.weights[0]).toBeCloseTo(twice.weights[0]!, 5);
    expect(weighted.bias).toBeCloseTo(twice.bias, 5);
  });

  it('without weights, fits as with weights of 1', () => {
    const plain = fitLogistic(xs, ys, 0.5);
    const ones = fitLogistic(xs, ys, 0.5, 25, xs.map(() => 1));
    expect(ones).toEqual(plain);
  });
});

describe('perSourceWeights', () => {
  it('gives a source the square root of its rows, the weights summing to the rows', () => {
    const rows = [...Array(9).fill({ source: 'big' }), { source: 'small' }];
    const weights = perSourceWeights(rows);
    const total = (source: string) => weights.filter((_, i) => rows[i]!.source === source).reduce((a, b) => a + b, 0);
    expect(total('big') / total('small')).toBeCloseTo(3, 9);
    expect(total('big') + total('small')).toBeCloseTo(10, 9);
  });
});
