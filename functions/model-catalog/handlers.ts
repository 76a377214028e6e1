/**
 * GET /v1/models (API §14): the HTTP face of the model registry. The registry itself lives in
 * models/, an engine folder that knows nothing of HTTP.
 */
import { api } from '../platform/http.ts';
import { modelOperations as ops } from './operations.ts';
import { listModels as registryModels } from '../models/registry.ts';

export const listModels = api(ops.listModels, async () => ({
  data: registryModels().map((m) => ({ id: m.id, provider: m.provider, capabilities: m.capabilities, credits_per_page: m.creditsPerPage })),
}));
