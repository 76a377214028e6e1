/**
 * The OpenAPI 3.1 document, generated from the route table and the operations' zod schemas
 * (JSON Schema 2020-12, which OpenAPI 3.1 uses as is).
 */
import * as z from 'zod';
import type { Route } from '../platform/route.ts';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
  delete json.$schema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  // Local $defs become shared components, and every reference to one (in the schema or in another
  // def) points there.
  const shared = (value: JsonSchema) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  for (const [name, def] of Object.entries(defs)) components[name] = shared(def);
  return shared(json);
}

function queryParameters(schema: z.ZodType | undefined, components: Record<string, JsonSchema>) {
  if (!schema) return [];
  const json = toSchema(schema, 'input', components);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, prop]) => ({ name, in: 'query', required: required.has(name), schema: prop, description: prop.description }));
}

export function openApiDocument(routes: Route[], serverUrl?: string) {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const op = route.op;
    // The dashboard's routes serve people (pages, forms), not API clients.
    if (op.auth === 'session') continue;
    const pathParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const responses: Record<string, unknown> = {};
    if (op.status === 204) responses['204'] = { description: 'No content' };
    else if (op.response) responses[String(op.status)] = { description: 'Success', content: { 'application/json': { schema: toSchema(op.response, 'output', components) } } };
    else responses[String(op.status)] = { description: 'Success', content: { [op.contentType ?? 'application/json']: {} } };
    if (op.auth === 'api_key') {
      responses['401'] = { description: 'Missing, malformed, unknown or revoked API key', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } } };
    }
    responses['422'] = { description: 'Invalid request', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } };
    const operation: Record<string, unknown> = {
      operationId: route.handler,
      summary: op.summary,
      tags: op.tags ?? [route.module.split('/')[0]],
      parameters: [...pathParams, ...queryParameters(op.query, components)],
      responses,
    };
    if (op.auth === 'public') operation.security = [];
    if (op.body) operation.requestBody = { required: true, content: { 'application/json': { schema: toSchema(op.body, 'input', components) } } };
    if (op.body && op.multipart) {
      (operation.requestBody as { content: Record<string, unknown> }).content['multipart/form-data'] = { schema: toSchema(op.multipart, 'input', components) };
    }
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operation };
  }
  components.ErrorDetail = { type: 'object', properties: { detail: {} }, required: ['detail'] };
  components.ValidationError = {
    type: 'object',
    properties: { loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, msg: { type: 'string' }, type: { type: 'string' }, input: {}, ctx: { type: 'object' } },
    required: ['loc', 'msg', 'type'],
  };
  components.HTTPValidationError = { type: 'object', properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } } };
  return {
    openapi: '3.1.0',
    info: { title: 'Quire API', version: '1.0.0', description: 'Self-hostable document processing API (Retab wire protocol). Authenticate with `Authorization: Bearer <api key>`.' },
    servers: [{ url: serverUrl ?? '/' }],
    security: [{ bearer: [] }],
    paths,
    components: { schemas: components, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'rt_test_..., rt_live_... or sk_service_...' } } },
  };
}
