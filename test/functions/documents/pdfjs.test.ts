/**
 * pdf.js's legacy build patches Array.prototype.push, JSON.parse and JSON.stringify with slow
 * core-js versions for the whole process; functions/documents/pdfjs.ts puts V8's own back, and takes
 * DecompressionStream away so that pdf.js inflates page contents itself. Checked in a fresh process,
 * where nothing has loaded pdf.js before. Its sameThreadWorker passes text chunks without cloning them,
 * and operator lists too for a document that is never rendered.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as pdfjs from '../../../functions/documents/pdfjs.ts';
import type { PDFWorker } from '../../../functions/documents/pdfjs.ts';
import { REPO_ROOT } from '../../../lib/local/invoker.ts';
import { formPdf, manyPagesPdf, ruledPdf } from '../../support/pdf-fixtures.ts';

const script = `
  const native = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };
  // Counts the streams anyone makes through the global, as long as it is there.
  let streams = 0;
  const Native = globalThis.DecompressionStream;
  globalThis.DecompressionStream = class extends Native { constructor(format) { super(format); streams++; } };
  const { readPdf } = await import(${JSON.stringify(join(REPO_ROOT, 'functions/documents/pdf.ts'))});
  const { manyPagesPdf } = await import(${JSON.stringify(join(REPO_ROOT, 'test/support/pdf-fixtures.ts'))});
  const restored = () => Array.prototype.push === native.push && JSON.parse === native.parse && JSON.stringify === native.stringify;
  const afterImport = restored();
  // The first read starts pdf.js's in-process worker: it must not patch them again.
  const pages = await readPdf(await manyPagesPdf(2), { deadline: Date.now() + 60000 });
  const text = pages.map((page) => page.blocks.map((block) => block.text).join(' ')).join(' ');
  console.log(JSON.stringify({ afterImport, afterRead: restored(), pages: pages.length, words: pages[0].words.length, streams, global: typeof DecompressionStream, sections: text.includes('Section 1') && text.includes('Section 2') }));
`;

describe('pdf.js loader', () => {
  it('keeps V8s own push and JSON after loading pdf.js and reading a PDF', () => {
    const out = execFileSync('node', ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').pop()!) as { afterImport: boolean; afterRead: boolean; pages: number; words: number };
    expect(result).toMatchObject({ afterImport: true, afterRead: true, pages: 2 });
    expect(result.words).toBeGreaterThan(50);
  });

  it('has pdf.js inflate the (Flate-compressed) page contents itself: no DecompressionStream is made, and the text is read', () => {
    const out = execFileSync('node', ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').pop()!) as { streams: number; global: string; sections: boolean };
    expect(result).toMatchObject({ streams: 0, global: 'undefined', sections: true });
  });
});

describe('sameThreadWorker', () => {
  /** Every page's text content, read through `worker` (pdf.js's own fake worker when undefined). */
  async function textContents(bytes: Uint8Array, worker?: PDFWorker): Promise<unknown[]> {
    const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), worker, useSystemFonts: false, disableFontFace: true, isEvalSupported: false, verbosity: 0 }).promise;
    const contents: unknown[] = [];
    for (let n = 1; n <= pdf.numPages; n++) contents.push(await (await pdf.getPage(n)).getTextContent());
    await pdf.destroy();
    return contents;
  }

  /** Runs `read` counting the stream chunks holding an array under `field` that go through structuredClone (pdf.js clones each message it posts). */
  async function countingClonedChunks<T>(field: 'items' | 'fnArray', read: () => Promise<T>): Promise<{ result: T; cloned: number }> {
    const original = globalThis.structuredClone;
    let cloned = 0;
    globalThis.structuredClone = ((value: unknown, options?: Parameters<typeof structuredClone>[1]) => {
      if (Array.isArray((value as { chunk?: Record<string, unknown> } | undefined)?.chunk?.[field])) cloned++;
      return original(value, options);
    }) as typeof structuredClone;
    try {
      return { result: await read(), cloned };
    } finally {
      globalThis.structuredClone = original;
    }
  }

  it('reads the same text content as pdf.js on its own, passing the text chunks without cloning them', async () => {
    // Pages of ~50 lines: pdf.js sends each page's text in several chunks.
    const bytes = await manyPagesPdf(3);
    const own = await countingClonedChunks('items', () => textContents(bytes));
    const worker = pdfjs.sameThreadWorker();
    const same = await countingClonedChunks('items', () => textContents(bytes, worker));
    worker.destroy();
    expect(own.cloned).toBeGreaterThan(3);
    expect(same.cloned).toBe(0);
    // Font names carry the document's number (g_d0_f1, g_d1_f1): the rest must be the same.
    const text = (contents: unknown[]) => JSON.stringify(contents).replace(/g_d\d+_/g, 'g_d_');
    expect(text(same.result)).toEqual(text(own.result));
    expect(text(same.result)).toContain('Section 3');
  });

  /** Every page's operator list, read through `worker` (pdf.js's own fake worker when undefined), counting the operator-list chunks cloned. */
  async function operatorLists(bytes: Uint8Array, worker?: PDFWorker): Promise<{ lists: unknown[]; cloned: number }> {
    const { result: lists, cloned } = await countingClonedChunks('fnArray', async () => {
      const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), worker, useSystemFonts: false, disableFontFace: true, isEvalSupported: false, verbosity: 0, maxImageSize: 1 }).promise;
      const read: unknown[] = [];
      for (let n = 1; n <= pdf.numPages; n++) {
        const { fnArray, argsArray } = await (await pdf.getPage(n)).getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
        read.push({ fnArray, argsArray });
      }
      await pdf.destroy();
      return read;
    });
    return { lists, cloned };
  }

  it('reads the same operator lists as pdf.js on its own, passing them without cloning for a document never rendered', async () => {
    for (const [bytes, drawsPaths] of [[await ruledPdf(), true], [await formPdf(), false], [await manyPagesPdf(2), false]] as const) {
      const own = await operatorLists(bytes);
      const worker = pdfjs.sameThreadWorker({ rendered: false });
      const same = await operatorLists(bytes, worker);
      worker.destroy();
      expect(own.cloned).toBeGreaterThan(0);
      expect(same.cloned).toBe(0);
      // Font names carry the document's number (g_d0_f1, g_d1_f1): the rest must be the same.
      const ops = (lists: unknown[]) => JSON.stringify(lists, (_key, value: unknown) => (ArrayBuffer.isView(value) ? Array.from(value as Float32Array) : value)).replace(/g_d\d+_/g, 'g_d_');
      expect(ops(same.lists)).toEqual(ops(own.lists));
      // The ruled table's lines arrive as paths, with their coordinates.
      if (drawsPaths) expect((same.lists as Array<{ fnArray: number[] }>).some((list) => list.fnArray.includes(pdfjs.OPS.constructPath))).toBe(true);
    }
  });

  it('clones operator lists for a document that may be rendered (a canvas writes into them)', async () => {
    const worker = pdfjs.sameThreadWorker();
    const { cloned } = await operatorLists(await ruledPdf(), worker);
    worker.destroy();
    expect(cloned).toBeGreaterThan(0);
  });

  it('serves several documents one after another, each on its own worker', async () => {
    for (const pages of [1, 2]) {
      const worker = pdfjs.sameThreadWorker();
      const contents = (await textContents(await manyPagesPdf(pages), worker)) as Array<{ items: Array<{ str: string }> }>;
      worker.destroy();
      expect(contents).toHaveLength(pages);
      expect(contents.at(-1)!.items.map((item) => item.str).join(' ')).toContain(`Section ${pages}`);
    }
  });
});
