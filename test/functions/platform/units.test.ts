/**
 * Pure unit tests of the platform plumbing: ids, list queries, the HTTP helpers and the error
 * mapping of the middy stack, API key parsing, the run failure mapping and the per-group dispatcher.
 * No emulator is needed: nothing here does I/O.
 */
import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { bearerKey, hashKey } from '../../../functions/auth/service.ts';
import { routeDispatcher, routeGroups } from '../../../functions/features.ts';
import {
  AppError,
  Conflict,
  Forbidden,
  Gone,
  Invalid,
  NotFound,
  PayloadTooLarge,
  Unauthorized,
} from '../../../functions/platform/errors.ts';
import { api, dropNulls, parseQuery, RawResponse, toValidationIssues } from '../../../functions/platform/http.ts';
import { ID_PATTERN, randomIds, ulidBody } from '../../../functions/platform/ids.ts';
import { operation } from '../../../functions/platform/operation.ts';
import { parseDateBound, toListQuery } from '../../../functions/platform/pagination.ts';
import { setPlatform, type Platform } from '../../../functions/platform/platform.ts';
import { routes } from '../../../functions/features.ts';
import { routeKey } from '../../../functions/platform/route.ts';
import { primitiveErrorOf } from '../../../functions/runs/task.ts';

/** Runs `fn` and returns what it threw (fails the test when it throws nothing). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

function issuesOf(error: unknown) {
  expect(error).toBeInstanceOf(Invalid);
  return (error as Invalid).issues;
}

describe('ids', () => {
  const CROCKFORD_LOWER = /^[0-9a-hjkmnp-tv-z]{26}$/;

  it('ulidBody is 26 lowercase Crockford base32 characters: 10 of time, 16 of randomness', () => {
    const body = ulidBody(Date.UTC(2026, 10, 21, 10, 4, 5, 123));
    expect(body).toMatch(CROCKFORD_LOWER);
    expect(ulidBody(0, new Uint8Array(10))).toBe('0'.repeat(26));
    expect(ulidBody(0, new Uint8Array(10).fill(255))).toBe('0'.repeat(10) + 'z'.repeat(16));
    // The time part encodes the milliseconds in base 32, most significant first.
    expect(ulidBody(32, new Uint8Array(10)).slice(0, 10)).toBe('0000000010');
    expect(ulidBody(2 ** 48 - 1, new Uint8Array(10)).slice(0, 10)).toBe('7zzzzzzzzz');
  });

  it('ulidBody never uses the ambiguous letters i, l, o, u', () => {
    for (let i = 0; i < 200; i++) expect(ulidBody(Date.now() + i * 7919)).not.toMatch(/[ilou]/);
  });

  it('ulidBody sorts by time, whatever the random part', () => {
    const times = [0, 1, 31, 32, 1_000, 1_700_000_000_000, Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, Date.UTC(2099, 11, 31)];
    const bodies = times.map((t, i) => ulidBody(t, new Uint8Array(10).fill(i % 2 === 0 ? 255 : 0)));
    expect([...bodies].sort()).toEqual(bodies);
  });

  it('ulidBody is random within one millisecond', () => {
    const now = Date.now();
    const bodies = new Set(Array.from({ length: 100 }, () => ulidBody(now)));
    expect(bodies.size).toBe(100);
  });

  it('ID_PATTERN accepts prefixed ids of randomIds and rejects anything else', () => {
    const ids = randomIds({ now: () => new Date('2026-11-21T10:04:05.123Z') });
    for (const prefix of ['file', 'prs', 'key', 'org', 'env', 'run']) {
      const id = ids.next(prefix);
      expect(id).toMatch(ID_PATTERN);
      expect(id.startsWith(`${prefix}_`)).toBe(true);
    }
    const body = ulidBody(Date.now());
    for (const bad of [
      body, // no prefix
      `file_${body.slice(1)}`, // 25 characters
      `file_${body}0`, // 27 characters
      `FILE_${body}`,
      `file_${body.toUpperCase()}`,
      `file_${body.slice(0, 25)}i`,
      `file_${body.slice(0, 25)}u`,
      `file-${body}`,
      `file_${body}\n`,
    ]) {
      expect(ID_PATTERN.test(bad), bad).toBe(false);
    }
  });
});

describe('pagination: date bounds', () => {
  it('YYYY-MM-DD is the start of that UTC day for from_date and its last millisecond for to_date', () => {
    expect(parseDateBound('2026-03-01', 'from_date')).toBe('2026-03-01T00:00:00.000Z');
    expect(parseDateBound('2026-03-01', 'to_date')).toBe('2026-03-01T23:59:59.999Z');
    expect(parseDateBound('2024-02-29', 'to_date')).toBe('2024-02-29T23:59:59.999Z');
    expect(parseDateBound('2026-12-31', 'to_date')).toBe('2026-12-31T23:59:59.999Z');
  });

  it('RFC 3339 is the instant itself, normalised to UTC with milliseconds', () => {
    expect(parseDateBound('2026-03-01T10:04:05Z', 'from_date')).toBe('2026-03-01T10:04:05.000Z');
    expect(parseDateBound('2026-03-01T10:04:05.123Z', 'to_date')).toBe('2026-03-01T10:04:05.123Z');
    expect(parseDateBound('2026-03-01T10:04:05+02:00', 'from_date')).toBe('2026-03-01T08:04:05.000Z');
    expect(parseDateBound('2026-03-01T23:30:00-01:00', 'from_date')).toBe('2026-03-02T00:30:00.000Z');
    expect(parseDateBound('2026-03-01t10:04:05z', 'from_date')).toBe('2026-03-01T10:04:05.000Z');
  });

  it.each([
    ['2026-02-30'],
    ['2026-02-29'],
    ['2026-04-31'],
    ['2026-13-01'],
    ['2026-00-10'],
    ['2026-01-00'],
  ])('%s is not a calendar day → 422 at the parameter', (value) => {
    for (const param of ['from_date', 'to_date'] as const) {
      const [issue] = issuesOf(thrown(() => parseDateBound(value, param)));
      expect(issue!.loc).toEqual(['query', param]);
      expect(issue!.msg).toContain(value);
      expect(issue!.input).toBe(value);
    }
  });

  it.each([
    ['yesterday'],
    [''],
    ['2026-3-1'],
    ['20260301'],
    ['2026-03-01T10:04'],
    ['2026-03-01T10:04:05'], // no offset: not RFC 3339
    ['2026-02-30T10:00:00Z'], // Date would roll it over to March 2
    ['2026-04-31T00:00:00Z'],
    ['2026-03-01T24:00:00Z'],
    ['2026-03-01T10:60:00Z'],
    ['2026-03-01T10:00:00+25:00'],
    ['Mon, 02 Mar 2026 10:00:00 GMT'],
    ['1772445600000'],
  ])('%j is not a date → 422 at the parameter', (value) => {
    const [issue] = issuesOf(thrown(() => parseDateBound(value, 'to_date')));
    expect(issue!.loc).toEqual(['query', 'to_date']);
    expect(issue!.msg).toMatch(/Invalid date/);
  });
});

describe('pagination: toListQuery', () => {
  it('maps the query parameters onto the store query, dropping what is not given', () => {
    expect(toListQuery({ limit: 10, order: 'desc' })).toEqual({ limit: 10, order: 'desc' });
    expect(
      toListQuery(
        { limit: 5, order: 'asc', after: 'file_x', from_date: '2026-03-01', to_date: '2026-03-02', filename: 'Inv', status: 'completed' },
        { mime_type: 'application/pdf', project_id: undefined },
      ),
    ).toEqual({
      limit: 5,
      order: 'asc',
      after: 'file_x',
      fromTime: '2026-03-01T00:00:00.000Z',
      toTime: '2026-03-02T23:59:59.999Z',
      filenamePrefix: 'Inv',
      status: 'completed',
      attrs: { mime_type: 'application/pdf' },
    });
    // An empty filename filters nothing; attrs that are all undefined are no filter.
    expect(toListQuery({ limit: 1, order: 'desc', filename: '' }, { mime_type: undefined })).toEqual({ limit: 1, order: 'desc' });
  });

  it('before and after together → 422', () => {
    const error = thrown(() => toListQuery({ limit: 10, order: 'desc', before: 'file_a', after: 'file_b' }));
    expect((error as AppError).status).toBe(422);
    const [issue] = issuesOf(error);
    expect(issue!.loc[0]).toBe('query');
    expect(issue!.msg).toMatch(/before or after/);
  });

  it('a bad date bound is a 422 at that parameter', () => {
    const [issue] = issuesOf(thrown(() => toListQuery({ limit: 10, order: 'desc', from_date: '2026-02-30' })));
    expect(issue!.loc).toEqual(['query', 'from_date']);
  });
});

describe('http helpers', () => {
  it('toValidationIssues: loc starts at body/query/path, a missing field is "missing"', () => {
    const schema = z.object({ document: z.object({ filename: z.string(), url: z.string() }), pages: z.array(z.number()) });
    const input = { document: { url: 5 }, pages: [1, 'two'] };
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    const issues = toValidationIssues('body', result.error!, input);
    const byLoc = new Map(issues.map((i) => [JSON.stringify(i.loc), i]));
    expect(byLoc.get('["body","document","filename"]')).toEqual({ loc: ['body', 'document', 'filename'], msg: 'Field required', type: 'missing' });
    expect(byLoc.get('["body","document","url"]')).toMatchObject({ type: 'invalid_type', input: 5 });
    expect(byLoc.get('["body","document","url"]')!.msg).toMatch(/string/);
    expect(byLoc.get('["body","pages",1]')).toMatchObject({ loc: ['body', 'pages', 1], type: 'invalid_type', input: 'two' });
    expect(issues).toHaveLength(3);

    const query = z.object({ limit: z.coerce.number().int().max(100) });
    const q = query.safeParse({ limit: '500' });
    const [issue] = toValidationIssues('query', q.error!, { limit: '500' });
    expect(issue).toMatchObject({ loc: ['query', 'limit'], type: 'too_big', input: '500' });
  });

  it('toValidationIssues never echoes a long input string back', () => {
    const schema = z.object({ url: z.string().max(10) });
    const input = { url: 'x'.repeat(5000) };
    const [issue] = toValidationIssues('body', schema.safeParse(input).error!, input);
    expect(issue!.loc).toEqual(['body', 'url']);
    expect(issue).not.toHaveProperty('input');
  });

  it('dropNulls removes null fields at every depth, keeps array positions, and drops __proto__ keys', () => {
    expect(dropNulls({ a: null, b: 1, c: { d: null, e: 'x', f: { g: null } }, h: [{ i: null, j: 2 }, null, 3] })).toEqual({
      b: 1,
      c: { e: 'x', f: {} },
      h: [{ j: 2 }, null, 3],
    });
    expect(dropNulls(null)).toBeNull();
    expect(dropNulls('text')).toBe('text');

    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "nested": {"__proto__": {"polluted": true}, "ok": 1}}') as unknown;
    const cleaned = dropNulls(hostile) as Record<string, unknown>;
    expect(Object.keys(cleaned)).toEqual(['nested']);
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
    expect(Object.keys(cleaned.nested as object)).toEqual(['ok']);
    expect((cleaned as { polluted?: unknown }).polluted).toBeUndefined();
    expect((cleaned.nested as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('parseQuery reads the raw query string: repeated keys become arrays, single keys stay strings', () => {
    const event = { rawQueryString: 'select=a&select=b&limit=5&filename=Inv%20Q1&q=a+b&empty=' } as APIGatewayProxyEventV2;
    expect(parseQuery(event)).toEqual({ select: ['a', 'b'], limit: '5', filename: 'Inv Q1', q: 'a b', empty: '' });
    // A comma inside one value is not a separator here (API Gateway's joined form is not read).
    expect(parseQuery({ rawQueryString: 'select=a,b' } as APIGatewayProxyEventV2)).toEqual({ select: 'a,b' });
    expect(parseQuery({ rawQueryString: '' } as APIGatewayProxyEventV2)).toEqual({});
    expect(parseQuery({} as APIGatewayProxyEventV2)).toEqual({});
  });
});

describe('errors', () => {
  it.each([
    [new NotFound('File file_x not found'), 404, { detail: 'File file_x not found' }],
    [NotFound.of('File', 'file_x'), 404, { detail: 'File file_x not found' }],
    [new Unauthorized('API key revoked'), 401, { detail: 'API key revoked' }],
    [new Forbidden('Viewers cannot delete'), 403, { detail: 'Viewers cannot delete' }],
    [new Conflict('The extraction has no output'), 409, { detail: 'The extraction has no output' }],
    [new Gone('Upload expired'), 410, { detail: 'Upload expired' }],
    [new PayloadTooLarge('Too big'), 413, { detail: 'Too big' }],
    [Invalid.at(['body', 'document', 'url'], 'Invalid base64', 'document_invalid'), 422, { detail: [{ loc: ['body', 'document', 'url'], msg: 'Invalid base64', type: 'document_invalid' }] }],
    [Invalid.at(['query', 'after'], 'bad cursor', 'cursor_invalid', 'file_x'), 422, { detail: [{ loc: ['query', 'after'], msg: 'bad cursor', type: 'cursor_invalid', input: 'file_x' }] }],
  ])('%s → %i with its body', (error, status, body) => {
    expect(error).toBeInstanceOf(AppError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(status);
    expect(error.body()).toEqual(body);
  });

  it('Invalid.at defaults its type to value_error; Invalid carries every issue', () => {
    expect(Invalid.at(['body'], 'nope').issues).toEqual([{ loc: ['body'], msg: 'nope', type: 'value_error' }]);
    const many = new Invalid([
      { loc: ['body', 'a'], msg: 'x', type: 'missing' },
      { loc: ['query', 'b'], msg: 'y', type: 'too_big' },
    ]);
    expect(many.body().detail).toHaveLength(2);
    expect(many.message).toContain('body.a');
  });

  describe('through the middy stack', () => {
    const fakePlatform = {} as Platform;
    afterEach(() => setPlatform(undefined));

    const context = {} as Context;
    const event = (body?: string) =>
      ({ routeKey: 'POST /test', rawPath: '/test', rawQueryString: '', headers: {}, body, isBase64Encoded: false }) as unknown as APIGatewayProxyEventV2;
    const publicOp = operation({ summary: 'test', auth: 'public', status: 201, body: z.object({ n: z.number() }).optional() });

    async function call(fn: () => Promise<unknown>, body?: string) {
      setPlatform(fakePlatform);
      const handler = api(publicOp, fn);
      return (await handler(event(body), context)) as APIGatewayProxyStructuredResultV2;
    }

    it.each([
      [NotFound.of('File', 'file_x')],
      [new Unauthorized('Invalid API key')],
      [new Forbidden('no')],
      [new Conflict('busy')],
      [new Gone('expired')],
      [new PayloadTooLarge('too big')],
      [Invalid.at(['body', 'x'], 'bad')],
    ])('maps %s to its status and body, with x-request-id', async (error) => {
      const result = await call(() => Promise.reject(error));
      expect(result.statusCode).toBe(error.status);
      expect(JSON.parse(result.body!)).toEqual(error.body());
      expect(result.headers!['content-type']).toBe('application/json');
      expect(result.headers!['x-request-id']).toMatch(/^req_[0-9a-z]{26}$/);
    });

    it('an unexpected error is a 500 that repeats the request id and leaks nothing', async () => {
      const result = await call(() => Promise.reject(new Error('internal detail: row 42 of /srv/app.ts')));
      expect(result.statusCode).toBe(500);
      const requestId = result.headers!['x-request-id'];
      expect(JSON.parse(result.body!)).toEqual({ detail: 'Internal error', request_id: requestId });
      expect(result.body).not.toMatch(/row 42|srv/);
    });

    it('malformed JSON is a 422 json_invalid at ["body"]; a valid body reaches the handler', async () => {
      const bad = await call(async () => 'unreachable', '{"n": ');
      expect(bad.statusCode).toBe(422);
      const detail = JSON.parse(bad.body!).detail;
      expect(detail).toHaveLength(1);
      expect(detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });

      const ok = await call(async () => ({ fine: true }), '{"n": 1}');
      expect(ok.statusCode).toBe(201);
      expect(JSON.parse(ok.body!)).toEqual({ fine: true });

      const wrong = await call(async () => 'unreachable', '{"n": "one"}');
      expect(wrong.statusCode).toBe(422);
      expect(JSON.parse(wrong.body!).detail[0]).toMatchObject({ loc: ['body', 'n'], type: 'invalid_type' });
    });

    it('a body over 6 MB is a 413 telling the client to upload the file', async () => {
      const result = await call(async () => 'unreachable', JSON.stringify({ n: 1, pad: 'x'.repeat(6 * 1024 * 1024) }));
      expect(result.statusCode).toBe(413);
      expect(JSON.parse(result.body!).detail).toMatch(/6 MB.*\/v1\/files\/upload/);
    });

    it('a RawResponse keeps its content type and status', async () => {
      const result = await call(async () => new RawResponse('<p>hi</p>', 'text/html', 200));
      expect(result).toMatchObject({ statusCode: 200, body: '<p>hi</p>' });
      expect(result.headers!['content-type']).toBe('text/html');
    });
  });
});

describe('auth', () => {
  const good = `rt_test_${'a'.repeat(32)}`;

  it('bearerKey returns the key of "Bearer <key>" (any case of the scheme)', () => {
    expect(bearerKey(`Bearer ${good}`)).toBe(good);
    expect(bearerKey(`bearer ${good}`)).toBe(good);
    expect(bearerKey(`Bearer   ${good}  `)).toBe(good);
    expect(bearerKey(`Bearer rt_live_${'B9_-'.repeat(6)}`)).toBe(`rt_live_${'B9_-'.repeat(6)}`);
    expect(bearerKey(`Bearer sk_service_${'x'.repeat(20)}`)).toBe(`sk_service_${'x'.repeat(20)}`);
  });

  it.each([
    [undefined, /^Missing API key/],
    ['', /^Missing API key/],
    [`Basic ${good}`, /^Malformed Authorization header/],
    [good, /^Malformed Authorization header/],
    ['Bearer', /^Malformed Authorization header/],
    [`Bearer ${good} extra`, /^Malformed Authorization header/],
    ['Bearer rt_test_short', /^Malformed API key/],
    [`Bearer xx_test_${'a'.repeat(32)}`, /^Malformed API key/],
    [`Bearer rt_prod_${'a'.repeat(32)}`, /^Malformed API key/],
    [`Bearer rt_test_${'a'.repeat(30)}!`, /^Malformed API key/],
    [`Bearer rt_test_${'a'.repeat(201)}`, /^Malformed API key/],
  ])('bearerKey(%j) → 401 with a clear message', (header, message) => {
    const error = thrown(() => bearerKey(header));
    expect(error).toBeInstanceOf(Unauthorized);
    expect((error as Unauthorized).status).toBe(401);
    const body = (error as Unauthorized).body() as { detail: string };
    expect(body.detail).toMatch(message);
    // The message never echoes the key back.
    if (header && header.length > 30) expect(body.detail).not.toContain(header.slice(7, 40));
  });

  it('hashKey is the SHA-256 of the key in hex', () => {
    expect(hashKey(good)).toBe(createHash('sha256').update(good).digest('hex'));
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashKey(good)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('primitiveErrorOf', () => {
  it('States.Timeout → timeout', () => {
    expect(primitiveErrorOf({ Error: 'States.Timeout', Cause: 'Task timed out' })).toEqual({ code: 'timeout', message: 'The run exceeded its time budget', details: null });
  });

  it('a Lambda that ran out of time (Sandbox.Timedout) → timeout', () => {
    const cause = JSON.stringify({ errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 900.00 seconds' });
    expect(primitiveErrorOf({ Error: 'Sandbox.Timedout', Cause: cause }).code).toBe('timeout');
  });

  it('a Lambda error (Cause JSON) → internal naming only the error type', () => {
    const cause = JSON.stringify({
      errorType: 'TypeError',
      errorMessage: "Cannot read properties of undefined (reading 'secret_token_123')",
      trace: ['TypeError: ...', '    at /var/task/index.mjs:1:2'],
    });
    const error = primitiveErrorOf({ Error: 'TypeError', Cause: cause });
    expect(error).toEqual({ code: 'internal', message: 'The run failed unexpectedly (TypeError)', details: null });
    expect(JSON.stringify(error)).not.toMatch(/secret_token_123|index\.mjs|Cannot read/);
    // The Cause's errorType wins over the state machine's Error name.
    expect(primitiveErrorOf({ Error: 'States.TaskFailed', Cause: cause }).message).toBe('The run failed unexpectedly (TypeError)');
  });

  it('a Cause that is not JSON, or no Cause at all, still leaks nothing', () => {
    const error = primitiveErrorOf({ Error: 'Error', Cause: 'connect ECONNREFUSED 10.0.0.5:5432 password=hunter2' });
    expect(error).toEqual({ code: 'internal', message: 'The run failed unexpectedly (Error)', details: null });
    expect(primitiveErrorOf({})).toEqual({ code: 'internal', message: 'The run failed unexpectedly (Error)', details: null });
    expect(primitiveErrorOf({ Cause: '{}' }).code).toBe('internal');
  });
});

describe('routeDispatcher', () => {
  const context = {} as Context;
  const eventFor = (key: string) => ({ routeKey: key }) as APIGatewayProxyEventV2;

  it('dispatches each route of a group by its route key', async () => {
    const fileRoutes = routes.filter((r) => r.module === 'files/handlers.ts');
    expect(fileRoutes.length).toBeGreaterThan(1);
    const handlers: Record<string, unknown> = {};
    for (const route of fileRoutes) handlers[route.handler] = async (event: APIGatewayProxyEventV2) => ({ served: route.handler, key: event.routeKey });
    const dispatch = routeDispatcher('files', handlers);
    for (const route of fileRoutes) {
      expect(await dispatch(eventFor(routeKey(route)), context)).toEqual({ served: route.handler, key: routeKey(route) });
    }
  });

  it('an unknown route key (or one of another group) → 404 Not Found', async () => {
    const dispatch = routeDispatcher('model-catalog', { listModels: async () => ({ statusCode: 200 }) });
    expect(await dispatch(eventFor('GET /v1/models'), context)).toEqual({ statusCode: 200 });
    for (const key of ['GET /v1/nothing', 'GET /v1/files', 'POST /v1/models', '']) {
      const result = (await dispatch(eventFor(key), context)) as APIGatewayProxyStructuredResultV2;
      expect(result.statusCode).toBe(404);
      expect(JSON.parse(result.body!)).toEqual({ detail: 'Not Found' });
    }
  });

  it('refuses to build when the group module lacks a handler of its routes', () => {
    expect(() => routeDispatcher('model-catalog', {})).toThrow(/exports no listModels/);
  });

  it('refuses to build for a group that hosts no route (a misspelt group would 404 everything)', () => {
    expect(() => routeDispatcher('models', { listModels: async () => ({}) })).toThrow(/No route of the route table is hosted by models/);
  });

  it('every route belongs to a group', () => {
    expect(routeGroups()).toEqual([...new Set(routes.map((r) => r.module.split('/')[0]))].sort());
    expect(routeGroups()).toContain('files');
  });
});
