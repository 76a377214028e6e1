/**
 * JSON Schema → a field tree the extractor walks: objects with their properties, arrays with their
 * item field, and leaves with the type, enum, format and bounds a value must meet to validate.
 *
 * Schemas come from users, so compiling is defensive and bounded: local `$ref`s (`#/$defs/X`,
 * `#/definitions/X`, any `#/…` pointer) are resolved, an unresolvable one is an unconstrained leaf,
 * a recursive one is followed at most REF_DEPTH times (a tree node referencing itself ends as a
 * `cutoff`: null or [] in the output), and at most NODE_BUDGET nodes are compiled in all, so a huge
 * or explosive schema costs bounded time.
 */
import type { JsonSchema } from '../engine.ts';

/** How many `$ref` hops one path may take: deep enough for real schemas, finite for recursive ones. */
export const REF_DEPTH = 6;
/** Compiled nodes per schema; beyond, the rest are cutoffs (a 10,000-property schema is ~10,000 nodes). */
export const NODE_BUDGET = 100_000;

export type LeafType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'any';

/** What the schema says a field is about: the words the document may label it with. */
export interface FieldInfo {
  /** The property name ("invoice_date"), or "" for the root and array items. */
  key: string;
  title?: string;
  description?: string;
}

interface NodeBase {
  info: FieldInfo;
  /** Whether null validates. */
  nullable: boolean;
}

export interface ObjectNode extends NodeBase {
  kind: 'object';
  properties: Array<{ key: string; node: FieldNode; required: boolean }>;
}

export interface ArrayNode extends NodeBase {
  kind: 'array';
  items: FieldNode;
  minItems: number;
  maxItems: number;
}

export interface LeafNode extends NodeBase {
  kind: 'leaf';
  type: LeafType;
  /** Allowed values (null left out: it is `nullable`). */
  enum?: unknown[];
  format?: string;
  pattern?: RegExp;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
}

/** Where compiling stopped (recursion or budget): no value is looked for. */
export interface CutoffNode extends NodeBase {
  kind: 'cutoff';
  /** The cut schema's own type, so the output can still be an empty value of it. */
  type: 'object' | 'array' | LeafType;
}

export type FieldNode = ObjectNode | ArrayNode | LeafNode | CutoffNode;

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The schema at a JSON pointer of the root ("#/$defs/Party"), or undefined. */
function resolvePointer(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  if (ref === '#') return root;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(at) && !Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return isSchema(at) ? at : undefined;
}

/** The declared types of a schema, null included ("type": "x" or ["x", "null"]). */
function declaredTypes(schema: Schema): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

class Compiler {
  private nodes = 0;
  constructor(private readonly root: Schema) {}

