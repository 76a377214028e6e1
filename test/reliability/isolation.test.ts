/**
 * Isolation (API §1): for every route of the route table that takes an id, a key of the other
 * environment or of another organization is answered exactly like an unknown id (404, same body
 * shape); for every list route, the other environment's items never appear. The cases are keyed by
 * route, and the test fails when a route has no case — a new route cannot escape the matrix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { routes } from '../../functions/features.ts';
import { routeKey, type Route } from '../../functions/platform/route.ts';
import { probeRoutes } from '../support/probe.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud({ extraRoutes: probeRoutes });
});
afterAll(() => cloud?.close());

const UNKNOWN = { file: 'file_01m7z0qenejn1pv4p44vpcbwww', probe: 'prb_01m7z0qenejn1pv4p44vpcbwww' };

/** Run resources that read a document: their routes' cases are generated from this table. */
const RUN_RESOURCES: Array<{ path: string; idParam: string; prefix: string; body: Record<string, unknown> }> = [
  { path: '/v1/parses', idParam: 'parse_id', prefix: 'prs', body: {} },
  { path: '/v1/classifications', idParam: 'classification_id', prefix: 'clsf', body: { categories: [{ name: 'invoice' }, { name: 'letter' }] } },
  { path: '/v1/splits', idParam: 'split_id', prefix: 'splt', body: { subdocuments: [{ name: 'invoice' }] } },
  { path: '/v1/partitions', idParam: 'partition_id', prefix: 'prt', body: { key: 'invoice number', instructions: 'one chunk per invoice' } },
  { path: '/v1/extractions', idParam: 'extraction_id', prefix: 'extr', body: { json_schema: { type: 'object', properties: { invoice_number: { type: ['string', 'null'] } } } } },
  { path: '/v1/schemas/generate', idParam: 'schema_generation_id', prefix: 'sch', body: {} },
  { path: '/v1/edits', idParam: 'edit_id', prefix: 'edt', body: { instructions: 'name: Jane' } },
];

/** A one-page PDF (edits fill PDFs), different every time. */
async function smallPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 200]).drawText(`Name: ______ ${Math.random()}`, { x: 10, y: 100, size: 10, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await pdf.save());
}

