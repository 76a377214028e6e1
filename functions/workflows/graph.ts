/**
 * The workflow graph as the Retab SDK edits it (API §9.2): the draft's blocks and edges, each with
 * an id, changed one at a time (blocks and edges routes) or all at once (PUT draft, a restore, a
 * spec apply). Every change that changes something writes immutable versions (./versions.ts): one
 * of each block and edge it changed, and one of the whole graph, whose id the draft then carries.
 *
 * The draft lives in the workflow record; a change is a read, a change in memory and a conditional
 * write on the record's revision (its store status `rev:<n>`), retried when another change won the
 * race, so two concurrent edits never lose one another. Block and edge ids are looked up without a
 * workflow id through small ref records (id → the workflows that have a block or edge of that id).
 */
import { createHash } from 'node:crypto';
import type { Caller } from '../auth/service.ts';
import { Conflict, Invalid, NotFound, type ValidationIssue } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { definitionProblems, type RunBlock, type RunEdge } from './definition.ts';
import type { Definition } from './schema.ts';
import { readWorkflow, requireCapability, requireReady, WORKFLOW_TYPE, type WorkflowData } from './service.ts';
import { writeVersions } from './versions.ts';

export interface GraphBlock {
  id: string;
  type: string;
  label: string;
  position_x: number;
  position_y: number;
  width: number | null;
  height: number | null;
  config: Record<string, unknown>;
  parent_id: string | null;
  updated_at: string;
  /** The block version this content is (null for drafts stored before versions existed). */
  version_id: string | null;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  source_handle: string | null;
  target_handle: string | null;
  updated_at: string;
  version_id: string | null;
}

export interface Graph {
  blocks: GraphBlock[];
  edges: GraphEdge[];
}

/** What a definition stored before graphs (or given to PUT draft) may hold: the legacy fields and the graph's. */
type AnyBlock = RunBlock & Partial<Omit<GraphBlock, 'parent_id'>>;
type AnyEdge = RunEdge & Partial<Omit<GraphEdge, 'source_handle' | 'target_handle'>>;

export const BLOCK_REF_TYPE = 'workflow_block_ref';
export const EDGE_REF_TYPE = 'workflow_edge_ref';

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

/** An edge without an id (a legacy definition) gets one from what it connects, the same on every read. */
function edgeIdOf(edge: AnyEdge, taken: Set<string>): string {
  let id = `edg_${hash(JSON.stringify([edge.source, edge.target, edge.source_handle ?? null, edge.target_handle ?? null])).slice(0, 20)}`;
  for (let n = 2; taken.has(id); n++) id = `${id.split('~')[0]}~${n}`;
  return id;
}

/** Any stored or given definition as a graph (defaults filled in, edge ids given). */
export function graphOf(definition: { blocks: AnyBlock[]; edges: AnyEdge[] }, now: string): Graph {
  const blocks = definition.blocks.map((b) => ({
    id: b.id,
    type: b.type,
    label: b.label ?? b.name ?? '',
    position_x: b.position_x ?? 0,
    position_y: b.position_y ?? 0,
    width: b.width ?? null,
    height: b.height ?? null,
    config: b.config ?? {},
    parent_id: b.parent_id ?? null,
    updated_at: b.updated_at ?? now,
    version_id: b.version_id ?? null,
  }));
  const taken = new Set<string>();
  const edges = definition.edges.map((e) => {
    const id = e.id ?? edgeIdOf(e, taken);
    taken.add(id);
    return {
      id,
      source: e.source,
      target: e.target,
      source_handle: e.source_handle ?? null,
      target_handle: e.target_handle ?? null,
      updated_at: e.updated_at ?? now,
      version_id: e.version_id ?? null,
    };
  });
  return { blocks, edges };
}

/** The legacy definition (PUT/GET draft, export): id, type, name, config; source, target, source_handle. */
export function legacyDefinition(graph: Graph): Definition {
  return {
    blocks: graph.blocks.map((b) => ({ id: b.id, type: b.type, ...(b.label ? { name: b.label } : {}), config: b.config, ...(b.parent_id ? { parent_id: b.parent_id } : {}) })),
    edges: graph.edges.map((e) => ({
      source: e.source,
      target: e.target,
      ...(e.source_handle !== null ? { source_handle: e.source_handle } : {}),
      ...(e.target_handle !== null ? { target_handle: e.target_handle } : {}),
    })),
  } as Definition;
}

