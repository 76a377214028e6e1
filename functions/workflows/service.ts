/**
 * Workflows (API §9.2): metadata, the draft definition, immutable published versions, and export.
 * What a key may do follows its role (`capabilitiesOf`); the 404 of every workflow route is exactly
 * `{"detail": "Workflow not found"}`, for unknown ids and other environments' alike.
 */
import type { Caller } from '../auth/service.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { findProject } from '../projects/service.ts';
import { secretNames, type RunDefinition } from './definition.ts';
import { changeGraph, draftGraph, graphOf, legacyDefinition, type Graph, type GraphBlock } from './graph.ts';
import type { Capability, Definition, Draft, ExportBundle, Version, Workflow } from './schema.ts';

export const WORKFLOW_TYPE = 'workflow';
export const VERSION_TYPE = 'workflow_version';

/** The stored workflow: the wire metadata (less the caller-dependent capabilities) and the draft. */
export interface WorkflowData extends Omit<Workflow, 'capabilities'> {
  /** The draft graph (./graph.ts); drafts stored before graphs hold legacy blocks and edges, read through `draftGraph`. */
  draft: { blocks: Graph['blocks']; edges: Graph['edges']; updated_at: string; version_id?: string | null };
}

/**
 * A version of the graph: every change writes one (./versions.ts), publishing writes one that is
 * listed as published; a promotion's draft snapshot is not listed either (`published_at` null).
 * Versions stored before graphs hold a legacy definition (read through `graphOf`).
 */
export interface VersionData {
  id: string;
  workflow_id: string;
  description: string;
  published_at: string | null;
  definition: Graph | Definition;
  created_at?: string;
}

const ROLE_CAPABILITIES: Record<Caller['key']['role'], Capability[]> = {
  admin: ['workflow:view', 'workflow:edit', 'workflow:run', 'workflow:delete', 'workflow:publish', 'workflow:review', 'workflow:manage'],
  operator: ['workflow:view', 'workflow:run', 'workflow:review'],
  viewer: ['workflow:view'],
};

export function capabilitiesOf(caller: Caller): Capability[] {
  return ROLE_CAPABILITIES[caller.key.role];
}

export function requireCapability(caller: Caller, capability: Capability): void {
  if (!capabilitiesOf(caller).includes(capability)) {
    throw new Forbidden(`This key (role ${caller.key.role}) lacks ${capability}`);
  }
}

export const workflowNotFound = () => new NotFound('Workflow not found');

export function toWire(caller: Caller, data: WorkflowData): Workflow {
  const { draft: _draft, status: _status, ...wire } = data as WorkflowData & { status?: string };
  return { ...wire, capabilities: capabilitiesOf(caller) };
}

export async function readWorkflow(p: Platform, scope: Scope, id: string): Promise<WorkflowData> {
  const record = await p.store.getRecord<WorkflowData>(scope, WORKFLOW_TYPE, id);
  if (!record || record.data.authz_status === 'deleted') throw workflowNotFound();
  return record.data;
}

/** Edit, publish and run need the workflow's authorization resource to be ready. */
export function requireReady(workflow: WorkflowData): void {
  if (workflow.authz_status !== 'ready') throw new Conflict(`Workflow ${workflow.id} is ${workflow.authz_status}, not ready`);
}

export async function createWorkflow(p: Platform, caller: Caller, input: { project_id: string; name: string; description: string }): Promise<Workflow> {
  requireCapability(caller, 'workflow:edit');
  if (!(await findProject(p, caller, input.project_id))) throw Invalid.at(['body', 'project_id'], `Project ${input.project_id} not found`);
  const now = timestamp(p.clock.now());
  const data: WorkflowData = {
    id: p.ids.next('wrk'),
    name: input.name,
    description: input.description,
    project_id: input.project_id,
    published: null,
    authz_status: 'provisioning',
    created_at: now,
    updated_at: now,
    draft: { blocks: [], edges: [], updated_at: now },
  };
  await p.store.putRecord(caller, { type: WORKFLOW_TYPE, id: data.id, createdAt: now, status: 'rev:0', attrs: { project_id: input.project_id }, data }, { ifAbsent: true });
  // Its authorization resource is the key's role table itself: nothing to provision but the move.
  await p.store.updateRecord<WorkflowData>(caller, WORKFLOW_TYPE, data.id, { authz_status: 'ready' });
  // As Retab does, a new workflow starts with its document input block (the first graph version).
  const change = await changeGraph(p, caller, data.id, (graph) => ({ ...graph, blocks: [defaultStartBlock(p, now)] }));
  return toWire(caller, change.workflow);
}

