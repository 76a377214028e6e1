/**
 * The run of an extraction from its create body, with the checks of its `json_schema` that need no
 * JSON Schema validator: it describes an object and stays within MAX_SCHEMA_PROPERTIES. Compiling the
 * schema (ajv, ./json-schema.ts) is left to the callers that can carry ajv: the API checks it before
 * anything is stored (prepareExtraction, a 422), and the task checks it again before any model work.
 * The dashboard starts extractions through this module alone, so its Lambda stays without ajv
 * (test/lib/cloud/stack.test.ts: under 1 MB); a schema ajv refuses then fails the run at its start.
 */
import { Invalid } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { prepareDocumentRun } from '../runs/prepare.ts';
import type { CreateRunInput } from '../runs/service.ts';
import type { CreateExtractionBody } from './schema.ts';

/** Beyond this many properties (all levels) a schema is refused: the work must stay bounded. */
export const MAX_SCHEMA_PROPERTIES = 5_000;

/** Metadata entries are kept as attributes of the run under this prefix (equality filters of the list). */
export const METADATA_ATTR = 'meta:';

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

/**
 * Schemas whose shape was found sound. The API checks a request's schema whole (./json-schema.ts
 * checkSchema: shape, then compiled) before the run is prepared here, where the dashboard's requests
 * have only their shape checked: the same schema object is walked once.
 */
const soundShapes = new WeakSet<Record<string, unknown>>();

/** Throws a 422 at body.json_schema when the schema is not of an object or is too large. */
export function checkSchemaShape(schema: Record<string, unknown>): void {
  if (soundShapes.has(schema)) return;
  const loc = ['body', 'json_schema'];
  if (!describesObject(schema)) throw Invalid.at(loc, 'json_schema must describe an object (type "object" with properties)', 'schema_invalid');
  const budget = { left: MAX_SCHEMA_PROPERTIES };
  countProperties(schema, budget);
  if (budget.left < 0) throw Invalid.at(loc, `json_schema has more than ${MAX_SCHEMA_PROPERTIES} properties`, 'schema_too_large');
  soundShapes.add(schema);
}

/** The run to create: the document stored, the options kept, metadata as list filters. The schema's shape is checked; it is not compiled here. */
export async function prepareExtractionRun(p: Platform, scope: Scope, body: CreateExtractionBody): Promise<CreateRunInput> {
  checkSchemaShape(body.json_schema);
  const metadata = body.metadata ?? {};
  const input = await prepareDocumentRun(p, scope, {
    kind: 'extraction',
    document: body.document,
    model: body.model,
    bust_cache: body.bust_cache,
    background: body.background,
    options: { json_schema: body.json_schema, n_consensus: body.n_consensus, instructions: body.instructions ?? null, metadata },
  });
  return { ...input, attrs: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [`${METADATA_ATTR}${k}`, v])) };
}
