/**
 * Files (API §2) and the document input (API §0.4) on the real local emulators: one-shot and
 * three-step uploads, reads, lists, download links, service URLs reused as documents, and every way
 * a document is refused — with nothing stored when it is.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createOrganization } from '../../../functions/auth/service.ts';
import { platform, setPlatform, type Platform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { corpusAvailable, corpusBytes } from '../../support/corpus.ts';
import { buildDocx, para, quarterlyDeck, zipArchive } from '../../support/office-fixtures.ts';
import { acroFormPdf } from '../../support/form-fixtures.ts';
import { encryptedPdf, twoColumnPdf } from '../../support/pdf-fixtures.ts';

let cloud: TestCloud;
let real: Platform;
beforeAll(async () => {
  cloud = await startTestCloud();
  real = platform();
});
afterAll(() => cloud?.close());
afterEach(() => setPlatform(real));

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x21, 0xf9, 0x04])]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.from([0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff])]);

/** A new organization with a key of each environment: an empty scope for tests that count or list. */
async function freshTenant() {
  const p = platform();
  const org = await createOrganization(p, 'Files tenant');
  const test = await createApiKey(p, { orgId: org.id, environment: 'test', name: 'files', role: 'admin' });
  const live = await createApiKey(p, { orgId: org.id, environment: 'production', name: 'files', role: 'admin' });
  return { org, key: test.key, liveKey: live.key, blobKey: (sha: string) => `${org.id}/${org.environments.test}/files/${sha}` };
}

function upload(filename: string, data: Buffer | string, mime: string, key?: string) {
  return cloud.api('POST', '/v1/files', { key, body: { document: { filename, url: dataUrl(mime, data) } } });
}

async function fileCount(key: string): Promise<number> {
  const r = await cloud.api('GET', '/v1/files?limit=100', { key });
  expect(r.status).toBe(200);
  return r.body.data.length;
}

/** Runs `fn` with the platform clock set to `now` (handlers run inline, so they see it). */
async function at<T>(now: Date, fn: () => Promise<T>): Promise<T> {
  setPlatform({ ...real, clock: { now: () => now } });
  try {
    return await fn();
  } finally {
    setPlatform(real);
  }
}

