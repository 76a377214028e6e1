/**
 * The engines behind model names, loaded lazily. Only task code imports this module: the API Lambdas
 * validate model names through ./registry.ts and must not bundle an engine or a provider SDK.
 *
 * `quire-local` (and aliases of it) is the built-in engine; a provider-backed model gets the provider
 * engine (./providers/), which implements the same interfaces over an OpenAI-compatible endpoint or
 * Amazon Bedrock. A provider is never loaded, let alone called, for `quire-local`.
 */
import type { Engine, Extractor, FormFiller, Parser, SchemaGenerator } from './engine.ts';
import type { ProviderEngine } from './providers/engine.ts';
import { findModel, type ModelEntry } from './registry.ts';

function entryOf(model: string): ModelEntry {
  const entry = findModel(model);
  if (!entry) throw new Error(`Unknown model ${model}`);
  return entry;
}

/** Whether the model runs on the built-in engine (quire-local and its aliases), not a provider. */
export function runsBuiltIn(model: string): boolean {
  return entryOf(model).settings === undefined;
}

/** The provider engine of a provider-backed model, or undefined for the local engine. */
async function providerEngineOf(model: string): Promise<ProviderEngine | undefined> {
  const { settings, capabilities } = entryOf(model);
  if (!settings) return undefined;
  return (await import('./providers/index.ts')).providerEngine(settings, capabilities);
}

export async function engineFor(model: string): Promise<Engine> {
  return (await providerEngineOf(model)) ?? (await import('./local/index.ts')).localEngine;
}

export async function extractorFor(model: string): Promise<Extractor> {
  return (await providerEngineOf(model)) ?? (await import('./local/extract.ts')).localExtractor;
}

export async function parserFor(model: string): Promise<Parser> {
  return (await providerEngineOf(model)) ?? (await import('./local/parse.ts')).localParser;
}

export async function schemaGeneratorFor(model: string): Promise<SchemaGenerator> {
  const provider = await providerEngineOf(model);
  if (provider) return provider;
  const { inferSchema } = await import('./local/infer-schema.ts');
  return { generateSchema: async ({ docs, instructions }) => inferSchema(docs, { instructions }) };
}

export async function formFillerFor(model: string): Promise<FormFiller> {
  return (await providerEngineOf(model)) ?? (await import('./local/form-values.ts')).localFormFiller;
}
