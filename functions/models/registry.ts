/**
 * The model registry (API §14): names → providers. Built in: `quire-local`, the deterministic local
 * engine, and the `retab-*` aliases pointing at it. A deployment adds provider-backed models with the
 * environment variable `QUIRE_MODELS` (JSON) or `QUIRE_MODELS_FILE` (a path to the same JSON):
 *
 *   {"gpt-4o-mini": {"provider": "openai-compatible", "baseUrl": "http://127.0.0.1:11434/v1",
 *                    "apiKeyEnv": "OPENAI_API_KEY", "model": "gpt-4o-mini", "vision": true, "creditsPerPage": 1},
 *    "claude":      {"provider": "bedrock", "model": "anthropic.claude-…", "region": "eu-west-1"},
 *    "retab-small": {"alias": "gpt-4o-mini"}}
 *
 * The configuration is read once, on first use; an invalid one throws ModelsConfigError naming the
 * problem (npm start checks it before listening). This module is bundled into the API Lambdas: it
 * must not import an engine or a provider SDK.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';

export type Capability = 'parse' | 'split' | 'partition' | 'classify' | 'extract' | 'generate_schema' | 'edit';

export const ALL_CAPABILITIES: Capability[] = ['parse', 'split', 'partition', 'classify', 'extract', 'generate_schema', 'edit'];

/** How to reach an OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, LM Studio, ...). */
export interface OpenAiCompatibleSettings {
  provider: 'openai-compatible';
  /** The endpoint's base URL, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Name of the environment variable holding the API key (never the key itself). */
  apiKeyEnv?: string;
  /** The provider's own model id. */
  model: string;
  /** Whether the model reads images: pages are then sent as images, else as text. */
  vision: boolean;
  /**
   * Structured output mode: `strict` (response_format json_schema, strict where the schema allows
   * it) or `json` (response_format json_object, the schema in the prompt) for endpoints without
   * structured outputs. Answers are validated either way, with one repair retry.
   */
  structuredOutput: 'strict' | 'json';
  /** Time allowed for one request (the run's own budget caps it). */
  timeoutMs: number;
  /** Sampling temperature for n_consensus > 1 (1 vote is sent at temperature 0). */
  temperature?: number;
}

/** A model of Amazon Bedrock, called through the Converse API. */
export interface BedrockSettings {
  provider: 'bedrock';
  /** The Bedrock model id (or inference profile id). */
  model: string;
  /** Region of the model (default: the Lambda's region). */
  region?: string;
  vision: boolean;
  timeoutMs: number;
  temperature?: number;
}

export type ProviderSettings = OpenAiCompatibleSettings | BedrockSettings;

export interface ModelEntry {
  id: string;
  provider: string;
  capabilities: Capability[];
  creditsPerPage: number;
  /** For aliases: the model it resolves to. */
  aliasOf?: string;
  /** For provider-backed models (and aliases of them): how to call the provider. */
  settings?: ProviderSettings;
}

export const DEFAULT_MODEL = 'quire-local';

const LOCAL: ModelEntry = { id: 'quire-local', provider: 'quire-local', capabilities: ALL_CAPABILITIES, creditsPerPage: 0.1 };
const RETAB_ALIASES = ['retab-micro', 'retab-small', 'retab-large'];

// ---------------------------------------------------------------------------------------------
// Configuration

/** An invalid QUIRE_MODELS configuration; the message says what to fix. */
export class ModelsConfigError extends Error {
  override name = 'ModelsConfigError';
}

const common = {
  model: z.string().min(1),
  vision: z.boolean().default(false),
  creditsPerPage: z.number().nonnegative().default(1),
  capabilities: z.array(z.enum(ALL_CAPABILITIES as [Capability, ...Capability[]])).min(1).optional(),
  timeoutMs: z.number().int().positive().default(60_000),
  temperature: z.number().min(0).max(2).optional(),
};

const OpenAiEntry = z.strictObject({
  provider: z.literal('openai-compatible'),
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable').optional(),
  structuredOutput: z.enum(['strict', 'json']).default('strict'),
  ...common,
});

const BedrockEntry = z.strictObject({
  provider: z.literal('bedrock'),
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region such as eu-west-1').optional(),
  ...common,
});

const AliasEntry = z.strictObject({ alias: z.string().min(1) });

const ConfigEntry = z.union([OpenAiEntry, BedrockEntry, AliasEntry]);
const ModelsConfig = z.record(z.string(), z.unknown());
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(entry)'}: ${i.message}`).join('; ');
}

