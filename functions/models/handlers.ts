import { api } from '../platform/http.ts';
import { modelOperations as ops } from './operations.ts';
import { listModels as registryModels } from './registry.ts';

export const listModels = api(ops.listModels, async () => ({
  data: registryModels().map((m) => ({ id: m.id, provider: m.provider, capabilities: m.capabilities, credits_per_page: m.creditsPerPage })),
}));
