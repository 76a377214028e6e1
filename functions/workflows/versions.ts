/**
 * Immutable versions of a workflow graph (API §9.2): every change of the draft writes one version
 * of the whole graph (`ver_`, the same records publishing writes, not listed as published) and one
 * of each block (`bver_`) and edge (`ever_`) whose content it changed. Versions are listed, read,
 * compared (`changes[{field, from_value, to_value}]`; for graphs, the ids added, removed and
 * changed) and restored (the draft takes the version's content back, which is itself a change).
 */
import type { Caller } from '../auth/service.ts';
import { Invalid, NotFound } from '../platform/errors.ts';
import { toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { ListPage, Scope } from '../platform/ports.ts';
import {
  blockContent,
  blockToWire,
  canonicalJson,
  changeGraph,
  configHash,
  edgeContent,
  edgeToWire,
  graphOf,
  type Graph,
  type GraphBlock,
  type GraphEdge,
} from './graph.ts';
import { readWorkflow, requireCapability, toWire, VERSION_TYPE, type VersionData } from './service.ts';

export const BLOCK_VERSION_TYPE = 'workflow_block_version';
export const EDGE_VERSION_TYPE = 'workflow_edge_version';

export interface BlockVersionData extends ReturnType<typeof blockContent> {
  id: string;
  block_id: string;
  workflow_id: string;
  workflow_version_id: string;
  config_hash: string;
  created_at: string;
}

export interface EdgeVersionData extends ReturnType<typeof edgeContent> {
  id: string;
  edge_id: string;
  workflow_id: string;
  workflow_version_id: string;
  created_at: string;
}

/** Writes the versions of one change: the graph's, and those of the blocks and edges stamped with a new version id. */
export async function writeVersions(p: Platform, scope: Scope, workflowId: string, versionId: string, before: Graph, after: Graph, now: string): Promise<void> {
  const oldBlockVersions = new Set(before.blocks.map((b) => b.version_id));
  const oldEdgeVersions = new Set(before.edges.map((e) => e.version_id));
  for (const block of after.blocks) {
    if (!block.version_id || oldBlockVersions.has(block.version_id)) continue;
    const data: BlockVersionData = { id: block.version_id, block_id: block.id, workflow_id: workflowId, workflow_version_id: versionId, ...blockContent(block), config_hash: configHash(block.config), created_at: now };
    await p.store.putRecord(scope, { type: BLOCK_VERSION_TYPE, id: data.id, createdAt: now, attrs: { workflow_id: workflowId, block_id: block.id, workflow_version_id: versionId }, data });
  }
  for (const edge of after.edges) {
    if (!edge.version_id || oldEdgeVersions.has(edge.version_id)) continue;
    const data: EdgeVersionData = { id: edge.version_id, edge_id: edge.id, workflow_id: workflowId, workflow_version_id: versionId, ...edgeContent(edge), created_at: now };
    await p.store.putRecord(scope, { type: EDGE_VERSION_TYPE, id: data.id, createdAt: now, attrs: { workflow_id: workflowId, edge_id: edge.id, workflow_version_id: versionId }, data });
  }
  const version: VersionData = { id: versionId, workflow_id: workflowId, description: '', published_at: null, definition: after, created_at: now };
  await p.store.putRecord(scope, { type: VERSION_TYPE, id: versionId, createdAt: now, attrs: { workflow_id: workflowId, published: 'false' }, data: version });
}

// ── Workflow graph versions ─────────────────────────────────────────────────────────────────────

async function readGraphVersion(p: Platform, caller: Caller, workflowId: string, versionId: string, loc: Array<string | number> = ['path', 'workflow_version_id']): Promise<VersionData> {
  await readWorkflow(p, caller, workflowId);
  requireCapability(caller, 'workflow:view');
  const version = await p.store.getRecord<VersionData>(caller, VERSION_TYPE, versionId);
  if (!version || version.data.workflow_id !== workflowId) {
    if (loc[0] === 'path') throw new NotFound(`Workflow version ${versionId} not found`);
    throw Invalid.at(loc, `${versionId} is not a version of workflow ${workflowId}`, 'value_error', versionId);
  }
  return version.data;
}

export function graphVersionToWire(v: VersionData) {
  const graph = graphOf(v.definition as Graph, v.created_at ?? v.published_at ?? '');
  return {
    id: v.id,
    workflow_id: v.workflow_id,
    blocks: graph.blocks.map((b) => ({ id: b.id, type: b.type, position: { x: b.position_x, y: b.position_y }, label: b.label, config: b.config, resolved_schemas: null, width: b.width, height: b.height, parent_id: b.parent_id })),
    edges: graph.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, source_handle: e.source_handle, target_handle: e.target_handle, animated: false })),
    block_version_ids: graph.blocks.map((b) => b.version_id).filter((id): id is string => id !== null),
    edge_version_ids: graph.edges.map((e) => e.version_id).filter((id): id is string => id !== null),
    created_at: v.created_at ?? v.published_at ?? '',
  };
}

