/**
 * Parse speed on real documents (issue: parsing real documents): the born-digital PDFs of
 * ../shared/corpus (every page has a text layer, so poppler reads them too) through the whole API —
 * a sync POST /v1/parses on `npm start`'s stack, the document sent as a data URL as users send it —
 * against poppler's `pdftotext -layout` on the same files in the same run, as pages per second and
 * their ratio; and pdfminer.six (`pdf2txt`, what pdfplumber and Unstructured's fast strategy read
 * with: Debian's python3-pdfminer, when installed) once per file. Then one long document, the
 * born-digital PDFs read without OCR put one after the other (pdf-lib) until it has at least
 * LONG_PAGES pages, uploaded in three steps and parsed by its file reference, against the same
 * readers. Also the fixed cost of a 1-page sync parse: its wall time through the API minus the
 * time reading the same page takes in process.
 *
 * `npm run bench -- parse-real` (PARSE_REAL_ROUNDS, default 3: each file's median of that many;
 * PARSE_REAL_ROWS=<file> writes every file's times there as JSON; PARSE_REAL_LONG_PAGES, default 500).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PDFDocument } from 'pdf-lib';
import * as pdfjs from '../../functions/documents/pdfjs.ts';
import type { PageReading } from '../../functions/documents/pdf.ts';
import { readDocument, readPdfRange } from '../../functions/documents/read.ts';
import { fanOutSettings } from '../../functions/parses/ranges.ts';
import { join } from 'node:path';
import { CORPUS_DIR, manifest } from '../support/corpus.ts';
import { asNewDocument, withLocalStack } from './stack.ts';

const ROUNDS = Number(process.env.PARSE_REAL_ROUNDS ?? 3);
const LONG_PAGES = Number(process.env.PARSE_REAL_LONG_PAGES ?? 500);
const hasPdfminer = () => spawnSync('sh', ['-c', 'command -v pdf2txt']).status === 0;
const FIXED_ROUNDS = 11;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function pageCount(path: string): number {
  const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
}

/** Born-digital: poppler reads words on every page (a scan's pages would be OCR against nothing). */
function bornDigital(path: string, pages: number): boolean {
  const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const perPage = text.split('\f').slice(0, pages);
  return perPage.length === pages && perPage.every((page) => page.split(/\s+/).filter(Boolean).length >= 3);
}

/** pdf.js alone, text only (getTextContent of every page), in this process: the ceiling of a pdf.js reader. */
async function rawTextContent(bytes: Uint8Array): Promise<number> {
  const started = performance.now();
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, disableFontFace: true, isEvalSupported: false, verbosity: 0 }).promise;
  for (let n = 1; n <= pdf.numPages; n++) await (await pdf.getPage(n)).getTextContent();
  await pdf.destroy();
  return (performance.now() - started) / 1000;
}

/**
 * The given PDFs one after the other, round again, until the document has at least `pages` pages
 * (encrypted ones are left out: their pages cannot be copied readable).
 */
async function assemble(files: readonly string[], pages: number): Promise<Uint8Array> {
  const sources: PDFDocument[] = [];
  for (const file of files) {
    const source = await PDFDocument.load(readFileSync(file), { updateMetadata: false }).catch(() => undefined);
    if (source && !source.isEncrypted) sources.push(source);
  }
  if (sources.length === 0) throw new Error('no PDF to assemble the long document from');
  const long = await PDFDocument.create();
  for (let i = 0; long.getPageCount() < pages; i++) {
    const source = sources[i % sources.length]!;
    for (const page of await long.copyPages(source, source.getPageIndices())) long.addPage(page);
  }
  return long.save();
}

function timed(fn: () => void): number {
  const started = performance.now();
  fn();
  return (performance.now() - started) / 1000;
}

