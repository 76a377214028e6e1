/**
 * File blueprints (POST /v1/files/blueprints, GET /v1/files/blueprints/{id}, POST …/{id}/cancel; the
 * Retab SDK's files.create_blueprint / get_blueprint / create_blueprint_cancel) on the real local
 * emulators, with real documents of ../shared/corpus (read by path, never copied here): what the
 * blueprint says of them was checked by looking at each document.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { platform, setPlatform, type Platform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { corpusAvailable, corpusBytes } from '../../support/corpus.ts';

let cloud: TestCloud;
let real: Platform;
beforeAll(async () => {
  cloud = await startTestCloud();
  real = platform();
});
afterAll(() => cloud?.close());
afterEach(() => setPlatform(real));

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UNKNOWN = 'fbp_01m7z0qenejn1pv4p44vpcbwww';
/** A one-page invoice (Sliced Invoices' sample): "Invoice", INV-3337, Total Due $93.50, one line of web design. */
const INVOICE = 'documents/invoice/sample-invoice.pdf';
/** Five scanned pages, five documents: a Google invoice, an OfficeMax receipt, a hand-filled health intake form, an SCE&G electricity bill, a French Starbucks receipt. */
const BUNDLE = 'documents/document_bundle/procurement_multi_document.pdf';

