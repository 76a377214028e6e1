/**
 * The `json_schema` of an extraction (API §6.1): checked before anything is stored (a bad schema is a
 * 422 naming the problem), and used to validate every output before it is kept.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { withNullableValues } from '../models/nullable-schema.ts';
import { Invalid } from '../platform/errors.ts';

/** Beyond this many properties (all levels) a schema is refused: the work must stay bounded. */
export const MAX_SCHEMA_PROPERTIES = 5_000;

// ajv-formats is CommonJS: under NodeNext its default import is the module object, whose `default` is the plugin.
type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as unknown as FormatsPlugin;

function newAjv(): Ajv {
  // strict: false — users send schemas written for other validators (unknown keywords such as
  // "X-SchemaType" or "examples" are allowed); what matters is that the schema compiles.
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  return ajv;
}

/**
 * Schemas often declare their dialect (`"$schema": ".../draft/2020-12/schema"`); validating needs only
 * the keywords, and ajv's default class would refuse a dialect it was not built for.
 */
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function countProperties(node: unknown, budget: { left: number }): void {
  if (budget.left < 0 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) countProperties(item, budget);
    return;
  }
  const properties = (node as { properties?: unknown }).properties;
  if (properties && typeof properties === 'object') budget.left -= Object.keys(properties).length;
  for (const value of Object.values(node)) countProperties(value, budget);
}

function describesObject(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || (type === undefined && typeof schema.properties === 'object');
}

/** Throws a 422 at body.json_schema naming the problem; returns the compiled validator. */
export function checkSchema(schema: Record<string, unknown>): ValidateFunction {
  const loc = ['body', 'json_schema'];
  if (!describesObject(schema)) throw Invalid.at(loc, 'json_schema must describe an object (type "object" with properties)', 'schema_invalid');
  const budget = { left: MAX_SCHEMA_PROPERTIES };
  countProperties(schema, budget);
  if (budget.left < 0) throw Invalid.at(loc, `json_schema has more than ${MAX_SCHEMA_PROPERTIES} properties`, 'schema_too_large');
  try {
    return newAjv().compile(withoutDialect(schema));
  } catch (error) {
    throw Invalid.at(loc, `json_schema is not a valid JSON Schema: ${(error as Error).message}`, 'schema_invalid');
  }
}

/**
 * Whether `output` validates against `schema` with every value nullable (API §6: a value nothing
 * backs is null, whatever type the schema declares), with the first problem when it does not.
 */
export function validateOutput(schema: Record<string, unknown>, output: unknown): { valid: true } | { valid: false; problem: string } {
  const validate = newAjv().compile(withoutDialect(withNullableValues(schema)));
  if (validate(output)) return { valid: true };
  const first = validate.errors?.[0];
  return { valid: false, problem: first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'invalid' };
}
