/**
 * A parse's layout (the dashboard's word and table boxes, ~14 KB a page) is an object of its own
 * beside the output: `GET /v1/parses/{id}` and every other read of the output never read it, the
 * dashboard does; the result cache gives a cached parse a copy of its own; deleting a parse deletes
 * it; parses stored before (the layout in the output's hidden data) still show their boxes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../../functions/documents/read.ts';
import { parseKind } from '../../../functions/parses/kind.ts';
import { layoutOf, parseLayout } from '../../../functions/parses/layout.ts';
import { platform, setPlatform, type Platform } from '../../../functions/platform/platform.ts';
import type { Scope } from '../../../functions/platform/ports.ts';
import { apartKeyOf, outputKeyOf } from '../../../functions/runs/service.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { textPdf } from '../../support/text-pdf.ts';

let cloud: TestCloud;
let p: Platform;
let scope: Scope;
beforeAll(async () => {
  cloud = await startTestCloud();
  p = platform();
  const status = await cloud.api('GET', '/v1/auth/status');
  scope = { orgId: status.body.organization_id, envId: status.body.environment_id };
});
afterAll(async () => {
  setPlatform(p);
  await cloud?.close();
});

const PAGES = 30;
const pageLines = (i: number) => [`Station ${i + 1} logged samples of river water`, 'Temperature 12.5 C, turbidity 3.1 NTU, oxygen 9.2 mg/L', 'Readings were taken at dawn and dusk by the field team'];
const pdfOfPages = () => textPdf(Array.from({ length: PAGES }, (_, i) => pageLines(i)));
const parseBody = (bytes: Uint8Array, extra: Record<string, unknown> = {}) => ({ document: { filename: 'stations.pdf', url: dataUrl('application/pdf', Buffer.from(bytes)) }, ...extra });

const text = async (key: string) => {
  const bytes = await p.blobs.get(key);
  return bytes ? Buffer.from(bytes).toString('utf8') : undefined;
};

/** The blob keys read (blobs.get) while `work` runs. */
async function blobReads(work: () => Promise<unknown>): Promise<string[]> {
  const keys: string[] = [];
  const blobs = new Proxy(p.blobs, {
    get(target, method) {
      const value = Reflect.get(target, method) as unknown;
      if (method !== 'get' || typeof value !== 'function') return value;
      return (key: string) => {
        keys.push(key);
        return (value as (k: string) => Promise<Uint8Array | undefined>).call(target, key);
      };
    },
  });
  setPlatform({ ...p, blobs });
  try {
    await work();
  } finally {
    setPlatform(p);
  }
  return keys;
}

describe("a parse's layout", () => {
  it('is stored apart: the output stays small and GET /v1/parses/{id} never reads the layout; the dashboard does', async () => {
    const bytes = await pdfOfPages();
    const r = await cloud.api('POST', '/v1/parses', { body: parseBody(bytes, { bust_cache: true }) });
    expect(r.status, r.text).toBe(201);
    expect(r.body.output.pages).toHaveLength(PAGES);
    const id = r.body.id as string;

    const output = (await text(outputKeyOf(scope, parseKind, id)))!;
    expect(JSON.parse(output).hidden).toEqual({});
    expect(output).not.toContain('"layout"');
    const layout = (await text(apartKeyOf(scope, parseKind, id, 'layout')))!;
    // (With the layout inside it, the output object was larger than the layout alone.)
    expect(output.length).toBeLessThan(layout.length);

    const reads = await blobReads(async () => {
      const got = await cloud.api('GET', `/v1/parses/${id}`);
      expect(got.status).toBe(200);
      expect(got.text).not.toContain('layout');
      const listed = await cloud.api('GET', '/v1/parses?include_output=true&limit=1');
      expect(listed.body.data[0].id).toBe(id);
    });
    expect(reads).toEqual([outputKeyOf(scope, parseKind, id), outputKeyOf(scope, parseKind, id)]);

    const expected = layoutOf(await readDocument(bytes, { kind: 'pdf', dpi: 192, deadline: Date.now() + 60_000 }));
    expect(expected).toHaveLength(PAGES);
    expect(await parseLayout(p, scope, id)).toEqual(expected);
    expect(JSON.parse(layout)).toEqual(expected);
  });

  it('a parse answered from the result cache has a copy of its own; deleting a parse deletes its layout and leaves the other one', async () => {
    const bytes = await textPdf([['Cached layout survey', 'Second line of the survey page']]);
    const first = await cloud.api('POST', '/v1/parses', { body: parseBody(bytes) });
    expect(first.status, first.text).toBe(201);
    const second = await cloud.api('POST', '/v1/parses', { body: parseBody(bytes) });
    expect(second.status, second.text).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    const expected = await parseLayout(p, scope, first.body.id);
    expect(expected[0]!.words.map(([word]) => word)).toEqual(['Cached', 'layout', 'survey', 'Second', 'line', 'of', 'the', 'survey', 'page']);
    expect(await parseLayout(p, scope, second.body.id)).toEqual(expected);

    expect((await cloud.api('DELETE', `/v1/parses/${first.body.id}`)).status).toBe(204);
    expect(await p.blobs.head(apartKeyOf(scope, parseKind, first.body.id, 'layout'))).toBeUndefined();
    expect(await p.blobs.head(outputKeyOf(scope, parseKind, first.body.id))).toBeUndefined();
    expect(await parseLayout(p, scope, second.body.id)).toEqual(expected);

    expect((await cloud.api('DELETE', `/v1/parses/${second.body.id}`)).status).toBe(204);
    expect(await p.blobs.head(apartKeyOf(scope, parseKind, second.body.id, 'layout'))).toBeUndefined();
    // The cache keeps its own copy: a third identical request still gets one.
    const third = await cloud.api('POST', '/v1/parses', { body: parseBody(bytes) });
    expect(await parseLayout(p, scope, third.body.id)).toEqual(expected);
  });

  it('a parse stored before the layout had an object of its own still shows its boxes', async () => {
    const bytes = await textPdf([['Older parse of a field report']]);
    const r = await cloud.api('POST', '/v1/parses', { body: parseBody(bytes, { bust_cache: true }) });
    const id = r.body.id as string;
    const layout = await parseLayout(p, scope, id);
    expect(layout[0]!.words).toHaveLength(6);
    // As such a parse was stored: the layout in the output's hidden data, no object of its own.
    const outputKey = outputKeyOf(scope, parseKind, id);
    const stored = JSON.parse((await text(outputKey))!);
    await p.blobs.put(outputKey, JSON.stringify({ ...stored, hidden: { layout } }), 'application/json');
    await p.blobs.delete(apartKeyOf(scope, parseKind, id, 'layout'));
    await p.store.updateRecord(scope, parseKind.type, id, { _output_inline: null }); // (nor a copy in its record)
    expect(await parseLayout(p, scope, id)).toEqual(layout);
    expect((await cloud.api('GET', `/v1/parses/${id}`)).body.output).toEqual(r.body.output);
  });

  it('a document without page coordinates keeps none (nothing stored), and its layout reads empty', async () => {
    const r = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'note.txt', url: dataUrl('text/plain', 'A plain note\n') }, bust_cache: true } });
    expect(r.status, r.text).toBe(201);
    expect(await p.blobs.head(apartKeyOf(scope, parseKind, r.body.id, 'layout'))).toBeUndefined();
    expect(await parseLayout(p, scope, r.body.id)).toEqual([]);
  });
});