function defaultStartBlock(p: Platform, now: string): GraphBlock {
  return { id: p.ids.next('blk'), type: 'start_document', label: 'Document', position_x: 0, position_y: 0, width: null, height: null, config: {}, parent_id: null, updated_at: now, version_id: null };
}

export async function getWorkflow(p: Platform, caller: Caller, id: string): Promise<Workflow> {
  requireCapability(caller, 'workflow:view');
  return toWire(caller, await readWorkflow(p, caller, id));
}

export async function patchWorkflow(p: Platform, caller: Caller, id: string, patch: { name?: string | undefined; description?: string | undefined }): Promise<Workflow> {
  const workflow = await readWorkflow(p, caller, id);
  requireCapability(caller, 'workflow:edit');
  requireReady(workflow);
  const changes: Partial<WorkflowData> = { updated_at: timestamp(p.clock.now()) };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.description !== undefined) changes.description = patch.description;
  const updated = await p.store.updateRecord<WorkflowData>(caller, WORKFLOW_TYPE, id, changes);
  if (!updated) throw workflowNotFound();
  return toWire(caller, updated.data);
}

export async function deleteWorkflow(p: Platform, caller: Caller, id: string): Promise<void> {
  await readWorkflow(p, caller, id);
  requireCapability(caller, 'workflow:delete');
  await p.store.updateRecord<WorkflowData>(caller, WORKFLOW_TYPE, id, { authz_status: 'deleting', updated_at: timestamp(p.clock.now()) });
  for (const version of await allVersions(p, caller, id)) await p.store.deleteRecord(caller, VERSION_TYPE, version.id);
  await p.store.deleteRecord(caller, WORKFLOW_TYPE, id);
}

const draftOf = (workflow: WorkflowData): Draft => ({ workflow_id: workflow.id, ...legacyDefinition(draftGraph(workflow)), updated_at: workflow.draft.updated_at });

export async function getDraft(p: Platform, caller: Caller, id: string): Promise<Draft> {
  const workflow = await readWorkflow(p, caller, id);
  requireCapability(caller, 'workflow:view');
  return draftOf(workflow);
}

/**
 * Replaces the whole draft (the legacy definition): blocks keep their ids; an edge keeps the id of
 * the current edge that connects the same blocks through the same handles.
 */
export async function putDraft(p: Platform, caller: Caller, id: string, definition: Definition): Promise<Draft> {
  await readWorkflow(p, caller, id);
  const change = await changeGraph(p, caller, id, (current) => {
    const given = graphOf(definition, timestamp(p.clock.now()));
    const blocks = given.blocks.map((b) => {
      const old = current.blocks.find((c) => c.id === b.id);
      return old ? { ...old, type: b.type, label: b.label, config: b.config, parent_id: b.parent_id } : b;
    });
    const key = (e: { source: string; target: string; source_handle: string | null; target_handle: string | null }) => JSON.stringify([e.source, e.target, e.source_handle, e.target_handle]);
    const edges = given.edges.map((e) => current.edges.find((c) => key(c) === key(e)) ?? e);
    return { blocks, edges };
  });
  return draftOf(change.workflow);
}

