/** The fit behind the learned likelihoods: weighted rows, how much each source counts in the calibration, and the calibration. */
import { describe, expect, it } from 'vitest';
import { probabilityOf } from '../../functions/models/local/logistic-model.ts';
import { fitCalibratedModel, fitNamedModel, fitLogistic, perSourceWeights, type SourcedRow } from './logistic.ts';

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

describe('fitCalibratedModel', () => {
  /** Four sources where a high x is mostly right (noisy), but in `reversed` mostly wrong. */
  const rowsOf = (reversed: string | null): SourcedRow[] =>
    ['a', 'b', 'c', 'd'].flatMap((source, s) =>
      Array.from({ length: 50 }, (_, i) => {
        const x = i / 49;
        const highRight = (i * 7 + s * 3) % 10 < 10 * x;
        return { source, features: [x], right: source === reversed ? !highRight : highRight };
      }),
    );

  it('takes back a certainty that does not carry from source to source', () => {
    const rows = rowsOf('d');
    const plain = fitNamedModel(rows, ['x'], 0.01, {});
    const calibrated = fitCalibratedModel(rows, ['x'], 0.01, {});
    expect(calibrated.weights).toEqual(plain.weights);
    // Fitted on all four, a high x looks right three times in four; but a model fitted without one
    // source is as often wrong as right about it: for a new source, x says nothing.
    expect(probabilityOf(plain, [1])).toBeGreaterThan(0.75);
    expect(Math.abs(probabilityOf(calibrated, [1]) - 0.5)).toBeLessThan(0.05);
  });

  it('leaves a model whose sources agree as it is', () => {
    const calibrated = fitCalibratedModel(rowsOf(null), ['x'], 0.01, {});
    expect(calibrated.calibration!.scale).toBeGreaterThan(0.9);
    expect(calibrated.calibration!.scale).toBeLessThan(1.1);
    expect(Math.abs(calibrated.calibration!.shift)).toBeLessThan(0.05);
  });
});
