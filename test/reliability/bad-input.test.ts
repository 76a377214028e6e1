/**
 * Bad input corpus (issue 12): malformed requests generated for every route of the route table —
 * wrong types for the fields of each body schema, oversized bodies and strings, bad encodings, odd
 * unicode, deep nesting, huge arrays, prototype-pollution keys, path traversal in ids and names,
 * malformed multipart, wrong content types, malformed JSON, bad list query parameters, bad ids and
 * bad keys. Every case must be answered 4xx with a JSON `detail`, never 5xx, never a hang; afterwards
 * nothing was stored (every DynamoDB item and S3 object is compared) and the server is still healthy.
 *
 * The cases are generated from `routes`, so a new route gets cases too; the test fails when a route
 * has none.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { routes } from '../../functions/features.ts';
import { routeKey, type Route } from '../../functions/platform/route.ts';
import { startTestCloud, type TestCloud } from '../support/cloud.ts';

const REQUEST_TIMEOUT_MS = 20_000;
const CONCURRENCY = 6;
const OVER_LIMIT = Buffer.alloc(6 * 1024 * 1024 + 1, 0x20);

interface Case {
  route: string;
  kind: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Exact status expected; otherwise any 4xx. */
  status?: number;
  /** A validation issue must point here (e.g. ['body', 'name']). */
  loc?: (string | number)[];
}

interface Answer {
  status: number;
  text: string;
  ms: number;
}

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

/** One raw HTTP request (node:http, so paths are sent as written and GETs may carry bodies). */
function send(c: Case, key: string | null): Promise<Answer> {
  const url = new URL(cloud.url);
  const started = Date.now();
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
  if (key !== null && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) headers.authorization = `Bearer ${key}`;
  if (c.body !== undefined && !headers['transfer-encoding']) headers['content-length'] = String(Buffer.byteLength(c.body));
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: c.method, path: c.path, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: Date.now() - started }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    if (c.body !== undefined) req.write(c.body);
    req.end();
  });
}

// ---- generation -------------------------------------------------------------------------------

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; allOf?: JsonSchema[] };

/** The top-level fields of a body schema with their JSON types (unions merged). */
export function bodyFields(schema: z.ZodType): Record<string, string[]> {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
  } catch {
    return {};
  }
  const out: Record<string, string[]> = {};
  const visit = (s: JsonSchema) => {
    for (const [name, field] of Object.entries(s.properties ?? {})) out[name] = [...new Set([...(out[name] ?? []), ...typesOf(field)])];
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) visit(branch);
  };
  visit(json);
  return out;
}
function typesOf(s: JsonSchema): string[] {
  if (s.type) return Array.isArray(s.type) ? s.type : [s.type];
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  // No type at all: the field takes anything.
  return branches.length ? branches.flatMap(typesOf) : ['any'];
}

/** A value of a JSON type the field does not take, or undefined when it takes every type. */
function wrongValues(types: string[]): unknown[] {
  if (types.includes('any')) return [];
  const candidates: Array<[string, unknown]> = [
    ['string', 12345],
    ['number', 'not a number'],
    ['integer', 'not a number'],
    ['boolean', 'yes'],
    ['array', { not: 'an array' }],
    ['object', ['not', 'an', 'object']],
  ];
  const takes = (value: unknown) =>
    types.some((t) =>
      t === 'string' ? typeof value === 'string' : t === 'number' || t === 'integer' ? typeof value === 'number' : t === 'boolean' ? typeof value === 'boolean' : t === 'array' ? Array.isArray(value) : t === 'object' ? !!value && typeof value === 'object' && !Array.isArray(value) : false,
    );
  const out: unknown[] = [];
  for (const [type, value] of candidates) if (types.includes(type) && !takes(value)) out.push(value);
  if (out.length === 0) {
    // Take the first value of a type the field does not accept.
    for (const v of [12345, 'text', true, [1], { a: 1 }]) if (!takes(v)) return [v];
  }
  return out;
}

/** Concrete path of a route with its parameters replaced. */
function fill(route: Route, values: Record<string, string> = {}): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? 'xyz_01m7z0qenejn1pv4p44vpcbwww');
}

