/**
 * Documents and parses benchmarks (issue: documents and parses):
 * - pages/s of a sync POST /v1/parses on a generated 200-page text PDF through the local stack, next
 *   to raw pdf.js getTextContent and poppler's pdftotext on the same file, in the same run;
 * - OCR seconds per page at 200 dpi with 1 and 2 workers, next to Debian's tesseract CLI
 *   (OMP_THREAD_LIMIT=1) on the same page image;
 * - peak memory (max RSS) of reading and rendering a 500-page PDF, in a fresh process.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pdfjs from '../../functions/documents/pdfjs.ts';
import { createOcrPool } from '../../functions/documents/ocr.ts';
import { REPO_ROOT } from '../../lib/local/invoker.ts';
import { manyPagesPdf } from '../support/pdf-fixtures.ts';
import { withLocalStack } from './stack.ts';
import { greyToPng, renderScan } from '../support/scan-fixtures.ts';


function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

async function rawPdfjs(bytes: Uint8Array): Promise<number> {
  const started = performance.now();
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, disableFontFace: true, isEvalSupported: false, verbosity: 0 }).promise;
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    await page.getTextContent();
    page.cleanup();
  }
  await pdf.destroy();
  return (performance.now() - started) / 1000;
}

/**
 * Timed rounds of each side. The machine is shared and single rounds are noisy: on the same code, one
 * run's rounds spanned 0.61-0.88 of raw pdf.js, so the median is taken over nine.
 */
const ROUNDS = 9;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Seconds of ROUNDS raw pdf.js passes and ROUNDS sync parses through the local stack, interleaved
 * (raw, API, raw, API, ...) so that both sides see the same load; each side warmed first.
 */
async function rawAndApi(bytes: Uint8Array): Promise<{ raw: number[]; api: number[] }> {
  const document = { filename: 'bench.pdf', url: `data:application/pdf;base64,${Buffer.from(bytes).toString('base64')}` };
  return withLocalStack(async (stack) => {
    // Warm, like a warm Lambda: module compilation and the helper thread's start excluded.
    await rawPdfjs(bytes);
    await stack.timedRun('/v1/parses', { document, bust_cache: true });
    await stack.timedRun('/v1/parses', { document, bust_cache: true });
    const raw: number[] = [];
    const api: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raw.push(await rawPdfjs(bytes));
      api.push(await stack.timedRun('/v1/parses', { document, bust_cache: true }));
    }
    return { raw, api };
  });
}

export async function benchParse(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-parse-'));
  try {
    const pages = 200;
    const bytes = await manyPagesPdf(pages);
    const pdfPath = join(dir, 'bench.pdf');
    writeFileSync(pdfPath, bytes);
    const { raw, api } = await rawAndApi(bytes);
    const rows: Array<[string, number]> = [['raw pdf.js getTextContent (warm)', pages / median(raw)]];
    if (has('pdftotext')) {
      const runs: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        execFileSync('pdftotext', ['-layout', pdfPath, join(dir, 'out.txt')]);
        runs.push((performance.now() - started) / 1000);
      }
      rows.push(['poppler pdftotext', pages / median(runs)]);
    }
    rows.push(['Quire POST /v1/parses (whole API)', pages / median(api)]);
    const reference = rows[0]![1];
    console.log(`\nParse of a generated ${pages}-page text PDF (${(bytes.length / 1024).toFixed(0)} KiB), median of ${ROUNDS} interleaved rounds`);
    console.log('| reader | pages/s | × raw pdf.js |\n|---|---:|---:|');
    for (const [name, rate] of rows) console.log(`| ${name} | ${rate.toFixed(1)} | ${(rate / reference).toFixed(2)} |`);
    // Each round's API time against the raw pass just before it: the spread of the ratio under the machine's load.
    const ratios = raw.map((seconds, round) => seconds / api[round]!).sort((a, b) => a - b);
    console.log(`Quire ÷ raw pdf.js per round: ${ratios.map((r) => r.toFixed(2)).join(', ')} (raw ${raw.map((s) => (pages / s).toFixed(0)).join(', ')} pages/s; Quire ${api.map((s) => (pages / s).toFixed(0)).join(', ')} pages/s)`);

    // OCR: the same 200 dpi page, 4 copies.
    const scan = renderScan({ dpi: 200 });
    const pngPath = join(dir, 'page.png');
    writeFileSync(pngPath, greyToPng(scan.image));
    const ocrRows: Array<[string, number]> = [];
    for (const size of [1, 2]) {
      const pool = await createOcrPool({ size });
      await pool.recognize(scan.image); // warm (model load)
      const copies = 4;
      const started = performance.now();
      await Promise.all(Array.from({ length: copies }, () => pool.recognize(scan.image)));
      ocrRows.push([`Quire OCR pool, ${size} worker${size > 1 ? 's' : ''}`, (performance.now() - started) / 1000 / copies]);
      await pool.close();
    }
    if (has('tesseract')) {
      const started = performance.now();
      for (let i = 0; i < 2; i++) execFileSync('tesseract', [pngPath, join(dir, 'tess'), '--dpi', '200'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: 'ignore' });
      ocrRows.push(['tesseract CLI (OMP_THREAD_LIMIT=1)', (performance.now() - started) / 1000 / 2]);
    }
    const cli = ocrRows.find(([name]) => name.startsWith('tesseract'))?.[1];
    console.log('\nOCR of a Letter page at 200 dpi (seconds per page, 4 pages)');
    console.log('| engine | s/page | × tesseract CLI |\n|---|---:|---:|');
    for (const [name, seconds] of ocrRows) console.log(`| ${name} | ${seconds.toFixed(2)} | ${cli ? (seconds / cli).toFixed(2) : 'n/a'} |`);

    // Peak memory of a 500-page parse, in a fresh process.
    const big = join(dir, 'big.pdf');
    writeFileSync(big, await manyPagesPdf(500));
    const script = `
      import { readFileSync } from 'node:fs';
      import { readDocument } from '${join(REPO_ROOT, 'functions/documents/read.ts')}';
      import { renderPage, renderDocText } from '${join(REPO_ROOT, 'functions/documents/render.ts')}';
      const started = performance.now();
      const doc = await readDocument(readFileSync('${big}'), { kind: 'pdf', dpi: 192, deadline: Date.now() + 600000 });
      const text = renderDocText(doc.pages.map((p) => renderPage(p, 'html')));
      console.log(JSON.stringify({ pages: doc.pages.length, seconds: (performance.now() - started) / 1000, chars: text.length, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
    `;
    writeFileSync(join(dir, 'mem.mts'), script);
    const result = JSON.parse(execFileSync('node', ['--import', 'tsx', join(dir, 'mem.mts')], { cwd: REPO_ROOT, encoding: 'utf8' }).trim().split('\n').pop()!) as {
      pages: number;
      seconds: number;
      maxRssMb: number;
    };
    console.log(`\n500-page PDF read + rendered in a fresh process: ${result.pages} pages in ${result.seconds.toFixed(1)} s, peak RSS ${result.maxRssMb.toFixed(0)} MB (goal: within 1 GB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