/** The content of a block or edge: what a version records and a diff compares (no timestamps, no version id). */
export function blockContent(b: GraphBlock) {
  return { type: b.type, label: b.label, position_x: b.position_x, position_y: b.position_y, width: b.width, height: b.height, parent_id: b.parent_id, config: b.config };
}
export function edgeContent(e: GraphEdge) {
  return { source: e.source, target: e.target, source_handle: e.source_handle, target_handle: e.target_handle };
}

/** JSON with sorted keys: equal content, equal text (hashes, comparisons). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const configHash = (config: unknown) => `sha256:${hash(canonicalJson(config))}`;

/** The draft graph of a workflow as stored (legacy drafts normalized). */
export function draftGraph(workflow: WorkflowData): Graph {
  return graphOf(workflow.draft as { blocks: AnyBlock[]; edges: AnyEdge[] }, workflow.draft.updated_at);
}

export interface GraphChange {
  /** The graph as it was and as it is now (unchanged when nothing changed). */
  before: Graph;
  after: Graph;
  workflow: WorkflowData;
  /** The graph version written, or null when nothing changed. */
  versionId: string | null;
}

/**
 * Changes a workflow's draft graph: `edit` gets a copy of the current graph and returns the new one
 * (or throws a 4xx). The result is validated (problems located under `loc`), versions are written
 * for what changed, and the draft is replaced only if no other change came in between (retried).
 */
export async function changeGraph(
  p: Platform,
  caller: Caller,
  workflowId: string,
  edit: (graph: Graph, workflow: WorkflowData) => Graph,
  locate: Array<string | number> | ((issues: ValidationIssue[]) => ValidationIssue[]) = ['body'],
): Promise<GraphChange> {
  for (let attempt = 0; ; attempt++) {
    const record = await p.store.getRecord<WorkflowData>(caller, WORKFLOW_TYPE, workflowId);
    if (!record || record.data.authz_status === 'deleted') throw new NotFound('Workflow not found');
    const workflow = record.data;
    requireCapability(caller, 'workflow:edit');
    requireReady(workflow);
    const before = draftGraph(workflow);
    const after = edit(structuredClone(before), workflow);
    const problems = Array.isArray(locate) ? definitionProblems(after, locate) : locate(definitionProblems(after, ['graph']));
    if (problems.length) throw new Invalid(problems);

    const now = timestamp(p.clock.now());
    const changed = stampChanges(p, before, after, now);
    if (!changed) return { before, after: before, workflow, versionId: null };

    const versionId = p.ids.next('ver');
    const rev = revisionOf(record.status);
    if (rev === undefined) await p.store.updateRecord(caller, WORKFLOW_TYPE, workflowId, {}, { status: 'rev:0' });
    const draft = { blocks: after.blocks, edges: after.edges, updated_at: now, version_id: versionId };
    const moved = await p.store.moveStatus<WorkflowData>(caller, WORKFLOW_TYPE, workflowId, [`rev:${rev ?? 0}`], `rev:${(rev ?? 0) + 1}`, {
      draft: draft as WorkflowData['draft'],
      updated_at: now,
    });
    if (!moved) {
      if (attempt < 8) continue;
      throw new Conflict(`Workflow ${workflowId} is being changed by another request: try again`);
    }
    await writeVersions(p, caller, workflowId, versionId, before, after, now);
    await writeRefs(p, caller, workflowId, before, after, now);
    return { before, after, workflow: moved.data, versionId };
  }
}

function revisionOf(status: string | undefined): number | undefined {
  const m = /^rev:(\d+)$/.exec(status ?? '');
  return m ? Number(m[1]) : undefined;
}

/** Gives new version ids and timestamps to the blocks and edges whose content changed; whether anything changed. */
function stampChanges(p: Platform, before: Graph, after: Graph, now: string): boolean {
  let changed = before.blocks.length !== after.blocks.length || before.edges.length !== after.edges.length;
  const oldBlocks = new Map(before.blocks.map((b) => [b.id, b]));
  for (const block of after.blocks) {
    const old = oldBlocks.get(block.id);
    if (!old || canonicalJson(blockContent(old)) !== canonicalJson(blockContent(block)) || old.version_id === null) {
      block.version_id = p.ids.next('bver');
      block.updated_at = now;
      changed = true;
    } else {
      block.version_id = old.version_id;
      block.updated_at = old.updated_at;
    }
  }
  const oldEdges = new Map(before.edges.map((e) => [e.id, e]));
  for (const edge of after.edges) {
    const old = oldEdges.get(edge.id);
    if (!old || canonicalJson(edgeContent(old)) !== canonicalJson(edgeContent(edge)) || old.version_id === null) {
      edge.version_id = p.ids.next('ever');
      edge.updated_at = now;
      changed = true;
    } else {
      edge.version_id = old.version_id;
      edge.updated_at = old.updated_at;
    }
  }
  if (!changed) {
    const ids = (g: Graph) => canonicalJson([g.blocks.map((b) => b.id), g.edges.map((e) => e.id)]);
    changed = ids(before) !== ids(after);
  }
  return changed;
}

