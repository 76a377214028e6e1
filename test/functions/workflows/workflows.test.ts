/**
 * Projects and workflows (API §9.1, §9.2, §9.4) through the API on the local cloud: metadata,
 * drafts validated with every problem named, immutable versions, export and promotion, and what
 * viewer, operator and admin keys may do on every workflow route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../../functions/auth/service.ts';
import { platform } from '../../../functions/platform/platform.ts';
import { startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
let viewer: string;
let operator: string;
beforeAll(async () => {
  cloud = await startTestCloud();
  const key = async (role: 'viewer' | 'operator') => (await createApiKey(platform(), { orgId: cloud.orgId, environment: 'test', name: role, role })).key;
  viewer = await key('viewer');
  operator = await key('operator');
});
afterAll(() => cloud?.close());

const DRAFT = {
  blocks: [
    { id: 'document', type: 'start_document', config: {} },
    { id: 'kind', type: 'classifier', config: { categories: [{ name: 'invoice' }, { name: 'other' }] } },
    { id: 'fields', type: 'extract', config: { json_schema: { type: 'object', properties: { invoice_number: { type: ['string', 'null'] } } } } },
    { id: 'crm', type: 'api_call', config: { url: 'https://crm.example.com/hook', method: 'POST', headers: { authorization: 'Bearer secret://CRM_TOKEN' } } },
    { id: 'done', type: 'end', config: {} },
  ],
  edges: [
    { source: 'document', target: 'kind' },
    { source: 'kind', target: 'fields', source_handle: 'invoice' },
    { source: 'kind', target: 'done', source_handle: 'other' },
    { source: 'fields', target: 'crm' },
    { source: 'crm', target: 'done' },
  ],
};

async function project(key = cloud.keys.test): Promise<string> {
  const r = await cloud.api('POST', '/v1/projects', { key, body: { name: 'Accounts payable', description: 'AP automation' } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

async function workflow(key = cloud.keys.test, name = 'Invoices'): Promise<string> {
  const r = await cloud.api('POST', '/v1/workflows', { key, body: { project_id: await project(key), name } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

describe('projects', () => {
  it('are created, read and listed in their environment', async () => {
    const id = await project();
    const got = await cloud.api('GET', `/v1/projects/${id}`);
    expect(got.body).toMatchObject({ id, name: 'Accounts payable', description: 'AP automation' });
    expect(got.body.environment_id).toMatch(/^env_/);
    expect((await cloud.api('GET', '/v1/projects?limit=100')).body.data.map((p: { id: string }) => p.id)).toContain(id);
    expect((await cloud.api('POST', '/v1/projects', { body: { name: '  ' } })).status).toBe(422);
  });
});

describe('workflows', () => {
  it('are created ready with the caller’s capabilities, patched, listed by project and deleted', async () => {
    const projectId = await project();
    const created = await cloud.api('POST', '/v1/workflows', { body: { project_id: projectId } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Untitled Workflow', description: '', project_id: projectId, published: null, authz_status: 'ready' });
    expect(created.body.capabilities).toHaveLength(7);
    const id = created.body.id;

    const patched = await cloud.api('PATCH', `/v1/workflows/${id}`, { body: { description: 'Routes invoices to the CRM' } });
    expect(patched.body).toMatchObject({ name: 'Untitled Workflow', description: 'Routes invoices to the CRM' });
    expect(patched.body.updated_at >= created.body.updated_at).toBe(true);
    expect((await cloud.api('PATCH', `/v1/workflows/${id}`, { body: { name: '' } })).status).toBe(422);
    expect((await cloud.api('PATCH', `/v1/workflows/${id}`, { body: { name: 'x'.repeat(201) } })).status).toBe(422);

    await workflow(); // in another project
    const listed = await cloud.api('GET', `/v1/workflows?project_id=${projectId}&limit=100`);
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([id]);

    expect((await cloud.api('DELETE', `/v1/workflows/${id}`)).status).toBe(204);
    const gone = await cloud.api('GET', `/v1/workflows/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ detail: 'Workflow not found' });
  });

  it('need an existing project of the environment', async () => {
    const r = await cloud.api('POST', '/v1/workflows', { body: { project_id: await project(cloud.keys.live) } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'project_id'] });
  });

  it('validate a draft and name every problem', async () => {
    const id = await workflow();
    const bad = await cloud.api('PUT', `/v1/workflows/${id}/draft`, {
      body: {
        blocks: [
          { id: 'a', type: 'start_document', config: {} },
          { id: 'a', type: 'teleport', config: {} },
          { id: 'c', type: 'classifier', config: { categories: [{ name: 'only' }] } },
          { id: 'x', type: 'extract', config: {} },
          { id: 'api', type: 'api_call', config: { url: 'ftp://nope', method: 'DELETE' } },
        ],
        edges: [
          { source: 'a', target: 'ghost' },
          { source: 'a', target: 'x', source_handle: 'invoice' },
        ],
      },
    });
    expect(bad.status).toBe(422);
    const problems = (bad.body.detail as Array<{ loc: unknown[]; msg: string }>).map((d) => `${d.loc.join('.')}: ${d.msg}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^body\.blocks\.1\.id: duplicate block id "a"/),
        expect.stringMatching(/^body\.blocks\.1\.type: unknown block type "teleport"/),
        expect.stringMatching(/^body\.blocks\.2\.config\.categories: /),
        expect.stringMatching(/^body\.blocks\.3\.config\.json_schema: /),
        expect.stringMatching(/^body\.blocks\.4\.config\.url: /),
        expect.stringMatching(/^body\.blocks\.4\.config\.method: /),
        expect.stringMatching(/^body\.edges\.0\.target: no block "ghost"/),
        expect.stringMatching(/^body\.edges\.1\.source_handle: only classifier and conditional edges/),
      ]),
    );
    const cycle = await cloud.api('PUT', `/v1/workflows/${id}/draft`, {
      body: { blocks: [{ id: 'p', type: 'parse' }, { id: 'q', type: 'parse' }], edges: [{ source: 'p', target: 'q' }, { source: 'q', target: 'p' }] },
    });
    expect(cycle.status).toBe(422);
    expect(cycle.body.detail[0].msg).toContain('cycle');
    // Nothing was stored by the rejected drafts: the draft is still the new workflow's, its document input alone (as Retab creates it).
    expect((await cloud.api('GET', `/v1/workflows/${id}/draft`)).body).toMatchObject({ blocks: [{ type: 'start_document', name: 'Document', config: {} }], edges: [] });

    const good = await cloud.api('PUT', `/v1/workflows/${id}/draft`, { body: DRAFT });
    expect(good.status, good.text).toBe(200);
    expect(good.body).toMatchObject({ workflow_id: id, blocks: DRAFT.blocks, edges: DRAFT.edges });
  });

  it('publish immutable versions; export the published, the draft or a given version', async () => {
    const id = await workflow();
    expect((await cloud.api('GET', `/v1/workflows/${id}/export`)).status).toBe(409);
    await cloud.api('PUT', `/v1/workflows/${id}/draft`, { body: DRAFT });
    const first = await cloud.api('POST', `/v1/workflows/${id}/publish`, { body: { description: 'v1' } });
    expect(first.status, first.text).toBe(200);
    expect(first.body.published).toMatchObject({ description: 'v1' });
    const v1 = first.body.published.version_id;
    expect(v1).toMatch(/^ver_/);

    // Changing the draft does not change the published version.
    const edited = { ...DRAFT, blocks: DRAFT.blocks.map((b) => (b.id === 'crm' ? { ...b, config: { ...b.config, url: 'https://crm.example.com/v2' } } : b)) };
    await cloud.api('PUT', `/v1/workflows/${id}/draft`, { body: edited });
    const published = await cloud.api('GET', `/v1/workflows/${id}/export`);
    expect(published.body).toMatchObject({ format: 'quire.workflow/v1', name: 'Invoices', definition: DRAFT, source: { environment_slug: 'test', workflow_id: id, version_id: v1 } });
    expect((await cloud.api('GET', `/v1/workflows/${id}/export?version=draft`)).body.definition).toEqual(edited);

    const second = await cloud.api('POST', `/v1/workflows/${id}/publish`, { body: {} });
    const v2 = second.body.published.version_id;
    const versions = await cloud.api('GET', `/v1/workflows/${id}/versions`);
    expect(versions.body.data.map((v: { id: string }) => v.id)).toEqual([v2, v1]);
    expect(versions.body.data[1]).toMatchObject({ workflow_id: id, description: 'v1' });
    expect((await cloud.api('GET', `/v1/workflows/${id}/export?version=${v1}`)).body.definition).toEqual(DRAFT);
    expect((await cloud.api('GET', `/v1/workflows/${id}/export?version=ver_01m7z0qenejn1pv4p44vpcbwww`)).status).toBe(422);
  });

  it('refuse to publish in production a draft whose secrets production lacks', async () => {
    const id = await workflow(cloud.keys.live);
    await cloud.api('PUT', `/v1/workflows/${id}/draft`, { key: cloud.keys.live, body: DRAFT });
    const r = await cloud.api('POST', `/v1/workflows/${id}/publish`, { key: cloud.keys.live, body: {} });
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatchObject({ code: 'missing_secrets', missing_secrets: ['CRM_TOKEN'] });
    expect((await cloud.api('GET', `/v1/workflows/${id}`, { key: cloud.keys.live })).body.published).toBeNull();
  });
});

describe('promotion', () => {
  it('imports an export into production once per idempotency key, listing missing secrets', async () => {
    const source = await workflow(cloud.keys.test, 'Invoices to CRM');
    await cloud.api('PUT', `/v1/workflows/${source}/draft`, { body: DRAFT });
    await cloud.api('POST', `/v1/workflows/${source}/publish`, { body: {} });
    const bundle = (await cloud.api('GET', `/v1/workflows/${source}/export`)).body;

    const targetProject = await project(cloud.keys.live);
    const body = { bundle, target_project_id: targetProject, idempotency_key: `promo-${Math.random()}` };
    const first = await cloud.api('POST', '/v1/workflows/promotions', { key: cloud.keys.live, body });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ missing_secrets: ['CRM_TOKEN'], warnings: [] });
    expect(first.body.promotion_id).toMatch(/^prm_/);
    expect(first.body.target_draft_version).toMatch(/^ver_/);
    const again = await cloud.api('POST', '/v1/workflows/promotions', { key: cloud.keys.live, body });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const target = first.body.target_workflow_id;
    expect((await cloud.api('GET', `/v1/workflows/${target}`, { key: cloud.keys.live })).body).toMatchObject({ name: 'Invoices to CRM', project_id: targetProject, published: null });
    expect((await cloud.api('GET', `/v1/workflows/${target}/draft`, { key: cloud.keys.live })).body).toMatchObject(DRAFT);
    // The test environment never sees it.
    expect((await cloud.api('GET', `/v1/workflows/${target}`)).status).toBe(404);

    // Updating an existing workflow in place; a bad bundle is refused with every problem.
    const update = await cloud.api('POST', '/v1/workflows/promotions', { key: cloud.keys.live, body: { bundle, target_workflow_id: target, idempotency_key: `promo-${Math.random()}` } });
    expect(update.status).toBe(201);
    expect(update.body.target_workflow_id).toBe(target);
    const broken = { ...bundle, definition: { blocks: [{ id: 'a', type: 'nope' }], edges: [] } };
    const refused = await cloud.api('POST', '/v1/workflows/promotions', { key: cloud.keys.live, body: { bundle: broken, target_project_id: targetProject, idempotency_key: 'broken' } });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(['body', 'bundle', 'definition', 'blocks', 0, 'type']);
    const neither = await cloud.api('POST', '/v1/workflows/promotions', { key: cloud.keys.live, body: { bundle, idempotency_key: 'neither' } });
    expect(neither.status).toBe(422);
  });
});

describe('permissions', () => {
  /** Every workflow route, and whether viewer / operator may use it (admin may use them all). */
  const ROUTES: Array<{ name: string; viewer: boolean; operator: boolean; call(key: string, id: string): Promise<{ status: number; text: string }> }> = [
    { name: 'GET /v1/workflows', viewer: true, operator: true, call: (key) => cloud.api('GET', '/v1/workflows', { key }) },
    { name: 'GET /v1/workflows/{id}', viewer: true, operator: true, call: (key, id) => cloud.api('GET', `/v1/workflows/${id}`, { key }) },
    { name: 'GET draft', viewer: true, operator: true, call: (key, id) => cloud.api('GET', `/v1/workflows/${id}/draft`, { key }) },
    { name: 'GET versions', viewer: true, operator: true, call: (key, id) => cloud.api('GET', `/v1/workflows/${id}/versions`, { key }) },
    { name: 'GET export', viewer: true, operator: true, call: (key, id) => cloud.api('GET', `/v1/workflows/${id}/export?version=draft`, { key }) },
    { name: 'POST /v1/workflows', viewer: false, operator: false, call: async (key) => cloud.api('POST', '/v1/workflows', { key, body: { project_id: await project() } }) },
    { name: 'PATCH', viewer: false, operator: false, call: (key, id) => cloud.api('PATCH', `/v1/workflows/${id}`, { key, body: { name: 'n' } }) },
    { name: 'PUT draft', viewer: false, operator: false, call: (key, id) => cloud.api('PUT', `/v1/workflows/${id}/draft`, { key, body: DRAFT }) },
    { name: 'POST publish', viewer: false, operator: false, call: (key, id) => cloud.api('POST', `/v1/workflows/${id}/publish`, { key, body: {} }) },
    {
      name: 'POST promotions',
      viewer: false,
      operator: false,
      call: async (key, id) => cloud.api('POST', '/v1/workflows/promotions', { key, body: { bundle: (await cloud.api('GET', `/v1/workflows/${id}/export?version=draft`)).body, target_workflow_id: id, idempotency_key: `p-${Math.random()}` } }),
    },
    { name: 'DELETE', viewer: false, operator: false, call: (key, id) => cloud.api('DELETE', `/v1/workflows/${id}`, { key }) },
  ];

  it.each(ROUTES.map((r) => [r.name, r] as const))('%s', async (_, route) => {
    for (const [role, key, allowed] of [
      ['viewer', viewer, route.viewer],
      ['operator', operator, route.operator],
      ['admin', cloud.keys.test, true],
    ] as const) {
      const id = await workflow();
      const r = await route.call(key, id);
      if (allowed) expect(r.status, `${role}: ${r.text}`).toBeLessThan(300);
      else expect(r.status, `${role}: ${r.text}`).toBe(403);
    }
  });

  it('capabilities follow the role', async () => {
    const id = await workflow();
    const caps = async (key: string) => (await cloud.api('GET', `/v1/workflows/${id}`, { key })).body.capabilities;
    expect(await caps(viewer)).toEqual(['workflow:view']);
    expect(await caps(operator)).toEqual(['workflow:view', 'workflow:run', 'workflow:review']);
    expect(await caps(cloud.keys.test)).toHaveLength(7);
  });
});
