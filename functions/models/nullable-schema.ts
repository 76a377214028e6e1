/**
 * The null rule (API §6): an extraction's output is valid against its JSON Schema with every value made
 * nullable. A value no model can support with evidence is `null` — never a made-up `0`, `""` or date,
 * whatever type the schema declares — so outputs are validated (and models are asked) against this
 * version of the schema: each `type` also admits `"null"`, each `enum` also lists `null`, a `const`
 * may be null, and `required` properties stay required (present, possibly null).
 */
import type { JsonSchema } from './engine.ts';

const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'] as const;
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SCHEMA_SINGLES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'] as const;

const cache = new WeakMap<object, JsonSchema>();

/** The schema with null admitted for every value (the input is not changed). */
export function withNullableValues(schema: JsonSchema): JsonSchema {
  const known = cache.get(schema);
  if (known) return known;
  const out = nullable(schema, 0) as JsonSchema;
  cache.set(schema, out);
  return out;
}

function nullable(node: unknown, depth: number): unknown {
  if (node === null || typeof node !== 'object' || Array.isArray(node) || depth > 64) return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = { ...source };
  for (const key of SCHEMA_MAPS) {
    const map = source[key];
    if (map && typeof map === 'object' && !Array.isArray(map)) {
      out[key] = Object.fromEntries(Object.entries(map as Record<string, unknown>).map(([k, v]) => [k, nullable(v, depth + 1)]));
    }
  }
  for (const key of SCHEMA_LISTS) {
    if (Array.isArray(source[key])) out[key] = (source[key] as unknown[]).map((v) => nullable(v, depth + 1));
  }
  for (const key of SCHEMA_SINGLES) {
    if (source[key] && typeof source[key] === 'object') out[key] = nullable(source[key], depth + 1);
  }
  // The value itself may be null (the output itself is always an object).
  if (depth === 0) return out;
  if (typeof source.type === 'string' && source.type !== 'null') out.type = [source.type, 'null'];
  else if (Array.isArray(source.type) && !source.type.includes('null')) out.type = [...source.type, 'null'];
  if (Array.isArray(source.enum) && !source.enum.includes(null)) out.enum = [...source.enum, null];
  if ('const' in source && source.const !== null) {
    delete out.const;
    const { const: value } = source;
    return { anyOf: [{ ...out, const: value }, { type: 'null' }] };
  }
  // A branch of anyOf/oneOf may be null too: with oneOf, null would match several branches at once.
  if (Array.isArray(out.oneOf)) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  return out;
}