export async function listGraphVersions(p: Platform, caller: Caller, query: { workflow_id: string; limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined }) {
  await readWorkflow(p, caller, query.workflow_id);
  requireCapability(caller, 'workflow:view');
  const page = await p.store.listRecords<VersionData>(caller, VERSION_TYPE, toListQuery(query, { workflow_id: query.workflow_id }));
  return envelope(page, graphVersionToWire);
}

export async function getGraphVersion(p: Platform, caller: Caller, versionId: string, workflowId: string) {
  return graphVersionToWire(await readGraphVersion(p, caller, workflowId, versionId));
}

/** Which blocks and edges one graph version adds, removes and changes relative to another. */
export async function diffGraphVersions(p: Platform, caller: Caller, query: { workflow_id: string; from_workflow_version_id: string; to_workflow_version_id: string }) {
  const from = graphOf((await readGraphVersion(p, caller, query.workflow_id, query.from_workflow_version_id, ['query', 'from_workflow_version_id'])).definition as Graph, '');
  const to = graphOf((await readGraphVersion(p, caller, query.workflow_id, query.to_workflow_version_id, ['query', 'to_workflow_version_id'])).definition as Graph, '');
  const compare = <T extends { id: string }>(a: T[], b: T[], content: (x: T) => unknown) => {
    const before = new Map(a.map((x) => [x.id, canonicalJson(content(x))]));
    const after = new Map(b.map((x) => [x.id, canonicalJson(content(x))]));
    return {
      added: [...after.keys()].filter((id) => !before.has(id)),
      removed: [...before.keys()].filter((id) => !after.has(id)),
      changed: [...after.keys()].filter((id) => before.has(id) && before.get(id) !== after.get(id)),
    };
  };
  const blocks = compare(from.blocks, to.blocks, blockContent);
  const edges = compare(from.edges, to.edges, edgeContent);
  return {
    from_workflow_version_id: query.from_workflow_version_id,
    to_workflow_version_id: query.to_workflow_version_id,
    added_block_ids: blocks.added,
    removed_block_ids: blocks.removed,
    changed_block_ids: blocks.changed,
    added_edge_ids: edges.added,
    removed_edge_ids: edges.removed,
    changed_edge_ids: edges.changed,
  };
}

/** The draft becomes the version's graph again (a new version when that changes it). */
export async function restoreGraphVersion(p: Platform, caller: Caller, versionId: string, workflowId: string) {
  const version = await readGraphVersion(p, caller, workflowId, versionId);
  const restored = graphOf(version.definition as Graph, version.created_at ?? '');
  const change = await changeGraph(p, caller, workflowId, () => restored);
  return toWire(caller, change.workflow);
}

// ── Block and edge versions ─────────────────────────────────────────────────────────────────────

export function blockVersionToWire(v: BlockVersionData) {
  return { ...v };
}
export function edgeVersionToWire(v: EdgeVersionData) {
  return { id: v.id, edge_id: v.edge_id, workflow_id: v.workflow_id, workflow_version_id: v.workflow_version_id, source: v.source, source_handle: v.source_handle, target: v.target, target_handle: v.target_handle, animated: false, created_at: v.created_at };
}

function envelope<T, U>(page: ListPage<T>, render: (data: T) => U) {
  return { data: page.items.map((item) => render(item.data)), list_metadata: { before: page.before, after: page.after } };
}

type VersionListQuery = { workflow_id: string; workflow_version_id?: string | undefined; limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined };

export async function listBlockVersions(p: Platform, caller: Caller, query: VersionListQuery & { block_id?: string | undefined }) {
  await readWorkflow(p, caller, query.workflow_id);
  requireCapability(caller, 'workflow:view');
  const page = await p.store.listRecords<BlockVersionData>(caller, BLOCK_VERSION_TYPE, toListQuery(query, { workflow_id: query.workflow_id, block_id: query.block_id, workflow_version_id: query.workflow_version_id }));
  return envelope(page, blockVersionToWire);
}

export async function listEdgeVersions(p: Platform, caller: Caller, query: VersionListQuery & { edge_id?: string | undefined }) {
  await readWorkflow(p, caller, query.workflow_id);
  requireCapability(caller, 'workflow:view');
  const page = await p.store.listRecords<EdgeVersionData>(caller, EDGE_VERSION_TYPE, toListQuery(query, { workflow_id: query.workflow_id, edge_id: query.edge_id, workflow_version_id: query.workflow_version_id }));
  return envelope(page, edgeVersionToWire);
}

async function readVersion<T extends { workflow_id: string }>(p: Platform, caller: Caller, type: string, id: string, what: string, loc?: Array<string | number>): Promise<T> {
  const record = await p.store.getRecord<T>(caller, type, id);
  if (!record) {
    if (loc) throw Invalid.at(loc, `${what} ${id} not found`, 'value_error', id);
    throw new NotFound(`${what} ${id} not found`);
  }
  await readWorkflow(p, caller, record.data.workflow_id);
  requireCapability(caller, 'workflow:view');
  return record.data;
}

