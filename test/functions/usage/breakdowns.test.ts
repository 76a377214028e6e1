/**
 * Usage breakdowns through the HTTP layer on the local emulators (issue 43 part 5): GET
 * /v1/usage/primitives (one record per finished primitive run, a workflow's blocks included),
 * /v1/usage/blocks (summed by workflow block) and /v1/usage/runs (summed by workflow run), with
 * their filters, pages, bad queries (422) and environments kept apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const INVOICE = 'INVOICE\nInvoice number: INV-3301\nTotal due: 980.00 EUR\nPlease pay within 30 days.';
const SCHEMA = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total_due: { type: ['string', 'null'] } } };

async function waitForEnd(runId: string) {
  for (let i = 0; i < 600; i++) {
    const r = await cloud.api('GET', `/v1/workflows/runs/${runId}`);
    if (['completed', 'error', 'cancelled'].includes(r.body.lifecycle?.status)) return r.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${runId} did not end`);
}

describe('usage breakdowns', () => {
  let extractionId: string;
  let workflowId: string;
  let workflowRunId: string;

  beforeAll(async () => {
    const extraction = await cloud.api('POST', '/v1/extractions', { body: { document: { filename: 'inv.txt', url: dataUrl('text/plain', INVOICE) }, json_schema: SCHEMA, metadata: { customer: 'acme' }, bust_cache: true } });
    expect(extraction.status, extraction.text).toBe(201);
    extractionId = extraction.body.id;
    const parse = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'inv.txt', url: dataUrl('text/plain', INVOICE) }, bust_cache: true } });
    expect(parse.status).toBe(201);

    const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'Usage' } })).body.id;
    workflowId = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project, name: 'Invoice fields' } })).body.id;
    const draft = await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, {
      body: {
        blocks: [
          { id: 'document', type: 'start_document', config: {} },
          { id: 'fields', type: 'extract', config: { json_schema: SCHEMA } },
          { id: 'done', type: 'end', config: {} },
        ],
        edges: [
          { source: 'document', target: 'fields' },
          { source: 'fields', target: 'done' },
        ],
      },
    });
    expect(draft.status, draft.text).toBe(200);
    const run = await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflowId, version: 'draft', documents: { document: { filename: 'doc.txt', url: dataUrl('text/plain', INVOICE) } } } });
    expect(run.status, run.text).toBe(201);
    workflowRunId = run.body.id;
    expect((await waitForEnd(workflowRunId)).lifecycle.status).toBe('completed');
  });

  it('GET /v1/usage/primitives: one record per finished run, with what ran it and on what', async () => {
    const key = (await cloud.api('GET', '/v1/auth/status')).body.key;
    const r = await cloud.api('GET', '/v1/usage/primitives?limit=100');
    expect(r.status, r.text).toBe(200);
    const extraction = r.body.data.find((p: { primitive_execution_id: string }) => p.primitive_execution_id === extractionId);
    expect(extraction).toMatchObject({
      operation: 'extraction',
      resource_kind: 'extraction',
      status: 'completed',
      credits: expect.any(Number),
      page_count: expect.any(Number),
      model: 'quire-local',
      documents: [{ file_id: expect.stringMatching(/^file_/), filename: 'inv.txt' }],
      metadata: { customer: 'acme' },
      environment_id: expect.stringMatching(/^env_/),
      project_id: null,
      workflow_id: null,
      run_id: null,
      block_id: null,
      triggered_by: { auth_method: 'api_key', api_key_id: key.id, key_name: key.name, key_prefix: key.prefix, access_token_id: null, user_id: null, user_email: null },
    });
    expect(extraction.duration_ms).toBeGreaterThanOrEqual(0);
    // The workflow's extract block is a primitive of its run.
    const inRun = await cloud.api('GET', `/v1/usage/primitives?run_id=${workflowRunId}`);
    expect(inRun.body.data).toEqual([expect.objectContaining({ operation: 'extraction', workflow_id: workflowId, run_id: workflowRunId, block_id: 'fields', documents: [{ file_id: expect.any(String), filename: 'doc.txt' }] })]);

    // Filters.
    const ids = async (query: string) => ((await cloud.api('GET', `/v1/usage/primitives?limit=100&${query}`)).body.data as Array<{ primitive_execution_id: string }>).map((p) => p.primitive_execution_id);
    expect(await ids('operation=parse')).not.toContain(extractionId);
    expect(await ids(`metadata=${encodeURIComponent('{"customer":"acme"}')}`)).toEqual([extractionId]);
    expect(await ids(`api_key_id=${key.id}`)).toContain(extractionId);
    expect(await ids('api_key_id=key_01m7z0qenejn1pv4p44vpcbwww')).toEqual([]);
    expect(await ids('environment_id=env_01m7z0qenejn1pv4p44vpcbwww')).toEqual([]);
    expect(await ids('status=failed')).toEqual([]);
    // Pages.
    const first = await cloud.api('GET', '/v1/usage/primitives?limit=1');
    expect(first.body.data).toHaveLength(1);
    const second = await cloud.api('GET', `/v1/usage/primitives?limit=1&after=${first.body.list_metadata.after}`);
    expect(second.body.data[0].primitive_execution_id).not.toBe(first.body.data[0].primitive_execution_id);
  });

  it('GET /v1/usage/blocks and /v1/usage/runs: a workflow block and a workflow run, summed', async () => {
    const blocks = await cloud.api('GET', `/v1/usage/blocks?workflow_id=${workflowId}`);
    expect(blocks.status, blocks.text).toBe(200);
    expect(blocks.body.data).toEqual([
      {
        workflow_id: workflowId,
        block_id: 'fields',
        block_type: 'extract',
        execution_count: 1,
        run_count: 1,
        credits: expect.any(Number),
        page_count: expect.any(Number),
        status_counts: { completed: 1 },
        first_activity_at: expect.any(String),
        last_activity_at: expect.any(String),
      },
    ]);
    expect(blocks.body.list_metadata).toEqual({ before: null, after: null });
    expect((await cloud.api('GET', '/v1/usage/blocks?block_type=parse')).body.data).toEqual([]);

    const runs = await cloud.api('GET', `/v1/usage/runs?workflow_id=${workflowId}`);
    expect(runs.status, runs.text).toBe(200);
    expect(runs.body.data).toEqual([
      expect.objectContaining({ run_id: workflowRunId, workflow_id: workflowId, status: 'completed', trigger_type: 'api', credits: blocks.body.data[0].credits, retry_count: 0, triggered_by: null }),
    ]);
    expect(runs.body.data[0].duration_ms).toBeGreaterThanOrEqual(0);
    expect(runs.body.data[0].execution_duration_ms).toBeGreaterThanOrEqual(0);
    expect((await cloud.api('GET', `/v1/usage/runs?workflow_id=${workflowId}&status=error`)).body.data).toEqual([]);
  });

  it("never shows the other environment's or organization's usage", async () => {
    for (const key of [cloud.keys.live, cloud.keys.otherOrgTest]) {
      for (const path of ['/v1/usage/primitives?limit=100', '/v1/usage/blocks', '/v1/usage/runs']) {
        const r = await cloud.api('GET', path, { key });
        expect(r.status).toBe(200);
        expect(JSON.stringify(r.body)).not.toContain(workflowId);
        expect(JSON.stringify(r.body)).not.toContain(extractionId);
      }
    }
  });

  it('bad queries → 422 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['/v1/usage/primitives?metadata=notjson', 'metadata'],
      ['/v1/usage/primitives?metadata=%5B1%5D', 'metadata'],
      ['/v1/usage/primitives?status=done', 'status'],
      ['/v1/usage/primitives?limit=0', 'limit'],
      ['/v1/usage/primitives?from_date=yesterday', 'from_date'],
      ['/v1/usage/blocks?after=nope/none', 'after'],
      ['/v1/usage/blocks?to_date=2026-02-30', 'to_date'],
      ['/v1/usage/runs?status=sleeping', 'status'],
      ['/v1/usage/runs?trigger_type=fax', 'trigger_type'],
      ['/v1/usage/runs?order=up', 'order'],
    ];
    for (const [path, param] of cases) {
      const r = await cloud.api('GET', path);
      expect(r.status, `${path}: ${r.text}`).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['query', param]);
    }
    expect((await cloud.api('GET', '/v1/usage/blocks', { key: null })).status).toBe(401);
  });
});
