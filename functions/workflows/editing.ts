/**
 * The blocks and edges routes (API §9.2, as the Retab SDK calls them): one block or edge at a time,
 * each change through `changeGraph` (./graph.ts: validated, versioned, safe against concurrent edits).
 * A block PATCH merges its config (`config_mode: merge`, the default: objects merge key by key and a
 * `null` deletes a key) or replaces it (`replace`); validate-config answers what a PATCH would do
 * without doing it.
 */
import type { Caller } from '../auth/service.ts';
import { Conflict, Invalid, NotFound, type ValidationIssue } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import { definitionProblems } from './definition.ts';
import { blockToWire, changeGraph, configHash, draftGraph, edgeToWire, mergeConfig, withoutNulls, workflowOf, type Graph, type GraphBlock, type GraphEdge } from './graph.ts';
import { readWorkflow, requireCapability, workflowNotFound } from './service.ts';

type Page = { limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined };

/** A page of an in-memory list (a graph's blocks or edges), by the API's list rules (§0.3). */
function pageOf<T extends { id: string }>(items: T[], q: Page, render: (x: T) => unknown) {
  const ordered = q.order === 'asc' ? items : [...items].reverse();
  const index = (id: string, param: string) => {
    const at = ordered.findIndex((x) => x.id === id);
    if (at < 0) throw Invalid.at(['query', param], `Cursor ${id} is not an item of this list`, 'cursor_invalid', id);
    return at;
  };
  if (q.before !== undefined && q.after !== undefined) throw Invalid.at(['query', 'before'], 'Give either before or after, not both');
  let start = 0;
  let end = ordered.length;
  if (q.after !== undefined) start = index(q.after, 'after') + 1;
  if (q.before !== undefined) {
    end = index(q.before, 'before');
    start = Math.max(0, end - q.limit);
  }
  const slice = ordered.slice(start, Math.min(end, start + q.limit));
  return {
    data: slice.map(render),
    list_metadata: { before: start > 0 && slice.length ? slice[0]!.id : null, after: start + slice.length < ordered.length && slice.length ? slice.at(-1)!.id : null },
  };
}

/** Problems of the changed graph, located at the body of this request where they concern the block or edge it changes. */
function locate(kind: 'blocks' | 'edges', id: string, graph: () => Graph) {
  return (issues: ValidationIssue[]): ValidationIssue[] => {
    const list = graph()[kind] as Array<{ id: string }>;
    const at = list.findIndex((x) => x.id === id);
    return issues.map((issue) => {
      const [, where, index, ...rest] = issue.loc;
      if (where === kind && index === at) return { ...issue, loc: ['body', ...rest] };
      return { ...issue, loc: ['body'], msg: `${issue.msg} (${String(where)}[${String(index)}]${rest.length ? `.${rest.join('.')}` : ''} of the graph)` };
    });
  };
}

async function viewable(p: Platform, caller: Caller, workflowId: string): Promise<Graph> {
  const workflow = await readWorkflow(p, caller, workflowId);
  requireCapability(caller, 'workflow:view');
  return draftGraph(workflow);
}

// ── Blocks ──────────────────────────────────────────────────────────────────────────────────────

export async function listBlocks(p: Platform, caller: Caller, q: Page & { workflow_id: string }) {
  const graph = await viewable(p, caller, q.workflow_id);
  return pageOf(graph.blocks, q, (b) => blockToWire(q.workflow_id, b));
}

export async function getBlock(p: Platform, caller: Caller, id: string, workflowId: string | undefined) {
  const { workflow, graph } = await workflowOf(p, caller, 'block', id, workflowId);
  return blockToWire(workflow.id, graph.blocks.find((b) => b.id === id)!);
}

export interface BlockFields {
  label?: string | null | undefined;
  position_x?: number | null | undefined;
  position_y?: number | null | undefined;
  width?: number | null | undefined;
  height?: number | null | undefined;
  config?: Record<string, unknown> | null | undefined;
  parent_id?: string | null | undefined;
}

export async function createBlock(p: Platform, caller: Caller, body: BlockFields & { workflow_id: string; type: string; id?: string | null | undefined }) {
  await readWorkflow(p, caller, body.workflow_id).catch(() => {
    throw Invalid.at(['body', 'workflow_id'], 'Workflow not found', 'value_error', body.workflow_id);
  });
  const id = body.id ?? p.ids.next('blk');
  let after: Graph | undefined;
  const change = await changeGraph(
    p,
    caller,
    body.workflow_id,
    (graph) => {
      if (graph.blocks.some((b) => b.id === id)) throw new Conflict(`Block ${id} already exists in workflow ${body.workflow_id}`);
      const block: GraphBlock = {
        id,
        type: body.type,
        label: body.label ?? '',
        position_x: body.position_x ?? 0,
        position_y: body.position_y ?? 0,
        width: body.width ?? null,
        height: body.height ?? null,
        config: withoutNulls(body.config ?? {}),
        parent_id: body.parent_id ?? null,
        updated_at: timestamp(p.clock.now()),
        version_id: null,
      };
      graph.blocks.push(block);
      after = graph;
      return graph;
    },
    locate('blocks', id, () => after!),
  );
  return blockToWire(body.workflow_id, change.after.blocks.find((b) => b.id === id)!);
}

function patched(block: GraphBlock, body: BlockFields & { config_mode?: 'merge' | 'replace' | null | undefined }): GraphBlock {
  const next = { ...block };
  if (body.label !== undefined && body.label !== null) next.label = body.label;
  if (body.position_x !== undefined && body.position_x !== null) next.position_x = body.position_x;
  if (body.position_y !== undefined && body.position_y !== null) next.position_y = body.position_y;
  if (body.width !== undefined) next.width = body.width;
  if (body.height !== undefined) next.height = body.height;
  if (body.parent_id !== undefined) next.parent_id = body.parent_id;
  if (body.config !== undefined && body.config !== null) next.config = (body.config_mode ?? 'merge') === 'replace' ? withoutNulls(body.config) : mergeConfig(block.config, body.config);
  return next;
}

