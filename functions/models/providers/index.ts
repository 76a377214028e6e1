/**
 * The provider engine of a configured model: its client (OpenAI-compatible or Bedrock) under the
 * shared ProviderEngine. Engines are kept per settings for the life of the process (a warm Lambda
 * reuses its HTTP connections).
 */
import type { Capability, ProviderSettings } from '../registry.ts';
import { BedrockClient } from './bedrock.ts';
import { ProviderEngine } from './engine.ts';
import { OpenAiCompatibleClient } from './openai-compatible.ts';

const engines = new Map<string, ProviderEngine>();

export function providerEngine(settings: ProviderSettings, capabilities: Capability[]): ProviderEngine {
  const id = JSON.stringify([settings, capabilities]);
  let engine = engines.get(id);
  if (!engine) {
    engine = create(settings, capabilities);
    engines.set(id, engine);
  }
  return engine;
}

function create(settings: ProviderSettings, capabilities: Capability[]): ProviderEngine {
  const common = { vision: settings.vision, timeoutMs: settings.timeoutMs, temperature: settings.temperature, capabilities };
  switch (settings.provider) {
    case 'openai-compatible': {
      const apiKey = settings.apiKeyEnv ? process.env[settings.apiKeyEnv] : undefined;
      return new ProviderEngine(new OpenAiCompatibleClient(settings, apiKey), { ...common, maxImages: 50, secrets: apiKey ? [apiKey] : [] });
    }
    case 'bedrock':
      // Bedrock's Converse API takes at most 20 images in a request.
      return new ProviderEngine(new BedrockClient(settings), { ...common, maxImages: 20 });
  }
}
