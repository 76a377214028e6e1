/**
 * The HTTP plumbing every handler shares (API §0): a middy stack that gives each request an id,
 * parses and limits the JSON body, authenticates the API key, validates body/query/path with the
 * operation's zod schemas, maps typed errors to the bodies of API §0.2, re-checks the key before
 * answering, and sends responses over 6 MB through a presigned URL (303).
 *
 * A handler is `api(operation, async (req) => result)`; it sees validated, typed input.
 */
import { isUtf8 } from 'node:buffer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import middy from '@middy/core';
import type { z } from 'zod';
import { assertKeyStillValid, bearerKey, type Caller, noteKeyUse, resolveCaller, resolveReader } from './callers.ts';
import { AppError, Invalid, isServiceBusy, PayloadTooLarge, type ValidationIssue } from './errors.ts';
import { ulidBody } from './ids.ts';
import { isMultipart, parseMultipart } from './multipart.ts';
import { logger } from './logger.ts';
import type { Operation } from './operation.ts';
import { platform, type Platform } from './platform.ts';

/** The Lambda payload ceiling (API §0.1): requests and responses above it never reach or leave a Lambda. */
export const PAYLOAD_LIMIT_BYTES = 6 * 1024 * 1024;
/** JSON bodies nested deeper than this are refused (422): no request needs it, and deep values overflow the stack of recursive code. */
export const MAX_JSON_DEPTH = 128;
/** In a `u` regex a surrogate pair is one code point, so this matches only unpaired surrogates. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Room for headers and the event envelope around the body. */
const RESPONSE_BODY_LIMIT = PAYLOAD_LIMIT_BYTES - 64 * 1024;

export interface ApiRequest<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  caller: Caller;
  requestId: string;
  event: APIGatewayProxyEventV2;
  platform: Platform;
}

/** A non-JSON answer (HTML, CSV, assets) or one with a custom status/headers. */
export class RawResponse {
  constructor(
    readonly body: string | Buffer,
    readonly contentType: string,
    readonly status = 200,
    readonly headers: Record<string, string> = {},
  ) {}
}

type Result = APIGatewayProxyStructuredResultV2;

interface Internal {
  requestId: string;
  caller?: Caller;
  body?: unknown;
  query?: unknown;
  params?: unknown;
  started: number;
}

/** zod issues → API §0.2 ValidationErrors with loc starting at body/query/path. */
export function toValidationIssues(where: 'body' | 'query' | 'path', error: z.ZodError, input: unknown): ValidationIssue[] {
  return error.issues.map((issue) => {
    const loc = [where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    let value: unknown = input;
    for (const p of issue.path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[p as PropertyKey] : undefined;
    const missing = value === undefined && issue.code === 'invalid_type';
    const out: ValidationIssue = { loc, msg: missing ? 'Field required' : issue.message, type: missing ? 'missing' : issue.code };
    if (!missing && value !== undefined && (typeof value !== 'string' || value.length <= 200)) out.input = value;
    return out;
  });
}

/** API §0.1: an omitted field and a null mean the same thing. */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === null) continue;
      // Never let a body key reach an object prototype.
      if (k === '__proto__') continue;
      out[k] = dropNulls(v);
    }
    return out;
  }
  return value;
}

/** Query parameters from the raw query string: API Gateway joins repeated keys with commas otherwise. */
export function parseQuery(event: APIGatewayProxyEventV2): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const params = new URLSearchParams(event.rawQueryString ?? '');
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    out[key] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

function rawBody(event: APIGatewayProxyEventV2): Buffer | undefined {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (raw.length > PAYLOAD_LIMIT_BYTES) {
    throw new PayloadTooLarge(
      `Request body is ${raw.length} bytes; the limit is 6 MB. Upload the file with POST /v1/files/upload and pass a FileRef instead.`,
    );
  }
  return raw;
}

