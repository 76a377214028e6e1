/**
 * The workflow as YAML (API §9.2, the SDK's `workflows.spec` and `plan`/`apply`): export the draft,
 * validate a definition, plan what applying it would change (Terraform-like: resource changes with
 * field changes and a rendered plan) and apply it — to a given workflow, to the workflow the YAML
 * names (`id`), or to a new workflow of `project_id`. The round trip holds: applying an export
 * unchanged plans and applies as `noop`.
 *
 *   format: quire.workflow.spec/v1
 *   id: wrk_...                      # optional: the workflow this describes
 *   name: Invoices
 *   description: ""
 *   blocks:
 *     - {id: doc, type: start_document, label: Document, position: {x: 0, y: 0}, config: {}}
 *     - {id: fields, type: extract, config: {json_schema: {...}, review: {predicate: {kind: always}}}}
 *   edges:
 *     - {id: edg_..., source: doc, target: fields}   # id optional; source_handle, target_handle
 */
import type { Caller } from '../auth/service.ts';
import { Invalid, type ValidationIssue } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import { definitionProblems } from './definition.ts';
import { blockContent, canonicalJson, changeGraph, draftGraph, edgeContent, graphOf, type Graph, type GraphBlock, type GraphEdge } from './graph.ts';
import { createWorkflow, patchWorkflow, readWorkflow, requireCapability, type WorkflowData } from './service.ts';

export const SPEC_FORMAT = 'quire.workflow.spec/v1';
const PLAN_FORMAT = 'workflows-plan/v1';
const MAX_YAML_BYTES = 2 * 1024 * 1024;
/** The `yaml` package (~115 KB) is loaded by the spec routes only, not with the rest of the workflows Lambda. */
const yamlPackage = () => import('yaml');

interface Spec {
  id?: string;
  name: string;
  description: string;
  graph: Graph;
}

// ── Export ──────────────────────────────────────────────────────────────────────────────────────

async function specText(workflow: WorkflowData, graph: Graph): Promise<string> {
  const { stringify } = await yamlPackage();
  const doc = {
    format: SPEC_FORMAT,
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    blocks: graph.blocks.map((b) => ({
      id: b.id,
      type: b.type,
      label: b.label,
      position: { x: b.position_x, y: b.position_y },
      ...(b.width !== null ? { width: b.width } : {}),
      ...(b.height !== null ? { height: b.height } : {}),
      ...(b.parent_id ? { parent_id: b.parent_id } : {}),
      config: b.config,
    })),
    edges: graph.edges.map((e) => ({
      id: e.id,
      source: e.source,
      target: e.target,
      ...(e.source_handle !== null ? { source_handle: e.source_handle } : {}),
      ...(e.target_handle !== null ? { target_handle: e.target_handle } : {}),
    })),
  };
  return stringify(doc, { lineWidth: 0 });
}

export async function exportSpec(p: Platform, caller: Caller, workflowId: string) {
  const workflow = await readWorkflow(p, caller, workflowId);
  requireCapability(caller, 'workflow:view');
  return { workflow_id: workflow.id, yaml_definition: await specText(workflow, draftGraph(workflow)) };
}