/** One-shot upload of a corpus document → its File id. */
async function uploadCorpus(path: string, key?: string): Promise<string> {
  const r = await cloud.api('POST', '/v1/files', { key, body: { document: { filename: path.split('/').pop(), url: dataUrl('application/pdf', Buffer.from(corpusBytes(path))) } } });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

/** The three-step upload (what the SDK does with a big file) → its File id. The bytes are stored whatever they are. */
async function uploadThreeStep(filename: string, bytes: Buffer, contentType: string, key?: string): Promise<string> {
  const ticket = await cloud.api('POST', '/v1/files/upload', { key, body: { filename, size_bytes: bytes.length, content_type: contentType } });
  expect(ticket.status, ticket.text).toBe(201);
  const put = await fetch(ticket.body.uploadUrl, { method: 'PUT', headers: ticket.body.uploadHeaders, body: bytes });
  expect(put.status).toBe(200);
  const done = await cloud.api('POST', `/v1/files/upload/${ticket.body.fileId}/complete`, { key, body: {} });
  expect(done.status, done.text).toBe(200);
  return ticket.body.fileId;
}

async function settled(id: string, key?: string): Promise<any> {
  return until(
    async () => {
      const r = await cloud.api('GET', `/v1/files/blueprints/${id}`, { key });
      expect(r.status).toBe(200);
      return ['completed', 'failed', 'cancelled'].includes(r.body.status) ? r.body : undefined;
    },
    180_000,
    `blueprint ${id} to end`,
  );
}

describe.skipIf(!corpusAvailable())('a blueprint of a real document', () => {
  it('of an invoice, synchronous: the SDK’s FileBlueprint, an invoice, and a schema that extracts it', async () => {
    const fileId = await uploadCorpus(INVOICE);
    // The body exactly as the SDK's files.create_blueprint(fileId, intent, mode, background) sends it.
    const r = await cloud.api('POST', '/v1/files/blueprints', { body: { file_id: fileId, intent: 'Book supplier invoices into accounts payable', mode: 'instant', background: false } });
    expect(r.status, r.text).toBe(201);
    const bp = r.body;
    // Every field the SDK reads (FileBlueprintResponse), and the run's model and usage.
    expect(Object.keys(bp).sort()).toEqual(['completed_at', 'created_at', 'error', 'file', 'id', 'intent', 'mode', 'model', 'object', 'output', 'started_at', 'status', 'usage']);
    expect(bp).toMatchObject({
      object: 'file.blueprint',
      id: expect.stringMatching(/^fbp_[0-9a-z]{26}$/),
      file: { id: fileId, filename: 'sample-invoice.pdf', mime_type: 'application/pdf' },
      intent: 'Book supplier invoices into accounts payable',
      mode: 'instant',
      status: 'completed',
      error: null,
      model: 'quire-local',
      usage: { credits: expect.any(Number), page_count: 1 },
    });
    for (const field of ['created_at', 'started_at', 'completed_at']) expect(bp[field]).toMatch(TIMESTAMP);
    expect(bp.created_at <= bp.started_at && bp.started_at <= bp.completed_at).toBe(true);

    const out = bp.output;
    expect(out.document).toEqual({ kind: 'pdf', page_count: 1, scanned_pages: [] });
    expect(out.document_type.name).toBe('invoice');
    expect(out.document_type.reasoning).toContain('Invoice');
    expect(out.document_type.alternatives).toHaveLength(3);
    expect(out.document_type.alternatives.map((a: { name: string }) => a.name)).not.toContain('invoice');
    expect(out.segments).toEqual([{ document_type: 'invoice', pages: [1], likelihood: out.document_type.likelihood }]);
    expect(out.pages).toHaveLength(1);
    expect(out.pages[0]).toMatchObject({ page: 1, ocr: false, word_count: expect.any(Number) });
    expect(out.pages[0].word_count).toBeGreaterThan(30);
    const properties = Object.keys(out.json_schema.properties);
    expect(properties).toEqual(expect.arrayContaining(['invoice_number', 'invoice_date', 'due_date', 'total_due']));
    expect(out.suggested_operations.map((s: { operation: string }) => s.operation)).not.toContain('split');
    const extract = out.suggested_operations.find((s: { operation: string }) => s.operation === 'extract');
    expect(extract.body.json_schema).toEqual(out.json_schema);

    // What it suggests works: the schema extracts the invoice's own values.
    const extraction = await cloud.api('POST', '/v1/extractions', { body: { document: bp.file, json_schema: extract.body.json_schema } });
    expect(extraction.status, extraction.text).toBe(201);
    expect(extraction.body.output).toMatchObject({ invoice_number: 'INV-3337' });

    // Read back: the same; without its output, the empty one.
    const got = await cloud.api('GET', `/v1/files/blueprints/${bp.id}?include_output=true`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(bp);
    const light = await cloud.api('GET', `/v1/files/blueprints/${bp.id}?include_output=false`);
    expect(light.body).toEqual({ ...bp, output: {} });

    // The same request again is answered from the result cache: a new blueprint whose times are its own.
    const again = await cloud.api('POST', '/v1/files/blueprints', { body: { file_id: fileId, intent: 'Book supplier invoices into accounts payable', mode: 'instant' } });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(bp.id);
    expect(again.body.output).toEqual(out);
    expect(again.body.started_at >= again.body.created_at && again.body.completed_at >= again.body.started_at).toBe(true);
  });

  it('of a bundle, in the background: queued at once, then its documents page by page and a split to start from', async () => {
    const fileId = await uploadThreeStep('procurement_multi_document.pdf', Buffer.from(corpusBytes(BUNDLE)), 'application/pdf');
    const r = await cloud.api('POST', '/v1/files/blueprints', { body: { file_id: fileId, background: true } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ object: 'file.blueprint', status: 'queued', output: {}, error: null, intent: null, mode: null, started_at: null, completed_at: null });
    const bp = await settled(r.body.id);
    expect(bp.status, JSON.stringify(bp.error)).toBe('completed');
    const out = bp.output;
    expect(out.document).toEqual({ kind: 'pdf', page_count: 5, scanned_pages: [1, 2, 3, 4, 5] });
    expect(out.document_type.name).toBe('bundle');
    // Pages 1–4 as they are (the French till receipt of page 5 is not told apart by the built-in engine).
    expect(out.segments.slice(0, 4).map((s: { document_type: string; pages: number[] }) => [s.document_type, s.pages])).toEqual([
      ['invoice', [1]],
      ['receipt', [2]],
      ['form', [3]],
      ['utility_bill', [4]],
    ]);
    expect(out.segments.flatMap((s: { pages: number[] }) => s.pages)).toEqual([1, 2, 3, 4, 5]);
    expect(out.document_type.reasoning).toMatch(/^It holds \d documents: invoice \(page 1\), receipt \(page 2\), form \(page 3\), utility_bill \(page 4\)/);
    const split = out.suggested_operations[0];
    expect(split.operation).toBe('split');
    expect(split.body.subdocuments.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['invoice', 'receipt', 'form', 'utility_bill']));
    expect(bp.usage.page_count).toBe(5);
  }, 240_000);
});

describe('cancel', () => {
  it('a queued blueprint becomes cancelled (and stays so); a finished one is answered unchanged; an unknown id is a 404', async () => {
    const fileId = await uploadThreeStep('note.txt', Buffer.from(`Invoice number INV-${Math.random()}\nTotal due 12.00`), 'text/plain');
    // Hold the execution's start: the blueprint stays queued while it is cancelled.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    setPlatform({ ...real, runner: { ...real.runner, start: async (machine, execution) => { started.push(execution.name); await held; return real.runner.start(machine, execution); } } });
    const creating = cloud.api('POST', '/v1/files/blueprints', { body: { file_id: fileId, background: true } });
    const id = await until(async () => started[0], 15_000, 'the execution to start');
    setPlatform(real);
    const cancelled = await cloud.api('POST', `/v1/files/blueprints/${id}/cancel`);
    release();
    expect((await creating).status).toBe(201);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ object: 'file.blueprint', id, status: 'cancelled', output: {}, error: null, started_at: null, completed_at: null });
    // The execution, let go, ends without doing the work: cancelled it stays.
    await until(async () => (['RUNNING', 'MISSING'].includes(await real.runner.executionStatus('run', id)) ? undefined : true), 15_000, 'the execution to end');
    expect((await cloud.api('GET', `/v1/files/blueprints/${id}`)).body.status).toBe('cancelled');
    expect((await cloud.api('POST', `/v1/files/blueprints/${id}/cancel`)).body).toEqual(cancelled.body);

    const done = await cloud.api('POST', '/v1/files/blueprints', { body: { file_id: fileId } });
    expect(done.body.status).toBe('completed');
    const again = await cloud.api('POST', `/v1/files/blueprints/${done.body.id}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(done.body);

    const unknown = await cloud.api('POST', `/v1/files/blueprints/${UNKNOWN}/cancel`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: `File blueprint ${UNKNOWN} not found` });
  });
});

describe('ids of nothing, or of another environment or organization', () => {
  it('GET and cancel answer 404 exactly as for an unknown id; the owner still sees it', async () => {
    const fileId = await uploadThreeStep('owner.txt', Buffer.from(`Receipt ${Math.random()} total 3.50`), 'text/plain');
    const own = await cloud.api('POST', '/v1/files/blueprints', { body: { file_id: fileId } });
    expect(own.status).toBe(201);
    for (const key of [cloud.keys.live, cloud.keys.otherOrgTest, cloud.keys.otherOrgLive]) {
      const get = await cloud.api('GET', `/v1/files/blueprints/${own.body.id}`, { key });
      expect(get.status).toBe(404);
      expect(get.body).toEqual({ detail: `File blueprint ${own.body.id} not found` });
      const cancel = await cloud.api('POST', `/v1/files/blueprints/${own.body.id}/cancel`, { key });
      expect(cancel.status).toBe(404);
      expect(cancel.body).toEqual({ detail: `File blueprint ${own.body.id} not found` });
    }
    expect((await cloud.api('GET', `/v1/files/blueprints/${UNKNOWN}`)).status).toBe(404);
    expect((await cloud.api('GET', `/v1/files/blueprints/${own.body.id}`)).body).toEqual(own.body);
  });

  it('a file_id of nothing or of another environment or organization is a 422 at file_id', async () => {
    const fileId = await uploadThreeStep('mine.txt', Buffer.from(`Letter ${Math.random()}`), 'text/plain');
    for (const [key, id] of [
      [cloud.keys.test, 'file_01m7z0qenejn1pv4p44vpcbwww'],
      [cloud.keys.live, fileId],
      [cloud.keys.otherOrgTest, fileId],
    ] as const) {
      const r = await cloud.api('POST', '/v1/files/blueprints', { key, body: { file_id: id } });
      expect(r.status).toBe(422);
      expect(r.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'file_id'], msg: `File ${id} not found` })]);
    }
  });
});

describe('refusals', () => {
  it('bad bodies: 422 naming the field', async () => {
    const cases: Array<[unknown, (string | number)[]]> = [
      [{}, ['body', 'file_id']],
      [{ file_id: '' }, ['body', 'file_id']],
      [{ file_id: 42 }, ['body', 'file_id']],
      [{ file_id: 'file_x', intent: 7 }, ['body', 'intent']],
      [{ file_id: 'file_x', intent: 'x'.repeat(10_001) }, ['body', 'intent']],
      [{ file_id: 'file_x', mode: 'deep' }, ['body', 'mode']],
      [{ file_id: 'file_x', background: 'yes' }, ['body', 'background']],
    ];
    for (const [body, loc] of cases) {
      const r = await cloud.api('POST', '/v1/files/blueprints', { body });
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    }
    const malformed = await cloud.api('POST', '/v1/files/blueprints', { rawBody: '{"file_id": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
    // null means "not given" (API §0.1): the SDK sends intent and mode as null when unset.
    const fileId = await uploadThreeStep('n.txt', Buffer.from(`Memo ${Math.random()}`), 'text/plain');
    const nulls = await cloud.api('POST', '/v1/files/blueprints', { body: { file_id: fileId, intent: null, mode: null, background: null } });
    expect(nulls.status, nulls.text).toBe(201);
    expect(nulls.body).toMatchObject({ intent: null, mode: null, status: 'completed' });
  });

  it('an unreadable file: synchronous, a 422 at file_id saying why; in the background, a failed blueprint saying the same', async () => {
    // A "PDF" that is not one: the three-step upload stores it as sent.
    const fileId = await uploadThreeStep('broken.pdf', Buffer.from(`%PDF-1.7\nnot really a pdf ${Math.random()}`), 'application/pdf');
    const sync = await cloud.api('POST', '/v1/files/blueprints', { body: { file_id: fileId } });
    expect(sync.status, sync.text).toBe(422);
    expect(sync.body.detail).toHaveLength(1);
    expect(sync.body.detail[0]).toMatchObject({ loc: ['body', 'file_id'], type: 'document_invalid' });
    expect(sync.body.detail[0].msg).toMatch(/PDF/i);

    const background = await cloud.api('POST', '/v1/files/blueprints', { body: { file_id: fileId, background: true } });
    expect(background.status).toBe(201);
    const failed = await settled(background.body.id);
    expect(failed).toMatchObject({ status: 'failed', output: {}, started_at: null, completed_at: null, error: { code: 'document_invalid', message: sync.body.detail[0].msg } });

    // A file of no type Quire reads: refused before any run.
    const exe = await uploadThreeStep('tool.exe', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64, 0x90)]), 'application/octet-stream');
    const refused = await cloud.api('POST', '/v1/files/blueprints', { body: { file_id: exe } });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(['body', 'file_id']);
  });
});