describe('one-shot upload (POST /v1/files)', () => {
  it('answers 201 with every field of a File', async () => {
    const r = await upload('hello.txt', 'hello world', 'text/plain');
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['created_at', 'filename', 'id', 'mime_type', 'object', 'page_count', 'sha256', 'size_bytes']);
    expect(r.body).toEqual({
      object: 'file',
      id: expect.stringMatching(/^file_[0-9a-z]{26}$/),
      filename: 'hello.txt',
      mime_type: 'text/plain',
      size_bytes: 11,
      sha256: sha256('hello world'),
      page_count: 1,
      created_at: expect.stringMatching(TIMESTAMP),
    });
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('sniffs the type from the content: png (1 page), pdf (its page count, here 0), markdown, csv', async () => {
    const png = await upload('pixel.png', PNG, 'image/png');
    expect(png.body).toMatchObject({ mime_type: 'image/png', page_count: 1, size_bytes: PNG.length });
    const pdf = await upload('doc.pdf', PDF, 'application/pdf');
    expect(pdf.body).toMatchObject({ mime_type: 'application/pdf', page_count: 0, size_bytes: PDF.length, sha256: sha256(PDF) });
    // A generic declared type: the content decides.
    const sniffed = await upload('scan', PDF, 'application/octet-stream');
    expect(sniffed.body).toMatchObject({ mime_type: 'application/pdf', filename: 'scan' });
    expect((await upload('README.md', '# Title\n', 'text/plain')).body.mime_type).toBe('text/markdown');
    expect((await upload('t.csv', 'a,b\n1,2\n', 'text/csv')).body).toMatchObject({ mime_type: 'text/csv', page_count: 1 });
  });

  it('the same bytes under the same name are the same File; under another name a new File sharing the bytes', async () => {
    const { key, blobKey } = await freshTenant();
    const content = `contract ${Date.now()}`;
    const first = await upload('contract.txt', content, 'text/plain', key);
    const again = await upload('contract.txt', content, 'text/plain', key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const renamed = await upload('contract-copy.txt', content, 'text/plain', key);
    expect(renamed.status).toBe(201);
    expect(renamed.body.id).not.toBe(first.body.id);
    expect(renamed.body.sha256).toBe(first.body.sha256);
    expect(renamed.body.filename).toBe('contract-copy.txt');
    expect(await fileCount(key)).toBe(2);
    expect(await platform().blobs.get(blobKey(first.body.sha256))).toEqual(Buffer.from(content));
  });

  it('concurrent uploads of the same bytes under the same name make one File', async () => {
    const { key } = await freshTenant();
    const results = await Promise.all(Array.from({ length: 5 }, () => upload('twin.txt', 'twin bytes', 'text/plain', key)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await fileCount(key)).toBe(1);
  });

  it('the same bytes in another environment are another File', async () => {
    const { key, liveKey } = await freshTenant();
    const test = await upload('same.txt', 'same bytes', 'text/plain', key);
    const live = await upload('same.txt', 'same bytes', 'text/plain', liveKey);
    expect(live.body.id).not.toBe(test.body.id);
    expect((await cloud.api('GET', `/v1/files/${test.body.id}`, { key: liveKey })).status).toBe(404);
  });
});

describe('read (GET /v1/files/{id})', () => {
  it('returns the File; an unknown id or one of another environment or organization → 404', async () => {
    const created = await upload('read-me.txt', 'read me', 'text/plain');
    const r = await cloud.api('GET', `/v1/files/${created.body.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(created.body);

    for (const [id, key] of [
      ['file_00000000000000000000000000', cloud.keys.test],
      [created.body.id, cloud.keys.live],
      [created.body.id, cloud.keys.otherOrgTest],
    ] as const) {
      const missing = await cloud.api('GET', `/v1/files/${id}`, { key });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: `File ${id} not found` });
    }
  });
});

describe('list (GET /v1/files)', () => {
  let key: string;
  const made: Record<string, any> = {};
  beforeAll(async () => {
    ({ key } = await freshTenant());
    // Created a minute apart (through the injected clock), so creation order is this order.
    const base = Date.now() - 3_600_000;
    for (const [i, [name, data, mime]] of ([
      ['Invoice-1.pdf', PDF, 'application/pdf'],
      ['invoice-2.txt', 'second invoice', 'text/plain'],
      ['INVOICE-3.png', PNG, 'image/png'],
      ['receipt.txt', 'a receipt', 'text/plain'],
      ['notes.md', '# notes', 'text/markdown'],
    ] as const).entries()) {
      made[name] = (await at(new Date(base + i * 60_000), () => upload(name, data, mime, key))).body;
    }
  });
  const ids = (names: string[]) => names.map((n) => made[n].id);
  const newestFirst = ['notes.md', 'receipt.txt', 'INVOICE-3.png', 'invoice-2.txt', 'Invoice-1.pdf'];
  const list = (query: string) => cloud.api('GET', `/v1/files${query}`, { key });

  it('lists newest first with the envelope of API §0.3', async () => {
    const r = await list('');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: newestFirst.map((n) => made[n]), list_metadata: { before: null, after: null } });
  });

  it('filename is a case-insensitive prefix; mime_type filters by type; both combine', async () => {
    expect((await list('?filename=invoice')).body.data.map((f: any) => f.id)).toEqual(ids(['INVOICE-3.png', 'invoice-2.txt', 'Invoice-1.pdf']));
    expect((await list('?filename=INVOICE-2')).body.data.map((f: any) => f.id)).toEqual(ids(['invoice-2.txt']));
    expect((await list('?mime_type=text/plain')).body.data.map((f: any) => f.id)).toEqual(ids(['receipt.txt', 'invoice-2.txt']));
    expect((await list('?filename=inv&mime_type=text%2Fplain')).body.data.map((f: any) => f.id)).toEqual(ids(['invoice-2.txt']));
    expect((await list('?filename=nothing-like-this')).body).toEqual({ data: [], list_metadata: { before: null, after: null } });
  });

  it('pages with limit and after; before is the first id once a previous page exists', async () => {
    const p1 = await list('?limit=2');
    expect(p1.body.data.map((f: any) => f.id)).toEqual(ids(newestFirst.slice(0, 2)));
    expect(p1.body.list_metadata).toEqual({ before: null, after: made['receipt.txt'].id });
    const p2 = await list(`?limit=2&after=${p1.body.list_metadata.after}`);
    expect(p2.body.data.map((f: any) => f.id)).toEqual(ids(newestFirst.slice(2, 4)));
    expect(p2.body.list_metadata).toEqual({ before: made['INVOICE-3.png'].id, after: made['invoice-2.txt'].id });
    const p3 = await list(`?limit=2&after=${p2.body.list_metadata.after}`);
    expect(p3.body.data.map((f: any) => f.id)).toEqual(ids(newestFirst.slice(4)));
    expect(p3.body.list_metadata).toEqual({ before: made['Invoice-1.pdf'].id, after: null });
    // Going back from page 3 gives page 2 again, in the same order.
    const back = await list(`?limit=2&before=${p3.body.list_metadata.before}`);
    expect(back.body.data.map((f: any) => f.id)).toEqual(ids(newestFirst.slice(2, 4)));
    expect(back.body.list_metadata).toEqual(p2.body.list_metadata);
  });

  it('order=asc lists oldest first, with cursors in that order', async () => {
    const oldestFirst = [...newestFirst].reverse();
    const r = await list('?order=asc&limit=3');
    expect(r.body.data.map((f: any) => f.id)).toEqual(ids(oldestFirst.slice(0, 3)));
    const next = await list(`?order=asc&limit=3&after=${r.body.list_metadata.after}`);
    expect(next.body.data.map((f: any) => f.id)).toEqual(ids(oldestFirst.slice(3)));
    expect(next.body.list_metadata).toEqual({ before: made['receipt.txt'].id, after: null });
  });

  it('bad list queries → 422 at the query parameter', async () => {
    for (const [query, loc] of [
      ['?limit=0', ['query', 'limit']],
      ['?limit=101', ['query', 'limit']],
      ['?limit=ten', ['query', 'limit']],
      ['?order=newest', ['query', 'order']],
      ['?after=file_00000000000000000000000000', ['query', 'after']],
      ['?before=not-an-id', ['query', 'before']],
      ['?from_date=2026-02-30', ['query', 'from_date']],
      ['?to_date=2026-02-30T10:00:00Z', ['query', 'to_date']],
      ['?to_date=last-week', ['query', 'to_date']],
    ] as const) {
      const r = await list(query);
      expect(r.status, query).toBe(422);
      expect(r.body.detail[0].loc, query).toEqual(loc);
    }
    const both = await list(`?before=${made['notes.md'].id}&after=${made['receipt.txt'].id}`);
    expect(both.status).toBe(422);
    expect(both.body.detail[0].loc[0]).toBe('query');
    // A file of another environment is not a cursor of this list.
    const other = await upload('elsewhere.txt', 'elsewhere', 'text/plain');
    expect((await list(`?after=${other.body.id}`)).status).toBe(422);
  });

  it('from_date / to_date: whole UTC days or RFC 3339 instants; to_date before from_date → an empty page', async () => {
    const tenant = await freshTenant();
    const times = ['2026-01-10T12:00:00.000Z', '2026-01-11T00:00:00.000Z', '2026-01-11T23:59:59.999Z', '2026-01-12T00:00:00.000Z'];
    const dated: any[] = [];
    for (const [i, time] of times.entries()) {
      dated.push(await at(new Date(time), async () => (await upload(`dated-${i}.txt`, `dated ${i}`, 'text/plain', tenant.key)).body));
    }
    expect(dated.map((f) => f.created_at)).toEqual(times);
    const q = async (query: string) => {
      const r = await cloud.api('GET', `/v1/files?order=asc${query}`, { key: tenant.key });
      expect(r.status, query).toBe(200);
      return r.body.data.map((f: any) => f.filename);
    };
    expect(await q('&from_date=2026-01-11&to_date=2026-01-11')).toEqual(['dated-1.txt', 'dated-2.txt']);
    expect(await q('&from_date=2026-01-11')).toEqual(['dated-1.txt', 'dated-2.txt', 'dated-3.txt']);
    expect(await q('&to_date=2026-01-10')).toEqual(['dated-0.txt']);
    expect(await q(`&from_date=${encodeURIComponent('2026-01-11T12:00:00+00:00')}`)).toEqual(['dated-2.txt', 'dated-3.txt']);
    expect(await q(`&to_date=${encodeURIComponent('2026-01-11T01:00:00+01:00')}`)).toEqual(['dated-0.txt', 'dated-1.txt']);
    const empty = await cloud.api('GET', '/v1/files?from_date=2026-01-12&to_date=2026-01-10', { key: tenant.key });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ data: [], list_metadata: { before: null, after: null } });
    // A cursor outside the window is answered from the window, not with an error.
    const windowed = await cloud.api('GET', `/v1/files?to_date=2026-01-11&after=${dated[3].id}`, { key: tenant.key });
    expect(windowed.status).toBe(200);
    expect(windowed.body.data.map((f: any) => f.filename)).toEqual(['dated-2.txt', 'dated-1.txt', 'dated-0.txt']);
  });
});

describe('download link (GET /v1/files/{id}/download-link)', () => {
  it('gives a presigned URL that downloads the same bytes, valid 60 minutes, with mime_data', async () => {
    const created = await upload('pixel.png', PNG, 'image/png');
    const r = await cloud.api('GET', `/v1/files/${created.body.id}/download-link`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      download_url: expect.any(String),
      expires_in: '60 minutes',
      filename: 'pixel.png',
      mime_data: { filename: 'pixel.png', url: r.body.download_url },
    });
    expect(r.body.download_url).toMatch(/X-Amz-Expires=3600/);
    const download = await fetch(r.body.download_url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
  });

  it('the download is offered under the file name, even a non-ASCII one', async () => {
    const created = await upload('Résumé 2026.txt', 'curriculum', 'text/plain');
    const r = await cloud.api('GET', `/v1/files/${created.body.id}/download-link`);
    expect(r.body.filename).toBe('Résumé 2026.txt');
    const download = await fetch(r.body.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${encodeURIComponent('Résumé 2026.txt')}`);
    expect(await download.text()).toBe('curriculum');
  });

  it('of an unknown file or one of another environment → 404', async () => {
    const created = await upload('mine.txt', 'mine', 'text/plain');
    const r = await cloud.api('GET', `/v1/files/${created.body.id}/download-link`, { key: cloud.keys.live });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ detail: `File ${created.body.id} not found` });
  });
});

describe('service URLs as document input', () => {
  it('a download URL passed back as MIMEData is read from storage (no outbound request): same name → same File', async () => {
    const { key } = await freshTenant();
    const created = await upload('report.pdf', PDF, 'application/pdf', key);
    const link = await cloud.api('GET', `/v1/files/${created.body.id}/download-link`, { key });

    const realFetch = globalThis.fetch;
    const outbound: string[] = [];
    globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.startsWith(cloud.url)) outbound.push(url);
      return realFetch(input, init);
    }) as typeof fetch;
    let again, renamed;
    try {
      again = await cloud.api('POST', '/v1/files', { key, body: { document: link.body.mime_data } });
      renamed = await cloud.api('POST', '/v1/files', { key, body: { document: { filename: 'report-copy.pdf', url: link.body.download_url } } });
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(outbound).toEqual([]);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(created.body);
    expect(renamed.status).toBe(201);
    expect(renamed.body).toMatchObject({ filename: 'report-copy.pdf', sha256: created.body.sha256, mime_type: 'application/pdf', size_bytes: PDF.length });
    expect(renamed.body.id).not.toBe(created.body.id);
    expect(await fileCount(key)).toBe(2);
  });

  it("another environment's or organization's download URL → 422, nothing stored", async () => {
    const tenant = await freshTenant();
    const live = await upload('live.txt', 'live only', 'text/plain', tenant.liveKey);
    const liveLink = await cloud.api('GET', `/v1/files/${live.body.id}/download-link`, { key: tenant.liveKey });
    const foreign = await upload('foreign.txt', 'foreign', 'text/plain', cloud.keys.otherOrgTest);
    const foreignLink = await cloud.api('GET', `/v1/files/${foreign.body.id}/download-link`, { key: cloud.keys.otherOrgTest });
    for (const url of [liveLink.body.download_url, foreignLink.body.download_url]) {
      const r = await cloud.api('POST', '/v1/files', { key: tenant.key, body: { document: { filename: 'live.txt', url } } });
      expect(r.status).toBe(422);
      expect(r.body.detail).toEqual([{ loc: ['body', 'document', 'url'], msg: expect.stringMatching(/not found/i), type: 'file_not_found' }]);
    }
    expect(await fileCount(tenant.key)).toBe(0);
  });

  it('an arbitrary URL → 422 saying only data URLs and service URLs are accepted', async () => {
    const { key } = await freshTenant();
    const s3 = cloud.endpoints.s3;
    for (const url of [
      'https://example.com/a.pdf',
      'http://127.0.0.1:1/a.pdf',
      'ftp://example.com/a.pdf',
      'file:///etc/passwd',
      'not a url at all',
      // Regression: a malformed percent-escape in the path was a 500.
      'https://example.com/%E0%A4%A',
      `${s3}/%E0%A4%A`,
    ]) {
      const r = await cloud.api('POST', '/v1/files', { key, body: { document: { filename: 'a.pdf', url } } });
      expect(r.status, url).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'document', 'url']);
      expect(r.body.detail[0].msg).toMatch(/Only data: URLs and download URLs issued by this service are accepted/);
    }
    expect(await fileCount(key)).toBe(0);
  });
});