// ── Reading a spec ──────────────────────────────────────────────────────────────────────────────

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The spec in a YAML text, or every problem found in it (loc under body.yaml_definition). */
async function readSpec(text: string, ids: () => string): Promise<{ spec?: Spec; issues: ValidationIssue[] }> {
  const { parse } = await yamlPackage();
  const at = ['body', 'yaml_definition'];
  const issues: ValidationIssue[] = [];
  const issue = (loc: Array<string | number>, msg: string) => issues.push({ loc: [...at, ...loc], msg, type: 'value_error' });
  if (Buffer.byteLength(text) > MAX_YAML_BYTES) return { issues: [{ loc: at, msg: 'yaml_definition is larger than 2 MB', type: 'value_error' }] };
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (error) {
    return { issues: [{ loc: at, msg: `yaml_definition is not valid YAML: ${(error as Error).message.split('\n')[0]}`, type: 'yaml_invalid' }] };
  }
  if (!isObject(doc)) return { issues: [{ loc: at, msg: 'yaml_definition must be a mapping with name, blocks and edges', type: 'value_error' }] };
  if (doc.format !== undefined && doc.format !== SPEC_FORMAT) issue(['format'], `unknown format "${String(doc.format)}" (this service reads ${SPEC_FORMAT})`);
  if (doc.id !== undefined && typeof doc.id !== 'string') issue(['id'], 'must be a workflow id');
  const name = doc.name ?? 'Untitled Workflow';
  if (typeof name !== 'string' || !name.trim() || name.length > 200) issue(['name'], 'must be a non-empty string of at most 200 characters');
  if (doc.description !== undefined && typeof doc.description !== 'string') issue(['description'], 'must be a string');
  const blocksIn = doc.blocks ?? [];
  const edgesIn = doc.edges ?? [];
  if (!Array.isArray(blocksIn)) issue(['blocks'], 'must be a list of blocks');
  if (!Array.isArray(edgesIn)) issue(['edges'], 'must be a list of edges');
  if (issues.length) return { issues };
  const blocks: GraphBlock[] = [];
  (blocksIn as unknown[]).forEach((b, i) => {
    if (!isObject(b)) return issue(['blocks', i], 'must be a mapping with id, type and config');
    if (b.id !== undefined && (typeof b.id !== 'string' || !b.id || b.id.length > 100)) issue(['blocks', i, 'id'], 'must be a string of 1 to 100 characters');
    if (typeof b.type !== 'string') issue(['blocks', i, 'type'], 'is required (a block type)');
    if (b.config !== undefined && b.config !== null && !isObject(b.config)) issue(['blocks', i, 'config'], 'must be a mapping');
    const position = isObject(b.position) ? b.position : {};
    const number = (v: unknown, key: string) => {
      if (v === undefined || v === null) return null;
      if (typeof v !== 'number') issue(['blocks', i, key], 'must be a number');
      return typeof v === 'number' ? v : null;
    };
    blocks.push({
      id: typeof b.id === 'string' ? b.id : ids(),
      type: String(b.type),
      label: typeof b.label === 'string' ? b.label : '',
      position_x: number(position.x, 'position') ?? 0,
      position_y: number(position.y, 'position') ?? 0,
      width: number(b.width, 'width'),
      height: number(b.height, 'height'),
      config: isObject(b.config) ? b.config : {},
      parent_id: typeof b.parent_id === 'string' ? b.parent_id : null,
      updated_at: '',
      version_id: null,
    });
  });
  const edges: Array<Omit<GraphEdge, 'id'> & { id?: string }> = [];
  (edgesIn as unknown[]).forEach((e, i) => {
    if (!isObject(e)) return issue(['edges', i], 'must be a mapping with source and target');
    if (typeof e.source !== 'string') issue(['edges', i, 'source'], 'is required (a block id)');
    if (typeof e.target !== 'string') issue(['edges', i, 'target'], 'is required (a block id)');
    for (const key of ['id', 'source_handle', 'target_handle']) if (e[key] !== undefined && e[key] !== null && typeof e[key] !== 'string') issue(['edges', i, key], 'must be a string');
    edges.push({
      ...(typeof e.id === 'string' ? { id: e.id } : {}),
      source: String(e.source),
      target: String(e.target),
      source_handle: typeof e.source_handle === 'string' ? e.source_handle : null,
      target_handle: typeof e.target_handle === 'string' ? e.target_handle : null,
      updated_at: '',
      version_id: null,
    });
  });
  if (issues.length) return { issues };
  const graph = graphOf({ blocks, edges }, '');
  for (const problem of definitionProblems(graph, [])) issues.push({ ...problem, loc: [...at, ...problem.loc] });
  if (issues.length) return { issues };
  return { spec: { ...(typeof doc.id === 'string' ? { id: doc.id } : {}), name: (name as string).trim(), description: (doc.description as string | undefined) ?? '', graph }, issues };
}

const diagnosticsOf = (issues: ValidationIssue[]) => ({ errors: issues.map((i) => ({ path: i.loc.slice(2).join('.'), message: i.msg })), warnings: [] as unknown[] });

export async function validateSpec(p: Platform, caller: Caller, body: { yaml_definition: string; project_id?: string | undefined }) {
  requireCapability(caller, 'workflow:view');
  const { spec, issues } = await readSpec(body.yaml_definition, () => p.ids.next('blk'));
  return {
    workflow_id: spec?.id ?? '',
    block_count: spec?.graph.blocks.length ?? 0,
    edge_count: spec?.graph.edges.length ?? 0,
    is_valid: issues.length === 0,
    diagnostics: diagnosticsOf(issues),
  };
}

