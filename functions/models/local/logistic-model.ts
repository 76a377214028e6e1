/**
 * A fitted logistic model of whether an answer is right, from named features: what the learned
 * likelihoods of splits (./split.ts) and classification (./classify.ts) are. Written as data files
 * of ./weights/ by `npm run train` (test/train/), never by hand.
 */
export interface LogisticModel {
  /** The feature names it was fitted with, in the order of `weights` (must equal the engine's list). */
  features: string[];
  weights: number[];
  bias: number;
  /**
   * Platt scaling of the score for a new source (fitted on scores of models fitted without each
   * source): the likelihood is sigmoid(shift + scale × score). Absent: sigmoid(score).
   */
  calibration?: { scale: number; shift: number };
  /** What it was fitted on, for whoever reads the file. */
  fitted: Record<string, unknown>;
}

/** The probability, by `model`, that an answer with these features is right. */
export function probabilityOf(model: LogisticModel, x: readonly number[]): number {
  let z = scoreOf(model, x);
  if (model.calibration) z = model.calibration.shift + model.calibration.scale * z;
  return 1 / (1 + Math.exp(-z));
}

/** The model's fitted score (log-odds) for these features, before any calibration. */
export function scoreOf(model: LogisticModel, x: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < x.length; i++) z += model.weights[i]! * x[i]!;
  return z;
}

/** logit(p), with p kept within [0.001, 0.999] (a feature must stay finite). */
export function boundedLogit(p: number): number {
  const q = Math.min(0.999, Math.max(0.001, p));
  return Math.log(q / (1 - q));
}