describe('three-step upload (API §2.1)', () => {
  async function ticket(key: string, body: Record<string, unknown>) {
    const r = await cloud.api('POST', '/v1/files/upload', { key, body });
    expect(r.status).toBe(201);
    return r.body;
  }
  const put = (t: any, data: Buffer | string) => fetch(t.uploadUrl, { method: t.uploadMethod, headers: t.uploadHeaders, body: Buffer.from(data) });
  const complete = (key: string, id: string, body: unknown = {}) => cloud.api('POST', `/v1/files/upload/${id}/complete`, { key, body });

  it('create → 201 camelCase ticket; PUT; complete → 200 MIMEData that downloads the bytes and is a document', async () => {
    const { key } = await freshTenant();
    const data = Buffer.from(`${'line of a large text file\n'.repeat(200)}`);
    const started = Date.now();
    const t = await ticket(key, { filename: 'large.txt', size_bytes: data.length, content_type: 'text/plain', sha256: sha256(data) });
    expect(Object.keys(t).sort()).toEqual(['expiresAt', 'fileId', 'mimeData', 'uploadHeaders', 'uploadMethod', 'uploadUrl']);
    expect(t).toMatchObject({ fileId: expect.stringMatching(/^file_[0-9a-z]{26}$/), uploadMethod: 'PUT', mimeData: null, uploadHeaders: { 'Content-Type': 'text/plain' } });
    expect(t.expiresAt).toMatch(TIMESTAMP);
    const ttl = Date.parse(t.expiresAt) - started;
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    expect(t.uploadUrl).toMatch(/X-Amz-Expires=900/);
    // Nothing is a File before it completes.
    expect((await cloud.api('GET', `/v1/files/${t.fileId}`, { key })).status).toBe(404);

    const stored = await put(t, data);
    expect(stored.status).toBe(200);
    const done = await complete(key, t.fileId);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ filename: 'large.txt', url: expect.any(String) });
    expect(Buffer.from(await (await fetch(done.body.url)).arrayBuffer())).toEqual(data);

    // The upload became a File with the ticket's id.
    const file = await cloud.api('GET', `/v1/files/${t.fileId}`, { key });
    expect(file.body).toMatchObject({ id: t.fileId, filename: 'large.txt', mime_type: 'text/plain', size_bytes: data.length, sha256: sha256(data), page_count: 1 });
    // The MIMEData is a document input: the same File again.
    const reused = await cloud.api('POST', '/v1/files', { key, body: { document: done.body } });
    expect(reused.status).toBe(201);
    expect(reused.body).toEqual(file.body);

    // Completing twice gives the same answer (the body is optional).
    const twice = await cloud.api('POST', `/v1/files/upload/${t.fileId}/complete`, { key });
    expect(twice.status).toBe(200);
    expect(twice.body.filename).toBe('large.txt');
    expect(twice.body.url.split('?')[0]).toBe(done.body.url.split('?')[0]);
    expect(await fileCount(key)).toBe(1);
  });

  it('concurrent completes of one upload (a client retrying) give the same answer', async () => {
    const { key } = await freshTenant();
    const data = Buffer.from('completed twice at once');
    const t = await ticket(key, { filename: 'race.txt', size_bytes: data.length, content_type: 'text/plain' });
    await put(t, data);
    // Hold the first complete after it has seen the uploaded object, until a second one has finished
    // (and removed that object): the interleaving of a client retrying a slow complete.
    let reached!: () => void;
    let release!: () => void;
    const atChecksum = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    const blobs = new Proxy(real.blobs, {
      get(target, method, receiver) {
        const value = Reflect.get(target, method, receiver) as unknown;
        if (method !== 'sha256' || typeof value !== 'function') return value;
        return async (objectKey: string) => {
          if (!held && objectKey.includes('/uploads/')) {
            held = true;
            reached();
            await released;
          }
          return (value as (k: string) => Promise<string | undefined>).call(target, objectKey);
        };
      },
    });
    setPlatform({ ...real, blobs });
    const first = complete(key, t.fileId);
    await atChecksum;
    const second = await complete(key, t.fileId);
    release();
    const late = await first;
    setPlatform(real);
    expect(second.status).toBe(200);
    expect(late.status).toBe(200);
    expect(late.body.filename).toBe('race.txt');
    expect(late.body.url.split('?')[0]).toBe(second.body.url.split('?')[0]);
    // And many at once.
    const t2 = await ticket(key, { filename: 'race-2.txt', size_bytes: data.length, content_type: 'text/plain' });
    await put(t2, data);
    const results = await Promise.all(Array.from({ length: 6 }, () => complete(key, t2.fileId)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.url.split('?')[0])).size).toBe(1);
    expect(await fileCount(key)).toBe(2);
  });

  it('a checksum given at complete is checked; a wrong one → 422 naming the checksum', async () => {
    const { key } = await freshTenant();
    const data = Buffer.from('checked bytes');
    const t = await ticket(key, { filename: 'c.txt', size_bytes: data.length, content_type: 'text/plain' });
    await put(t, data);
    const wrong = await complete(key, t.fileId, { sha256: sha256('other bytes') });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0]).toMatchObject({ loc: ['body', 'sha256'], type: 'checksum_mismatch' });
    expect(wrong.body.detail[0].msg).toMatch(/Checksum mismatch.*sha256/);
    expect(wrong.body.detail[0].msg).toContain(sha256(data));
    expect((await cloud.api('GET', `/v1/files/${t.fileId}`, { key })).status).toBe(404);
    // The right checksum (any case) then completes it.
    const right = await complete(key, t.fileId, { sha256: sha256(data).toUpperCase() });
    expect(right.status).toBe(200);
  });

  it('a checksum given at create that the bytes do not match → 422', async () => {
    const { key } = await freshTenant();
    const t = await ticket(key, { filename: 'c.txt', size_bytes: 5, content_type: 'text/plain', sha256: sha256('abcde') });
    await put(t, 'vwxyz');
    const r = await complete(key, t.fileId);
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'sha256'], type: 'checksum_mismatch' });
    expect(await fileCount(key)).toBe(0);
  });

  it('size mismatch → 422; complete before any PUT → 422; unknown upload → 404', async () => {
    const { key } = await freshTenant();
    const t = await ticket(key, { filename: 's.txt', size_bytes: 100, content_type: 'text/plain' });
    const early = await complete(key, t.fileId);
    expect(early.status).toBe(422);
    expect(early.body.detail[0].msg).toMatch(/No bytes were uploaded.*PUT/);
    await put(t, 'only twenty-two bytes');
    const short = await complete(key, t.fileId);
    expect(short.status).toBe(422);
    expect(short.body.detail[0]).toMatchObject({ type: 'size_mismatch', msg: 'Uploaded 21 bytes but size_bytes was 100' });
    expect(await fileCount(key)).toBe(0);

    const unknown = await complete(key, 'file_00000000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Upload file_00000000000000000000000000 not found' });
    // An upload of another environment is unknown here.
    expect((await complete(cloud.keys.live, t.fileId)).status).toBe(404);
  });

  it('an expired upload → 410', async () => {
    const { key } = await freshTenant();
    const t = await ticket(key, { filename: 'late.txt', size_bytes: 4, content_type: 'text/plain' });
    await put(t, 'late');
    const r = await at(new Date(Date.parse(t.expiresAt) + 60_000), () => complete(key, t.fileId));
    expect(r.status).toBe(410);
    expect(r.body.detail).toMatch(new RegExp(`Upload ${t.fileId} expired.*start a new upload`));
    expect(await fileCount(key)).toBe(0);
  });

  it('an upload stores what was sent (issue 43): a GIF completes (page_count null, its declared type); a run on it answers the 422 naming the type', async () => {
    const { key, blobKey } = await freshTenant();
    for (const contentType of ['image/gif', 'application/octet-stream']) {
      const filename = contentType === 'image/gif' ? 'anim.gif' : 'anim';
      const t = await ticket(key, { filename, size_bytes: GIF.length, content_type: contentType });
      await put(t, GIF);
      const r = await complete(key, t.fileId);
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ filename, url: expect.any(String) });
      expect(Buffer.from(await (await fetch(r.body.url)).arrayBuffer())).toEqual(GIF);
      const file = await cloud.api('GET', `/v1/files/${t.fileId}`, { key });
      expect(file.body).toMatchObject({ id: t.fileId, mime_type: contentType, size_bytes: GIF.length, page_count: null });
      // A run given the File (by id, or by its download URL as the SDKs send it) refuses it, storing nothing.
      const byId = await cloud.api('POST', '/v1/parses', { key, body: { document: { id: t.fileId, filename, mime_type: contentType } } });
      expect(byId.status, byId.text).toBe(422);
      expect(byId.body.detail[0].loc).toEqual(['body', 'document', 'id']);
      expect(byId.body.detail[0].msg).toMatch(/gif/i);
      const byUrl = await cloud.api('POST', '/v1/extractions', { key, body: { document: r.body, json_schema: { type: 'object', properties: { a: { type: 'string' } } } } });
      expect(byUrl.status, byUrl.text).toBe(422);
      expect(byUrl.body.detail[0].loc).toEqual(['body', 'document', 'url']);
      expect(byUrl.body.detail[0].msg).toMatch(/gif/i);
      expect((await cloud.api('GET', '/v1/parses?limit=10', { key })).body.data).toHaveLength(0);
    }
    expect(await fileCount(key)).toBe(2);
    expect(await platform().blobs.head(blobKey(sha256(GIF)))).toBeDefined();
  });

  it('bad upload requests → 422', async () => {
    const { key } = await freshTenant();
    for (const [body, loc] of [
      [{ size_bytes: 10 }, ['body', 'filename']],
      [{ filename: 'a.txt' }, ['body', 'size_bytes']],
      [{ filename: 'a.txt', size_bytes: 0 }, ['body', 'size_bytes']],
      [{ filename: 'a.txt', size_bytes: 500 * 1024 * 1024 + 1 }, ['body', 'size_bytes']],
      [{ filename: 'a.txt', size_bytes: 10, sha256: 'abc' }, ['body', 'sha256']],
    ] as const) {
      const r = await cloud.api('POST', '/v1/files/upload', { key, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    }
  });
});