function entryProblem(name: string, raw: unknown): ModelsConfigError {
  // Name the likely intent: a provider entry or an alias, so the message is about the right fields.
  const shape = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const schema = 'alias' in shape ? AliasEntry : shape.provider === 'bedrock' ? BedrockEntry : shape.provider === 'openai-compatible' ? OpenAiEntry : undefined;
  if (!schema) return new ModelsConfigError(`model "${name}": give either "provider" ("openai-compatible" or "bedrock") or "alias"`);
  const parsed = schema.safeParse(raw);
  return new ModelsConfigError(`model "${name}": ${parsed.success ? 'invalid entry' : describeIssues(parsed.error)}`);
}

/**
 * The registry described by a configuration (the parsed JSON of QUIRE_MODELS). Throws
 * ModelsConfigError naming the first problem.
 */
export function buildRegistry(config: unknown): Map<string, ModelEntry> {
  const registry = new Map<string, ModelEntry>([[LOCAL.id, LOCAL], ...RETAB_ALIASES.map((id) => [id, { ...LOCAL, id, aliasOf: LOCAL.id }] as const)]);
  if (config === undefined) return registry;
  const top = ModelsConfig.safeParse(config);
  if (!top.success) throw new ModelsConfigError(`expected a JSON object mapping model names to entries (${describeIssues(top.error)})`);

  const aliases: Array<[string, string]> = [];
  for (const [name, raw] of Object.entries(top.data)) {
    if (!MODEL_NAME.test(name)) throw new ModelsConfigError(`model name ${JSON.stringify(name)}: model names are letters, digits and . _ : - (at most 100)`);
    if (name === LOCAL.id) throw new ModelsConfigError(`model "${name}" is built in and cannot be redefined`);
    const parsed = ConfigEntry.safeParse(raw);
    if (!parsed.success) throw entryProblem(name, raw);
    const entry = parsed.data;
    if ('alias' in entry) {
      aliases.push([name, entry.alias]);
      continue;
    }
    const { capabilities, creditsPerPage, ...settings } = entry;
    registry.set(name, { id: name, provider: entry.provider, capabilities: capabilities ?? ALL_CAPABILITIES, creditsPerPage, settings: settings as ProviderSettings });
  }
  // Aliases point at a model that is not itself an alias (no chains, so no cycles).
  const aliasNames = new Set(aliases.map(([name]) => name));
  for (const [name, target] of aliases) {
    const entry = aliasNames.has(target) ? undefined : registry.get(target);
    if (!entry || entry.aliasOf !== undefined) {
      const models = [...registry.values()].filter((m) => m.aliasOf === undefined && !aliasNames.has(m.id)).map((m) => m.id);
      throw new ModelsConfigError(`model "${name}" is an alias of "${target}", which is not a model (an alias points at one of: ${models.join(', ')})`);
    }
    registry.set(name, { ...entry, id: name, aliasOf: target });
  }
  return registry;
}

/** The configuration text of this process: QUIRE_MODELS, else the file QUIRE_MODELS_FILE names. */
function configText(env: NodeJS.ProcessEnv): { text: string; from: string } | undefined {
  if (env.QUIRE_MODELS?.trim()) return { text: env.QUIRE_MODELS, from: 'QUIRE_MODELS' };
  const file = env.QUIRE_MODELS_FILE?.trim();
  if (!file) return undefined;
  try {
    return { text: readFileSync(file, 'utf8'), from: `QUIRE_MODELS_FILE (${file})` };
  } catch (error) {
    throw new ModelsConfigError(`QUIRE_MODELS_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Reads and checks the models configuration of `env`; throws ModelsConfigError with a clear message. */
export function registryFromEnvironment(env: NodeJS.ProcessEnv = process.env): Map<string, ModelEntry> {
  const source = configText(env);
  if (!source) return buildRegistry(undefined);
  let json: unknown;
  try {
    json = JSON.parse(source.text);
  } catch (error) {
    throw new ModelsConfigError(`Invalid model configuration in ${source.from}: not JSON (${(error as Error).message})`);
  }
  try {
    return buildRegistry(json);
  } catch (error) {
    if (error instanceof ModelsConfigError) throw new ModelsConfigError(`Invalid model configuration in ${source.from}: ${error.message}`);
    throw error;
  }
}

let registry: Map<string, ModelEntry> | undefined;

function current(): Map<string, ModelEntry> {
  registry ??= registryFromEnvironment();
  return registry;
}

/** Tests that change QUIRE_MODELS call this so the registry is read again. */
export function resetModelRegistry(): void {
  registry = undefined;
}

// ---------------------------------------------------------------------------------------------
// Look-ups

export function listModels(): ModelEntry[] {
  return [...current().values()];
}

export function knownModelNames(): string[] {
  return [...current().keys()];
}

export function findModel(name: string): ModelEntry | undefined {
  return current().get(name);
}

/** Credits of a run that read `pages` pages `votes` times with `model`. */
export function creditsFor(model: string, pages: number, votes = 1): number {
  const perPage = findModel(model)?.creditsPerPage ?? 0;
  return Math.round(pages * votes * perPage * 1000) / 1000;
}
