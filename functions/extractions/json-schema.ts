/**
 * The `json_schema` of an extraction (API §6.1): checked before anything is stored (a bad schema is a
 * 422 naming the problem), and used to validate every output before it is kept.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { withNullableValues } from '../models/nullable-schema.ts';
import { Invalid } from '../platform/errors.ts';
import { keepNewest } from '../platform/keep-newest.ts';
import { checkSchemaShape } from './prepare.ts';

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
 * Compiled validators by schema text, the most recently used kept. A container sees the same few
 * schemas again and again (a user's extractions, its tasks' checks), and compiling one costs tens of
 * milliseconds of CPU, taken from every other request.
 */
const compiled = new Map<string, ValidateFunction>();
const COMPILED_KEPT = 64;

function compile(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const validate = compiled.get(key) ?? newAjv().compile(schema);
  keepNewest(compiled, key, validate, COMPILED_KEPT);
  return validate;
}

/**
 * Schemas often declare their dialect (`"$schema": ".../draft/2020-12/schema"`); validating needs only
 * the keywords, and ajv's default class would refuse a dialect it was not built for.
 */
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** Throws a 422 at body.json_schema naming the problem; returns the compiled validator. */
export function checkSchema(schema: Record<string, unknown>): ValidateFunction {
  const loc = ['body', 'json_schema'];
  checkSchemaShape(schema);
  try {
    return compile(withoutDialect(schema));
  } catch (error) {
    throw Invalid.at(loc, `json_schema is not a valid JSON Schema: ${(error as Error).message}`, 'schema_invalid');
  }
}

/**
 * Whether `output` validates against `schema` with every value nullable (API §6: a value nothing
 * backs is null, whatever type the schema declares), with the first problem when it does not.
 */
export function validateOutput(schema: Record<string, unknown>, output: unknown): { valid: true } | { valid: false; problem: string } {
  const validate = compile(withoutDialect(withNullableValues(schema)));
  if (validate(output)) return { valid: true };
  const first = validate.errors?.[0];
  return { valid: false, problem: first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'invalid' };
}