export async function benchParseReal(): Promise<void> {
  if (spawnSync('sh', ['-c', 'command -v pdftotext && command -v pdfinfo']).status !== 0) {
    console.log('parse-real: needs poppler-utils (pdftotext, pdfinfo) as the reference');
    return;
  }
  const files = manifest()
    .map((e) => e.path)
    .filter((p) => p.endsWith('.pdf'))
    .map((p) => ({ path: p, file: join(CORPUS_DIR, p) }))
    .map((f) => ({ ...f, pages: pageCount(f.file) }))
    .filter((f) => f.pages > 0 && bornDigital(f.file, f.pages));

  // Pages Quire reads by OCR (a text layer of garbage, ./functions/documents/text-sense.ts): read once in
  // process to know them. OCR's time swamps the rest (a 14-slide deck took 18-27 s of a 42 s total),
  // so the ratio is also given over the PDFs read without any OCR.
  // Pages whose pictures hold text are read with them (./functions/documents/pictures.ts): each such
  // page's time, from when it was taken to when it was read, is kept here, and the files holding them.
  const ocrPages = new Map<string, number>();
  const picturePages = new Map<string, number>();
  const pictureTimes: number[] = [];
  for (const f of files) {
    let pictures = 0;
    const pageRead = (_page: number, ms: number, how: PageReading) => {
      if (how !== 'pictures') return;
      pictures++;
      pictureTimes.push(ms / 1000);
    };
    const doc = await readDocument(new Uint8Array(readFileSync(f.file)), { kind: 'pdf', dpi: 200, deadline: Date.now() + 600_000, pageRead });
    ocrPages.set(f.path, doc.pages.filter((page) => page.ocr).length);
    picturePages.set(f.path, pictures);
  }
  const rows: Array<{ path: string; pages: number; poppler: number; quire: number; raw: number; pdfminer: number }> = [];
  let fixed = { api: 0, read: 0 };
  const pdfminer = hasPdfminer();
  // pdfminer gives up on some files (an error after reading part): its time counts all the same, and the file is named.
  const pdfminerFailed: string[] = [];
  const pdfminerTime = (file: string) =>
    pdfminer ? timed(() => spawnSync('pdf2txt', ['-o', '/dev/null', file], { stdio: 'ignore' }).status !== 0 && pdfminerFailed.push(file.split('/').pop()!)) : NaN;
  // The long document: the PDFs read without OCR, one after the other.
  const workDir = mkdtempSync(join(tmpdir(), 'quire-parse-real-'));
  const longFile = join(workDir, 'long.pdf');
  writeFileSync(longFile, await assemble(files.filter((f) => ocrPages.get(f.path) === 0).map((f) => f.file), LONG_PAGES));
  const longPages = pageCount(longFile);
  let long = { poppler: 0, pdfminer: NaN, quire: 0 };
  await withLocalStack(async (stack) => {
    const parse = (bytes: Buffer, name: string) =>
      stack.timedRun('/v1/parses', { document: { filename: name, url: `data:application/pdf;base64,${bytes.toString('base64')}` }, bust_cache: true });
    // Warm, like a warm Lambda: module compilation and the helper thread's start excluded.
    const first = files[0]!;
    await parse(readFileSync(first.file), 'warm.pdf');
    for (const f of files) {
      const bytes = readFileSync(f.file);
      const name = f.path.split('/').pop()!;
      const poppler: number[] = [];
      const quire: number[] = [];
      const raw: number[] = [];
      // Interleaved, so all see the same load.
      for (let round = 0; round < ROUNDS; round++) {
        poppler.push(timed(() => execFileSync('pdftotext', ['-layout', f.file, '/dev/null'])));
        // A new document each round, as users send them (a repeated one finds its File and stored bytes).
        quire.push(await parse(asNewDocument(bytes, 'pdf', round), name));
        raw.push(await rawTextContent(new Uint8Array(bytes)));
      }
      rows.push({ path: f.path, pages: f.pages, poppler: median(poppler), quire: median(quire), raw: median(raw), pdfminer: pdfminerTime(f.file) });
    }

    // The long document, uploaded in three steps as a user sends a big file, parsed by reference.
    const upload = async (bytes: Uint8Array, name: string) => {
      const ticket = (await (await fetch(`${stack.base}/v1/files/upload`, { method: 'POST', headers: stack.headers, body: JSON.stringify({ filename: name, size_bytes: bytes.length, content_type: 'application/pdf' }) })).json()) as { fileId: string; uploadUrl: string; uploadHeaders: Record<string, string> };
      const put = await fetch(ticket.uploadUrl, { method: 'PUT', headers: ticket.uploadHeaders, body: bytes });
      if (!put.ok) throw new Error(`upload PUT ${put.status}`);
      return (await (await fetch(`${stack.base}/v1/files/upload/${ticket.fileId}/complete`, { method: 'POST', headers: stack.headers, body: '{}' })).json()) as { filename: string; url: string };
    };
    const longBytes = readFileSync(longFile);
    const longQuire: number[] = [];
    const longPoppler: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      longPoppler.push(timed(() => execFileSync('pdftotext', ['-layout', longFile, '/dev/null'])));
      const started = performance.now();
      const ref = await upload(asNewDocument(longBytes, 'pdf', round), 'long.pdf');
      await stack.timedRun('/v1/parses', { document: ref, bust_cache: true });
      longQuire.push((performance.now() - started) / 1000);
    }
    long = { poppler: median(longPoppler), pdfminer: pdfminerTime(longFile), quire: median(longQuire) };

    // Fixed cost: a real 1-page PDF, through the API and read in this process.
    const one = files.filter((f) => f.pages === 1).sort((a, b) => readFileSync(a.file).length - readFileSync(b.file).length)[0]!;
    const bytes = readFileSync(one.file);
    const api: number[] = [];
    const read: number[] = [];
    for (let round = 0; round < FIXED_ROUNDS; round++) {
      api.push(await parse(asNewDocument(bytes, 'pdf', 1000 + round), 'one.pdf'));
      const started = performance.now();
      await readDocument(new Uint8Array(bytes), { kind: 'pdf', dpi: 200, deadline: Date.now() + 60_000 });
      read.push((performance.now() - started) / 1000);
    }
    fixed = { api: median(api), read: median(read) };
    console.log(`\nfixed cost: ${one.path} (1 page, ${(bytes.length / 1024).toFixed(0)} KiB): sync parse through the API ${(fixed.api * 1000).toFixed(0)} ms, reading it in process ${(fixed.read * 1000).toFixed(0)} ms → fixed cost ${((fixed.api - fixed.read) * 1000).toFixed(0)} ms`);
  });

  const pages = rows.reduce((s, r) => s + r.pages, 0);
  const poppler = rows.reduce((s, r) => s + r.poppler, 0);
  const quire = rows.reduce((s, r) => s + r.quire, 0);
  console.log(`\n## Parse speed on real PDFs (${rows.length} born-digital corpus PDFs, ${pages} pages; each file's median of ${ROUNDS} interleaved rounds)\n`);
  console.log('| reader | pages/s | × pdftotext |\n|---|---:|---:|');
  console.log(`| poppler pdftotext -layout | ${(pages / poppler).toFixed(1)} | 1.00 |`);
  const raw = rows.reduce((s, r) => s + r.raw, 0);
  console.log(`| pdf.js getTextContent alone (text only, in process, one thread) | ${(pages / raw).toFixed(1)} | ${(poppler / raw).toFixed(2)} |`);
  console.log(`| Quire sync POST /v1/parses (whole API) | ${(pages / quire).toFixed(1)} | ${(poppler / quire).toFixed(2)} |`);
  const textOnly = rows.filter((r) => ocrPages.get(r.path) === 0);
  const sum = (key: 'pages' | 'poppler' | 'quire' | 'raw') => textOnly.reduce((s, r) => s + r[key], 0);
  const ocrRead = rows.filter((r) => ocrPages.get(r.path)! > 0).map((r) => `${r.path.split('/').pop()} ${ocrPages.get(r.path)} of ${r.pages}`);
  console.log(
    `| Quire, the ${textOnly.length} PDFs read without OCR (${sum('pages')} pages; OCR read ${ocrRead.join(', ') || 'none'}) | ${(sum('pages') / sum('quire')).toFixed(1)} | ${(sum('poppler') / sum('quire')).toFixed(2)} |`,
  );
  // Pages with pictures that hold text: each page's own time in process, and the whole API's time for
  // the PDFs holding them over their pages (their text pages' time counted against them too).
  const withPictures = rows.filter((r) => picturePages.get(r.path)! > 0);
  const sorted = [...pictureTimes].sort((a, b) => a - b);
  const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const pictureApi = withPictures.reduce((s, r) => s + r.quire, 0);
  const picturePdfPages = withPictures.reduce((s, r) => s + r.pages, 0);
  console.log(
    `| Quire, the ${withPictures.length} PDFs with pictures that hold text (${picturePdfPages} pages, ${pictureTimes.length} of them with picture text) | ${(picturePdfPages / pictureApi).toFixed(1)} | ${(withPictures.reduce((s, r) => s + r.poppler, 0) / pictureApi).toFixed(2)} |`,
  );
  const miner = rows.reduce((s, r) => s + r.pdfminer, 0);
  if (pdfminer) console.log(`| pdfminer.six pdf2txt (one run a file) | ${(pages / miner).toFixed(1)} | ${(poppler / miner).toFixed(2)} |\nQuire against pdfminer.six: ${(miner / quire).toFixed(2)}× (goal ≥ 3×)${pdfminerFailed.length ? `; pdfminer failed part-way on ${pdfminerFailed.join(', ')}` : ''}`);
  else console.log('(pdfminer.six not installed: apt-get install python3-pdfminer)');
  console.log(
    `\npages with pictures that hold text: whole API ${(pictureApi / picturePdfPages).toFixed(2)} s a page over their PDFs' pages; each such page in process, taken to read: median ${quantile(0.5).toFixed(2)} s, p90 ${quantile(0.9).toFixed(2)} s, slowest ${quantile(1).toFixed(2)} s (goal ≤ 0.5 s a page)`,
  );
  for (const r of withPictures) console.log(`   ${r.path}: ${picturePages.get(r.path)} of ${r.pages} pages with picture text; Quire ${(r.quire * 1000).toFixed(0)} ms, pdftotext ${(r.poppler * 1000).toFixed(0)} ms`);
  console.log(`\n## One long document: ${longPages} pages of those PDFs, uploaded in three steps and parsed by reference (median of ${ROUNDS})\n`);
  console.log('| reader | seconds | pages/s | × pdftotext |\n|---|---:|---:|---:|');
  console.log(`| poppler pdftotext -layout | ${long.poppler.toFixed(1)} | ${(longPages / long.poppler).toFixed(1)} | 1.00 |`);
  if (pdfminer) console.log(`| pdfminer.six pdf2txt | ${long.pdfminer.toFixed(1)} | ${(longPages / long.pdfminer).toFixed(1)} | ${(long.poppler / long.pdfminer).toFixed(2)} |`);
  console.log(`| Quire, upload + parse (whole API) | ${long.quire.toFixed(1)} | ${(longPages / long.quire).toFixed(1)} | ${(long.poppler / long.quire).toFixed(2)} (goal ≥ 0.25) |`);
  // A long document's parse fans out over page ranges (functions/parses/ranges.ts): each range's read
  // as one range task does it, in this process, for what 2,000 pages would take on AWS (README).
  const { rangePages, minPages, concurrency } = fanOutSettings();
  const rangeTimes: number[] = [];
  for (let first = 1; first <= longPages; first += rangePages) {
    const started = performance.now();
    await readPdfRange(new Uint8Array(readFileSync(longFile)), { dpi: 192, deadline: Date.now() + 600_000, pages: { first, last: Math.min(longPages, first + rangePages - 1) } });
    rangeTimes.push((performance.now() - started) / 1000);
  }
  console.log(
    `\nfan-out (over ${minPages} pages, ranges of ${rangePages}, ${concurrency} at once): each range of the long document read in process: ${rangeTimes.map((t) => t.toFixed(2)).join(', ')} s (median ${median(rangeTimes).toFixed(2)} s, slowest ${Math.max(...rangeTimes).toFixed(2)} s)`,
  );
  rmSync(workDir, { recursive: true, force: true });
  if (process.env.PARSE_REAL_ROWS) writeFileSync(process.env.PARSE_REAL_ROWS, JSON.stringify(rows.map((r) => ({ ...r, ocrPages: ocrPages.get(r.path) })), null, 1));
  console.log('\nslowest files against pdftotext:');
  for (const r of [...rows].sort((a, b) => b.quire / b.poppler - a.quire / a.poppler).slice(0, 8)) {
    console.log(`   ${r.path}: ${r.pages} pages, Quire ${(r.quire * 1000).toFixed(0)} ms (${(r.pages / r.quire).toFixed(1)} pages/s), pdftotext ${(r.poppler * 1000).toFixed(0)} ms → ${(r.poppler / r.quire).toFixed(2)}×`);
  }
}