describe('refused documents: 422 with a clear message, nothing stored', () => {
  let tenant: Awaited<ReturnType<typeof freshTenant>>;
  beforeAll(async () => {
    tenant = await freshTenant();
    await upload('baseline.txt', 'baseline', 'text/plain', tenant.key);
  });

  it.each([
    ['invalid base64', { filename: 'a.pdf', url: 'data:application/pdf;base64,%%%not-base64%%%' }, ['body', 'document', 'url'], /Invalid base64/],
    ['a data URL that is not base64', { filename: 'a.txt', url: 'data:text/plain,hello' }, ['body', 'document', 'url'], /base64/],
    ['zero bytes', { filename: 'empty.txt', url: 'data:text/plain;base64,' }, ['body', 'document', 'url'], /empty/],
    ['an unsupported MIME type', { filename: 'setup.exe', url: dataUrl('application/x-msdownload', EXE) }, ['body', 'document', 'url'], /application\/x-msdownload is not supported/],
    ['declared PDF with text content', { filename: 'fake.pdf', url: dataUrl('application/pdf', 'I am not a PDF') }, ['body', 'document', 'url'], /declared as application\/pdf but its content is not a PDF/],
    ['binary junk named .txt', { filename: 'junk.txt', url: dataUrl('text/plain', Buffer.from([0, 1, 2, 0xfe, 0xff, 0, 7])) }, ['body', 'document', 'url'], /binary content of no supported type/],
    ['a GIF', { filename: 'anim.gif', url: dataUrl('application/octet-stream', GIF) }, ['body', 'document', 'url'], /a GIF image, which is not a supported type/],
    ['a missing filename', { url: dataUrl('text/plain', 'x') }, ['body', 'document', 'filename'], /Field required/],
    ['an empty filename', { filename: '', url: dataUrl('text/plain', 'x') }, ['body', 'document', 'filename'], /./],
    ['a missing url', { filename: 'a.txt' }, ['body', 'document', 'url'], /Field required/],
    ['a null url', { filename: 'a.txt', url: null }, ['body', 'document', 'url'], /Field required/],
    ['a url of the wrong type', { filename: 'a.txt', url: 42 }, ['body', 'document', 'url'], /string/],
  ])('%s', async (_, document, loc, msg) => {
    const before = await fileCount(tenant.key);
    const r = await cloud.api('POST', '/v1/files', { key: tenant.key, body: { document } });
    expect(r.status).toBe(422);
    expect(r.body.detail).toHaveLength(1);
    expect(r.body.detail[0].loc).toEqual(loc);
    expect(r.body.detail[0].msg).toMatch(msg);
    expect(typeof r.body.detail[0].type).toBe('string');
    expect(await fileCount(tenant.key)).toBe(before);
    // Not even the bytes were kept.
    const url = (document as { url?: unknown }).url;
    if (typeof url === 'string' && url.includes(';base64,')) {
      const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
      expect(await platform().blobs.head(tenant.blobKey(sha256(bytes)))).toBeUndefined();
    }
  });

  it('a document of the wrong type, a missing document, or malformed JSON', async () => {
    const before = await fileCount(tenant.key);
    const wrong = await cloud.api('POST', '/v1/files', { key: tenant.key, body: { document: 5 } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0]).toMatchObject({ loc: ['body', 'document'], type: 'invalid_type', input: 5 });
    const missing = await cloud.api('POST', '/v1/files', { key: tenant.key, body: {} });
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'document'], type: 'missing', msg: 'Field required' });
    const malformed = await cloud.api('POST', '/v1/files', { key: tenant.key, rawBody: '{"document": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
    expect(await fileCount(tenant.key)).toBe(before);
  });

  it('a body over 6 MB → 413 telling the client to upload the file', async () => {
    const before = await fileCount(tenant.key);
    const big = Buffer.alloc(5 * 1024 * 1024, 'a'); // base64 makes it about 6.7 MB
    const r = await cloud.api('POST', '/v1/files', { key: tenant.key, body: { document: { filename: 'big.txt', url: dataUrl('text/plain', big) } } });
    expect(r.status).toBe(413);
    expect(r.body.detail).toMatch(/6 MB/);
    expect(r.body.detail).toMatch(/POST \/v1\/files\/upload/);
    expect(await fileCount(tenant.key)).toBe(before);
  });

  it('unknown body fields are ignored', async () => {
    const r = await cloud.api('POST', '/v1/files', { key: tenant.key, body: { document: { filename: 'extra.txt', url: dataUrl('text/plain', 'extra'), colour: 'blue' }, verbose: true } });
    expect(r.status).toBe(201);
    expect(r.body.filename).toBe('extra.txt');
  });
});

