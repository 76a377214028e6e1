/**
 * A workflow definition (blocks + edges): its validation, naming every problem at once; the order in
 * which its blocks run; and the secrets it references (`secret://NAME` in any config string).
 */
import type { ValidationIssue } from '../platform/errors.ts';
import { conditionProblems } from './conditions.ts';
import { expressionProblem } from './expressions.ts';
import { predicateProblems, REVIEWABLE_TYPES } from './predicates.ts';
import { BLOCK_TYPES, type BlockType } from './schema.ts';

/** What runs and validation need of a definition: the legacy one (PUT draft) and the graph (./graph.ts) both are. */
export interface RunBlock {
  id: string;
  type: string;
  name?: string | undefined;
  label?: string;
  config: Record<string, unknown>;
  parent_id?: string | null;
}
export interface RunEdge {
  id?: string;
  source: string;
  target: string;
  source_handle?: string | null | undefined;
  target_handle?: string | null | undefined;
}
export interface RunDefinition {
  blocks: RunBlock[];
  edges: RunEdge[];
}
type Block = RunBlock;
type Definition = RunDefinition;

/** Container blocks: their children (parent_id) run inside them. */
export const CONTAINER_TYPES = ['while_loop', 'for_each'];
/** The output handles of a block that routes (a classifier's categories, a conditional's branches), or undefined. */
export function outputHandles(block: RunBlock): string[] | undefined {
  const names = (list: unknown) => (Array.isArray(list) ? list.map((c) => (isObject(c) ? c.name : undefined)).filter((n): n is string => typeof n === 'string') : []);
  if (block.type === 'classifier') return names(block.config.categories);
  if (block.type === 'conditional') return [...names(block.config.branches), conditionalDefault(block)];
  return undefined;
}
export const conditionalDefault = (block: RunBlock) => (typeof block.config.default_branch === 'string' && block.config.default_branch ? block.config.default_branch : 'else');

export const SECRET_REFERENCE = /secret:\/\/([A-Za-z_][A-Za-z0-9_]{0,127})/g;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isType = (t: string): t is BlockType => (BLOCK_TYPES as readonly string[]).includes(t);

