/**
 * Word boxes on real documents (issue: parsing real documents): where Quire's PDF reader puts each
 * word along its line, against poppler's `pdftotext -bbox-layout`, which places words from the
 * fonts' real glyph widths. Over the born-digital PDFs of ../shared/corpus (read in place), Quire's
 * words are matched to poppler's on the same page by text and position (same text, overlapping
 * vertically, nearest horizontally, one to one), and for the matched words it reports the mean
 * horizontal IoU (overlap of the two x-extents over their union) and the share of words whose left
 * or right edge is off by more than a quarter of poppler's width for it. Extraction sources are drawn
 * from these boxes.
 *
 * `npm run bench -- word-boxes` (WORD_BOXES_ONLY=<substring of a corpus path> for some files).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Box } from '../../functions/documents/doc.ts';
import { readPdf } from '../../functions/documents/pdf.ts';
import { CORPUS_DIR, corpusAvailable, corpusBytes, manifest } from '../support/corpus.ts';

interface Placed {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => (e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ENTITIES[e]!));
/** What both readers agree a word's text is (ligatures and presentation forms spelled out). */
const key = (text: string) => text.normalize('NFKC');

/** Poppler's words, page by page, in points from the page's top-left corner. */
function popplerWords(file: string): Placed[][] {
  const html = execFileSync('pdftotext', ['-bbox-layout', file, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return html.split('<page ').slice(1).map((page) =>
    [...page.matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)].map((m) => ({
      text: key(unescape(m[5]!)),
      left: Number(m[1]),
      top: Number(m[2]),
      right: Number(m[3]),
      bottom: Number(m[4]),
    })),
  );
}

function placed(text: string, box: Box): Placed {
  return { text: key(text), left: box.left, right: box.left + box.width, top: box.top, bottom: box.top + box.height };
}

export interface WordBoxFigures {
  files: number;
  pages: number;
  quireWords: number;
  matched: number;
  meanIoU: number;
  offShare: number;
  seconds: number;
  perFile: Array<{ path: string; matched: number; meanIoU: number; offShare: number }>;
}

/** Pairs of (Quire, poppler) words on one page: same text, on the same line, nearest first, one to one. */
function match(quire: Placed[], poppler: Placed[]): Array<[Placed, Placed]> {
  const byText = new Map<string, Placed[]>();
  for (const p of poppler) {
    const list = byText.get(p.text);
    if (list) list.push(p);
    else byText.set(p.text, [p]);
  }
  const candidates: Array<{ q: Placed; p: Placed; distance: number }> = [];
  for (const q of quire) {
    for (const p of byText.get(q.text) ?? []) {
      const overlap = Math.min(q.bottom, p.bottom) - Math.max(q.top, p.top);
      if (overlap < 0.5 * Math.min(q.bottom - q.top, p.bottom - p.top)) continue;
      const distance = Math.abs((q.left + q.right) / 2 - (p.left + p.right) / 2);
      // Further than two widths away is another occurrence of the word, not this one misplaced.
      if (distance > 2 * (p.right - p.left) + 5) continue;
      candidates.push({ q, p, distance });
    }
  }
  candidates.sort((a, b) => a.distance - b.distance);
  const usedQ = new Set<Placed>();
  const usedP = new Set<Placed>();
  const pairs: Array<[Placed, Placed]> = [];
  for (const { q, p } of candidates) {
    if (usedQ.has(q) || usedP.has(p)) continue;
    usedQ.add(q);
    usedP.add(p);
    pairs.push([q, p]);
  }
  return pairs;
}

export async function measureWordBoxes(only?: string): Promise<WordBoxFigures> {
  const files = manifest()
    .filter((e) => e.path.endsWith('.pdf') && !e.scanned && (!only || e.path.includes(only)))
    .map((e) => e.path);
  let pages = 0;
  let quireWords = 0;
  let iouSum = 0;
  let off = 0;
  let matched = 0;
  let seconds = 0;
  const perFile: WordBoxFigures['perFile'] = [];
  for (const path of files) {
    const reference = popplerWords(join(CORPUS_DIR, path));
    const started = performance.now();
    const read = await readPdf(corpusBytes(path), { deadline: Date.now() + 600_000 });
    seconds += (performance.now() - started) / 1000;
    let fileIoU = 0;
    let fileOff = 0;
    let fileMatched = 0;
    for (const page of read) {
      const theirs = reference[page.number - 1] ?? [];
      if (page.ocr || theirs.length === 0) continue;
      pages++;
      const ours = page.words.filter((w) => w.box).map((w) => placed(w.text, w.box!));
      quireWords += ours.length;
      for (const [q, p] of match(ours, theirs)) {
        const width = p.right - p.left;
        if (width <= 0) continue;
        const union = Math.max(q.right, p.right) - Math.min(q.left, p.left);
        const inter = Math.max(0, Math.min(q.right, p.right) - Math.max(q.left, p.left));
        fileIoU += union > 0 ? inter / union : 1;
        if (Math.abs(q.left - p.left) > width / 4 || Math.abs(q.right - p.right) > width / 4) fileOff++;
        fileMatched++;
      }
    }
    matched += fileMatched;
    iouSum += fileIoU;
    off += fileOff;
    if (fileMatched > 0) perFile.push({ path, matched: fileMatched, meanIoU: fileIoU / fileMatched, offShare: fileOff / fileMatched });
  }
  return { files: perFile.length, pages, quireWords, matched, meanIoU: matched ? iouSum / matched : 0, offShare: matched ? off / matched : 0, seconds, perFile };
}

export async function benchWordBoxes(): Promise<void> {
  if (spawnSync('sh', ['-c', 'command -v pdftotext']).status !== 0) {
    console.log('word-boxes: needs poppler-utils (pdftotext) as the reference');
    return;
  }
  if (!corpusAvailable()) {
    console.log(`word-boxes: needs the corpus at ${CORPUS_DIR}`);
    return;
  }
  const f = await measureWordBoxes(process.env.WORD_BOXES_ONLY);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(`\n## Word boxes against poppler (pdftotext -bbox-layout): ${f.files} born-digital corpus PDFs, ${f.pages} pages\n`);
  console.log('| words matched (of Quire\'s) | mean horizontal IoU | off by > 1/4 of the width | reading time (readPdf, in process) |\n|---:|---:|---:|---:|');
  console.log(`| ${f.matched.toLocaleString('en')} (of ${f.quireWords.toLocaleString('en')}) | ${f.meanIoU.toFixed(4)} | ${pct(f.offShare)} | ${f.seconds.toFixed(2)} s |`);
  console.log('\nworst files (share off):');
  for (const r of [...f.perFile].sort((a, b) => b.offShare - a.offShare).slice(0, 10)) {
    console.log(`   ${r.path}: ${r.matched} words, IoU ${r.meanIoU.toFixed(3)}, off ${pct(r.offShare)}`);
  }
}