describe('uploads are checked as a parse opens the document (issue 23)', () => {
  const PDF_MIME = 'application/pdf';
  const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

  async function refusedDocuments(): Promise<[string, string, string, Buffer][]> {
    const pdf = Buffer.from((await twoColumnPdf({ pages: 2 })).bytes);
    return [
      ['an encrypted PDF', 'secret.pdf', PDF_MIME, Buffer.from(encryptedPdf())],
      ['a PDF cut in half', 'cut.pdf', PDF_MIME, pdf.subarray(0, Math.floor(pdf.length / 2))],
      ['a PDF header then junk', 'junk.pdf', PDF_MIME, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x5a)])],
      ['a DOCX without word/document.xml', 'hollow.docx', DOCX_MIME, zipArchive([{ name: 'word/styles.xml', data: Buffer.from('<styles/>') }])],
      ['an XLSX without xl/workbook.xml', 'hollow.xlsx', XLSX_MIME, zipArchive([{ name: 'xl/styles.xml', data: Buffer.from('<styleSheet/>') }])],
    ];
  }

  /** What a sync parse of the same bytes answers: its 422 message. */
  async function parseRefusal(filename: string, mime: string, bytes: Buffer): Promise<{ status: number; msg: string; type: string }> {
    const r = await cloud.api('POST', '/v1/parses', { body: { document: { filename, url: dataUrl(mime, bytes) } } });
    return { status: r.status, msg: r.body.detail?.[0]?.msg, type: r.body.detail?.[0]?.type };
  }

  it('POST /v1/files refuses what a parse refuses, with the same 422 message; nothing is stored', async () => {
    const { key, blobKey } = await freshTenant();
    for (const [name, filename, mime, bytes] of await refusedDocuments()) {
      const parsed = await parseRefusal(filename, mime, bytes);
      expect(parsed.status, `${name}: the parse refuses it`).toBe(422);
      const r = await upload(filename, bytes, mime, key);
      expect(r.status, `${name}: ${r.text}`).toBe(422);
      expect(r.body.detail).toHaveLength(1);
      expect(r.body.detail[0].loc, name).toEqual(['body', 'document', 'url']);
      expect(r.body.detail[0].msg, name).toBe(parsed.msg);
      expect(r.body.detail[0].type, name).toBe(parsed.type);
      expect(await platform().blobs.head(blobKey(sha256(bytes))), name).toBeUndefined();
    }
    expect(await fileCount(key)).toBe(0);
  });

  it("the upload's complete stores them (issue 43): page_count null; a run on the File answers the parse's own 422", async () => {
    const { key } = await freshTenant();
    const documents = await refusedDocuments();
    for (const [name, filename, mime, bytes] of documents) {
      const parsed = await parseRefusal(filename, mime, bytes);
      const t = (await cloud.api('POST', '/v1/files/upload', { key, body: { filename, size_bytes: bytes.length, content_type: mime } })).body;
      expect((await fetch(t.uploadUrl, { method: 'PUT', headers: t.uploadHeaders, body: bytes })).status).toBe(200);
      const r = await cloud.api('POST', `/v1/files/upload/${t.fileId}/complete`, { key, body: {} });
      expect(r.status, `${name}: ${r.text}`).toBe(200);
      expect((await cloud.api('GET', `/v1/files/${t.fileId}`, { key })).body, name).toMatchObject({ id: t.fileId, mime_type: mime, page_count: null, size_bytes: bytes.length });
      const run = await cloud.api('POST', '/v1/parses', { key, body: { document: { id: t.fileId, filename, mime_type: mime } } });
      expect(run.status, `${name}: ${run.text}`).toBe(422);
      expect(run.body.detail[0].loc, name).toEqual(['body', 'document']);
      // The read's own message (a ZIP without its main part is judged by the reader here, by the sniffer inline).
      expect(run.body.detail[0].msg, name).toMatch(name.includes('without') ? /DOCX|XLSX|ZIP/ : new RegExp(parsed.msg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    }
    expect(await fileCount(key)).toBe(documents.length);
    expect((await cloud.api('GET', '/v1/parses?limit=10', { key })).body.data).toHaveLength(0);
  });

  it('the SDK e2e upload: a tiny file that is not a whole PDF completes, page_count null', async () => {
    const { key } = await freshTenant();
    const bytes = Buffer.from('%PDF-1.4\n%node creditless e2e x\n', 'utf8');
    const t = (await cloud.api('POST', '/v1/files/upload', { key, body: { filename: 'tiny.pdf', size_bytes: bytes.length, content_type: 'application/pdf', sha256: sha256(bytes) } })).body;
    expect((await fetch(t.uploadUrl, { method: 'PUT', headers: t.uploadHeaders, body: bytes })).status).toBe(200);
    const r = await cloud.api('POST', `/v1/files/upload/${t.fileId}/complete`, { key, body: { sha256: sha256(bytes) } });
    expect(r.status, r.text).toBe(200);
    expect((await cloud.api('GET', `/v1/files/${t.fileId}`, { key })).body).toMatchObject({ filename: 'tiny.pdf', mime_type: 'application/pdf', page_count: null });
  });

  it('page_count: the pages of a PDF as a parse counts them (one-shot and three-step upload); null for a DOCX', async () => {
    const { key } = await freshTenant();
    const pdf = Buffer.from((await twoColumnPdf({ pages: 3 })).bytes);
    const file = await upload('three.pdf', pdf, PDF_MIME, key);
    expect(file.status).toBe(201);
    expect(file.body.page_count).toBe(3);
    // The File keeps it: read back, and listed.
    expect((await cloud.api('GET', `/v1/files/${file.body.id}`, { key })).body.page_count).toBe(3);
    const parsed = await cloud.api('POST', '/v1/parses', { key, body: { document: { id: file.body.id, filename: 'three.pdf', mime_type: PDF_MIME } } });
    expect(parsed.body.usage.page_count).toBe(3);

    const docx = await buildDocx({ body: para('hello') });
    expect((await upload('hello.docx', docx, DOCX_MIME, key)).body).toMatchObject({ mime_type: DOCX_MIME, page_count: null });

    // A three-step upload is counted at complete.
    const t = (await cloud.api('POST', '/v1/files/upload', { key, body: { filename: 'big.pdf', size_bytes: pdf.length, content_type: PDF_MIME } })).body;
    await fetch(t.uploadUrl, { method: 'PUT', headers: t.uploadHeaders, body: pdf });
    expect((await cloud.api('POST', `/v1/files/upload/${t.fileId}/complete`, { key, body: {} })).status).toBe(200);
    expect((await cloud.api('GET', `/v1/files/${t.fileId}`, { key })).body.page_count).toBe(3);
  });

  it.skipIf(!corpusAvailable())('page_count of real documents: a PDF encrypted without a user password is accepted; an XLSX counts its sheets', async () => {
    const { key } = await freshTenant();
    // o&m_sample2.pdf: 31 pages, RC4-encrypted with an empty user password (a parse reads it).
    const encrypted = Buffer.from(corpusBytes('documents/om_agreement/o&m_sample2.pdf'));
    const om = await upload('o&m_sample2.pdf', encrypted, PDF_MIME, key);
    expect(om.status, om.text).toBe(201);
    expect(om.body.page_count).toBe(31);
    const long = await upload('ppa_sample3_long.pdf', Buffer.from(corpusBytes('documents/power_purchase_agreement/ppa_sample3_long.pdf')), PDF_MIME, key);
    expect(long.body.page_count).toBe(120);
    const workbook = Buffer.from(corpusBytes('documents/calendar/calendar_event.xlsx'));
    const xlsx = await upload('calendar_event.xlsx', workbook, XLSX_MIME, key);
    expect(xlsx.body.page_count).toBe(2);
    const parsed = await cloud.api('POST', '/v1/parses', { key, body: { document: { id: xlsx.body.id, filename: 'calendar_event.xlsx', mime_type: XLSX_MIME } } });
    expect(parsed.body.usage.page_count).toBe(2);
  });

  it.skipIf(!corpusAvailable())('an EPUB book is a document: its page_count is its spine\'s documents, as a parse reads them', async () => {
    const { key } = await freshTenant();
    const EPUB_MIME = 'application/epub+zip';
    const book = await upload('winter-sports.epub', Buffer.from(corpusBytes('documents/book/winter-sports.epub')), 'application/octet-stream', key);
    expect(book.status, book.text).toBe(201);
    expect(book.body).toMatchObject({ mime_type: EPUB_MIME, page_count: 10 });
    const parsed = await cloud.api('POST', '/v1/parses', { key, body: { document: { id: book.body.id, filename: 'winter-sports.epub', mime_type: EPUB_MIME } } });
    expect(parsed.status).toBe(201);
    expect(parsed.body.usage.page_count).toBe(10);
    expect(parsed.body.output.pages[0]).toBe('');
    expect(parsed.body.output.pages[1]).toContain('Winter Sports in Switzerland');
  });

  it('page_count of a presentation is its slides, as a parse counts them', async () => {
    const { key } = await freshTenant();
    const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
    const deck = await upload('deck.pptx', (await quarterlyDeck()).bytes, PPTX_MIME, key);
    expect(deck.status, deck.text).toBe(201);
    expect(deck.body.page_count).toBe(3);
    const parsed = await cloud.api('POST', '/v1/parses', { key, body: { document: { id: deck.body.id, filename: 'deck.pptx', mime_type: PPTX_MIME } } });
    expect(parsed.body.usage.page_count).toBe(3);
  });
});