  compile(schema: unknown, info: FieldInfo, refDepth: number): FieldNode {
    this.nodes++;
    if (!isSchema(schema)) {
      // `false` validates nothing: not nullable, so an optional one is left out (a required one
      // cannot be met). `true` or junk: anything validates.
      if (schema === false) return { kind: 'leaf', type: 'null', nullable: false, info };
      return { kind: 'leaf', type: 'any', nullable: true, info };
    }
    const { schema: s, nullable, refDepth: depth, cut } = this.flatten(schema, refDepth);
    const described: FieldInfo = {
      key: info.key,
      ...(str(info.title) ?? str(s.title) ? { title: str(info.title) ?? str(s.title) } : {}),
      ...(str(info.description) ?? str(s.description) ? { description: str(info.description) ?? str(s.description) } : {}),
    };
    const types = declaredTypes(s).filter((t) => t !== 'null');
    const type = types[0] ?? (isSchema(s.properties) ? 'object' : s.items !== undefined ? 'array' : undefined);
    const over = cut || this.nodes > NODE_BUDGET;
    if (cut) return { kind: 'cutoff', type: type === 'object' || type === 'array' ? type : leafType(type, s), nullable, info: described };

    if (type === 'object') {
      if (over) return { kind: 'cutoff', type: 'object', nullable, info: described };
      const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
      const properties = isSchema(s.properties) ? Object.entries(s.properties) : [];
      return {
        kind: 'object',
        nullable,
        info: described,
        properties: properties.map(([key, child]) => ({ key, required: required.has(key), node: this.compile(child, { key }, depth) })),
      };
    }
    if (type === 'array') {
      if (over) return { kind: 'cutoff', type: 'array', nullable, info: described };
      const items = Array.isArray(s.items) ? s.items[0] : (s.items ?? s.prefixItems);
      return {
        kind: 'array',
        nullable,
        info: described,
        items: this.compile(Array.isArray(items) ? items[0] : items, { key: '' }, depth),
        minItems: num(s.minItems) ?? 0,
        maxItems: num(s.maxItems) ?? Infinity,
      };
    }

    // An unconstrained field accepts null as well as anything else.
    const leaf: LeafNode = { kind: 'leaf', type: leafType(type, s), nullable, info: described };
    if (leaf.type === 'any') leaf.nullable = true;
    const values = Array.isArray(s.enum) ? s.enum : s.const !== undefined ? [s.const] : undefined;
    if (values) {
      leaf.enum = values.filter((v) => v !== null);
      if (values.includes(null)) leaf.nullable = true;
    }
    if (str(s.format)) leaf.format = s.format as string;
    if (str(s.pattern)) {
      try {
        leaf.pattern = new RegExp(s.pattern as string, 'u');
      } catch {
        // A pattern JavaScript cannot compile is not one we can check; ajv would have refused it.
      }
    }
    for (const bound of ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const) {
      const value = num(s[bound]);
      if (value !== undefined) leaf[bound] = value;
    }
    return leaf;
  }

  /**
   * One schema from the keywords that combine schemas: a `$ref` target merged under the referencing
   * schema's own keywords, `allOf` parts merged, and the first non-null branch of `anyOf`/`oneOf`
   * (a `{"type": "null"}` branch makes the field nullable).
   */
  private flatten(schema: Schema, refDepth: number): { schema: Schema; nullable: boolean; refDepth: number; cut: boolean } {
    let s: Schema = { ...schema };
    let depth = refDepth;
    let nullable = false;
    for (let guard = 0; guard < 32; guard++) {
      if (declaredTypes(s).includes('null') || s.nullable === true) nullable = true;
      if (typeof s.$ref === 'string') {
        const { $ref, ...rest } = s;
        const target = resolvePointer(this.root, $ref as string);
        // Recursion stops here; the target's own type and nullability still shape the empty value.
        if (depth >= REF_DEPTH) {
          const shallow = { ...(target ?? {}), ...rest };
          return { schema: shallow, nullable: nullable || declaredTypes(shallow).includes('null') || !target, refDepth: depth, cut: true };
        }
        depth++;
        // An unknown reference constrains nothing: the field is read as unconstrained text.
        s = target ? { ...target, ...rest } : { ...rest };
        continue;
      }
      if (Array.isArray(s.allOf) && s.allOf.length > 0) {
        const { allOf, ...rest } = s;
        s = mergeAll([...(allOf as unknown[]).filter(isSchema), rest], this.root, depth);
        continue;
      }
      const branches = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
      if (branches) {
        const { anyOf: _a, oneOf: _o, ...rest } = s;
        const resolved = branches.filter(isSchema);
        const isNull = (b: Schema) => declaredTypes(b).length > 0 && declaredTypes(b).every((t) => t === 'null');
        if (resolved.some(isNull) || branches.length === 0) nullable = true;
        const chosen = resolved.find((b) => !isNull(b));
        s = chosen ? { ...chosen, ...rest, ...(rest.type === undefined ? {} : { type: rest.type }) } : { ...rest, type: 'null' };
        continue;
      }
      break;
    }
    if (declaredTypes(s).length === 1 && declaredTypes(s)[0] === 'null') nullable = true;
    return { schema: s, nullable, refDepth: depth, cut: false };
  }

  get compiled(): number {
    return this.nodes;
  }
}