const BAD_IDS: Array<[string, string]> = [
  ['plain word', 'nope'],
  ['wrong prefix', 'zzz_01m7z0qenejn1pv4p44vpcbwww'],
  ['traversal (encoded slashes)', '..%2F..%2Fetc%2Fpasswd'],
  ['traversal (all encoded)', '%2e%2e%2f%2e%2e%2fetc%2fpasswd'],
  ['traversal (double encoded)', '%252e%252e%252fetc%252fpasswd'],
  ['traversal (backslashes)', '..%5C..%5Cwindows%5Cwin.ini'],
  ['NUL', 'file_%00'],
  ['RTL override', 'file_%E2%80%AEgpj.exe'],
  ['overlong id', `file_${'a'.repeat(2000)}`],
  ['invalid percent-encoding', '%E0%A4%A'],
  ['lone percent', '100%'],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
];

const MALFORMED_JSON: Array<[string, string | Buffer]> = [
  ['truncated object', '{"document": {"filename": "a.txt"'],
  ['single quotes', "{'name': 'x'}"],
  ['trailing comma', '{"name": "x",}'],
  ['bare word', 'nul'],
  ['NaN', '{"limit": NaN}'],
  ['only whitespace', '   \n\t '],
  ['BOM then JSON', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name": 1}')])],
  ['UTF-16LE JSON', Buffer.from('\ufeff{"name": "x"}', 'utf16le')],
  ['invalid UTF-8 inside a string', Buffer.concat([Buffer.from('{"name": "'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')])],
  ['JSON null', 'null'],
  ['JSON array', '[]'],
  ['JSON string', '"a string"'],
  ['JSON number', '42'],
];

const DEEP = 10_000;
const VERY_DEEP = 100_000;
function deepArray(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}
function deepObject(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function multipartCases(route: Route, path: string): Case[] {
  const key = routeKey(route);
  const mp = (kind: string, contentType: string, body: string | Buffer): Case => ({ route: key, kind: `multipart: ${kind}`, method: route.method, path, headers: { 'content-type': contentType }, body });
  const b = 'XyZboundary42';
  const part = (headers: string, content: string | Buffer) => Buffer.concat([Buffer.from(`--${b}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
  const end = Buffer.from(`--${b}--\r\n`);
  const form = (...parts: Buffer[]) => Buffer.concat([...parts, end]);
  const ct = `multipart/form-data; boundary=${b}`;
  return [
    mp('no boundary parameter', 'multipart/form-data', form(part('Content-Disposition: form-data; name="name"', 'x'))),
    mp('empty boundary parameter', 'multipart/form-data; boundary=', form(part('Content-Disposition: form-data; name="name"', 'x'))),
    mp('boundary not in the body', 'multipart/form-data; boundary=somethingelse', form(part('Content-Disposition: form-data; name="name"', 'x'))),
    mp('no parts at all', ct, end),
    mp('empty body', ct, ''),
    mp('truncated (no closing boundary)', ct, Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="t.csv"\r\n\r\nid\n1\n`)),
    mp('part without headers end', ct, Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"`)),
    mp('only a name, no file part', ct, form(part('Content-Disposition: form-data; name="name"', 'a table'))),
    mp('file part without a name', ct, form(part('Content-Disposition: form-data; filename="t.csv"\r\nContent-Type: text/csv', 'id\n1\n'))),
    mp('empty file', ct, form(part('Content-Disposition: form-data; name="file"; filename="t.csv"\r\nContent-Type: text/csv', ''))),
    mp('file of invalid UTF-8', ct, form(part('Content-Disposition: form-data; name="file"; filename="t.csv"\r\nContent-Type: text/csv', Buffer.from([0x69, 0x64, 0x0a, 0xff, 0xfe, 0x0a])))),
    mp('file that is a PNG', ct, form(part('Content-Disposition: form-data; name="file"; filename="t.csv"\r\nContent-Type: text/csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])))),
    mp('CSV with a duplicate header', ct, form(part('Content-Disposition: form-data; name="file"; filename="t.csv"\r\nContent-Type: text/csv', 'id,id\n1,2\n'))),
    mp('CSV with an unterminated quote', ct, form(part('Content-Disposition: form-data; name="file"; filename="t.csv"\r\nContent-Type: text/csv', 'id,name\n1,"open\n'))),
    mp('__proto__ part', ct, form(part('Content-Disposition: form-data; name="__proto__"; filename="t.csv"', 'id\n1\n'))),
    mp('traversal filename, empty file', ct, form(part('Content-Disposition: form-data; name="file"; filename="../../etc/passwd"', ''))),
    mp('wrong type for the name field', ct, form(part('Content-Disposition: form-data; name="file"; filename="t.csv"', ''), part('Content-Disposition: form-data; name="name"', ''))),
    mp('garbage instead of parts', ct, Buffer.from('this is not multipart at all')),
    mp('boundary of 300 characters', `multipart/form-data; boundary=${'q'.repeat(300)}`, Buffer.from(`--${'q'.repeat(300)}--\r\n`)),
  ];
}

function generate(keys: { test: string }): Case[] {
  void keys;
  const cases: Case[] = [];
  for (const route of routes) {
    const key = routeKey(route);
    const path = fill(route);
    const op = route.op;
    const add = (c: Omit<Case, 'route'>) => cases.push({ route: key, ...c });

    // Every route: a body over the 6 MB payload limit (API §0.1).
    add({ kind: 'body over 6 MB', method: route.method, path, headers: { 'content-type': 'application/json' }, body: OVER_LIMIT, status: 413 });

    if (op.auth === 'api_key') {
      add({ kind: 'no key', method: route.method, path, headers: { authorization: '' }, status: 401 });
      add({ kind: 'junk key', method: route.method, path, headers: { authorization: 'Bearer sk_test_not_a_real_key' }, status: 401 });
      add({ kind: 'basic auth', method: route.method, path, headers: { authorization: 'Basic dXNlcjpwYXNz' }, status: 401 });
      add({ kind: 'key of 8 KB', method: route.method, path, headers: { authorization: `Bearer sk_test_${'x'.repeat(8 * 1024)}` }, status: 401 });
    }

    // Bad ids / names in every path parameter (with a body the route would otherwise take as JSON).
    const params = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    for (const param of params) {
      for (const [kind, value] of BAD_IDS) {
        const body = op.body ? '{}' : undefined;
        add({ kind: `bad ${param}: ${kind}`, method: route.method, path: fill(route, { [param]: value }), headers: body ? { 'content-type': 'application/json' } : {}, body });
      }
    }

    if (op.query && /^GET$/.test(route.method) && !params.length && 'shape' in op.query && (op.query as z.ZodObject).shape.limit) {
      const q = (query: string, kind: string) => add({ kind: `query: ${kind}`, method: 'GET', path: `${path}?${query}`, loc: ['query'] });
      q('limit=-1', 'limit=-1');
      q('limit=0', 'limit=0');
      q('limit=101', 'limit=101');
      q('limit=abc', 'limit not a number');
      q('limit=1.5', 'limit not an integer');
      q('limit=1&limit=2', 'limit repeated');
      q('order=sideways', 'order=sideways');
      q('from_date=yesterday', 'from_date not a date');
      q('from_date=2026-02-30', 'from_date not a calendar day');
      q('to_date=2026-13-01T25:00:00Z', 'to_date out of range');
      q('before=not-a-cursor', 'bad before cursor');
      q('after=%00%FF', 'bad after cursor');
      q(`after=${'z'.repeat(5000)}`, 'overlong cursor');
      q('before=a&after=b', 'before and after');
      if ('status' in (op.query as z.ZodObject).shape) q('status=exploded', 'unknown status');
    }

    if (op.body) {
      const json = (kind: string, body: string | Buffer, extra: Partial<Case> = {}) =>
        add({ kind, method: route.method, path, headers: { 'content-type': 'application/json' }, body, ...extra });
      for (const [kind, body] of MALFORMED_JSON) json(`malformed JSON: ${kind}`, body);
      json(`deep nesting: ${DEEP} arrays`, deepArray(DEEP));
      json(`deep nesting: ${VERY_DEEP} arrays`, deepArray(VERY_DEEP));
      json(`deep nesting: ${DEEP} objects`, deepObject(DEEP));
      json(`deep nesting: ${VERY_DEEP} objects`, deepObject(VERY_DEEP));
      json('huge array as body', `[${Array(300_000).fill('0').join(',')}]`);
      json('prototype pollution: __proto__', '{"__proto__": {"polluted": "yes"}}');
      json('prototype pollution: constructor.prototype', '{"constructor": {"prototype": {"polluted": "yes"}}}');
      json('prototype pollution: nested __proto__', '{"metadata": {"__proto__": {"polluted": "yes"}}, "document": {"__proto__": {"polluted": "yes"}}}');
      // Wrong content types (bodies that are not valid requests under any of them).
      add({ kind: 'content type text/plain', method: route.method, path, headers: { 'content-type': 'text/plain' }, body: 'hello' });
      add({ kind: 'content type XML', method: route.method, path, headers: { 'content-type': 'application/xml' }, body: '<request><name>x</name></request>' });
      add({ kind: 'content type form-urlencoded', method: route.method, path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=x&document=y' });
      add({ kind: 'content type octet-stream', method: route.method, path, headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80]) });
      add({ kind: 'no content type', method: route.method, path, body: Buffer.from([0xde, 0xad, 0xbe, 0xef]) });
      if (!op.multipart) add({ kind: 'multipart on a JSON route', method: route.method, path, headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n' });

      // Wrong types for each field of the body schema; the 422 must name the field.
      const fields = bodyFields(op.body);
      const names = Object.keys(fields);
      for (const [name, types] of Object.entries(fields)) {
        for (const value of wrongValues(types)) json(`wrong type for ${name}: ${JSON.stringify(value)}`, JSON.stringify({ [name]: value }), { loc: ['body', name] });
      }
      // Odd strings in every string field: NUL, RTL override, lone surrogates (JSON escapes), 1 MB.
      const stringFields = names.filter((n) => fields[n]!.includes('string'));
      for (const name of stringFields.slice(0, 3)) {
        json(`odd unicode in ${name}`, `{"${name}": "a\\u0000b\\u202egpj.exe\\ud800\\udfff\\udc00", "__proto__": {"x": 1}}`);
        json(`1 MB string in ${name}`, JSON.stringify({ [name]: 'x'.repeat(1024 * 1024) }));
      }
      const arrayField = names.find((n) => fields[n]!.includes('array'));
      if (arrayField) json(`huge array in ${arrayField}`, JSON.stringify({ [arrayField]: Array(50_000).fill({}) }));
      if (names.length) json('every field a deep array', JSON.stringify(Object.fromEntries(names.map((n) => [n, JSON.parse(deepArray(500))]))));
    }

    if (op.multipart) for (const c of multipartCases(route, path)) cases.push(c);
  }

  // Secret names are identifiers: traversal and odd characters are refused even with a valid body.
  for (const [kind, value] of BAD_IDS.filter(([, v]) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v) && !v.includes('%E0') && v !== '100%')) {
    const json = { 'content-type': 'application/json' };
    cases.push({ route: 'PUT /v1/secrets/{name}', kind: `secret name with a valid body: ${kind}`, method: 'PUT', path: `/v1/secrets/${value}`, headers: json, body: '{"value":"v"}', status: 422, loc: ['path', 'name'] });
    cases.push({ route: 'POST /v1/secrets', kind: `secret name in the body: ${kind}`, method: 'POST', path: '/v1/secrets', headers: json, body: JSON.stringify({ name: decodeURIComponent(value), value: 'v' }), status: 422, loc: ['body', 'name'] });
  }

  // Path traversal where the router itself decides (public docs assets and unknown paths).
  const asset = (kind: string, p: string) => cases.push({ route: 'GET /docs/{asset}', kind: `docs asset: ${kind}`, method: 'GET', path: p });
  asset('traversal', '/docs/..%2F..%2Fpackage.json');
  asset('traversal to /etc/passwd', '/docs/..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd');
  asset('absolute path', '/docs/%2Fetc%2Fpasswd');
  asset('unknown asset', '/docs/nope.js');
  cases.push({ route: '(none)', kind: 'raw traversal path', method: 'GET', path: '/v1/files/../../../etc/passwd' });
  cases.push({ route: '(none)', kind: 'unknown route', method: 'POST', path: '/v1/nothing-here', headers: { 'content-type': 'application/json' }, body: '{}' });
  cases.push({ route: 'POST /v1/files', kind: 'chunked body over 6 MB', method: 'POST', path: '/v1/files', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: OVER_LIMIT, status: 413 });
  return cases;
}

// ---- storage snapshot ---------------------------------------------------------------------------

async function storedKeys(): Promise<{ items: Set<string>; objects: Set<string> }> {
  const e = cloud.endpoints;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const dynamo = new DynamoDBClient({ endpoint: e.dynamodb, region: e.region, credentials });
  const s3 = new S3Client({ endpoint: e.s3, region: e.region, credentials, forcePathStyle: true });
  const items = new Set<string>();
  let start: Record<string, any> | undefined;
  do {
    const page = await dynamo.send(new ScanCommand({ TableName: e.table, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) items.add(`${item.pk?.S ?? JSON.stringify(item.pk)} | ${item.sk?.S ?? JSON.stringify(item.sk)}`);
    start = page.LastEvaluatedKey;
  } while (start);
  const objects = new Set<string>();
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: e.bucket, ContinuationToken: token }));
    for (const o of page.Contents ?? []) objects.add(o.Key!);
    token = page.NextContinuationToken;
  } while (token);
  dynamo.destroy();
  s3.destroy();
  return { items, objects };
}

async function pool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

function hasIssueAt(body: any, loc: (string | number)[]): boolean {
  if (!Array.isArray(body?.detail)) return false;
  return body.detail.some((issue: { loc?: unknown[] }) => Array.isArray(issue.loc) && loc.every((part, i) => issue.loc![i] === part));
}

describe('bad input corpus', () => {
  it('answers every generated malformed request with a 4xx and a JSON detail; nothing stored; still healthy', async () => {
    const started = Date.now();
    const cases = generate(cloud.keys);
    expect(cases.length).toBeGreaterThanOrEqual(300);

    // Every route of the route table has cases.
    const perRoute = new Map<string, number>();
    for (const c of cases) perRoute.set(c.route, (perRoute.get(c.route) ?? 0) + 1);
    const uncovered = routes.map(routeKey).filter((k) => !perRoute.has(k));
    expect(uncovered, 'routes without bad-input cases').toEqual([]);

    const before = await storedKeys();
    // The snapshot sees what is there (the organizations and keys of the harness).
    expect(before.items.size).toBeGreaterThan(0);
    const answers = await pool(cases, CONCURRENCY, async (c) => {
      try {
        return { c, a: await send(c, cloud.keys.test) };
      } catch (error) {
        return { c, a: { status: 0, text: String(error), ms: 0 } };
      }
    });

    const failures: string[] = [];
    const tally = { '4xx': 0, '5xx': 0, other: 0 };
    for (const { c, a } of answers) {
      const label = `${c.route} [${c.kind}] ${c.method} ${c.path.slice(0, 80)} → ${a.status} ${a.text.slice(0, 200)}`;
      if (a.status >= 400 && a.status < 500) tally['4xx']++;
      else if (a.status >= 500) tally['5xx']++;
      else tally.other++;
      let body: any;
      try {
        body = JSON.parse(a.text);
      } catch {
        body = undefined;
      }
      if (c.status !== undefined ? a.status !== c.status : !(a.status >= 400 && a.status < 500)) failures.push(`status: ${label}`);
      else if (body === undefined || body.detail === undefined || body.detail === '' || (Array.isArray(body.detail) && body.detail.length === 0)) failures.push(`no JSON detail: ${label}`);
      else if (c.loc && a.status === 422 && !hasIssueAt(body, c.loc)) failures.push(`detail does not name ${c.loc.join('.')}: ${label}`);
    }

    const after = await storedKeys();
    const newItems = [...after.items].filter((k) => !before.items.has(k));
    const newObjects = [...after.objects].filter((k) => !before.objects.has(k));
    const health = await cloud.api('GET', '/v1/auth/status');
    const seconds = (Date.now() - started) / 1000;
    const slowest = answers.reduce((m, x) => Math.max(m, x.a.ms), 0);
    console.log(
      `bad-input corpus: ${cases.length} cases over ${perRoute.size} routes (min ${Math.min(...perRoute.values())}, max ${Math.max(...perRoute.values())} per route); ` +
        `4xx ${tally['4xx']}, 5xx ${tally['5xx']}, other ${tally.other}; slowest ${slowest} ms; ${seconds.toFixed(1)} s`,
    );

    console.log(`bad-input cases per route: ${[...perRoute].map(([route, n]) => `${route} ${n}`).join('; ')}`);

    expect(failures, failures.slice(0, 40).join('\n')).toEqual([]);
    expect(tally['5xx']).toBe(0);
    expect(newItems, 'DynamoDB items written by the corpus').toEqual([]);
    expect(newObjects, 'S3 objects written by the corpus').toEqual([]);
    expect(({} as Record<string, unknown>).polluted, 'Object.prototype polluted').toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(health.status).toBe(200);
  }, 360_000); // about 3,800 requests: 40–50 s alone, several times that beside other files on 2 cores
});
