/**
 * L2-regularized logistic regression fitted by Newton's method (iteratively reweighted least
 * squares): a few dozen features and some thousands of rows converge in a handful of iterations,
 * and the result depends on nothing but the rows (no random start, no learning rate to tune).
 */
import { type LogisticModel, scoreOf } from '../../functions/models/local/logistic-model.ts';

export interface Fitted {
  weights: number[];
  bias: number;
}

/** Solves A x = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const p = m[col]![col]!;
    if (Math.abs(p) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / p;
      if (f === 0) continue;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}

/**
 * Fits P(y = 1 | x) = sigmoid(bias + weights · x). `lambda` is the L2 penalty on the weights (not on
 * the bias): it keeps weights of rare features small, which is what lets them carry to new sources.
 * `rowWeights` (default 1 each) says how much each row counts.
 */
export function fitLogistic(xs: readonly (readonly number[])[], ys: readonly number[], lambda = 1, iterations = 25, rowWeights?: readonly number[]): Fitted {
  const d = xs[0]?.length ?? 0;
  // Parameters: [bias, ...weights]
  let beta = new Array<number>(d + 1).fill(0);
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let r = 0; r < xs.length; r++) {
      const x = xs[r]!;
      let z = beta[0]!;
      for (let i = 0; i < d; i++) z += beta[i + 1]! * x[i]!;
      const p = 1 / (1 + Math.exp(-z));
      const weight = rowWeights?.[r] ?? 1;
      const w = weight * Math.max(p * (1 - p), 1e-9);
      const e = weight * (p - ys[r]!);
      grad[0]! += e;
      for (let i = 0; i < d; i++) grad[i + 1]! += e * x[i]!;
      hess[0]![0]! += w;
      for (let i = 0; i < d; i++) {
        const wi = w * x[i]!;
        hess[0]![i + 1]! += wi;
        hess[i + 1]![0]! += wi;
        for (let j = i; j < d; j++) hess[i + 1]![j + 1]! += wi * x[j]!;
      }
    }
    for (let i = 1; i <= d; i++) {
      for (let j = i + 1; j <= d; j++) hess[j]![i] = hess[i]![j]!;
      grad[i]! += lambda * beta[i]!;
      hess[i]![i]! += lambda;
    }
    const step = solve(hess, grad);
    let moved = 0;
    beta = beta.map((b, i) => {
      moved = Math.max(moved, Math.abs(step[i]!));
      return b - step[i]!;
    });
    if (moved < 1e-7) break;
  }
  return { bias: beta[0]!, weights: beta.slice(1).map((w) => Math.round(w * 1e6) / 1e6) };
}

/** A row for a learned likelihood: an answer's features, whether it was right, and its document's source. */
export interface SourcedRow {
  source: string;
  features: number[];
  right: boolean;
}

/** A logistic model of `rows` with its features named (functions/models/local/logistic-model.ts). */
export function fitNamedModel(rows: readonly SourcedRow[], features: readonly string[], lambda: number, fitted: Record<string, unknown>): LogisticModel {
  const { weights, bias } = fitLogistic(
    rows.map((r) => r.features),
    rows.map((r) => (r.right ? 1 : 0)),
    lambda,
  );
  return { features: [...features], weights, bias: Math.round(bias * 1e6) / 1e6, fitted };
}

/** Row weights that give each source a total of the square root of its rows (scaled to sum to the rows' count). */
export function perSourceWeights(rows: readonly { source: string }[]): number[] {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.source, (counts.get(r.source) ?? 0) + 1);
  const raw = rows.map((r) => 1 / Math.sqrt(counts.get(r.source)!));
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => (w * rows.length) / total);
}

/**
 * fitNamedModel, then calibrated for a new source (Platt scaling): how the score of a model fitted
 * without a source relates to being right on that source's rows, fitted on every source's rows so
 * scored, a source counting by the square root of its rows. A model is surer of the sources it was
 * fitted on than it should be of a new one; the calibration takes that back.
 */
export function fitCalibratedModel(rows: readonly SourcedRow[], features: readonly string[], lambda: number, fitted: Record<string, unknown>): LogisticModel {
  const model = fitNamedModel(rows, features, lambda, fitted);
  const others = leaveOneSourceOutModels(rows, (kept) => fitNamedModel(kept, features, lambda, {}));
  const outOfFold = rows.map((r) => scoreOf(others.get(r.source)!, r.features));
  return { ...model, calibration: plattScaling(rows, outOfFold) };
}

/**
 * Platt scaling: how the scores (log-odds) that models fitted without each row's source give it relate
 * to being right, fitted once more. A source counts by the square root of its rows, not by its rows:
 * a new user's documents are one more source, and one repository may hold half the rows.
 */
export function plattScaling(rows: readonly SourcedRow[], outOfFold: readonly number[]): { scale: number; shift: number } {
  const platt = fitLogistic(
    outOfFold.map((z) => [z]),
    rows.map((r) => (r.right ? 1 : 0)),
    0,
    25,
    perSourceWeights(rows),
  );
  return { scale: platt.weights[0]!, shift: Math.round(platt.bias * 1e6) / 1e6 };
}

/** One model per source, each fitted on the rows of every other source. */
export function leaveOneSourceOutModels(rows: readonly SourcedRow[], fit: (kept: readonly SourcedRow[], heldOut: string) => LogisticModel): Map<string, LogisticModel> {
  const models = new Map<string, LogisticModel>();
  for (const source of [...new Set(rows.map((r) => r.source))].sort()) models.set(source, fit(rows.filter((r) => r.source !== source), source));
  return models;
}
