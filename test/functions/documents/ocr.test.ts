import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PDFDocument, degrees, rgb } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Box, GreyImage } from '../../../functions/documents/doc.ts';
import { decodeImage } from '../../../functions/documents/image.ts';
import { createOcrPool, type OcrPool, readUpright, recognizeReadable } from '../../../functions/documents/ocr.ts';
import { corpusAvailable, corpusBytes } from '../../support/corpus.ts';
import { greyToPdfWords, rasterDpi, rasterizePdfPage } from '../../../functions/documents/raster.ts';
import { greyToPng, renderScan, scanToPdf, wordAccuracy } from '../../support/scan-fixtures.ts';

const root = path.resolve(fileURLToPath(import.meta.url), '../../../..');
const seconds = (since: number) => (performance.now() - since) / 1000;

function intersectionOverUnion(a: Box, b: Box): number {
  const width = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const height = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  if (width <= 0 || height <= 0) return 0;
  const overlap = width * height;
  return overlap / (a.width * a.height + b.width * b.height - overlap);
}

describe('OCR', () => {
  let pool: OcrPool;
  beforeAll(async () => {
    pool = await createOcrPool({ size: 2 });
    const started = performance.now();
    await pool.recognize(renderScan({ dpi: 100, paragraphs: ['Warm up'] }).image);
    console.log(`OCR worker cold start (thread, wasm, model) + a tiny page: ${seconds(started).toFixed(2)} s`);
  });
  afterAll(async () => {
    await pool.close();
  });

  it('reads a 200 dpi scan wrapped in a PDF (no text layer) with ≥ 97% word accuracy, boxes in points', async () => {
    const scan = renderScan({ dpi: 200 });
    const pdf = await getDocument({ data: await scanToPdf(scan.image) }).promise;
    const page = await pdf.getPage(1);
    expect((await page.getTextContent()).items).toHaveLength(0);

    const grey = await rasterizePdfPage(page, 200);
    expect([grey.width, grey.height, grey.dpi]).toEqual([1700, 2200, 200]);
    const started = performance.now();
    const words = greyToPdfWords(await pool.recognize(grey), grey.dpi, 1);
    const elapsed = seconds(started);
    await pdf.destroy();

    const accuracy = wordAccuracy(
      words.map((w) => w.text),
      scan.words,
    );
    console.log(`OCR 200 dpi PDF scan: word accuracy ${(accuracy * 100).toFixed(1)}%, ${elapsed.toFixed(2)} s/page`);
    expect(accuracy).toBeGreaterThanOrEqual(0.97);

    // Boxes are in PDF points on page 1, where the words were printed.
    for (const word of words) {
      expect(word.origin).toEqual({ kind: 'box', page: 1, box: word.box });
      expect(word.confidence).toBeGreaterThanOrEqual(0);
      expect(word.box!.left + word.box!.width).toBeLessThanOrEqual(612);
      expect(word.box!.top + word.box!.height).toBeLessThanOrEqual(792);
    }
    const unique = scan.boxes.filter((b) => scan.boxes.filter((o) => o.text === b.text).length === 1);
    let compared = 0;
    for (const printed of unique) {
      const found = words.filter((w) => w.text === printed.text);
      if (found.length !== 1) continue;
      const inPoints = greyToPdfWords([{ text: printed.text, box: printed.box, origin: { kind: 'box', page: 0, box: printed.box } }], 200, 1)[0];
      expect(intersectionOverUnion(found[0].box!, inPoints.box!), printed.text).toBeGreaterThan(0.6);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('reads a noisy 150 dpi scan (PNG: tilted, blurred, faded, speckled) with ≥ 90% word accuracy', async () => {
    const scan = renderScan({ dpi: 150, noise: { rotateDegrees: 0.8, blur: true, contrast: 0.6, speckles: 0.004, seed: 11 } });
    const [frame] = await decodeImage(greyToPng(scan.image), 'png');
    const started = performance.now();
    const words = await pool.recognize(frame);
    const elapsed = seconds(started);
    const accuracy = wordAccuracy(
      words.map((w) => w.text),
      scan.words,
    );
    console.log(`OCR noisy 150 dpi scan: word accuracy ${(accuracy * 100).toFixed(1)}%, ${elapsed.toFixed(2)} s/page`);
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
    expect(words[0].origin).toEqual({ kind: 'box', page: 0, box: words[0].box });
  });

  // A real scan (corpus: a faint thermal receipt photocopied with halftone dots around it): read raw,
  // Tesseract splits its lines and misreads the amounts; smoothed, it reads them as printed.
  it.skipIf(!corpusAvailable())('reads the amounts of a speckled real receipt scan by reading it again smoothed', async () => {
    const [frame] = await decodeImage(corpusBytes('documents/receipt/X51005441398.jpg'), 'jpeg');
    const raw = (await pool.recognize(frame)).map((w) => w.text).join(' ');
    const text = (await recognizeReadable(pool, frame)).words.map((w) => w.text).join(' ');
    // Hand-read: Order No : 11649, SubTotal 179.00, Net Total 189.75.
    const printed = ['11649', '179.00', '189.75'];
    expect(printed.filter((v) => raw.includes(v)).length).toBeLessThan(3);
    expect(printed.filter((v) => text.includes(v))).toEqual(printed);
  });

  // A real photo of a receipt on curled paper (corpus): its column of amounts sits half a line below
  // the labels, and Tesseract's page layout cuts those lines across ("RH yg 'te" for "RM 15.00").
  // The regions it was unsure of, read again one column at a time, give the amounts as printed.
  it.skipIf(!corpusAvailable())('reads again, column by column, the regions of a real receipt it was unsure of', async () => {
    const [frame] = await decodeImage(corpusBytes('documents/receipt/X51005268400.jpg'), 'jpeg');
    const count = (words: { text: string }[], value: string) => words.filter((w) => w.text === value).length;
    const once = await readUpright(pool, frame);
    const { words } = await recognizeReadable(pool, frame);
    // Hand-read: 15.00 is printed six times (price, line total, subtotal, total excluding and
    // including GST, cash), 0.00 four times (discount, GST, rounding, change).
    expect(count(once.words, '15.00')).toBeLessThanOrEqual(2);
    expect(count(words, '15.00')).toBeGreaterThanOrEqual(4);
    expect(count(words, '0.00')).toBeGreaterThanOrEqual(3);
    // Every box stays inside the image.
    for (const w of words) expect(w.box!.left >= 0 && w.box!.top >= 0 && w.box!.left + w.box!.width <= frame.width && w.box!.top + w.box!.height <= frame.height).toBe(true);
  });

  it('recognizes pages concurrently, starts workers lazily, and close() leaves no worker thread', async () => {
    // Threads are counted from /proc; the libuv pool is started first so it does not count as a worker.
    const threads = () => readdirSync('/proc/self/task').length;
    await readFile(fileURLToPath(import.meta.url));
    const pages: GreyImage[] = [renderScan({ dpi: 200 }).image, renderScan({ dpi: 200, noise: { blur: true, seed: 3 } }).image];
    const warmUp: GreyImage = renderScan({ dpi: 100, paragraphs: ['Warm up'] }).image;

    const before = threads();
    const one = await createOcrPool({ size: 1 });
    const two = await createOcrPool({ size: 2 });
    expect(threads()).toBe(before); // nothing started yet
    try {
      await one.recognize(warmUp);
      let started = performance.now();
      for (const page of pages) await one.recognize(page);
      const oneWorker = seconds(started) / pages.length;

      await Promise.all([two.recognize(warmUp), two.recognize(warmUp)]);
      expect(threads()).toBeGreaterThanOrEqual(before + 3); // one + two workers
      started = performance.now();
      const results = await Promise.all(pages.map((page) => two.recognize(page)));
      const twoWorkers = seconds(started) / pages.length;
      console.log(`OCR pool, 200 dpi Letter pages: 1 worker ${oneWorker.toFixed(2)} s/page, 2 workers ${twoWorkers.toFixed(2)} s/page`);
      for (const words of results) expect(words.length).toBeGreaterThan(100);

      // A worker that read a big image is retired (its wasm heap would never shrink), not reused.
      const big = new Uint8Array(21_000_000).fill(255).fill(0, 2000 * 5000 + 1000, 2000 * 5000 + 4000);
      await one.recognize({ width: 5000, height: 4200, data: big, dpi: 300 });
      await vi.waitFor(() => expect(threads()).toBe(before + 2), { timeout: 5000 });
    } finally {
      await one.close();
      await two.close();
    }
    expect(threads()).toBe(before);
    await expect(two.recognize(warmUp)).rejects.toThrow(/closed/);

    // Closing while a worker is starting, or while a page is being read (an idle worker takes a job
    // at once), settles the job and stops everything.
    const starting = await createOcrPool({ size: 1 });
    const queued = expect(starting.recognize(pages[0])).rejects.toThrow(/closed/);
    await starting.close();
    await queued;
    const busy = await createOcrPool({ size: 1 });
    await busy.recognize(warmUp);
    const running = expect(busy.recognize(pages[0])).rejects.toThrow(/closed/);
    await busy.close();
    await running;
    expect(threads()).toBe(before);
  });

  it('refuses a malformed raster without losing the worker', async () => {
    await expect(pool.recognize({ width: 10, height: 10, data: new Uint8Array(5), dpi: 72 })).rejects.toThrow(/Not a grey image/);
    const words = await pool.recognize(renderScan({ dpi: 150, paragraphs: ['Still working fine'] }).image);
    expect(words.map((w) => w.text)).toEqual(['Still', 'working', 'fine']);
  });

  it('reads a page whose first pixels look like an EXIF orientation tag to tesseract.js', async () => {
    // tesseract.js scans the first 500 bytes of its input for this byte pattern and, when found,
    // rotates the image; a raw raster can contain it (it did read this page as garbage).
    const { image } = renderScan({ dpi: 150, paragraphs: ['Orientation stays upright'] });
    image.data.set([1, 18, 0, 3, 0, 0, 0, 1, 0, 6], 0);
    expect((await pool.recognize(image)).map((w) => w.text)).toEqual(['Orientation', 'stays', 'upright']);
  });

  it('works with networking unavailable to the process: the model is never downloaded', async () => {
    // Inside `unshare -rn` the process has no network interfaces at all. The --require preload also
    // makes every network API throw and report the attempt, in the main and every worker thread
    // (--require preloads run in worker threads; --import ones do not).
    const isolated = spawnSync('unshare', ['-rn', 'true']).status === 0;
    const folder = mkdtempSync(path.join(tmpdir(), 'quire-offline-'));
    const preload = path.join(folder, 'no-network.cjs');
    writeFileSync(
      preload,
      `const { threadId } = require('node:worker_threads');
const refuse = (what) => function () {
  process.stderr.write('NETWORK ATTEMPT ' + what + ' in thread ' + threadId + '\\n' + new Error().stack + '\\n');
  throw new Error('network access is disabled (' + what + ')');
};
// Unix-domain sockets are local IPC, not network (tsx talks to its own process over one).
const localOnly = (original, what) => function (...args) {
  const target = Array.isArray(args[0]) ? args[0][0] : args[0]; // net.connect passes normalized [options, callback]
  const local = typeof target === 'string' || (typeof target === 'object' && target !== null && typeof target.path === 'string');
  return local ? original.apply(this, args) : refuse(what)();
};
const net = require('node:net');
net.connect = net.createConnection = localOnly(net.connect, 'net.connect');
net.Socket.prototype.connect = localOnly(net.Socket.prototype.connect, 'socket.connect');
require('node:tls').connect = refuse('tls.connect');
for (const name of ['node:http', 'node:https']) Object.assign(require(name), { request: refuse(name), get: refuse(name) });
const dns = require('node:dns');
dns.lookup = refuse('dns.lookup');
dns.promises.lookup = refuse('dns.lookup');
globalThis.fetch = refuse('fetch');
process.stderr.write('network blocked in thread ' + threadId + '\\n');
`,
    );
    const script = `
import { createOcrPool } from ${JSON.stringify(pathToFileURL(path.join(root, 'functions/documents/ocr.ts')).href)};
import { renderScan } from ${JSON.stringify(pathToFileURL(path.join(root, 'test/support/scan-fixtures.ts')).href)};
const scan = renderScan({ dpi: 150, paragraphs: ['Recognized without any network access'] });
const pool = await createOcrPool({ size: 1 });
const words = await pool.recognize(scan.image);
await pool.close();
process.stdout.write(JSON.stringify(words.map((word) => word.text)));
`;
    const child = path.join(folder, 'recognize.mjs');
    writeFileSync(child, script);
    // A file, not -e: worker threads inherit execArgv, and --input-type fails there.
    const node = [process.execPath, '--require', preload, '--import', 'tsx', child];
    const [command, ...args] = isolated ? ['unshare', '-rn', ...node] : node;
    try {
      const started = performance.now();
      const { stdout, stderr } = await promisify(execFile)(command, args, { cwd: root, timeout: 60_000 });
      console.log(`OCR offline child (${isolated ? 'unshare -rn + blocked APIs' : 'blocked APIs only'}): ${seconds(started).toFixed(2)} s`);
      expect(JSON.parse(stdout)).toEqual(['Recognized', 'without', 'any', 'network', 'access']);
      expect(stderr).not.toContain('NETWORK ATTEMPT');
      const blocked = new Set([...stderr.matchAll(/network blocked in thread (\d+)/g)].map((m) => m[1]));
      expect(blocked.has('0')).toBe(true);
      expect(blocked.size).toBeGreaterThanOrEqual(2); // and the worker threads
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 90_000);

  it('rasterizes a page at the asked dpi: white paper, top-left origin, /Rotate applied', async () => {
    const document = await PDFDocument.create();
    document.addPage([200, 100]).drawRectangle({ x: 10, y: 60, width: 30, height: 20, color: rgb(0, 0, 0) });
    document.addPage([200, 100]).setRotation(degrees(90));
    const pdf = await getDocument({ data: await document.save() }).promise;
    const flat = await rasterizePdfPage(await pdf.getPage(1), 144);
    expect([flat.width, flat.height, flat.dpi]).toEqual([400, 200, 144]);
    // The rectangle spans points x 10–40, y 20–40 from the top: pixels 20–80 across, 40–80 down.
    expect(flat.data[60 * 400 + 50]).toBe(0);
    expect(flat.data[150 * 400 + 300]).toBe(255);
    const turned = await rasterizePdfPage(await pdf.getPage(2), 144);
    expect([turned.width, turned.height]).toEqual([200, 400]);
    await pdf.destroy();
  });

  it('lowers the raster dpi for huge pages to stay within 50 megapixels', () => {
    expect(rasterDpi(612, 792, 200)).toBe(200);
    const dpi = rasterDpi(14_400, 14_400, 200); // a 200-inch square page
    expect(dpi).toBeLessThan(36);
    expect(((14_400 * dpi) / 72) ** 2).toBeLessThanOrEqual(50_000_000);
  });
});
