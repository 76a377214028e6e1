/**
 * `quire-local`: the built-in engine (DESIGN §6). Deterministic, offline, no model weights: term
 * evidence with a small document-type lexicon for classification, a labelling chain for splits, label
 * proximity for partitions, and bagged votes for consensus.
 *
 * The work is synchronous CPU (milliseconds per page); the Engine interface is async so providers
 * that call out can implement it too.
 */
import type { Engine } from '../engine.ts';
import { classify } from './classify.ts';
import { partition } from './partition.ts';
import { split } from './split.ts';

export const localEngine: Engine = {
  classify: async (request) => classify(request),
  split: async (request) => split(request),
  partition: async (request) => partition(request),
};