export const getBlockVersion = async (p: Platform, caller: Caller, id: string) => blockVersionToWire(await readVersion<BlockVersionData>(p, caller, BLOCK_VERSION_TYPE, id, 'Block version'));
export const getEdgeVersion = async (p: Platform, caller: Caller, id: string) => edgeVersionToWire(await readVersion<EdgeVersionData>(p, caller, EDGE_VERSION_TYPE, id, 'Edge version'));

/** Field by field: top-level fields, and the config's leaves as `config.<path>`. */
export function fieldChanges(from: Record<string, unknown>, to: Record<string, unknown>, prefix = ''): Array<{ field: string; from_value: unknown; to_value: unknown }> {
  const changes: Array<{ field: string; from_value: unknown; to_value: unknown }> = [];
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  for (const key of [...new Set([...Object.keys(from), ...Object.keys(to)])].sort()) {
    const a = from[key];
    const b = to[key];
    const field = prefix ? `${prefix}.${key}` : key;
    if (isObject(a) && isObject(b)) changes.push(...fieldChanges(a, b, field));
    else if (canonicalJson(a) !== canonicalJson(b)) changes.push({ field, from_value: a ?? null, to_value: b ?? null });
  }
  return changes;
}

export async function diffBlockVersions(p: Platform, caller: Caller, query: { from_block_version_id: string; to_block_version_id: string }) {
  const from = await readVersion<BlockVersionData>(p, caller, BLOCK_VERSION_TYPE, query.from_block_version_id, 'Block version', ['query', 'from_block_version_id']);
  const to = await readVersion<BlockVersionData>(p, caller, BLOCK_VERSION_TYPE, query.to_block_version_id, 'Block version', ['query', 'to_block_version_id']);
  if (from.block_id !== to.block_id) throw Invalid.at(['query', 'to_block_version_id'], `The versions are of two blocks (${from.block_id}, ${to.block_id})`);
  const { id: _a, created_at: _b, workflow_version_id: _c, config_hash: _d, ...fromContent } = from;
  const { id: _e, created_at: _f, workflow_version_id: _g, config_hash: _h, ...toContent } = to;
  return { from_block_version_id: from.id, to_block_version_id: to.id, block_id: from.block_id, changes: fieldChanges(fromContent, toContent) };
}

export async function diffEdgeVersions(p: Platform, caller: Caller, query: { from_edge_version_id: string; to_edge_version_id: string }) {
  const from = await readVersion<EdgeVersionData>(p, caller, EDGE_VERSION_TYPE, query.from_edge_version_id, 'Edge version', ['query', 'from_edge_version_id']);
  const to = await readVersion<EdgeVersionData>(p, caller, EDGE_VERSION_TYPE, query.to_edge_version_id, 'Edge version', ['query', 'to_edge_version_id']);
  if (from.edge_id !== to.edge_id) throw Invalid.at(['query', 'to_edge_version_id'], `The versions are of two edges (${from.edge_id}, ${to.edge_id})`);
  return { from_edge_version_id: from.id, to_edge_version_id: to.id, edge_id: from.edge_id, changes: fieldChanges(edgeContentOf(from), edgeContentOf(to)) };
}

const edgeContentOf = (v: EdgeVersionData) => ({ source: v.source, target: v.target, source_handle: v.source_handle, target_handle: v.target_handle });

/** The draft's block takes this version's content back (re-added if it was deleted since). */
export async function restoreBlockVersion(p: Platform, caller: Caller, id: string) {
  const version = await readVersion<BlockVersionData>(p, caller, BLOCK_VERSION_TYPE, id, 'Block version');
  const change = await changeGraph(p, caller, version.workflow_id, (graph) => {
    const restored: GraphBlock = { id: version.block_id, type: version.type, label: version.label, position_x: version.position_x, position_y: version.position_y, width: version.width, height: version.height, config: version.config, parent_id: version.parent_id, updated_at: '', version_id: null };
    const at = graph.blocks.findIndex((b) => b.id === version.block_id);
    if (at >= 0) graph.blocks[at] = restored;
    else graph.blocks.push(restored);
    return graph;
  });
  return blockToWire(version.workflow_id, change.after.blocks.find((b) => b.id === version.block_id)!);
}

export async function restoreEdgeVersion(p: Platform, caller: Caller, id: string) {
  const version = await readVersion<EdgeVersionData>(p, caller, EDGE_VERSION_TYPE, id, 'Edge version');
  const change = await changeGraph(p, caller, version.workflow_id, (graph) => {
    const restored: GraphEdge = { id: version.edge_id, source: version.source, target: version.target, source_handle: version.source_handle, target_handle: version.target_handle, updated_at: '', version_id: null };
    const at = graph.edges.findIndex((e) => e.id === version.edge_id);
    if (at >= 0) graph.edges[at] = restored;
    else graph.edges.push(restored);
    return graph;
  });
  return edgeToWire(version.workflow_id, change.after.edges.find((e) => e.id === version.edge_id)!);
}