// ── Plan ────────────────────────────────────────────────────────────────────────────────────────

type Action = 'create' | 'update' | 'delete';

interface FieldChange {
  path: Array<string | number>;
  path_display: string;
  action: Action;
  before: unknown;
  after: unknown;
  before_sensitive: boolean;
  after_sensitive: boolean;
  unified_diff: null;
}

function fieldChanges(before: unknown, after: unknown, path: Array<string | number> = []): FieldChange[] {
  if (canonicalJson(before) === canonicalJson(after)) return [];
  if (isObject(before) && isObject(after)) {
    return [...new Set([...Object.keys(before), ...Object.keys(after)])].sort().flatMap((k) => fieldChanges(before[k], after[k], [...path, k]));
  }
  const action: Action = before === undefined ? 'create' : after === undefined ? 'delete' : 'update';
  return [{ path, path_display: path.join('.'), action, before: before ?? null, after: after ?? null, before_sensitive: false, after_sensitive: false, unified_diff: null }];
}

interface ResourceChange {
  address: string;
  target: 'workflow' | 'block' | 'edge';
  target_id: string;
  name: string;
  type: string;
  actions: Action[];
  summary: string;
  change: { before: unknown; after: unknown; field_changes: FieldChange[] };
  path: string | null;
}

/** Edges of the spec matched to the current ones: by id, else by what they connect. */
function matchEdges(current: GraphEdge[], wanted: Graph['edges']): GraphEdge[] {
  const key = (e: Pick<GraphEdge, 'source' | 'target' | 'source_handle' | 'target_handle'>) => canonicalJson([e.source, e.target, e.source_handle, e.target_handle]);
  return wanted.map((e) => {
    const same = current.find((c) => c.id === e.id) ?? current.find((c) => key(c) === key(e));
    return same && key(same) === key(e) ? { ...e, id: same.id } : e;
  });
}

function planOf(workflow: { id: string; name: string; description: string } | undefined, current: Graph, spec: Spec) {
  const wanted: Graph = { blocks: spec.graph.blocks, edges: matchEdges(current.edges, spec.graph.edges) };
  const changes: ResourceChange[] = [];
  const meta = (w?: { name: string; description: string }) => (w ? { name: w.name, description: w.description } : undefined);
  const workflowFields = fieldChanges(meta(workflow), meta(spec));
  if (!workflow || workflowFields.length) {
    changes.push({ address: 'workflow', target: 'workflow', target_id: workflow?.id ?? '', name: spec.name, type: 'workflow', actions: [workflow ? 'update' : 'create'], summary: workflow ? `update workflow "${spec.name}"` : `create workflow "${spec.name}"`, change: { before: meta(workflow) ?? null, after: meta(spec), field_changes: workflowFields }, path: null });
  }
  const diff = <T extends { id: string }>(target: 'block' | 'edge', before: T[], after: T[], content: (x: T) => unknown, type: (x: T) => string, name: (x: T) => string) => {
    for (const x of after) {
      const old = before.find((b) => b.id === x.id);
      const fields = fieldChanges(old ? content(old) : undefined, content(x));
      if (old && !fields.length) continue;
      const action: Action = old ? 'update' : 'create';
      changes.push({ address: `${target}.${x.id}`, target, target_id: x.id, name: name(x), type: type(x), actions: [action], summary: `${action} ${target} ${x.id}`, change: { before: old ? content(old) : null, after: content(x), field_changes: fields }, path: null });
    }
    for (const old of before) {
      if (after.some((x) => x.id === old.id)) continue;
      changes.push({ address: `${target}.${old.id}`, target, target_id: old.id, name: name(old), type: type(old), actions: ['delete'], summary: `delete ${target} ${old.id}`, change: { before: content(old), after: null, field_changes: fieldChanges(content(old), undefined) }, path: null });
    }
  };
  diff('block', current.blocks, wanted.blocks, blockContent, (b) => b.type, (b) => b.label || b.id);
  diff('edge', current.edges, wanted.edges, edgeContent, () => 'edge', (e) => `${e.source} → ${e.target}`);
  const count = (a: Action) => changes.filter((c) => c.actions.includes(a)).length;
  const summary = { add: count('create'), change: count('update'), destroy: count('delete'), replace: 0, noop: 0, total: changes.length, has_changes: changes.length > 0 };
  const sign = { create: '+', update: '~', delete: '-' } as const;
  const rendered = changes.length
    ? [
        `Plan: ${summary.add} to add, ${summary.change} to change, ${summary.destroy} to destroy.`,
        ...changes.flatMap((c) => [`  ${sign[c.actions[0]!]} ${c.address} (${c.type})`, ...c.change.field_changes.filter(() => c.actions[0] === 'update').map((f) => `      ~ ${f.path_display}: ${JSON.stringify(f.before)} -> ${JSON.stringify(f.after)}`)]),
      ].join('\n')
    : 'No changes. Workflow spec is up to date.';
  return { wanted, changes, summary, rendered, action: (!workflow ? 'create' : changes.length ? 'update' : 'noop') as 'create' | 'update' | 'noop' };
}