/** What each block type requires of its config; returns problems as [path within config, message]. */
function configProblems(block: Block): Array<[Array<string | number>, string]> {
  const c = block.config;
  const problems: Array<[Array<string | number>, string]> = [];
  const named = (key: string, min: number) => {
    const list = c[key];
    if (!Array.isArray(list) || list.length < min) problems.push([[key], `a ${block.type} block needs config.${key}: a list of at least ${min} item(s) with a name`]);
    else {
      const names = new Set<string>();
      list.forEach((item, i) => {
        const name = isObject(item) ? item.name : undefined;
        if (typeof name !== 'string' || !name) problems.push([[key, i, 'name'], 'must be a non-empty string']);
        else if (names.has(name)) problems.push([[key, i, 'name'], `duplicate name "${name}"`]);
        else names.add(name);
      });
    }
  };
  switch (block.type) {
    case 'split':
      named('subdocuments', 1);
      break;
    case 'classifier':
      named('categories', 2);
      break;
    case 'extract':
      if (!isObject(c.json_schema)) problems.push([['json_schema'], 'an extract block needs config.json_schema (a JSON Schema object)']);
      break;
    case 'api_call': {
      if (typeof c.url !== 'string' || !/^https?:\/\/\S+$/.test(c.url)) problems.push([['url'], 'an api_call block needs config.url, an http(s) URL']);
      if (c.method !== undefined && c.method !== 'GET' && c.method !== 'POST') problems.push([['method'], 'must be GET or POST']);
      if (c.headers !== undefined && (!isObject(c.headers) || Object.values(c.headers).some((v) => typeof v !== 'string'))) problems.push([['headers'], 'must be an object of strings']);
      break;
    }
    case 'conditional':
      named('branches', 1);
      if (Array.isArray(c.branches)) c.branches.forEach((branch, i) => isObject(branch) && problems.push(...conditionProblems(branch.condition, ['branches', i, 'condition'])));
      if (c.default_branch !== undefined && typeof c.default_branch !== 'string') problems.push([['default_branch'], 'must be a string (the handle taken when no branch matches)']);
      break;
    case 'function': {
      const problem = expressionProblem(c.expression);
      if (problem) problems.push([['expression'], `a function block needs config.expression, an expression over \`input\`: ${problem}`]);
      break;
    }
    case 'while_loop':
      problems.push(...conditionProblems(c.condition, ['condition']));
      if (!Number.isInteger(c.max_iterations) || (c.max_iterations as number) < 1 || (c.max_iterations as number) > 100) problems.push([['max_iterations'], 'must be an integer from 1 to 100']);
      break;
    case 'for_each':
      if (c.items_path !== undefined && typeof c.items_path !== 'string') problems.push([['items_path'], 'must be a string (a dotted path to the list in the input; "" for the input itself)']);
      if (c.max_items !== undefined && (!Number.isInteger(c.max_items) || (c.max_items as number) < 1 || (c.max_items as number) > 500)) problems.push([['max_items'], 'must be an integer from 1 to 500']);
      break;
    case 'merge_dicts':
      if (c.strategy !== undefined && c.strategy !== 'shallow' && c.strategy !== 'deep') problems.push([['strategy'], 'must be shallow or deep']);
      break;
    case 'edit':
      if (c.color !== undefined && (typeof c.color !== 'string' || !/^#[0-9A-Fa-f]{6}$/.test(c.color))) problems.push([['color'], 'must be #RRGGBB']);
      if (c.instructions !== undefined && typeof c.instructions !== 'string') problems.push([['instructions'], 'must be a string']);
      break;
  }
  if (c.review !== undefined && c.review !== null) {
    if (!(REVIEWABLE_TYPES as readonly string[]).includes(block.type)) problems.push([['review'], `only ${REVIEWABLE_TYPES.join(', ')} blocks can wait for a review`]);
    else if (!isObject(c.review)) problems.push([['review'], 'must be an object: {"predicate": {"kind": ...}}']);
    else problems.push(...predicateProblems(c.review.predicate, ['review', 'predicate']));
  }
  return problems;
}

/** Every problem of a definition; `loc` starts at `at` (e.g. ["body"]). Empty when valid. */
export function definitionProblems(definition: Definition, at: Array<string | number>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const issue = (loc: Array<string | number>, msg: string) => issues.push({ loc: [...at, ...loc], msg, type: 'value_error' });
  const byId = new Map<string, Block>();
  definition.blocks.forEach((block, i) => {
    if (byId.has(block.id)) issue(['blocks', i, 'id'], `duplicate block id "${block.id}"`);
    byId.set(block.id, block);
    if (!isType(block.type)) issue(['blocks', i, 'type'], `unknown block type "${block.type}" (known: ${BLOCK_TYPES.join(', ')})`);
    else for (const [path, msg] of configProblems(block)) issue(['blocks', i, 'config', ...path], msg);
  });
  definition.blocks.forEach((block, i) => {
    if (!block.parent_id) return;
    const parent = byId.get(block.parent_id);
    if (!parent || !CONTAINER_TYPES.includes(parent.type)) issue(['blocks', i, 'parent_id'], `"${block.parent_id}" is not a while_loop or for_each block of this workflow`);
    else if (block.type === 'start_document' || block.type === 'start_json' || CONTAINER_TYPES.includes(block.type)) issue(['blocks', i, 'parent_id'], `a ${block.type} block cannot be inside a container`);
  });
  definition.edges.forEach((edge, i) => {
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    if (!source) issue(['edges', i, 'source'], `no block "${edge.source}"`);
    if (!target) issue(['edges', i, 'target'], `no block "${edge.target}"`);
    if (target && (target.type === 'start_document' || target.type === 'start_json')) issue(['edges', i, 'target'], `a ${target.type} block takes no incoming edge`);
    if (source?.type === 'end') issue(['edges', i, 'source'], 'an end block has no outgoing edge');
    if (source?.type === 'note' || target?.type === 'note') issue(['edges', i], 'a note block takes no edges');
    if (source && target && (source.parent_id ?? null) !== (target.parent_id ?? null)) issue(['edges', i], `"${edge.source}" and "${edge.target}" are not in the same container: connect the container itself`);
    if (edge.source_handle !== undefined && edge.source_handle !== null && source) {
      const handles = outputHandles(source);
      if (!handles) issue(['edges', i, 'source_handle'], `only classifier and conditional edges carry a source_handle ("${edge.source}" is a ${source.type})`);
      else if (!handles.includes(edge.source_handle)) issue(['edges', i, 'source_handle'], `"${edge.source_handle}" is not an output of "${edge.source}" (${handles.join(', ')})`);
    }
  });
  if (!issues.length) {
    const cycle = findCycle(definition);
    if (cycle) issue(['edges'], `the edges form a cycle: ${cycle.join(' → ')}`);
  }
  return issues;
}

/** A cycle as a list of block ids (first repeated at the end), or undefined. */
function findCycle(definition: Definition): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const e of definition.edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const target of next.get(id) ?? []) {
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const block of definition.blocks) {
    const cycle = visit(block.id);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Blocks in an order where every block comes after all its sources (definition order among equals). */
export function executionOrder(definition: Definition): Block[] {
  const incoming = new Map(definition.blocks.map((b) => [b.id, 0]));
  for (const e of definition.edges) incoming.set(e.target, (incoming.get(e.target) ?? 0) + 1);
  const order: Block[] = [];
  const ready = definition.blocks.filter((b) => incoming.get(b.id) === 0);
  while (ready.length) {
    const block = ready.shift()!;
    order.push(block);
    for (const e of definition.edges.filter((e) => e.source === block.id)) {
      const left = incoming.get(e.target)! - 1;
      incoming.set(e.target, left);
      if (left === 0) ready.push(definition.blocks.find((b) => b.id === e.target)!);
    }
  }
  return order;
}

/** The names of the secrets referenced anywhere in the blocks' configs, sorted, each once. */
export function secretNames(definition: Definition): string[] {
  const names = new Set<string>();
  const walk = (value: unknown) => {
    if (typeof value === 'string') for (const m of value.matchAll(SECRET_REFERENCE)) names.add(m[1]!);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) Object.values(value).forEach(walk);
  };
  definition.blocks.forEach((b) => walk(b.config));
  return [...names].sort();
}

/** A copy of `value` with every `secret://NAME` replaced by its value (names must all be in `values`). */
export function resolveSecrets<T>(value: T, values: Record<string, string>): T {
  if (typeof value === 'string') return value.replace(SECRET_REFERENCE, (_, name: string) => values[name]!) as T;
  if (Array.isArray(value)) return value.map((v) => resolveSecrets(v, values)) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveSecrets(v, values)])) as T;
  return value;
}
