/**
 * A workflow definition (blocks + edges): its validation, naming every problem at once; the order in
 * which its blocks run; and the secrets it references (`secret://NAME` in any config string).
 */
import type { ValidationIssue } from '../platform/errors.ts';
import { BLOCK_TYPES, type Block, type BlockType, type Definition } from './schema.ts';

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
    case 'edit':
      if (c.color !== undefined && (typeof c.color !== 'string' || !/^#[0-9A-Fa-f]{6}$/.test(c.color))) problems.push([['color'], 'must be #RRGGBB']);
      if (c.instructions !== undefined && typeof c.instructions !== 'string') problems.push([['instructions'], 'must be a string']);
      break;
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
  definition.edges.forEach((edge, i) => {
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    if (!source) issue(['edges', i, 'source'], `no block "${edge.source}"`);
    if (!target) issue(['edges', i, 'target'], `no block "${edge.target}"`);
    if (target && (target.type === 'start_document' || target.type === 'start_json')) issue(['edges', i, 'target'], `a ${target.type} block takes no incoming edge`);
    if (source?.type === 'end') issue(['edges', i, 'source'], 'an end block has no outgoing edge');
    if (edge.source_handle !== undefined && source) {
      const categories = Array.isArray(source.config.categories) ? source.config.categories.map((c) => (isObject(c) ? c.name : undefined)) : [];
      if (source.type !== 'classifier') issue(['edges', i, 'source_handle'], `only classifier edges carry a source_handle ("${edge.source}" is a ${source.type})`);
      else if (!categories.includes(edge.source_handle)) issue(['edges', i, 'source_handle'], `"${edge.source_handle}" is not a category of "${edge.source}"`);
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
