/**
 * The engines behind model names, loaded lazily. Only task code imports this module: the API Lambdas
 * validate model names through ./registry.ts and must not bundle an engine.
 */
import type { Engine, Extractor, FormFiller } from './engine.ts';
import { findModel } from './registry.ts';

function known(model: string): void {
  if (!findModel(model)) throw new Error(`Unknown model ${model}`);
}

export async function engineFor(model: string): Promise<Engine> {
  known(model);
  return (await import('./local/index.ts')).localEngine;
}

export async function extractorFor(model: string): Promise<Extractor> {
  known(model);
  return (await import('./local/extract.ts')).localExtractor;
}

export async function formFillerFor(model: string): Promise<FormFiller> {
  known(model);
  return (await import('./local/form-values.ts')).localFormFiller;
}