interface RefData {
  id: string;
  workflow_ids: string[];
}

/** Notes which workflow holds each new block and edge id (lookups without a workflow id). */
async function writeRefs(p: Platform, scope: Scope, workflowId: string, before: Graph, after: Graph, now: string): Promise<void> {
  const had = new Set([...before.blocks.map((b) => `b:${b.id}`), ...before.edges.map((e) => `e:${e.id}`)]);
  const add = async (type: string, id: string) => {
    const ref = await p.store.getRecord<RefData>(scope, type, id);
    if (!ref) {
      try {
        await p.store.putRecord<RefData>(scope, { type, id, createdAt: now, data: { id, workflow_ids: [workflowId] } }, { ifAbsent: true });
        return;
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
      }
    }
    const current = (await p.store.getRecord<RefData>(scope, type, id))?.data.workflow_ids ?? [];
    if (!current.includes(workflowId)) await p.store.updateRecord<RefData>(scope, type, id, { workflow_ids: [...current, workflowId] });
  };
  for (const b of after.blocks) if (!had.has(`b:${b.id}`)) await add(BLOCK_REF_TYPE, b.id);
  for (const e of after.edges) if (!had.has(`e:${e.id}`)) await add(EDGE_REF_TYPE, e.id);
}

/**
 * The workflow holding a block (or edge) id: the one given, or the one its ref names. An id in
 * several workflows needs the workflow id (422 saying so).
 */
export async function workflowOf(p: Platform, caller: Caller, kind: 'block' | 'edge', id: string, workflowId: string | undefined): Promise<{ workflow: WorkflowData; graph: Graph }> {
  const missing = () => new NotFound(`${kind === 'block' ? 'Block' : 'Edge'} ${id} not found`);
  if (workflowId === undefined) {
    const ref = await p.store.getRecord<RefData>(caller, kind === 'block' ? BLOCK_REF_TYPE : EDGE_REF_TYPE, id);
    const candidates: Array<{ workflow: WorkflowData; graph: Graph }> = [];
    for (const wid of ref?.data.workflow_ids ?? []) {
      const workflow = await readWorkflow(p, caller, wid).catch(() => undefined);
      if (!workflow) continue;
      const graph = draftGraph(workflow);
      if ((kind === 'block' ? graph.blocks : graph.edges).some((x) => x.id === id)) candidates.push({ workflow, graph });
    }
    if (candidates.length === 0) throw missing();
    if (candidates.length > 1) throw Invalid.at(['query', 'workflow_id'], `${kind} id ${id} is used in several workflows (${candidates.map((c) => c.workflow.id).join(', ')}): pass workflow_id`, 'missing');
    requireCapability(caller, 'workflow:view');
    return candidates[0]!;
  }
  const workflow = await readWorkflow(p, caller, workflowId);
  requireCapability(caller, 'workflow:view');
  const graph = draftGraph(workflow);
  if (!(kind === 'block' ? graph.blocks : graph.edges).some((x) => x.id === id)) throw missing();
  return { workflow, graph };
}

// ── The wire forms ──────────────────────────────────────────────────────────────────────────────

export function blockToWire(workflowId: string, b: GraphBlock) {
  return {
    id: b.id,
    workflow_id: workflowId,
    type: b.type,
    label: b.label,
    position_x: b.position_x,
    position_y: b.position_y,
    width: b.width,
    height: b.height,
    config: b.config,
    parent_id: b.parent_id,
    declarative_path: null,
    declarative_source_block_id: null,
    updated_at: b.updated_at,
    resolved_schemas: null,
  };
}

export function edgeToWire(workflowId: string, e: GraphEdge) {
  return { id: e.id, workflow_id: workflowId, source_block: e.source, target_block: e.target, source_handle: e.source_handle, target_handle: e.target_handle, updated_at: e.updated_at };
}

// ── Config merge (PATCH with config_mode merge) ─────────────────────────────────────────────────

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep merge of `patch` into `base`: objects merge key by key, a `null` deletes the key, anything else replaces. */
export function mergeConfig(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__') continue;
    if (value === null) delete out[key];
    else if (isPlainObject(value) && isPlainObject(out[key])) out[key] = mergeConfig(out[key] as Record<string, unknown>, value);
    else out[key] = value;
  }
  return out;
}

/** A config as stored: nulls dropped (in replace mode a null means "not set"). */
export function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return mergeConfig({}, value);
}