/** The draft goes back to the published version (409 when nothing was ever published). */
export async function discardDraft(p: Platform, caller: Caller, id: string): Promise<Workflow> {
  const workflow = await readWorkflow(p, caller, id);
  if (!workflow.published) throw new Conflict(`Workflow ${id} has no published version to go back to`);
  const version = await p.store.getRecord<VersionData>(caller, VERSION_TYPE, workflow.published.version_id);
  if (!version) throw new Conflict(`The published version ${workflow.published.version_id} is missing`);
  const change = await changeGraph(p, caller, id, () => graphOf(version.data.definition as Graph, version.data.published_at ?? ''));
  return toWire(caller, change.workflow);
}

/**
 * The names of `names` that have no secret in the scope. Secrets arrive with their own resource;
 * until then this is the one place that looks them up.
 */
export type SecretLookup = (p: Platform, scope: Scope, names: string[]) => Promise<string[]>;

export async function publishWorkflow(p: Platform, caller: Caller, id: string, description: string, missingSecrets: SecretLookup): Promise<Workflow> {
  const workflow = await readWorkflow(p, caller, id);
  requireCapability(caller, 'workflow:publish');
  requireReady(workflow);
  const definition = draftGraph(workflow);
  if (caller.envSlug === 'production') {
    const missing = await missingSecrets(p, caller, secretNames(definition));
    if (missing.length) {
      throw new Conflict({ code: 'missing_secrets', message: `The draft references secrets that do not exist in production: ${missing.join(', ')}`, missing_secrets: missing });
    }
  }
  const now = timestamp(p.clock.now());
  const version: VersionData = { id: p.ids.next('ver'), workflow_id: id, description, published_at: now, definition, created_at: now };
  await p.store.putRecord(caller, { type: VERSION_TYPE, id: version.id, createdAt: now, attrs: { workflow_id: id, published: 'true' }, data: version }, { ifAbsent: true });
  const updated = await p.store.updateRecord<WorkflowData>(caller, WORKFLOW_TYPE, id, { published: { version_id: version.id, published_at: now, description }, updated_at: now });
  if (!updated) throw workflowNotFound();
  return toWire(caller, updated.data);
}

async function allVersions(p: Platform, scope: Scope, workflowId: string): Promise<VersionData[]> {
  const versions: VersionData[] = [];
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<VersionData>(scope, VERSION_TYPE, { limit: 100, order: 'asc', after, attrs: { workflow_id: workflowId } });
    versions.push(...page.items.map((r) => r.data));
    after = page.after ?? undefined;
  } while (after);
  return versions;
}

export const versionToWire = (v: VersionData): Version => ({ id: v.id, workflow_id: v.workflow_id, description: v.description, published_at: v.published_at ?? '' });

/** A version of the workflow by selector: `published`/`production`, `draft` (the live draft), or a ver_ id. */
export async function definitionFor(p: Platform, scope: Scope, workflow: WorkflowData, selector: string, loc: Array<string | number>): Promise<{ versionId: string | null; definition: Graph & RunDefinition }> {
  if (selector === 'draft') return { versionId: null, definition: draftGraph(workflow) };
  if (selector === 'published' || selector === 'production') {
    if (!workflow.published) throw new Conflict(`Workflow ${workflow.id} has no published version`);
    selector = workflow.published.version_id;
  }
  const version = await p.store.getRecord<VersionData>(scope, VERSION_TYPE, selector);
  if (!version || version.data.workflow_id !== workflow.id) throw Invalid.at(loc, `Version ${selector} is not a version of workflow ${workflow.id} (use published, draft or a ver_ id)`, 'value_error', selector);
  return { versionId: version.data.id, definition: graphOf(version.data.definition as Graph, version.data.published_at ?? '') };
}

export async function exportWorkflow(p: Platform, caller: Caller, id: string, selector: string): Promise<ExportBundle> {
  const workflow = await readWorkflow(p, caller, id);
  requireCapability(caller, 'workflow:view');
  const { versionId, definition } = await definitionFor(p, caller, workflow, selector, ['query', 'version']);
  return {
    format: 'quire.workflow/v1',
    name: workflow.name,
    description: workflow.description,
    definition: legacyDefinition(definition),
    source: { environment_slug: caller.envSlug, workflow_id: workflow.id, version_id: versionId },
  };
}
