/**
 * Property-based fuzzing (issue 12) of the four parsers that read untrusted bytes: the JSON body
 * parsing of the HTTP layer, the document sniffer (and data URLs), the table CSV reader and the
 * webhook signature verifier. Each may only ever fail with its own typed error; run counts are
 * bounded so the file stays a few seconds long.
 */
import fc from 'fast-check';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Invalid } from '../../functions/platform/errors.ts';
import { api, MAX_JSON_DEPTH, parseJsonBody } from '../../functions/platform/http.ts';
import { operation } from '../../functions/platform/operation.ts';
import { setPlatform, type Platform } from '../../functions/platform/platform.ts';
import { decodeDataUrl, DocumentProblem, MIME_OF, sniffDocument } from '../../functions/documents/sniff.ts';
import { chunksOf, CsvProblem, DELIMITERS, readCsv } from '../../functions/tables/csv-reader.ts';
import type { RawCell } from '../../functions/tables/cells.ts';
import { computeSignature, signatureHeader, verifyWebhook, WebhookVerificationError } from '../../functions/webhooks/verify.ts';

const RUNS = 300;

// ---- HTTP JSON bodies ---------------------------------------------------------------------------

describe('HTTP JSON body parsing', () => {
  /** A public route with a small body schema, run through the whole middy stack (no store needed). */
  const echo = api(
    operation({ summary: 'fuzz echo', auth: 'public', body: z.object({ name: z.string().max(50), tags: z.array(z.string()).optional() }), status: 200 }),
    async ({ body }) => body,
  );
  beforeAll(() => setPlatform({} as Platform));
  afterAll(() => setPlatform(undefined));

  async function call(body: Buffer, contentType = 'application/json'): Promise<APIGatewayProxyStructuredResultV2> {
    const event = {
      version: '2.0',
      routeKey: 'POST /fuzz',
      rawPath: '/fuzz',
      rawQueryString: '',
      headers: { 'content-type': contentType },
      requestContext: { http: { method: 'POST', path: '/fuzz' } },
      body: body.toString('base64'),
      isBase64Encoded: true,
    } as unknown as APIGatewayProxyEventV2;
    return (await echo(event, {} as Context)) as APIGatewayProxyStructuredResultV2;
  }

  it('arbitrary strings and bytes: parseJsonBody returns a value or throws Invalid (422), nothing else', () => {
    const inputs = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }).map((s) => Buffer.from(s, 'utf8')),
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
      // JSON with a byte flipped, dropped or repeated.
      fc.tuple(fc.jsonValue(), fc.nat(), fc.integer({ min: 1, max: 255 })).map(([v, at, x]) => {
        const b = Buffer.from(JSON.stringify(v) ?? 'null');
        b[at % b.length] ^= x;
        return b;
      }),
    );
    fc.assert(
      fc.property(inputs, (raw) => {
        try {
          parseJsonBody(raw);
        } catch (error) {
          expect(error).toBeInstanceOf(Invalid);
          expect((error as Invalid).status).toBe(422);
          expect((error as Invalid).issues[0]!.msg.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('well-formed JSON within the depth limit parses to exactly what was sent', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 10 }), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonBody(Buffer.from(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('nesting: up to the limit is accepted, beyond it a 422 at any depth (never a stack overflow)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), fc.boolean(), (depth, arrays) => {
        const text = arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '0' + '}'.repeat(depth);
        if (depth <= MAX_JSON_DEPTH) expect(() => parseJsonBody(Buffer.from(text))).not.toThrow();
        else expect(() => parseJsonBody(Buffer.from(text))).toThrow(Invalid);
      }),
      { numRuns: 60 },
    );
  });

  it('lone surrogates (JSON escapes) and invalid UTF-8 are refused; pairs and valid UTF-8 are kept', () => {
    // Regression: both used to be decoded to U+FFFD and stored altered.
    expect(() => parseJsonBody(Buffer.from('{"name":"a\\ud800b"}'))).toThrow(Invalid);
    expect(() => parseJsonBody(Buffer.from('{"\\udc00":1}'))).toThrow(Invalid);
    expect(() => parseJsonBody(Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]))).toThrow(Invalid);
    expect(parseJsonBody(Buffer.from('{"name":"\\ud83d\\ude00 é"}'))).toEqual({ name: '😀 é' });
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.nat(), (s, surrogate, at) => {
        const i = at % (s.length + 1);
        const text = JSON.stringify({ name: s.slice(0, i) + String.fromCharCode(surrogate) + s.slice(i) });
        // A surrogate that happens to complete a pair with its neighbour is a real character.
        const lone = /\p{Cs}/u.test(JSON.parse(text).name);
        if (lone) expect(() => parseJsonBody(Buffer.from(text))).toThrow(Invalid);
        else expect(() => parseJsonBody(Buffer.from(text))).not.toThrow();
      }),
      { numRuns: RUNS },
    );
  });

  it('through the middy stack, arbitrary bodies and content types answer 200 or 4xx with a detail, never 500', async () => {
    const bodies = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
      // Valid-looking bodies, some carrying a "__proto__" key with a payload.
      fc.tuple(fc.record({ name: fc.string({ unit: 'binary' }), tags: fc.option(fc.array(fc.string({ unit: 'binary' })), { nil: undefined }) }), fc.boolean()).map(([v, proto]) => {
        const text = JSON.stringify(v);
        return Buffer.from(proto ? `{"__proto__":{"polluted":"yes"},${text.slice(1)}` : text);
      }),
    );
    const types = fc.constantFrom('application/json', 'text/plain', 'application/octet-stream', 'multipart/form-data', 'multipart/form-data; boundary=x', '');
    await fc.assert(
      fc.asyncProperty(bodies, types, async (body, type) => {
        const result = await call(body, type);
        const status = result.statusCode ?? 0;
        expect(status === 200 || (status >= 400 && status < 500), `${status} ${result.body}`).toBe(true);
        if (status !== 200) expect(JSON.parse(result.body!).detail).toBeDefined();
      }),
      { numRuns: RUNS },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

// ---- document sniffer ---------------------------------------------------------------------------

describe('document sniffer', () => {
  const KINDS = Object.keys(MIME_OF);
  const MAGIC = [
    [0x25, 0x50, 0x44, 0x46, 0x2d],
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    [0xff, 0xd8, 0xff],
    [0x49, 0x49, 0x2a, 0x00],
    [0x50, 0x4b, 0x03, 0x04],
    [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
    [0x47, 0x49, 0x46, 0x38],
    [0xef, 0xbb, 0xbf],
    [0x1f, 0x8b],
  ];
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 512 }),
    // A known signature followed by junk: the branches behind each magic number get exercised.
    fc.tuple(fc.constantFrom(...MAGIC), fc.uint8Array({ maxLength: 256 })).map(([m, rest]) => Uint8Array.from([...m, ...rest])),
    fc.string({ unit: 'binary', maxLength: 300 }).map((s) => new Uint8Array(Buffer.from(s, 'utf8'))),
  );
  const filename = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('a.pdf', 'a.csv', 'a.tsv', 'a.md', 'a', '.', '../../etc/passwd', 'x.CSV', 'a.b.c.docx'));
  const mime = fc.option(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...Object.values(MIME_OF), 'text/plain; charset=utf-8', 'application/octet-stream', 'image/gif', ';', '')), { nil: undefined });

  it('arbitrary bytes, names and MIME types: a supported kind or a DocumentProblem with a message', () => {
    fc.assert(
      fc.property(bytes, filename, mime, fc.nat({ max: 1000 }), (head, name, declaredMime, extra) => {
        try {
          const sniffed = sniffDocument({ head, size: head.length + (head.length ? extra : 0), filename: name, declaredMime });
          expect(KINDS).toContain(sniffed.kind);
          expect(sniffed.mimeType).toBe(MIME_OF[sniffed.kind]);
        } catch (error) {
          expect(error).toBeInstanceOf(DocumentProblem);
          expect(['document_invalid', 'document_unsupported']).toContain((error as DocumentProblem).code);
          expect((error as DocumentProblem).message.length).toBeGreaterThan(10);
        }
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('arbitrary data URLs: decoded bytes or a DocumentProblem; a valid one round-trips', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ maxLength: 100 }).map((s) => `data:${s}`)), (url) => {
        try {
          const { bytes: decoded } = decodeDataUrl(url);
          expect(Buffer.isBuffer(decoded)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(DocumentProblem);
        }
      }),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('application/pdf', 'text/csv', 'image/png'), (b, type) => {
        const decoded = decodeDataUrl(`data:${type};base64,${Buffer.from(b).toString('base64')}`);
        expect(decoded.mime).toBe(type);
        expect(new Uint8Array(decoded.bytes)).toEqual(b);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- CSV reader ---------------------------------------------------------------------------------

async function readAll(bytes: Uint8Array, blockBytes: number) {
  let header: string[] = [];
  let delimiter = '';
  const rows: RawCell[][] = [];
  await readCsv(chunksOf(bytes, blockBytes), {
    header(names, d) {
      header = names;
      delimiter = d;
    },
    row(fields) {
      rows.push([...fields]);
    },
  }, { blockBytes });
  return { header, rows, delimiter };
}

describe('CSV reader', () => {
  /** One CSV field: quoted when it must be (or, with `always`, every time); null is nothing at all. */
  function field(value: RawCell, delimiter: string, quote: 'minimal' | 'always'): string {
    if (value === null) return '';
    const needs = value === '' || value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r') || value.startsWith(' ') || value.endsWith(' ');
    return quote === 'always' || needs ? `"${value.replace(/"/g, '""')}"` : value;
  }

  const table = fc
    .record({
      delimiter: fc.constantFrom(...DELIMITERS),
      newline: fc.constantFrom('\n', '\r\n', '\r'),
      quote: fc.constantFrom('minimal' as const, 'always' as const),
      finalNewline: fc.boolean(),
      bom: fc.boolean(),
      width: fc.integer({ min: 2, max: 5 }),
      block: fc.integer({ min: 1, max: 48 }),
    })
    .chain((shape) => {
      // The other delimiters stay out of the values, so the delimiter sniffer has one right answer;
      // a lone-CR file cannot hold a newline in a value (a newline there makes the file LF).
      const units = ['a', 'Z', '1', ' ', '"', 'é', '中', '😀', shape.delimiter, ...(shape.newline === '\r' ? ['\r'] : ['\n', '\r'])];
      const text = fc.string({ unit: fc.constantFrom(...units), maxLength: 8 });
      return fc.record({
        shape: fc.constant(shape),
        header: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_ ]{0,6}$/), { minLength: shape.width, maxLength: shape.width }),
        rows: fc.array(fc.array(fc.option(text, { nil: null }), { minLength: shape.width, maxLength: shape.width }), { maxLength: 12 }),
      });
    });

  it('any table written with any delimiter, quoting and line end reads back the same', async () => {
    await fc.assert(
      fc.asyncProperty(table, async ({ shape, header, rows }) => {
        const lines = [header, ...rows].map((cells) => cells.map((c) => field(c, shape.delimiter, shape.quote)).join(shape.delimiter));
        const csv = (shape.bom ? '\uFEFF' : '') + lines.join(shape.newline) + (shape.finalNewline ? shape.newline : '');
        const read = await readAll(new Uint8Array(Buffer.from(csv, 'utf8')), shape.block);
        expect(read.header).toEqual(header);
        expect(read.rows).toEqual(rows);
        expect(read.delimiter).toBe(shape.delimiter);
      }),
      // The slowest property here (small blocks): fewer runs.
      { numRuns: 120 },
    );
  });

  it('arbitrary bytes never crash: a table or a CsvProblem with a message', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 400 }),
      fc.string({ unit: fc.constantFrom('a', ',', ';', '\t', '|', '"', '\n', '\r', ' ', '\uFEFF', '\u0000', '😀'), maxLength: 200 }).map((s) => new Uint8Array(Buffer.from(s, 'utf8'))),
      fc.tuple(fc.string({ maxLength: 100 }), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([s, junk]) => new Uint8Array(Buffer.concat([Buffer.from(s), Buffer.from(junk)]))),
    );
    await fc.assert(
      fc.asyncProperty(bytes, fc.integer({ min: 1, max: 64 }), async (b, block) => {
        try {
          const read = await readAll(b, block);
          expect(read.header.length).toBeGreaterThan(0);
        } catch (error) {
          expect(error).toBeInstanceOf(CsvProblem);
          expect((error as CsvProblem).message.length).toBeGreaterThan(10);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- webhook signatures -------------------------------------------------------------------------

describe('webhook signature verifier', () => {
  const NOW = 1_790_000_000;
  const secret = fc.string({ minLength: 1, maxLength: 40, unit: 'binary' });
  const event = fc.record({
    id: fc.string(),
    type: fc.constantFrom('parse.completed', 'extraction.failed', 'test'),
    environment: fc.constantFrom('test', 'production'),
    organization_id: fc.string(),
    created_at: fc.string(),
    data: fc.jsonValue({ maxDepth: 3 }),
  });
  const body = event.map((e) => Buffer.from(JSON.stringify(e)));
  const skew = fc.integer({ min: -300, max: 300 });

  it('a signature over the exact body always verifies', () => {
    fc.assert(
      fc.property(secret, body, skew, (s, raw, d) => {
        const headers = { 'X-Service-Signature': signatureHeader([s], NOW + d, raw) };
        expect(verifyWebhook(raw, headers, s, { now: NOW })).toEqual(JSON.parse(raw.toString('utf8')));
        expect(verifyWebhook(raw.toString('utf8'), new Headers(headers), [s, 'another secret'], { now: NOW })).toBeDefined();
      }),
      { numRuns: RUNS },
    );
  });

  function rejects(raw: Uint8Array, headers: Record<string, string>, s: string) {
    expect(() => verifyWebhook(raw, headers, s, { now: NOW })).toThrow(WebhookVerificationError);
  }

  it('any single-byte change of the body, the timestamp or the signature never verifies', () => {
    fc.assert(
      fc.property(secret, body, skew, fc.nat(), fc.integer({ min: 1, max: 255 }), (s, raw, d, at, x) => {
        const t = NOW + d;
        const signature = computeSignature(s, t, raw);
        // The body.
        const changed = Buffer.from(raw);
        changed[at % changed.length] ^= x;
        rejects(changed, { 'x-service-signature': `t=${t},v1=${signature}` }, s);
        // The timestamp: one digit changed to any other byte.
        const ts = Buffer.from(String(t));
        ts[at % ts.length] ^= x;
        rejects(raw, { 'x-service-signature': `t=${ts.toString('latin1')},v1=${signature}` }, s);
        // The signature.
        const sig = Buffer.from(signature);
        sig[at % sig.length] ^= x;
        rejects(raw, { 'x-service-signature': `t=${t},v1=${sig.toString('latin1')}` }, s);
        // Any byte of the whole header.
        const header = Buffer.from(`t=${t},v1=${signature}`);
        header[at % header.length] ^= x;
        rejects(raw, { 'x-service-signature': header.toString('latin1') }, s);
      }),
      { numRuns: RUNS },
    );
  });

  it('random headers and secrets throw WebhookVerificationError and nothing else', () => {
    const headerValue = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc.array(fc.oneof(fc.constant('t='), fc.constant('v1='), fc.constant(','), fc.constant('='), fc.stringMatching(/^[0-9a-f]{0,64}$/), fc.nat().map(String)), { maxLength: 12 }).map((p) => p.join('')),
    );
    const headers = fc.oneof(
      headerValue.map((v) => ({ 'x-service-signature': v })),
      fc.dictionary(fc.string({ maxLength: 30 }), fc.oneof(fc.string({ maxLength: 60 }), fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }), fc.constant(undefined))),
      fc.tuple(headerValue, fc.string({ maxLength: 20 })).map(([v, env]) => ({ 'X-Service-Signature': v, 'X-Service-Environment': env })),
    );
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 })), headers, fc.oneof(secret, fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 })), (raw, h, s) => {
        try {
          verifyWebhook(raw, h as Record<string, string>, s, { now: NOW });
          throw new Error('verified a random header');
        } catch (error) {
          expect(error).toBeInstanceOf(WebhookVerificationError);
        }
      }),
      { numRuns: RUNS * 2 },
    );
  });
});