/**
 * Refuses what JSON.parse lets through but would be stored wrong or crash later: nesting deeper than
 * MAX_JSON_DEPTH, and strings that are not well-formed Unicode (lone surrogates from `\ud800`
 * escapes, which UTF-8 storage would silently replace). Iterative, so any depth is safe here.
 */
export function checkJsonValue(value: unknown): void {
  interface Entry {
    value: unknown;
    depth: number;
    parent: Entry | undefined;
    key: string | number;
  }
  const locOf = (entry: Entry | undefined): (string | number)[] => {
    const loc: (string | number)[] = [];
    for (let e = entry; e?.parent; e = e.parent) loc.unshift(e.key);
    return ['body', ...loc];
  };
  const stack: Entry[] = [{ value, depth: 0, parent: undefined, key: 'body' }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const v = entry.value;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) throw Invalid.at(locOf(entry), 'String contains a lone surrogate (not well-formed Unicode)', 'string_unicode');
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (entry.depth >= MAX_JSON_DEPTH) throw Invalid.at(['body'], `JSON is nested deeper than ${MAX_JSON_DEPTH} levels`, 'json_too_deep');
    if (Array.isArray(v)) v.forEach((item, i) => stack.push({ value: item, depth: entry.depth + 1, parent: entry, key: i }));
    else {
      for (const [k, item] of Object.entries(v)) {
        if (LONE_SURROGATE.test(k)) throw Invalid.at(locOf(entry), 'Key contains a lone surrogate (not well-formed Unicode)', 'string_unicode');
        stack.push({ value: item, depth: entry.depth + 1, parent: entry, key: k });
      }
    }
  }
}

export function parseJsonBody(raw: Buffer): unknown {
  // Bytes that are not UTF-8 would be decoded to U+FFFD and stored changed: refuse them.
  if (!isUtf8(raw)) throw new Invalid([{ loc: ['body'], msg: 'JSON decode error: the body is not valid UTF-8', type: 'json_invalid' }]);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new Invalid([{ loc: ['body'], msg: `JSON decode error: ${(error as Error).message}`, type: 'json_invalid' }]);
  }
  checkJsonValue(value);
  return value;
}

function parseBody(event: APIGatewayProxyEventV2): unknown {
  const raw = rawBody(event);
  if (raw === undefined) return undefined;
  return parseJsonBody(raw);
}

function validate<T>(schema: z.ZodType<T> | undefined, where: 'body' | 'query' | 'path', input: unknown): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(input);
  if (!result.success) throw new Invalid(toValidationIssues(where, result.error, input));
  return result.data;
}

