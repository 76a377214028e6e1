/** The model registry's configuration (QUIRE_MODELS / QUIRE_MODELS_FILE): what it accepts and how it refuses. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRegistry, ModelsConfigError, registryFromEnvironment } from '../../../functions/models/registry.ts';

const CONFIG = {
  'gpt-4o-mini': { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'OPENAI_API_KEY', model: 'gpt-4o-mini', vision: true, creditsPerPage: 1 },
  claude: { provider: 'bedrock', model: 'anthropic.claude-3-5-sonnet-20240620-v1:0', region: 'eu-west-1' },
  'retab-small': { alias: 'gpt-4o-mini' },
};

describe('model registry configuration', () => {
  it('adds provider models with defaults, and aliases that take their target settings', () => {
    const registry = buildRegistry(CONFIG);
    expect(registry.get('quire-local')?.provider).toBe('quire-local');
    expect(registry.get('gpt-4o-mini')).toMatchObject({
      provider: 'openai-compatible',
      creditsPerPage: 1,
      settings: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'gpt-4o-mini', vision: true, structuredOutput: 'strict', timeoutMs: 60_000 },
    });
    expect(registry.get('gpt-4o-mini')!.capabilities).toContain('extract');
    expect(registry.get('claude')).toMatchObject({ provider: 'bedrock', creditsPerPage: 1, settings: { vision: false, region: 'eu-west-1' } });
    expect(registry.get('retab-small')).toMatchObject({ id: 'retab-small', aliasOf: 'gpt-4o-mini', provider: 'openai-compatible', settings: { model: 'gpt-4o-mini' } });
    // The other retab aliases stay on the local engine.
    expect(registry.get('retab-micro')).toMatchObject({ aliasOf: 'quire-local', provider: 'quire-local' });
    expect(registry.get('retab-micro')!.settings).toBeUndefined();
  });

  it.each([
    [[], /expected a JSON object/],
    [{ 'quire-local': { alias: 'claude' } }, /"quire-local" is built in/],
    [{ x: { provider: 'openai', model: 'm' } }, /model "x": give either "provider" \("openai-compatible" or "bedrock"\) or "alias"/],
    [{ x: { provider: 'openai-compatible', model: 'm' } }, /model "x": baseUrl: /],
    [{ x: { provider: 'openai-compatible', baseUrl: 'ftp://h/v1', model: 'm' } }, /model "x": baseUrl/],
    [{ x: { provider: 'openai-compatible', baseUrl: 'http://h/v1', model: 'm', apiKey: 'sk-123' } }, /model "x": .*apiKey/],
    [{ x: { provider: 'openai-compatible', baseUrl: 'http://h/v1', model: 'm', apiKeyEnv: 'not a name' } }, /apiKeyEnv: must be the name of an environment variable/],
    [{ x: { provider: 'bedrock', model: 'm', region: 'Ireland' } }, /model "x": region: must be an AWS region/],
    [{ x: { provider: 'bedrock', model: 'm', creditsPerPage: -1 } }, /model "x": creditsPerPage/],
    [{ x: { alias: 'nope' } }, /"x" is an alias of "nope", which is not a model \(an alias points at one of: quire-local\)/],
    [{ a: { alias: 'quire-local' }, b: { alias: 'a' } }, /"b" is an alias of "a", which is not a model/],
    [{ 'bad name!': { alias: 'quire-local' } }, /model names are letters/],
  ])('refuses %j with a clear message', (config, message) => {
    expect(() => buildRegistry(config)).toThrow(ModelsConfigError);
    expect(() => buildRegistry(config)).toThrow(message);
  });

  it('reads QUIRE_MODELS, else the file QUIRE_MODELS_FILE names; says where a problem is', () => {
    expect(registryFromEnvironment({ QUIRE_MODELS: JSON.stringify(CONFIG) }).has('claude')).toBe(true);
    const file = join(mkdtempSync(join(tmpdir(), 'quire-models-')), 'models.json');
    writeFileSync(file, JSON.stringify(CONFIG));
    expect(registryFromEnvironment({ QUIRE_MODELS_FILE: file }).has('gpt-4o-mini')).toBe(true);
    expect(registryFromEnvironment({}).size).toBe(4);
    expect(() => registryFromEnvironment({ QUIRE_MODELS: '{"x": ' })).toThrow(/Invalid model configuration in QUIRE_MODELS: not JSON/);
    expect(() => registryFromEnvironment({ QUIRE_MODELS_FILE: `${file}.missing` })).toThrow(/QUIRE_MODELS_FILE: cannot read .*models\.json\.missing \(ENOENT\)/);
    writeFileSync(file, JSON.stringify({ x: { alias: 'y' } }));
    expect(() => registryFromEnvironment({ QUIRE_MODELS_FILE: file })).toThrow(/Invalid model configuration in QUIRE_MODELS_FILE \(.*\): model "x" is an alias/);
  });
});
