/** Checks a provider's answer against the JSON Schema it was asked to match. */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../engine.ts';

// ajv-formats is CommonJS: under NodeNext its default import is the module object, whose `default` is the plugin.
type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as unknown as FormatsPlugin;

const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function validatorOf(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
    addFormats(ajv);
    const { $schema: _dialect, ...rest } = schema;
    validate = ajv.compile(rest);
    compiled.set(schema, validate);
  }
  return validate;
}

/** The parsed answer, or what is wrong with it (in words a model can act on). */
export function parseAnswer(text: string, schema: JsonSchema): { ok: true; value: unknown } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(stripFences(text));
  } catch {
    return { ok: false, problem: 'it is not JSON' };
  }
  const validate = validatorOf(schema);
  if (validate(value)) return { ok: true, value };
  const error = validate.errors?.[0];
  const where = error?.instancePath ? `at ${error.instancePath}` : 'at the top level';
  return { ok: false, problem: `it does not match the schema ${where}: ${error?.message ?? 'invalid'}` };
}

/** Models in JSON mode sometimes wrap the JSON in a Markdown code fence. */
function stripFences(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return fenced ? fenced[1]! : text;
}

/**
 * Whether a schema meets OpenAI's strict structured outputs rules: every object lists all its
 * properties in `required` and sets `additionalProperties: false`. Other schemas are sent non-strict.
 */
export function isStrictCompatible(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return true;
  if (Array.isArray(schema)) return schema.every(isStrictCompatible);
  const node = schema as Record<string, unknown>;
  const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || 'properties' in node;
  if (isObject) {
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(node.required) ? node.required : [];
    if (node.additionalProperties !== false) return false;
    if (!Object.keys(properties).every((key) => required.includes(key))) return false;
  }
  return Object.entries(node).every(([key, value]) => key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || isStrictCompatible(value));
}