/** The workflow a plan or apply works on: the path's, else the spec's `id`, else none (a new one). */
async function targetOf(p: Platform, caller: Caller, workflowId: string | undefined, spec: Spec, projectId: string | undefined): Promise<WorkflowData | undefined> {
  if (workflowId !== undefined && spec.id !== undefined && spec.id !== workflowId) {
    throw Invalid.at(['body', 'yaml_definition', 'id'], `The spec describes workflow ${spec.id}, not ${workflowId}`, 'value_error', spec.id);
  }
  const id = workflowId ?? spec.id;
  if (id !== undefined) return readWorkflow(p, caller, id);
  if (!projectId) throw Invalid.at(['body', 'project_id'], 'A spec without a workflow id creates a workflow: give project_id', 'missing');
  return undefined;
}

async function readOrThrow(p: Platform, text: string): Promise<Spec> {
  const { spec, issues } = await readSpec(text, () => p.ids.next('blk'));
  if (!spec) throw new Invalid(issues);
  return spec;
}

export async function planSpec(p: Platform, caller: Caller, body: { yaml_definition: string; project_id?: string | undefined }, workflowId?: string) {
  requireCapability(caller, 'workflow:view');
  const spec = await readOrThrow(p, body.yaml_definition);
  const workflow = await targetOf(p, caller, workflowId, spec, body.project_id);
  const plan = planOf(workflow, workflow ? draftGraph(workflow) : { blocks: [], edges: [] }, spec);
  return {
    workflow_id: workflow?.id ?? '',
    action: plan.action,
    block_count: spec.graph.blocks.length,
    edge_count: spec.graph.edges.length,
    diagnostics: diagnosticsOf([]),
    format_version: PLAN_FORMAT,
    summary: plan.summary,
    resource_changes: plan.changes,
    rendered_plan: plan.rendered,
  };
}

export async function applySpec(p: Platform, caller: Caller, body: { yaml_definition: string; project_id?: string | undefined }, workflowId?: string) {
  requireCapability(caller, 'workflow:edit');
  const spec = await readOrThrow(p, body.yaml_definition);
  const existing = await targetOf(p, caller, workflowId, spec, body.project_id);
  const plan = planOf(existing, existing ? draftGraph(existing) : { blocks: [], edges: [] }, spec);
  let id = existing?.id;
  if (!existing) id = (await createWorkflow(p, caller, { project_id: body.project_id!, name: spec.name, description: spec.description })).id;
  else if (existing.name !== spec.name || existing.description !== spec.description) await patchWorkflow(p, caller, existing.id, { name: spec.name, description: spec.description });
  if (plan.action !== 'noop') {
    const now = timestamp(p.clock.now());
    await changeGraph(p, caller, id!, (current) => ({
      blocks: plan.wanted.blocks.map((b) => ({ ...b, updated_at: current.blocks.find((c) => c.id === b.id)?.updated_at ?? now })),
      edges: plan.wanted.edges.map((e) => ({ ...e, updated_at: now })),
    }), ['body', 'yaml_definition']);
  }
  return {
    workflow_id: id!,
    action: plan.action,
    created: !existing,
    block_count: spec.graph.blocks.length,
    edge_count: spec.graph.edges.length,
    diagnostics: diagnosticsOf([]),
    format_version: PLAN_FORMAT,
    summary: plan.summary,
    resource_changes: plan.changes,
    rendered_plan: plan.rendered,
  };
}