function json(status: number, body: unknown, requestId: string): Result {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

function errorResult(error: unknown, requestId: string): Result {
  if (error instanceof AppError) return json(error.status, error.body(), requestId);
  if (isServiceBusy(error)) {
    // Storage still throttling after the SDK's own retries: the client may retry shortly.
    logger.warn('Storage busy', { error_type: (error as Error).name });
    const busy = json(503, { detail: 'The service is busy, retry shortly', request_id: requestId }, requestId);
    return { ...busy, headers: { ...busy.headers, 'retry-after': '1' } };
  }
  logger.error('Unhandled error', { error: error as Error });
  return json(500, { detail: 'Internal error', request_id: requestId }, requestId);
}

/** A request that changes nothing (API §1: GET routes only read; a few POSTs only ask, Operation.reads). */
function isRead(event: APIGatewayProxyEventV2, op: Operation<z.ZodType, z.ZodType, z.ZodType>): boolean {
  return event.requestContext?.http?.method === 'GET' || (op.reads === true && event.requestContext?.http?.method === 'POST');
}

export function api<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>(
  op: Operation<B, Q, P>,
  fn: (req: ApiRequest<z.infer<B>, z.infer<Q>, z.infer<P>>) => Promise<unknown>,
) {
  const core = async (event: APIGatewayProxyEventV2, context: Context & { internal?: Internal }): Promise<Result> => {
    const internal = (context as unknown as { quire: Internal }).quire;
    const p = platform();
    const result = await fn({
      body: internal.body as z.infer<B>,
      query: internal.query as z.infer<Q>,
      params: internal.params as z.infer<P>,
      caller: internal.caller as Caller,
      requestId: internal.requestId,
      event,
      platform: p,
    });
    if (internal.caller) {
      await assertKeyStillValid(p, internal.caller);
      await noteKeyUse(p, internal.caller);
    }
    if (result instanceof RawResponse) {
      const isBinary = Buffer.isBuffer(result.body);
      return {
        statusCode: result.status,
        headers: { 'content-type': result.contentType, 'x-request-id': internal.requestId, ...result.headers },
        body: isBinary ? (result.body as Buffer).toString('base64') : (result.body as string),
        isBase64Encoded: isBinary,
      };
    }
    if (op.status === 204) return { statusCode: 204, headers: { 'x-request-id': internal.requestId } };
    const text = JSON.stringify(result);
    if (Buffer.byteLength(text) > RESPONSE_BODY_LIMIT && internal.caller) {
      // Too big for a Lambda response: hand it over through storage (API §0.1).
      const key = `${internal.caller.orgId}/${internal.caller.envId}/responses/${internal.requestId}.json`;
      await p.blobs.put(key, text, 'application/json');
      const location = await p.blobs.presignGet(key, 15 * 60);
      return { statusCode: 303, headers: { location, 'x-request-id': internal.requestId }, body: '' };
    }
    return { statusCode: op.status, headers: { 'content-type': 'application/json', 'x-request-id': internal.requestId }, body: text };
  };

  return middy(core as unknown as (event: APIGatewayProxyEventV2, context: Context) => Promise<Result>)
    .use({
      before: async (request) => {
        const internal: Internal = { requestId: `req_${ulidBody(Date.now())}`, started: Date.now() };
        (request.context as unknown as { quire: Internal }).quire = internal;
        const event = request.event;
        logger.appendKeys({ request_id: internal.requestId, route: event.routeKey });
        if (op.auth === 'api_key') {
          const key = bearerKey(event.headers?.authorization ?? event.headers?.Authorization);
          internal.caller = await (isRead(event, op) ? resolveReader : resolveCaller)(platform(), key);
          logger.appendKeys({ org: internal.caller.orgId, env: internal.caller.envSlug });
        }
        internal.params = validate(op.params, 'path', event.pathParameters ?? {});
        internal.query = validate(op.query, 'query', parseQuery(event));
        const contentType = event.headers?.['content-type'] ?? event.headers?.['Content-Type'];
        if (op.multipart && isMultipart(contentType)) internal.body = validate(op.multipart, 'body', parseMultipart(rawBody(event) ?? Buffer.alloc(0), contentType!));
        else if (op.body) internal.body = validate(op.body, 'body', op.keepNulls ? parseBody(event) : dropNulls(parseBody(event)));
      },
      after: async (request) => {
        const internal = (request.context as unknown as { quire: Internal }).quire;
        logger.info('request', { status: request.response?.statusCode, ms: Date.now() - internal.started });
        logger.removeKeys(['request_id', 'route', 'org', 'env']);
      },
      onError: async (request) => {
        const internal = (request.context as unknown as { quire?: Internal }).quire;
        const requestId = internal?.requestId ?? `req_${ulidBody(Date.now())}`;
        let error = request.error;
        // A key revoked while the request was in flight answers 401 whatever else happened.
        if (internal?.caller && !(error instanceof AppError && error.status === 401)) {
          try {
            await assertKeyStillValid(platform(), internal.caller);
          } catch (revoked) {
            error = revoked as Error;
          }
        }
        request.response = errorResult(error, requestId);
        logger.info('request', { status: request.response.statusCode, ms: internal ? Date.now() - internal.started : 0 });
        logger.removeKeys(['request_id', 'route', 'org', 'env']);
      },
    });
}
