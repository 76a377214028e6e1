/**
 * The model configuration reaches task code in worker threads (npm start's mode, like Lambda
 * containers): a local cloud in `workers` mode, QUIRE_MODELS set before it starts, one extraction on
 * a provider model against the loopback OpenAI-compatible test server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey, createOrganization } from '../../../functions/auth/service.ts';
import { resetModelRegistry } from '../../../functions/models/registry.ts';
import { platform } from '../../../functions/platform/platform.ts';
import { startLocalCloud, type LocalCloud } from '../../../lib/local/cloud.ts';
import { dataUrl } from '../../support/cloud.ts';
import { startOpenAiServer, type OpenAiServer } from '../../support/openai-server.ts';

let server: OpenAiServer;
let cloud: LocalCloud;
let dataDir: string;
let key: string;

beforeAll(async () => {
  server = await startOpenAiServer();
  process.env.QUIRE_MODELS = JSON.stringify({ 'worker-gpt': { provider: 'openai-compatible', baseUrl: server.baseUrl, model: 'gpt-in-worker', timeoutMs: 10_000 } });
  resetModelRegistry();
  dataDir = mkdtempSync(join(tmpdir(), 'quire-workers-'));
  cloud = await startLocalCloud({ dataDir, port: 0, mode: 'workers' });
  const org = await createOrganization(platform(), 'Workers org');
  key = (await createApiKey(platform(), { orgId: org.id, environment: 'test', name: 'test key', role: 'admin' })).key;
  // The task containers load behind the API at nice 10: on a machine busy with other test files that
  // can outlast a synchronous create's budget (it then answers `queued`, as the contract says). This
  // test is about the configuration reaching a task's thread, so it starts once they are loaded.
  await cloud.tasksReady;
}, 120_000);

afterAll(async () => {
  await cloud?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  delete process.env.QUIRE_MODELS;
  resetModelRegistry();
});

it('runs a provider extraction from a worker thread', async () => {
  server.answer('extraction', { invoice_number: 'INV-9' });
  const response = await fetch(`${cloud.url}/v1/extractions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      document: { filename: 'i.txt', url: dataUrl('text/plain', 'Invoice number: INV-9') },
      json_schema: { type: 'object', properties: { invoice_number: { type: 'string' } }, required: ['invoice_number'], additionalProperties: false },
      model: 'worker-gpt',
    }),
  });
  const body = await response.json();
  expect(response.status).toBe(201);
  expect(body).toMatchObject({ status: 'completed', model: 'worker-gpt', output: { invoice_number: 'INV-9' } });
  expect(server.requests.map((r) => r.body.model)).toEqual(['gpt-in-worker']);
}, 60_000);
