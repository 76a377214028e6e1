/**
 * The learned scoring of extraction candidates (../learned.ts): written by `npm run train`
 * (test/train/candidates.ts) from the corpus truth, never by hand. null: no model trained yet, and
 * the engine scores candidates with the hand-set weights.
 */
import type { CandidateModel } from '../learned.ts';

export const CANDIDATE_MODEL: CandidateModel | null = null;