async function createRun(path: string, body: Record<string, unknown>, key: string): Promise<string> {
  const document =
    path === '/v1/edits' ? { filename: 'form.pdf', url: dataUrl('application/pdf', await smallPdf()) } : { filename: 'p.txt', url: dataUrl('text/plain', `Invoice number INV-${Math.random()}`) };
  // Schema generation takes `documents`, every other run `document`.
  const input = path === '/v1/schemas/generate' ? { documents: [document] } : { document };
  const r = await cloud.api('POST', path, { key, body: { ...input, ...body } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

function runResourceCases(): { ids: Record<string, IdCase>; lists: Record<string, { make(key: string): Promise<string>; path: string }> } {
  const ids: Record<string, IdCase> = {};
  const lists: Record<string, { make(key: string): Promise<string>; path: string }> = {};
  for (const r of RUN_RESOURCES) {
    const unknown = `${r.prefix}_01m7z0qenejn1pv4p44vpcbwww`;
    const make = (key: string) => createRun(r.path, r.body, key);
    ids[`GET ${r.path}/{${r.idParam}}`] = { make: async (key) => ({ method: 'GET', path: `${r.path}/${await make(key)}`, expectStatus: 200 }), unknown: { method: 'GET', path: `${r.path}/${unknown}` } };
    ids[`DELETE ${r.path}/{${r.idParam}}`] = { make: async (key) => ({ method: 'DELETE', path: `${r.path}/${await make(key)}`, expectStatus: 204 }), unknown: { method: 'DELETE', path: `${r.path}/${unknown}` } };
    ids[`POST ${r.path}/{${r.idParam}}/cancel`] = {
      make: async (key) => ({ method: 'POST', path: `${r.path}/${await make(key)}/cancel`, expectStatus: 200 }),
      unknown: { method: 'POST', path: `${r.path}/${unknown}/cancel` },
    };
    lists[`GET ${r.path}`] = { make, path: `${r.path}?limit=100` };
  }
  return { ids, lists };
}
const generated = runResourceCases();

interface IdCase {
  /** Creates the resource with `key` and returns the request to make for it. */
  make(key: string): Promise<{ method: string; path: string; body?: unknown; expectStatus: number }>;
  /** The same request for an id that never existed. */
  unknown: { method: string; path: string; body?: unknown };
}

async function createTemplate(key: string): Promise<string> {
  const fields = [{ key: 'name', type: 'text', bbox: { left: 0.1, top: 0.1, width: 0.5, height: 0.05, page: 1 } }];
  const r = await cloud.api('POST', '/v1/edits/templates', { key, body: { name: `iso ${Math.random()}`, document: { filename: 'form.pdf', url: dataUrl('application/pdf', await smallPdf()) }, form_fields: fields } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}
const UNKNOWN_TEMPLATE = 'etpl_01m7z0qenejn1pv4p44vpcbwww';

async function uploadFile(key: string): Promise<string> {
  const r = await cloud.api('POST', '/v1/files', { key, body: { document: { filename: `iso-${Math.random()}.txt`, url: dataUrl('text/plain', `secret ${Math.random()}`) } } });
  expect(r.status).toBe(201);
  return r.body.id;
}

/** A file blueprint (its file given by id, in the body) of the key's environment. */
async function createBlueprint(key: string): Promise<string> {
  const r = await cloud.api('POST', '/v1/files/blueprints', { key, body: { file_id: await uploadFile(key) } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}
const UNKNOWN_BLUEPRINT = 'fbp_01m7z0qenejn1pv4p44vpcbwww';

/** Secrets are addressed by name; names shaped like ids so the 404 bodies compare (`shape` below). */
function secretCases(): Record<string, IdCase> {
  const makeSecret = async (key: string) => {
    const name = `sec_${Array.from({ length: 26 }, () => '0123456789abcdefghjkmnpqrstvwxyz'[Math.floor(Math.random() * 32)]).join('')}`;
    expect((await cloud.api('PUT', `/v1/secrets/${name}`, { key, body: { value: `v-${Math.random()}` } })).status).toBe(200);
    return name;
  };
  const unknown = 'sec_01m7z0qenejn1pv4p44vpcbwww';
  return {
    'GET /v1/secrets/{name}': { make: async (key) => ({ method: 'GET', path: `/v1/secrets/${await makeSecret(key)}`, expectStatus: 200 }), unknown: { method: 'GET', path: `/v1/secrets/${unknown}` } },
    'GET /v1/secrets/{name}/value': { make: async (key) => ({ method: 'GET', path: `/v1/secrets/${await makeSecret(key)}/value`, expectStatus: 200 }), unknown: { method: 'GET', path: `/v1/secrets/${unknown}/value` } },
    'DELETE /v1/secrets/{name}': { make: async (key) => ({ method: 'DELETE', path: `/v1/secrets/${await makeSecret(key)}`, expectStatus: 204 }), unknown: { method: 'DELETE', path: `/v1/secrets/${unknown}` } },
  };
}

/** A webhook delivery in the key's environment (to a closed loopback port: it fails, which is fine here). */
async function makeDelivery(key: string): Promise<string> {
  expect((await cloud.api('PUT', '/v1/webhooks/endpoint', { key, body: { url: 'http://127.0.0.1:9/hook' } })).status).toBe(200);
  const sent = await cloud.api('POST', '/v1/webhooks/test', { key });
  expect(sent.status).toBe(202);
  const list = await cloud.api('GET', '/v1/webhooks/deliveries?limit=100', { key });
  return (list.body.data as Array<{ id: string; event_id: string }>).find((d) => d.event_id === sent.body.event_id)!.id;
}
async function createTable(key: string): Promise<string> {
  const csv = `id,name\n1,${Math.random()}\n2,b\n`;
  const r = await cloud.api('POST', '/v1/tables', { key, body: { name: 'iso', document: { filename: 'iso.csv', url: dataUrl('text/csv', csv) } } });
  expect(r.status, r.text).toBe(201);
  return r.body.tables[0].id;
}

/** Every route under /v1/tables/{table_id}: method, suffix, body, expected status for the owner. */
const TABLE_ROUTES: Array<[string, string, unknown, number]> = [
  ['GET', '', undefined, 200],
  ['PUT', '', { name: 'again', document: { filename: 'again.csv', url: dataUrl('text/csv', 'id\n1\n') } }, 200],
  ['PATCH', '', { name: 'renamed' }, 200],
  ['DELETE', '', undefined, 204],
  ['GET', '/download', undefined, 200],
  ['GET', '/schema', undefined, 200],
  ['POST', '/validate', { unique: [['id']] }, 200],
  ['GET', '/profile', undefined, 200],
  ['POST', '/query', { filters: [{ column: 'id', operator: 'gte', value: 1 }] }, 200],
];
const tableCases: Record<string, IdCase> = Object.fromEntries(
  TABLE_ROUTES.map(([method, suffix, body, expectStatus]) => [
    `${method} /v1/tables/{table_id}${suffix}`,
    {
      make: async (key: string) => ({ method, path: `/v1/tables/${await createTable(key)}${suffix}`, body, expectStatus }),
      unknown: { method, path: `/v1/tables/tbl_01m7z0qenejn1pv4p44vpcbwww${suffix}`, body },
    },
  ]),
);

const idCases: Record<string, IdCase> = {
  ...generated.ids,
  ...tableCases,
  'GET /v1/files/{file_id}': {
    make: async (key) => ({ method: 'GET', path: `/v1/files/${await uploadFile(key)}`, expectStatus: 200 }),
    unknown: { method: 'GET', path: `/v1/files/${UNKNOWN.file}` },
  },
  'GET /v1/files/{file_id}/download-link': {
    make: async (key) => ({ method: 'GET', path: `/v1/files/${await uploadFile(key)}/download-link`, expectStatus: 200 }),
    unknown: { method: 'GET', path: `/v1/files/${UNKNOWN.file}/download-link` },
  },
  'POST /v1/files/upload/{file_id}/complete': {
    make: async (key) => {
      const bytes = Buffer.from(`upload ${Math.random()}`);
      const ticket = await cloud.api('POST', '/v1/files/upload', { key, body: { filename: 'u.txt', size_bytes: bytes.length, content_type: 'text/plain' } });
      const put = await fetch(ticket.body.uploadUrl, { method: 'PUT', headers: ticket.body.uploadHeaders, body: bytes });
      expect(put.status).toBe(200);
      return { method: 'POST', path: `/v1/files/upload/${ticket.body.fileId}/complete`, body: {}, expectStatus: 200 };
    },
    unknown: { method: 'POST', path: `/v1/files/upload/${UNKNOWN.file}/complete`, body: {} },
  },
  'GET /v1/files/blueprints/{blueprint_id}': {
    make: async (key) => ({ method: 'GET', path: `/v1/files/blueprints/${await createBlueprint(key)}`, expectStatus: 200 }),
    unknown: { method: 'GET', path: `/v1/files/blueprints/${UNKNOWN_BLUEPRINT}` },
  },
  'POST /v1/files/blueprints/{blueprint_id}/cancel': {
    make: async (key) => ({ method: 'POST', path: `/v1/files/blueprints/${await createBlueprint(key)}/cancel`, expectStatus: 200 }),
    unknown: { method: 'POST', path: `/v1/files/blueprints/${UNKNOWN_BLUEPRINT}/cancel` },
  },
  'GET /v1/probes/{probe_id}': {
    make: async (key) => ({ method: 'GET', path: `/v1/probes/${(await cloud.api('POST', '/v1/probes', { key, body: {} })).body.id}`, expectStatus: 200 }),
    unknown: { method: 'GET', path: `/v1/probes/${UNKNOWN.probe}` },
  },
  'DELETE /v1/probes/{probe_id}': {
    make: async (key) => ({ method: 'DELETE', path: `/v1/probes/${(await cloud.api('POST', '/v1/probes', { key, body: {} })).body.id}`, expectStatus: 204 }),
    unknown: { method: 'DELETE', path: `/v1/probes/${UNKNOWN.probe}` },
  },
  'POST /v1/probes/{probe_id}/cancel': {
    make: async (key) => ({ method: 'POST', path: `/v1/probes/${(await cloud.api('POST', '/v1/probes', { key, body: {} })).body.id}/cancel`, expectStatus: 200 }),
    unknown: { method: 'POST', path: `/v1/probes/${UNKNOWN.probe}/cancel` },
  },
  'GET /v1/extractions/{extraction_id}/sources': {
    make: async (key) => ({ method: 'GET', path: `/v1/extractions/${await createRun('/v1/extractions', RUN_RESOURCES[4]!.body, key)}/sources`, expectStatus: 200 }),
    unknown: { method: 'GET', path: '/v1/extractions/extr_01m7z0qenejn1pv4p44vpcbwww/sources' },
  },
  'POST /v1/extractions/{extraction_id}/sources': {
    make: async (key) => ({ method: 'POST', path: `/v1/extractions/${await createRun('/v1/extractions', RUN_RESOURCES[4]!.body, key)}/sources`, body: { mode: 'located' }, expectStatus: 200 }),
    unknown: { method: 'POST', path: '/v1/extractions/extr_01m7z0qenejn1pv4p44vpcbwww/sources', body: { mode: 'located' } },
  },
  'GET /v1/projects/{project_id}': {
    make: async (key) => ({ method: 'GET', path: `/v1/projects/${await makeProject(key)}`, expectStatus: 200 }),
    unknown: { method: 'GET', path: '/v1/projects/proj_01m7z0qenejn1pv4p44vpcbwww' },
  },
  ...workflowCases(),
  ...graphCases(),
  ...evalCases(),
  ...secretCases(),
  'GET /v1/webhooks/deliveries/{delivery_id}': {
    make: async (key) => ({ method: 'GET', path: `/v1/webhooks/deliveries/${await makeDelivery(key)}`, expectStatus: 200 }),
    unknown: { method: 'GET', path: '/v1/webhooks/deliveries/whd_01m7z0qenejn1pv4p44vpcbwww' },
  },
  'GET /v1/edits/templates/{template_id}': {
    make: async (key) => ({ method: 'GET', path: `/v1/edits/templates/${await createTemplate(key)}`, expectStatus: 200 }),
    unknown: { method: 'GET', path: `/v1/edits/templates/${UNKNOWN_TEMPLATE}` },
  },
  'PATCH /v1/edits/templates/{template_id}': {
    make: async (key) => ({ method: 'PATCH', path: `/v1/edits/templates/${await createTemplate(key)}`, body: { name: 'renamed' }, expectStatus: 200 }),
    unknown: { method: 'PATCH', path: `/v1/edits/templates/${UNKNOWN_TEMPLATE}`, body: { name: 'renamed' } },
  },
  'DELETE /v1/edits/templates/{template_id}': {
    make: async (key) => ({ method: 'DELETE', path: `/v1/edits/templates/${await createTemplate(key)}`, expectStatus: 204 }),
    unknown: { method: 'DELETE', path: `/v1/edits/templates/${UNKNOWN_TEMPLATE}` },
  },
  // Public routes: the asset name is not a resource of any environment.
  'GET /docs/{asset}': {
    make: async () => ({ method: 'GET', path: '/docs/swagger-ui.css', expectStatus: 200 }),
    unknown: { method: 'GET', path: '/docs/nothing.js' },
  },
};

async function makeProject(key: string): Promise<string> {
  const r = await cloud.api('POST', '/v1/projects', { key, body: { name: `p-${Math.random()}` } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

async function makeWorkflow(key: string): Promise<string> {
  const r = await cloud.api('POST', '/v1/workflows', { key, body: { project_id: await makeProject(key), name: 'iso' } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

/** Every workflow route with an id; a fresh workflow per request (DELETE consumes it). */
function workflowCases(): Record<string, IdCase> {
  const unknownId = 'wrk_01m7z0qenejn1pv4p44vpcbwww';
  const draft = { blocks: [{ id: 'in', type: 'start_document', config: {} }, { id: 'out', type: 'end', config: {} }], edges: [{ source: 'in', target: 'out' }] };
  const routes: Array<[string, string, string, unknown, number]> = [
    ['GET', '/v1/workflows/{workflow_id}', '', undefined, 200],
    ['PATCH', '/v1/workflows/{workflow_id}', '', { name: 'renamed' }, 200],
    ['DELETE', '/v1/workflows/{workflow_id}', '', undefined, 204],
    ['GET', '/v1/workflows/{workflow_id}/draft', '/draft', undefined, 200],
    ['PUT', '/v1/workflows/{workflow_id}/draft', '/draft', draft, 200],
    ['POST', '/v1/workflows/{workflow_id}/publish', '/publish', {}, 200],
    ['GET', '/v1/workflows/{workflow_id}/versions', '/versions', undefined, 200],
    ['GET', '/v1/workflows/{workflow_id}/export', '/export?version=draft', undefined, 200],
  ];
  const runUnknown = 'run_01m7z0qenejn1pv4p44vpcbwww';
  const runCases: Record<string, IdCase> = {
    'GET /v1/workflows/runs/{run_id}': { make: async (key) => ({ method: 'GET', path: `/v1/workflows/runs/${await makeWorkflowRun(key)}`, expectStatus: 200 }), unknown: { method: 'GET', path: `/v1/workflows/runs/${runUnknown}` } },
    'POST /v1/workflows/runs/{run_id}/cancel': {
      make: async (key) => ({ method: 'POST', path: `/v1/workflows/runs/${await makeWorkflowRun(key)}/cancel`, expectStatus: 200 }),
      unknown: { method: 'POST', path: `/v1/workflows/runs/${runUnknown}/cancel` },
    },
  };
  return {
    ...runCases,
    ...Object.fromEntries(
    routes.map(([method, route, suffix, body, expectStatus]) => [
      `${method} ${route}`,
      { make: async (key: string) => ({ method, path: `/v1/workflows/${await makeWorkflow(key)}${suffix}`, body, expectStatus }), unknown: { method, path: `/v1/workflows/${unknownId}${suffix}`, body } },
    ]),
    ),
  };
}

/**
 * The Retab SDK's workflow routes with an id (API §9.2, §9.3): blocks, edges and their versions,
 * graph versions, the spec, run delete, steps, artifacts, reviews and review versions. Each case
 * makes what it needs in the key's environment; ids of other environments are unknown ids.
 */
async function makeGraph(key: string) {
  const workflowId = await makeWorkflow(key);
  const blocks = (await cloud.api('GET', `/v1/workflows/blocks?workflow_id=${workflowId}`, { key })).body.data;
  const json = await cloud.api('POST', '/v1/workflows/blocks', { key, body: { workflow_id: workflowId, type: 'function', config: { expression: 'input' } } });
  expect(json.status, json.text).toBe(201);
  const edge = await cloud.api('POST', '/v1/workflows/edges', { key, body: { workflow_id: workflowId, source_block: blocks[0].id, target_block: json.body.id } });
  expect(edge.status, edge.text).toBe(201);
  const versions = await cloud.api('GET', `/v1/workflows/blocks/versions?workflow_id=${workflowId}&block_id=${json.body.id}`, { key });
  const edgeVersions = await cloud.api('GET', `/v1/workflows/edges/versions?workflow_id=${workflowId}`, { key });
  const graphVersions = await cloud.api('GET', `/v1/workflows/versions?workflow_id=${workflowId}`, { key });
  return { workflowId, blockId: json.body.id as string, edgeId: edge.body.id as string, blockVersionId: versions.body.data[0].id as string, edgeVersionId: edgeVersions.body.data[0].id as string, graphVersionId: graphVersions.body.data[0].id as string };
}

/** A run waiting for review (an extract gated `always`), its step, artifact, review and the review's first version. */
async function makeReview(key: string) {
  const workflowId = await makeWorkflow(key);
  const start = (await cloud.api('GET', `/v1/workflows/blocks?workflow_id=${workflowId}`, { key })).body.data[0].id;
  const extract = await cloud.api('POST', '/v1/workflows/blocks', { key, body: { workflow_id: workflowId, type: 'extract', config: { json_schema: { type: 'object', properties: { n: { type: ['string', 'null'] } } }, review: { predicate: { kind: 'always' } } } } });
  await cloud.api('POST', '/v1/workflows/edges', { key, body: { workflow_id: workflowId, source_block: start, target_block: extract.body.id } });
  const run = await cloud.api('POST', '/v1/workflows/runs', { key, body: { workflow_id: workflowId, version: 'draft', documents: { [start]: { filename: 'n.txt', url: dataUrl('text/plain', `n: ${Math.random()}`) } } } });
  expect(run.status, run.text).toBe(201);
  const review = await until(async () => (await cloud.api('GET', `/v1/workflows/reviews?run_id=${run.body.id}`, { key })).body.data[0], 30_000, 'a review');
  const version = (await cloud.api('GET', `/v1/workflows/reviews/versions?review_id=${review.id}`, { key })).body.data[0];
  const step = (await cloud.api('GET', `/v1/workflows/steps?run_id=${run.body.id}&block_id=${extract.body.id}`, { key })).body.data[0];
  return { runId: run.body.id as string, blockId: extract.body.id as string, reviewId: review.id as string, versionId: version.id as string, stepId: step.step_id as string, artifactId: step.artifact.id as string };
}

function graphCases(): Record<string, IdCase> {
  const unknownWorkflow = 'wrk_01m7z0qenejn1pv4p44vpcbwww';
  const yaml = 'name: iso\nblocks:\n  - {id: doc, type: start_document}\nedges: []\n';
  const c = (method: string, unknownPath: string, path: (g: Awaited<ReturnType<typeof makeGraph>>) => string, expectStatus: number, body?: unknown): IdCase => ({
    make: async (key) => ({ method, path: path(await makeGraph(key)), body, expectStatus }),
    unknown: { method, path: unknownPath, body },
  });
  const r = (method: string, unknownPath: string, path: (x: Awaited<ReturnType<typeof makeReview>>) => string, expectStatus: number, body?: (x: Awaited<ReturnType<typeof makeReview>>) => unknown, unknownBody?: unknown): IdCase => ({
    make: async (key) => {
      const x = await makeReview(key);
      return { method, path: path(x), body: body?.(x), expectStatus };
    },
    unknown: { method, path: unknownPath, body: unknownBody },
  });
  return {
    'GET /v1/workflows/blocks/{block_id}': c('GET', '/v1/workflows/blocks/blk_01m7z0qenejn1pv4p44vpcbwww', (g) => `/v1/workflows/blocks/${g.blockId}`, 200),
    'PATCH /v1/workflows/blocks/{block_id}': c('PATCH', '/v1/workflows/blocks/blk_01m7z0qenejn1pv4p44vpcbwww', (g) => `/v1/workflows/blocks/${g.blockId}`, 200, { label: 'x' }),
    'DELETE /v1/workflows/blocks/{block_id}': c('DELETE', '/v1/workflows/blocks/blk_01m7z0qenejn1pv4p44vpcbwww', (g) => `/v1/workflows/blocks/${g.blockId}`, 204),
    'POST /v1/workflows/blocks/{block_id}/validate-config': c('POST', '/v1/workflows/blocks/blk_01m7z0qenejn1pv4p44vpcbwww/validate-config', (g) => `/v1/workflows/blocks/${g.blockId}/validate-config`, 200, { config: {} }),
    'GET /v1/workflows/blocks/versions/{block_version_id}': c('GET', '/v1/workflows/blocks/versions/bver_01m7z0qenejn1pv4p44vpcbwww', (g) => `/v1/workflows/blocks/versions/${g.blockVersionId}`, 200),
    'POST /v1/workflows/blocks/versions/{block_version_id}/restore': c('POST', '/v1/workflows/blocks/versions/bver_01m7z0qenejn1pv4p44vpcbwww/restore', (g) => `/v1/workflows/blocks/versions/${g.blockVersionId}/restore`, 200),
    'GET /v1/workflows/edges/{edge_id}': c('GET', '/v1/workflows/edges/edg_01m7z0qenejn1pv4p44vpcbwww', (g) => `/v1/workflows/edges/${g.edgeId}`, 200),
    'DELETE /v1/workflows/edges/{edge_id}': c('DELETE', '/v1/workflows/edges/edg_01m7z0qenejn1pv4p44vpcbwww', (g) => `/v1/workflows/edges/${g.edgeId}`, 204),
    'GET /v1/workflows/edges/versions/{edge_version_id}': c('GET', '/v1/workflows/edges/versions/ever_01m7z0qenejn1pv4p44vpcbwww', (g) => `/v1/workflows/edges/versions/${g.edgeVersionId}`, 200),
    'POST /v1/workflows/edges/versions/{edge_version_id}/restore': c('POST', '/v1/workflows/edges/versions/ever_01m7z0qenejn1pv4p44vpcbwww/restore', (g) => `/v1/workflows/edges/versions/${g.edgeVersionId}/restore`, 200),
    'GET /v1/workflows/versions/{workflow_version_id}': c('GET', `/v1/workflows/versions/ver_01m7z0qenejn1pv4p44vpcbwww?workflow_id=${unknownWorkflow}`, (g) => `/v1/workflows/versions/${g.graphVersionId}?workflow_id=${g.workflowId}`, 200),
    'POST /v1/workflows/versions/{workflow_version_id}/restore': c('POST', `/v1/workflows/versions/ver_01m7z0qenejn1pv4p44vpcbwww/restore?workflow_id=${unknownWorkflow}`, (g) => `/v1/workflows/versions/${g.graphVersionId}/restore?workflow_id=${g.workflowId}`, 200),
    'GET /v1/workflows/{workflow_id}/spec': c('GET', `/v1/workflows/${unknownWorkflow}/spec`, (g) => `/v1/workflows/${g.workflowId}/spec`, 200),
    'POST /v1/workflows/{workflow_id}/spec/plan': c('POST', `/v1/workflows/${unknownWorkflow}/spec/plan`, (g) => `/v1/workflows/${g.workflowId}/spec/plan`, 200, { yaml_definition: yaml }),
    'POST /v1/workflows/{workflow_id}/spec/apply': c('POST', `/v1/workflows/${unknownWorkflow}/spec/apply`, (g) => `/v1/workflows/${g.workflowId}/spec/apply`, 200, { yaml_definition: yaml }),
    'POST /v1/workflows/{workflow_id}/discard-draft': {
      make: async (key) => {
        const g = await makeGraph(key);
        expect((await cloud.api('POST', `/v1/workflows/${g.workflowId}/publish`, { key, body: {} })).status).toBe(200);
        return { method: 'POST', path: `/v1/workflows/${g.workflowId}/discard-draft`, expectStatus: 200 };
      },
      unknown: { method: 'POST', path: `/v1/workflows/${unknownWorkflow}/discard-draft` },
    },
    'DELETE /v1/workflows/runs/{run_id}': {
      make: async (key) => {
        const runId = await makeWorkflowRun(key);
        await until(async () => (['completed', 'error'].includes((await cloud.api('GET', `/v1/workflows/runs/${runId}`, { key })).body.lifecycle.status) ? true : undefined), 30_000, 'the run to end');
        return { method: 'DELETE', path: `/v1/workflows/runs/${runId}`, expectStatus: 204 };
      },
      unknown: { method: 'DELETE', path: '/v1/workflows/runs/run_01m7z0qenejn1pv4p44vpcbwww' },
    },
    'GET /v1/workflows/steps/{step_id}': r('GET', '/v1/workflows/steps/stp_0123456789abcdef0123456789', (x) => `/v1/workflows/steps/${x.stepId}`, 200),
    'GET /v1/workflows/artifacts/{artifact_id}': r('GET', '/v1/workflows/artifacts/art_0123456789abcdef0123456789', (x) => `/v1/workflows/artifacts/${x.artifactId}`, 200),
    'GET /v1/workflows/reviews/{review_id}': r('GET', '/v1/workflows/reviews/rev_0123456789abcdef0123456789', (x) => `/v1/workflows/reviews/${x.reviewId}`, 200),
    'POST /v1/workflows/reviews/{review_id}/approve': r('POST', '/v1/workflows/reviews/rev_0123456789abcdef0123456789/approve', (x) => `/v1/workflows/reviews/${x.reviewId}/approve`, 200, (x) => ({ version_id: x.versionId }), { version_id: 'rvv_0123456789abcdef0123456789' }),
    'POST /v1/workflows/reviews/{review_id}/reject': r('POST', '/v1/workflows/reviews/rev_0123456789abcdef0123456789/reject', (x) => `/v1/workflows/reviews/${x.reviewId}/reject`, 200, (x) => ({ version_id: x.versionId, reason: 'no' }), { version_id: 'rvv_0123456789abcdef0123456789', reason: 'no' }),
    'GET /v1/workflows/reviews/versions/{version_id}': r('GET', '/v1/workflows/reviews/versions/rvv_0123456789abcdef0123456789', (x) => `/v1/workflows/reviews/versions/${x.versionId}`, 200),
  };
}

/** A finished extraction of a small text, in the key's environment. */
async function makeExtraction(key: string): Promise<string> {
  const body = { document: { filename: 'n.txt', url: dataUrl('text/plain', `n: ${Math.random()}`) }, json_schema: { type: 'object', properties: { n: { type: ['string', 'null'] } } }, bust_cache: true };
  const r = await cloud.api('POST', '/v1/extractions', { key, body });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

/** A run of a one-block-to-end workflow (its draft), in the key's environment. */
async function makeWorkflowRun(key: string): Promise<string> {
  const workflowId = await makeWorkflow(key);
  const draft = { blocks: [{ id: 'in', type: 'start_json', config: {} }, { id: 'out', type: 'end', config: {} }], edges: [{ source: 'in', target: 'out' }] };
  expect((await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, { key, body: draft })).status).toBe(200);
  const r = await cloud.api('POST', '/v1/workflows/runs', { key, body: { workflow_id: workflowId, version: 'draft', json_inputs: { in: { n: 1 } } } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

/** Evals and experiments: one workflow per key (an extract block), evals, eval runs, experiments and their runs in it. */
const EVAL_DRAFT = {
  blocks: [
    { id: 'document', type: 'start_document', config: {} },
    { id: 'fields', type: 'extract', config: { json_schema: { type: 'object', properties: { invoice_number: { type: ['string', 'null'] } } } } },
    { id: 'done', type: 'end', config: {} },
  ],
  edges: [
    { source: 'document', target: 'fields' },
    { source: 'fields', target: 'done' },
  ],
};
const evalWorkflows = new Map<string, Promise<string>>();
function evalWorkflow(key: string): Promise<string> {
  if (!evalWorkflows.has(key)) {
    evalWorkflows.set(key, (async () => {
      const id = await makeWorkflow(key);
      expect((await cloud.api('PUT', `/v1/workflows/${id}/draft`, { key, body: EVAL_DRAFT })).status).toBe(200);
      return id;
    })());
  }
  return evalWorkflows.get(key)!;
}
const evalDocument = () => ({ type: 'file', document: { filename: 'i.txt', url: dataUrl('text/plain', `Invoice number INV-${Math.random()}`) } });
const EVAL_ASSERTION = { target: { output_handle_id: 'output', path: 'invoice_number' }, condition: { kind: 'exists' } };
async function makeEval(key: string): Promise<string> {
  const r = await cloud.api('POST', '/v1/workflows/evals', { key, body: { workflow_id: await evalWorkflow(key), target: { type: 'block', block_id: 'fields' }, source: { type: 'manual', handle_inputs: { document: evalDocument() } }, assertion: EVAL_ASSERTION } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}
async function makeEvalRun(key: string): Promise<string> {
  const evalId = await makeEval(key);
  const r = await cloud.api('POST', '/v1/workflows/evals/runs', { key, body: { workflow_id: await evalWorkflow(key), scope: { type: 'single', eval_id: evalId } } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}
/** A result is written for each eval as soon as its run exists. */
const lastEvalRun = new Map<string, string>();
async function makeEvalResult(key: string): Promise<string> {
  const runId = await makeEvalRun(key);
  lastEvalRun.set(key, runId);
  return (await cloud.api('GET', `/v1/workflows/evals/results?run_id=${runId}`, { key })).body.data[0].id;
}
async function makeExperiment(key: string): Promise<string> {
  const r = await cloud.api('POST', '/v1/workflows/experiments', { key, body: { workflow_id: await evalWorkflow(key), block_id: 'fields', n_consensus: 1, documents: [{ handle_inputs: { document: evalDocument() } }] } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}
async function makeExperimentRun(key: string): Promise<string> {
  const r = await cloud.api('POST', '/v1/workflows/experiments/runs', { key, body: { experiment_id: await makeExperiment(key) } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}
const lastExperimentRun = new Map<string, string>();
async function makeExperimentResult(key: string): Promise<string> {
  const runId = await makeExperimentRun(key);
  lastExperimentRun.set(key, runId);
  return (await cloud.api('GET', `/v1/workflows/experiments/results?run_id=${runId}`, { key })).body.data[0].id;
}

/** Every eval and experiment route with an id. Result ids are 24 characters after their prefix. */
function evalCases(): Record<string, IdCase> {
  const cases: Array<[string, string, (key: string) => Promise<string>, string, unknown, number]> = [
    ['GET', '/v1/workflows/evals/{eval_id}', makeEval, 'evl_01m7z0qenejn1pv4p44vpcbwww', undefined, 200],
    ['PATCH', '/v1/workflows/evals/{eval_id}', makeEval, 'evl_01m7z0qenejn1pv4p44vpcbwww', { name: 'renamed' }, 200],
    ['DELETE', '/v1/workflows/evals/{eval_id}', makeEval, 'evl_01m7z0qenejn1pv4p44vpcbwww', undefined, 204],
    ['GET', '/v1/workflows/evals/runs/{run_id}', makeEvalRun, 'evr_01m7z0qenejn1pv4p44vpcbwww', undefined, 200],
    ['POST', '/v1/workflows/evals/runs/{run_id}/cancel', makeEvalRun, 'evr_01m7z0qenejn1pv4p44vpcbwww', undefined, 200],
    ['GET', '/v1/workflows/evals/results/{result_id}', makeEvalResult, 'evres_000000000000000000000000', undefined, 200],
    ['GET', '/v1/workflows/experiments/{experiment_id}', makeExperiment, 'exp_01m7z0qenejn1pv4p44vpcbwww', undefined, 200],
    ['PATCH', '/v1/workflows/experiments/{experiment_id}', makeExperiment, 'exp_01m7z0qenejn1pv4p44vpcbwww', { name: 'renamed' }, 200],
    ['DELETE', '/v1/workflows/experiments/{experiment_id}', makeExperiment, 'exp_01m7z0qenejn1pv4p44vpcbwww', undefined, 204],
    ['GET', '/v1/workflows/experiments/runs/{run_id}', makeExperimentRun, 'expr_01m7z0qenejn1pv4p44vpcbwww', undefined, 200],
    ['POST', '/v1/workflows/experiments/runs/{run_id}/cancel', makeExperimentRun, 'expr_01m7z0qenejn1pv4p44vpcbwww', undefined, 200],
    ['GET', '/v1/workflows/experiments/results/{result_id}', makeExperimentResult, 'exres_000000000000000000000000', undefined, 200],
  ];
  const pathOf = (route: string, id: string) => route.replace(/\{[a-z_]+\}/, id);
  return Object.fromEntries(
    cases.map(([method, route, make, unknownId, body, expectStatus]) => [
      `${method} ${route}`,
      { make: async (key: string) => ({ method, path: pathOf(route, await make(key)), body, expectStatus }), unknown: { method, path: pathOf(route, unknownId), body } },
    ]),
  );
}

/** A block execution (a function block of an ended run run again), in the key's environment. */
async function makeBlockExecution(key: string): Promise<{ runId: string; executionId: string }> {
  const workflowId = await makeWorkflow(key);
  const draft = { blocks: [{ id: 'in', type: 'start_json', config: {} }, { id: 'f', type: 'function', config: { expression: 'input' } }, { id: 'out', type: 'end', config: {} }], edges: [{ source: 'in', target: 'f' }, { source: 'f', target: 'out' }] };
  expect((await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, { key, body: draft })).status).toBe(200);
  const run = await cloud.api('POST', '/v1/workflows/runs', { key, body: { workflow_id: workflowId, version: 'draft', json_inputs: { in: { n: 1 } } } });
  expect(run.status, run.text).toBe(201);
  await until(async () => ((await cloud.api('GET', `/v1/workflows/runs/${run.body.id}`, { key })).body.lifecycle.status === 'completed' ? true : undefined), 30_000, 'the run to complete');
  const execution = await cloud.api('POST', '/v1/workflows/blocks/executions', { key, body: { run_id: run.body.id, block_id: 'f' } });
  expect(execution.status, execution.text).toBe(201);
  return { runId: run.body.id, executionId: execution.body.id };
}

/** List routes and how to make an item that must not appear in the other environment's list. */
const listCases: Record<string, { make(key: string): Promise<string>; path: string | ((key: string) => Promise<string>); field?: string }> = {
  ...generated.lists,
  'GET /v1/files': { make: uploadFile, path: '/v1/files?limit=100' },
  'GET /v1/projects': { make: makeProject, path: '/v1/projects?limit=100' },
  'GET /v1/workflows': { make: makeWorkflow, path: '/v1/workflows?limit=100' },
  'GET /v1/workflows/runs': { make: makeWorkflowRun, path: '/v1/workflows/runs?limit=100' },
  'GET /v1/webhooks/deliveries': { make: makeDelivery, path: '/v1/webhooks/deliveries?limit=100' },
  'GET /v1/edits/templates': { make: createTemplate, path: '/v1/edits/templates?limit=100' },
  'GET /v1/workflows/evals/runs': { make: makeEvalRun, path: '/v1/workflows/evals/runs?limit=100' },
  'GET /v1/workflows/experiments/runs': { make: makeExperimentRun, path: '/v1/workflows/experiments/runs?limit=100' },
  // Lists scoped by a query id: each key lists its own workflow's (run's) items; the scoping id of
  // another environment is answered like an unknown one (the describe below).
  'GET /v1/workflows/evals': { make: makeEval, path: (key) => evalWorkflow(key).then((id) => `/v1/workflows/evals?workflow_id=${id}&limit=100`) },
  'GET /v1/workflows/experiments': { make: makeExperiment, path: (key) => evalWorkflow(key).then((id) => `/v1/workflows/experiments?workflow_id=${id}&limit=100`) },
  'GET /v1/workflows/evals/results': { make: makeEvalResult, path: async (key) => `/v1/workflows/evals/results?run_id=${lastEvalRun.get(key)}&limit=100` },
  'GET /v1/workflows/experiments/results': { make: makeExperimentResult, path: async (key) => `/v1/workflows/experiments/results?run_id=${lastExperimentRun.get(key)}&limit=100` },
  'GET /v1/probes': { make: async (key) => (await cloud.api('POST', '/v1/probes', { key, body: {} })).body.id, path: '/v1/probes?limit=100' },
  'GET /v1/workflows/reviews': { make: async (key) => (await makeReview(key)).reviewId, path: '/v1/workflows/reviews?limit=100' },
  // Usage breakdowns name their items by what ran: a primitive run, a workflow block, a workflow run.
  'GET /v1/usage/primitives': { make: makeExtraction, path: '/v1/usage/primitives?limit=100', field: 'primitive_execution_id' },
  'GET /v1/usage/blocks': { make: async (key) => (await makeReview(key)).blockId, path: '/v1/usage/blocks?limit=100', field: 'block_id' },
  'GET /v1/usage/runs': { make: async (key) => (await makeReview(key)).runId, path: '/v1/usage/runs?limit=100', field: 'run_id' },
};

/**
 * Lists of the SDK's workflow routes scoped by a parent id that the caller must be able to see (a
 * workflow, a run, a review): their isolation is the parent's (tested just below). Evals and
 * experiments have list cases above and their own query-scoped cases below.
 */
const scopedLists: Record<string, (key: string) => Promise<string>> = {
  'GET /v1/workflows/blocks': async (key) => `/v1/workflows/blocks?workflow_id=${(await makeGraph(key)).workflowId}`,
  'GET /v1/workflows/edges': async (key) => `/v1/workflows/edges?workflow_id=${(await makeGraph(key)).workflowId}`,
  'GET /v1/workflows/blocks/versions': async (key) => `/v1/workflows/blocks/versions?workflow_id=${(await makeGraph(key)).workflowId}`,
  'GET /v1/workflows/edges/versions': async (key) => `/v1/workflows/edges/versions?workflow_id=${(await makeGraph(key)).workflowId}`,
  'GET /v1/workflows/versions': async (key) => `/v1/workflows/versions?workflow_id=${(await makeGraph(key)).workflowId}`,
  'GET /v1/workflows/steps': async (key) => `/v1/workflows/steps?run_id=${await makeWorkflowRun(key)}`,
  'GET /v1/workflows/artifacts': async (key) => `/v1/workflows/artifacts?run_id=${(await makeReview(key)).runId}`,
  'GET /v1/workflows/blocks/executions': async (key) => `/v1/workflows/blocks/executions?run_id=${(await makeBlockExecution(key)).runId}&block_id=f`,
  'GET /v1/workflows/reviews/versions': async (key) => `/v1/workflows/reviews/versions?review_id=${(await makeReview(key)).reviewId}`,
};

const allRoutes: Route[] = [...routes, ...probeRoutes];
const withId = allRoutes.filter((r) => r.path.includes('{'));
const lists = allRoutes.filter((r) => r.method === 'GET' && !r.path.includes('{') && r.op.response && 'shape' in r.op.response && 'list_metadata' in (r.op.response as { shape: object }).shape);

/** Routes with a path parameter that is not an id of one resource; each has its own test below. */
const ownTests: Record<string, string> = {
  'PUT /v1/secrets/{name}': "an upsert by name: a stranger's PUT makes the stranger's own secret",
};

describe.each(Object.keys(scopedLists).filter((k) => lists.some((r) => routeKey(r) === k)))('%s', (key) => {
  it("lists nothing of a parent of another environment or organization: 404, or an empty page", async () => {
    const path = await scopedLists[key]!(cloud.keys.test);
    expect((await cloud.api('GET', path, { key: cloud.keys.test })).status).toBe(200);
    for (const stranger of [cloud.keys.live, cloud.keys.otherOrgTest, cloud.keys.otherOrgLive]) {
      const r = await cloud.api('GET', path, { key: stranger });
      if (r.status === 200) expect(r.body.data, path).toEqual([]);
      else expect(r.status, path).toBe(404);
    }
  });
});

it('every route that takes an id, and every list route, has an isolation case', () => {
  expect(withId.map(routeKey).filter((k) => !idCases[k] && !ownTests[k])).toEqual([]);
  expect(lists.map(routeKey).filter((k) => !listCases[k] && !scopedLists[k])).toEqual([]);
});

/** A 404 body with the id replaced, so bodies for different ids compare. */
const shape = (body: unknown) => JSON.stringify(body).replace(/[a-z]+_[0-9a-z]{24,26}/g, '<id>');

describe.each(withId.filter((r) => r.op.auth === 'api_key' && !ownTests[routeKey(r)]).map(routeKey))('%s', (key) => {
  it('answers the owner, and every other environment and organization exactly like an unknown id', async () => {
    const c = idCases[key]!;
    const strangers = { 'the other environment': cloud.keys.live, 'another organization (test)': cloud.keys.otherOrgTest, 'another organization (live)': cloud.keys.otherOrgLive };
    for (const [who, strangerKey] of Object.entries(strangers)) {
      const request = await c.make(cloud.keys.test);
      const unknown = await cloud.api(c.unknown.method, c.unknown.path, { key: strangerKey, body: c.unknown.body });
      const foreign = await cloud.api(request.method, request.path, { key: strangerKey, body: request.body });
      expect(unknown.status, who).toBe(404);
      expect(foreign.status, who).toBe(404);
      expect(shape(foreign.body), who).toBe(shape(unknown.body));
      const own = await cloud.api(request.method, request.path, { key: cloud.keys.test, body: request.body });
      expect(own.status, `owner after ${who}`).toBe(request.expectStatus);
    }
    // And the other way round: a live resource is invisible to the test key.
    const live = await c.make(cloud.keys.live);
    expect((await cloud.api(live.method, live.path, { key: cloud.keys.test, body: live.body })).status).toBe(404);
  });
});

describe.each(lists.map(routeKey).filter((k) => !scopedLists[k]))('%s', (key) => {
  it("never shows the other environment's or organization's items", async () => {
    const c = listCases[key]!;
    const testId = await c.make(cloud.keys.test);
    const liveId = await c.make(cloud.keys.live);
    const otherId = await c.make(cloud.keys.otherOrgTest);
    const ids = async (k: string) => ((await cloud.api('GET', typeof c.path === 'string' ? c.path : await c.path(k), { key: k })).body.data as Array<Record<string, string>>).map((d) => d[c.field ?? 'id']);
    const asTest = await ids(cloud.keys.test);
    const asLive = await ids(cloud.keys.live);
    expect(asTest).toContain(testId);
    expect(asTest).not.toContain(liveId);
    expect(asTest).not.toContain(otherId);
    expect(asLive).toContain(liveId);
    expect(asLive).not.toContain(testId);
  });
});

/** Routes that name their resource in the query (a list of one workflow's or run's items, a run's metrics). */
describe.each([
  ['GET /v1/workflows/evals?workflow_id', evalWorkflow, (id: string) => `/v1/workflows/evals?workflow_id=${id}`, 'wrk_01m7z0qenejn1pv4p44vpcbwww'],
  ['GET /v1/workflows/experiments?workflow_id', evalWorkflow, (id: string) => `/v1/workflows/experiments?workflow_id=${id}`, 'wrk_01m7z0qenejn1pv4p44vpcbwww'],
  ['GET /v1/workflows/evals/results?run_id', makeEvalRun, (id: string) => `/v1/workflows/evals/results?run_id=${id}`, 'evr_01m7z0qenejn1pv4p44vpcbwww'],
  ['GET /v1/workflows/experiments/results?run_id', makeExperimentRun, (id: string) => `/v1/workflows/experiments/results?run_id=${id}`, 'expr_01m7z0qenejn1pv4p44vpcbwww'],
  ['GET /v1/workflows/experiments/metrics?run_id', makeExperimentRun, (id: string) => `/v1/workflows/experiments/metrics?run_id=${id}`, 'expr_01m7z0qenejn1pv4p44vpcbwww'],
] as const)('%s', (_name, make, pathOf, unknownId) => {
  it('answers the owner, and every other environment and organization exactly like an unknown id', async () => {
    const id = await make(cloud.keys.test);
    for (const strangerKey of [cloud.keys.live, cloud.keys.otherOrgTest, cloud.keys.otherOrgLive]) {
      const unknown = await cloud.api('GET', pathOf(unknownId), { key: strangerKey });
      const foreign = await cloud.api('GET', pathOf(id), { key: strangerKey });
      expect(unknown.status).toBe(404);
      expect(foreign.status).toBe(404);
      expect(shape(foreign.body)).toBe(shape(unknown.body));
    }
    expect((await cloud.api('GET', pathOf(id), { key: cloud.keys.test })).status).toBe(200);
  });
});

describe('POST /v1/workflows/blocks/executions', () => {
  it("re-runs no block of a run of another environment or organization: answered like an unknown run", async () => {
    const { runId } = await makeBlockExecution(cloud.keys.test);
    const unknown = await cloud.api('POST', '/v1/workflows/blocks/executions', { key: cloud.keys.test, body: { run_id: 'run_01m7z0qenejn1pv4p44vpcbwww', block_id: 'f' } });
    expect(unknown.status).toBe(404);
    for (const stranger of [cloud.keys.live, cloud.keys.otherOrgTest, cloud.keys.otherOrgLive]) {
      const r = await cloud.api('POST', '/v1/workflows/blocks/executions', { key: stranger, body: { run_id: runId, block_id: 'f' } });
      expect(r.status).toBe(404);
      expect(shape(r.body)).toBe(shape(unknown.body));
    }
    const listed = await cloud.api('GET', `/v1/workflows/blocks/executions?run_id=${runId}&block_id=f`, { key: cloud.keys.test });
    expect(listed.body.data).toHaveLength(1);
  });
});

describe('PUT /v1/secrets/{name}', () => {
  it("a stranger's PUT of the same name makes its own secret and never touches the owner's", async () => {
    const name = `sec_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    expect((await cloud.api('PUT', `/v1/secrets/${name}`, { key: cloud.keys.test, body: { value: 'owner' } })).status).toBe(200);
    for (const [i, key] of [cloud.keys.live, cloud.keys.otherOrgTest, cloud.keys.otherOrgLive].entries()) {
      expect((await cloud.api('PUT', `/v1/secrets/${name}`, { key, body: { value: `stranger-${i}` } })).status).toBe(200);
      expect((await cloud.api('GET', `/v1/secrets/${name}/value`, { key })).body.secret.value).toBe(`stranger-${i}`);
    }
    const own = await cloud.api('GET', `/v1/secrets/${name}/value`, { key: cloud.keys.test });
    expect(own.body.secret.value).toBe('owner');
  });
});

describe('GET /v1/secrets', () => {
  it("never lists the other environment's or organization's secrets", async () => {
    const names = { test: `sec_t_${Date.now()}`, live: `sec_l_${Date.now()}`, other: `sec_o_${Date.now()}` };
    await cloud.api('PUT', `/v1/secrets/${names.test}`, { key: cloud.keys.test, body: { value: 'a' } });
    await cloud.api('PUT', `/v1/secrets/${names.live}`, { key: cloud.keys.live, body: { value: 'b' } });
    await cloud.api('PUT', `/v1/secrets/${names.other}`, { key: cloud.keys.otherOrgTest, body: { value: 'c' } });
    const listed = async (key: string) => ((await cloud.api('GET', '/v1/secrets', { key })).body.secrets as Array<{ name: string }>).map((s) => s.name);
    expect(await listed(cloud.keys.test)).toContain(names.test);
    expect(await listed(cloud.keys.test)).not.toContain(names.live);
    expect(await listed(cloud.keys.test)).not.toContain(names.other);
    expect(await listed(cloud.keys.live)).toEqual(expect.arrayContaining([names.live]));
    expect(await listed(cloud.keys.live)).not.toContain(names.test);
  });
});

describe('/v1/webhooks/endpoint (one per environment, no id)', () => {
  it("the other environment and organization neither see nor change this environment's endpoint", async () => {
    const created = await cloud.api('PUT', '/v1/webhooks/endpoint', { key: cloud.keys.test, body: { url: 'http://127.0.0.1:9/iso' } });
    expect(created.status).toBe(200);
    for (const key of [cloud.keys.live, cloud.keys.otherOrgTest, cloud.keys.otherOrgLive]) {
      await cloud.api('DELETE', '/v1/webhooks/endpoint', { key });
      for (const [method, path] of [['GET', '/v1/webhooks/endpoint'], ['DELETE', '/v1/webhooks/endpoint'], ['POST', '/v1/webhooks/endpoint/rotate-secret'], ['POST', '/v1/webhooks/test']] as const) {
        const r = await cloud.api(method, path, { key, body: method === 'POST' ? {} : undefined });
        expect(r.status, `${method} ${path}`).toBe(404);
        expect(r.body).toEqual({ detail: 'No webhook endpoint' });
      }
    }
    const own = await cloud.api('GET', '/v1/webhooks/endpoint', { key: cloud.keys.test });
    expect(own.status).toBe(200);
    expect(own.body.secret_last4).toBe(created.body.secret_last4);
    expect(own.body.url).toBe('http://127.0.0.1:9/iso');
    // A live endpoint is the live environment's own: creating it shows a new secret and leaves the test one.
    const live = await cloud.api('PUT', '/v1/webhooks/endpoint', { key: cloud.keys.live, body: { url: 'http://127.0.0.1:9/live' } });
    expect(live.body.signing_secret).toMatch(/^whsec_/);
    expect(live.body.signing_secret).not.toBe(created.body.signing_secret);
    expect((await cloud.api('GET', '/v1/webhooks/endpoint', { key: cloud.keys.test })).body.url).toBe('http://127.0.0.1:9/iso');
  });
});

describe('GET /v1/usage (no id: the calling environment only)', () => {
  it("never counts the other environment's or organization's runs", async () => {
    const usage = async (key: string) => (await cloud.api('GET', '/v1/usage', { key })).body;
    const before = { test: await usage(cloud.keys.test), live: await usage(cloud.keys.live), other: await usage(cloud.keys.otherOrgTest) };
    await createRun('/v1/parses', {}, cloud.keys.test);
    const after = { test: await usage(cloud.keys.test), live: await usage(cloud.keys.live), other: await usage(cloud.keys.otherOrgTest) };
    expect(after.test.runs).toBe(before.test.runs + 1);
    expect(after.live).toEqual(before.live);
    expect(after.other).toEqual(before.other);
  });
});

// GET /v1/tables answers {"tables": [...]} (API §10), not the list envelope the matrix above detects.
describe('GET /v1/tables', () => {
  it("never shows the other environment's or organization's tables", async () => {
    const testId = await createTable(cloud.keys.test);
    const liveId = await createTable(cloud.keys.live);
    const otherId = await createTable(cloud.keys.otherOrgTest);
    const ids = async (k: string) => ((await cloud.api('GET', '/v1/tables', { key: k })).body.tables as Array<{ id: string }>).map((t) => t.id);
    const asTest = await ids(cloud.keys.test);
    const asLive = await ids(cloud.keys.live);
    expect(asTest).toContain(testId);
    expect(asTest).not.toContain(liveId);
    expect(asTest).not.toContain(otherId);
    expect(asLive).toContain(liveId);
    expect(asLive).not.toContain(testId);
  });
});