export async function updateBlock(p: Platform, caller: Caller, id: string, workflowIdGiven: string | undefined, body: BlockFields & { config_mode?: 'merge' | 'replace' | null | undefined }) {
  const { workflow } = await workflowOf(p, caller, 'block', id, workflowIdGiven);
  let after: Graph | undefined;
  const change = await changeGraph(
    p,
    caller,
    workflow.id,
    (graph) => {
      const at = graph.blocks.findIndex((b) => b.id === id);
      if (at < 0) throw new NotFound(`Block ${id} not found`);
      graph.blocks[at] = patched(graph.blocks[at]!, body);
      after = graph;
      return graph;
    },
    locate('blocks', id, () => after!),
  );
  return blockToWire(workflow.id, change.after.blocks.find((b) => b.id === id)!);
}

/** Deletes a block, the edges that touch it and, for a container, the blocks inside it. */
export async function deleteBlock(p: Platform, caller: Caller, id: string, workflowIdGiven: string | undefined): Promise<void> {
  const { workflow } = await workflowOf(p, caller, 'block', id, workflowIdGiven);
  await changeGraph(p, caller, workflow.id, (graph) => {
    const gone = new Set([id]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const b of graph.blocks) if (b.parent_id && gone.has(b.parent_id) && !gone.has(b.id)) (gone.add(b.id), (grew = true));
    }
    return { blocks: graph.blocks.filter((b) => !gone.has(b.id)), edges: graph.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target)) };
  });
}

/** What a PATCH of the config would make of the block, checked, without storing anything. */
export async function validateBlockConfig(p: Platform, caller: Caller, id: string, workflowIdGiven: string | undefined, body: { config: Record<string, unknown>; config_mode?: 'merge' | 'replace' | null | undefined }) {
  const { workflow, graph } = await workflowOf(p, caller, 'block', id, workflowIdGiven);
  const at = graph.blocks.findIndex((b) => b.id === id);
  graph.blocks[at] = patched(graph.blocks[at]!, { config: body.config, config_mode: body.config_mode });
  const issues = locate('blocks', id, () => graph)(definitionProblems(graph, ['graph'])).map((i) => ({ ...i, loc: i.loc[0] === 'body' && i.loc.length > 1 ? ['body', ...i.loc.slice(1)] : i.loc }));
  if (issues.length) throw new Invalid(issues);
  const block = graph.blocks[at]!;
  return { ok: true, workflow_id: workflow.id, block_id: id, block_type: block.type, config_hash: configHash(block.config) };
}

// ── Edges ───────────────────────────────────────────────────────────────────────────────────────

export async function listEdges(p: Platform, caller: Caller, q: Page & { workflow_id: string; source_block?: string | undefined; target_block?: string | undefined }) {
  const graph = await viewable(p, caller, q.workflow_id);
  const edges = graph.edges.filter((e) => (q.source_block === undefined || e.source === q.source_block) && (q.target_block === undefined || e.target === q.target_block));
  return pageOf(edges, q, (e) => edgeToWire(q.workflow_id, e));
}

export async function getEdge(p: Platform, caller: Caller, id: string, workflowId: string | undefined) {
  const { workflow, graph } = await workflowOf(p, caller, 'edge', id, workflowId);
  return edgeToWire(workflow.id, graph.edges.find((e) => e.id === id)!);
}

export async function createEdge(p: Platform, caller: Caller, body: { workflow_id: string; source_block: string; target_block: string; id?: string | null | undefined; source_handle?: string | null | undefined; target_handle?: string | null | undefined }) {
  await readWorkflow(p, caller, body.workflow_id).catch(() => {
    throw Invalid.at(['body', 'workflow_id'], 'Workflow not found', 'value_error', body.workflow_id);
  });
  const id = body.id ?? p.ids.next('edg');
  let after: Graph | undefined;
  const change = await changeGraph(
    p,
    caller,
    body.workflow_id,
    (graph) => {
      if (graph.edges.some((e) => e.id === id)) throw new Conflict(`Edge ${id} already exists in workflow ${body.workflow_id}`);
      const key = (e: Pick<GraphEdge, 'source' | 'target' | 'source_handle' | 'target_handle'>) => JSON.stringify([e.source, e.target, e.source_handle, e.target_handle]);
      const edge: GraphEdge = { id, source: body.source_block, target: body.target_block, source_handle: body.source_handle ?? null, target_handle: body.target_handle ?? null, updated_at: '', version_id: null };
      if (graph.edges.some((e) => key(e) === key(edge))) throw new Conflict(`An edge from ${edge.source} to ${edge.target} through these handles already exists`);
      graph.edges.push(edge);
      after = graph;
      return graph;
    },
    (issues) =>
      locate('edges', id, () => after!)(issues).map((i) => ({ ...i, loc: i.loc.map((part) => (part === 'source' ? 'source_block' : part === 'target' ? 'target_block' : part)) })),
  );
  return edgeToWire(body.workflow_id, change.after.edges.find((e) => e.id === id)!);
}

export async function deleteEdge(p: Platform, caller: Caller, id: string): Promise<void> {
  const { workflow } = await workflowOf(p, caller, 'edge', id, undefined);
  await changeGraph(p, caller, workflow.id, (graph) => ({ ...graph, edges: graph.edges.filter((e) => e.id !== id) }));
}

export { workflowNotFound };