/** allOf parts as one schema: properties and required lists united, the first type and bounds kept. */
function mergeAll(parts: Schema[], root: Schema, refDepth: number): Schema {
  const merged: Schema = {};
  const properties: Schema = {};
  const required = new Set<string>();
  for (const raw of parts) {
    // A referenced part contributes its target's keywords (one hop: allOf chains are shallow).
    const part = typeof raw.$ref === 'string' && refDepth < REF_DEPTH ? { ...(resolvePointer(root, raw.$ref) ?? {}), ...raw, $ref: undefined } : raw;
    for (const [k, v] of Object.entries(part)) {
      if (v === undefined) continue;
      if (k === 'properties' && isSchema(v)) Object.assign(properties, v);
      else if (k === 'required' && Array.isArray(v)) for (const r of v) if (typeof r === 'string') required.add(r);
      else if (!(k in merged)) merged[k] = v;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

function leafType(type: string | undefined, s: Schema): LeafType {
  switch (type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return type;
  }
  // No type: infer it from an enum or const, else anything goes.
  const values = Array.isArray(s.enum) ? s.enum : s.const !== undefined ? [s.const] : [];
  const nonNull = values.filter((v) => v !== null);
  if (nonNull.length > 0 && nonNull.every((v) => typeof v === 'string')) return 'string';
  if (nonNull.length > 0 && nonNull.every((v) => typeof v === 'number')) return 'number';
  if (nonNull.length > 0 && nonNull.every((v) => typeof v === 'boolean')) return 'boolean';
  return 'any';
}

/** Compiles a request's schema (already checked to be an object schema by the service). */
export function compileSchema(schema: JsonSchema): { root: FieldNode; nodes: number } {
  const compiler = new Compiler(schema);
  const root = compiler.compile(schema, { key: '' }, 0);
  return { root, nodes: compiler.compiled };
}

// ---------------------------------------------------------------------------------------------
// Checking a leaf value (so a found value never makes the output invalid)

const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  'date-time': /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):?[0-5]\d)$/,
  time: /^([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/,
  email: /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i,
  uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
  uuid: /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i,
  ipv4: /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
};

/** Days per month, for rejecting 2024-02-30 as ajv-formats does. */
function realDate(iso: string): boolean {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  return d <= days;
}

function codePoints(text: string): number {
  return [...text].length;
}

/** Whether `value` validates against the leaf (the keywords the extractor reads; others are ignored). */
export function leafAccepts(leaf: LeafNode, value: unknown): boolean {
  if (value === null) return leaf.nullable || leaf.type === 'null';
  if (leaf.enum && !leaf.enum.some((option) => option === value)) return false;
  switch (leaf.type) {
    case 'null':
      return false;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
      if (leaf.type === 'integer' && !Number.isInteger(value)) return false;
      if (leaf.minimum !== undefined && value < leaf.minimum) return false;
      if (leaf.maximum !== undefined && value > leaf.maximum) return false;
      if (leaf.exclusiveMinimum !== undefined && value <= leaf.exclusiveMinimum) return false;
      if (leaf.exclusiveMaximum !== undefined && value >= leaf.exclusiveMaximum) return false;
      if (leaf.multipleOf !== undefined && leaf.multipleOf > 0) {
        const ratio = value / leaf.multipleOf;
        if (Math.abs(ratio - Math.round(ratio)) > 1e-9) return false;
      }
      return true;
    }
    case 'string': {
      if (typeof value !== 'string') return false;
      if (leaf.minLength !== undefined && codePoints(value) < leaf.minLength) return false;
      if (leaf.maxLength !== undefined && codePoints(value) > leaf.maxLength) return false;
      if (leaf.pattern && !leaf.pattern.test(value)) return false;
      const format = leaf.format ? FORMATS[leaf.format] : undefined;
      if (format && !format.test(value)) return false;
      if ((leaf.format === 'date' || leaf.format === 'date-time') && !realDate(value)) return false;
      return true;
    }
    case 'any':
      return true;
  }
}