describe('Files a run stores from its own document keep page_count (issue 23)', () => {
  const PDF_MIME = 'application/pdf';
  const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
  const inline = (filename: string, mime: string, bytes: Uint8Array) => ({ filename, url: dataUrl(mime, Buffer.from(bytes)) });
  const fileOf = async (id: string, key: string) => (await cloud.api('GET', `/v1/files/${id}`, { key })).body;

  it('a parse, an extraction, a classification and a schema generation sent a data URL record the pages they read, as POST /v1/files would', async () => {
    const { key } = await freshTenant();
    const pdf = (await twoColumnPdf({ pages: 3 })).bytes;
    const parsed = await cloud.api('POST', '/v1/parses', { key, body: { document: inline('three.pdf', PDF_MIME, pdf) } });
    expect(parsed.status, parsed.text).toBe(201);
    expect(await fileOf(parsed.body.file.id, key)).toMatchObject({ filename: 'three.pdf', page_count: 3 });
    expect((await upload('three.pdf', Buffer.from(pdf), PDF_MIME, key)).body).toMatchObject({ id: parsed.body.file.id, page_count: 3 });

    const deck = (await quarterlyDeck()).bytes;
    const json_schema = { type: 'object', properties: { title: { type: ['string', 'null'] } }, required: ['title'], additionalProperties: false };
    const extracted = await cloud.api('POST', '/v1/extractions', { key, body: { document: inline('deck.pptx', PPTX_MIME, deck), json_schema } });
    expect(extracted.status, extracted.text).toBe(201);
    expect((await fileOf(extracted.body.file.id, key)).page_count).toBe(3);

    const two = (await twoColumnPdf({ pages: 2, seed: 7 })).bytes;
    const classified = await cloud.api('POST', '/v1/classifications', { key, body: { document: inline('two.pdf', PDF_MIME, two), categories: [{ name: 'report' }, { name: 'invoice' }] } });
    expect(classified.status, classified.text).toBe(201);
    expect((await fileOf(classified.body.file.id, key)).page_count).toBe(2);

    const generated = await cloud.api('POST', '/v1/schemas/generate', { key, body: { documents: [inline('gen.pdf', PDF_MIME, two)] } });
    expect(generated.status, generated.text).toBe(201);
    expect((await fileOf(generated.body.files[0].id, key)).page_count).toBe(2);
  });

  it('is counted once: a later run of the same File writes nothing to it', async () => {
    const { key } = await freshTenant();
    const document = inline('once.pdf', PDF_MIME, (await twoColumnPdf({ pages: 2, seed: 11 })).bytes);
    const first = await cloud.api('POST', '/v1/parses', { key, body: { document } });
    expect((await fileOf(first.body.file.id, key)).page_count).toBe(2);
    const updates: string[] = [];
    setPlatform({
      ...real,
      store: new Proxy(real.store, {
        get(target, method) {
          const value = Reflect.get(target, method) as unknown;
          if (method !== 'updateRecord' || typeof value !== 'function') return value;
          return (...args: unknown[]) => (updates.push(String(args[1])), (value as (...a: unknown[]) => unknown).apply(target, args));
        },
      }),
    });
    const again = await cloud.api('POST', '/v1/parses', { key, body: { document, bust_cache: true } });
    setPlatform(real);
    expect(again.body.file.id).toBe(first.body.file.id);
    expect(updates).not.toContain('file');
  });

  it("an edit records its form's pages, and its filled document's File has them too", async () => {
    const { key } = await freshTenant();
    const form = await acroFormPdf();
    const edit = await cloud.api('POST', '/v1/edits', { key, body: { document: inline('form.pdf', PDF_MIME, form.bytes), instructions: JSON.stringify(form.instructions) } });
    expect(edit.status, edit.text).toBe(201);
    expect((await fileOf(edit.body.file.id, key)).page_count).toBe(1);
    expect((await fileOf(edit.body.filled_document_ref.id, key)).page_count).toBe(1);
  });

  it('a File answered from the result cache (no read) gets its count when the document is uploaded as a File', async () => {
    const { key } = await freshTenant();
    const bytes = (await twoColumnPdf({ pages: 2, seed: 23 })).bytes;
    await cloud.api('POST', '/v1/parses', { key, body: { document: inline('first.pdf', PDF_MIME, bytes) } });
    const cached = await cloud.api('POST', '/v1/parses', { key, body: { document: inline('renamed.pdf', PDF_MIME, bytes) } });
    expect((await fileOf(cached.body.file.id, key)).page_count).toBeNull();
    const uploaded = await upload('renamed.pdf', Buffer.from(bytes), PDF_MIME, key);
    expect(uploaded.body).toMatchObject({ id: cached.body.file.id, page_count: 2 });
    expect((await fileOf(cached.body.file.id, key)).page_count).toBe(2);
  });
});
