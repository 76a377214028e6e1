/**
 * The model registry (API §14): names → providers. Built in: `quire-local`, the deterministic local
 * engine, and the `retab-*` aliases pointing at it. Provider-backed models come with the providers issue.
 */
export type Capability = 'parse' | 'split' | 'partition' | 'classify' | 'extract' | 'generate_schema' | 'edit';

export interface ModelEntry {
  id: string;
  provider: string;
  capabilities: Capability[];
  creditsPerPage: number;
  /** For aliases: the model it resolves to. */
  aliasOf?: string;
}

export const DEFAULT_MODEL = 'quire-local';

const ALL_CAPABILITIES: Capability[] = ['parse', 'split', 'partition', 'classify', 'extract', 'generate_schema', 'edit'];

const LOCAL: ModelEntry = { id: 'quire-local', provider: 'quire-local', capabilities: ALL_CAPABILITIES, creditsPerPage: 0.1 };

const registry = new Map<string, ModelEntry>([
  [LOCAL.id, LOCAL],
  ...['retab-micro', 'retab-small', 'retab-large'].map((id) => [id, { ...LOCAL, id, aliasOf: LOCAL.id }] as const),
]);

export function listModels(): ModelEntry[] {
  return [...registry.values()];
}

export function knownModelNames(): string[] {
  return [...registry.keys()];
}

export function findModel(name: string): ModelEntry | undefined {
  return registry.get(name);
}

/** Credits of a run that read `pages` pages `votes` times with `model`. */
export function creditsFor(model: string, pages: number, votes = 1): number {
  const perPage = findModel(model)?.creditsPerPage ?? 0;
  return Math.round(pages * votes * perPage * 1000) / 1000;
}
