/**
 * Turned scans (issue 23): corpus scans turned 90°, 180° and 270° in memory, read before (OCR of the
 * page as it is, what Quire did) and after (readUpright: OSD, checked by how the reading looks), as
 * word F1 against the upright page's reading, and the orientation found. Also what orientation
 * costs on upright pages (time) and whether they stay as read (F1 against the same reference).
 *
 * `npm run bench -- orientation` reads a fixed sample of 16 scans; ORIENTATION_FILES=all reads every
 * image of the corpus (~67, about 40 minutes on 2 cores).
 */
import type { GreyImage, Word } from '../../functions/documents/doc.ts';
import { decodeImage, type ImageKind } from '../../functions/documents/image.ts';
import { createOcrPool, type OcrPool, readUpright, recognizeAsIs, sizedForOrientation } from '../../functions/documents/ocr.ts';
import { type Turn, turnGrey } from '../../functions/documents/orientation.ts';
import { corpusAvailable, corpusBytes, manifest } from '../support/corpus.ts';

/** A sample across kinds of scans: receipts (thin paper, small print), invoices, letters, cards, forms. */
export const ORIENTATION_SAMPLE = [
  'documents/receipt/X00016469612.jpg',
  'documents/receipt/X00016469623.jpg',
  'documents/receipt/X51005268200.jpg',
  'documents/receipt/X51005337872.jpg',
  'documents/receipt/X51005441398.jpg',
  'documents/receipt/X51005442376.jpg',
  'documents/invoice/invoice_sample1.png',
  'documents/invoice/invoice_sample3.png',
  'documents/invoice/invoice_sample4_bad_quality.jpg',
  'documents/invoice/invoice_sample6.webp',
  'documents/certificate_of_origin/certificate_of_origin_sample3.jpg',
  'documents/demand_letter/demand_letter_sample3.webp',
  'documents/drivers_licence/drivers_licence_sample2.jpg',
  'documents/loss_run/loss_runs_sample4.jpg',
  'documents/medical_bill/medical_bill_sample2.jpg',
  'documents/retail_installment_sale_contract/risc_sample2.jpg',
];

const KINDS: Record<string, ImageKind> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', webp: 'webp', tif: 'tiff', tiff: 'tiff' };

export function imageKind(path: string): ImageKind | undefined {
  return KINDS[path.split('.').pop()!.toLowerCase()];
}

export async function corpusImage(path: string): Promise<GreyImage> {
  return (await decodeImage(corpusBytes(path), imageKind(path)!))[0]!;
}

/** Words as compared: lower case, letters and digits only. */
export function tokens(words: Word[]): string[] {
  return words.map((w) => w.text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')).filter(Boolean);
}

/** Word F1 of two readings (multisets of words). */
export function wordF1(reference: string[], reading: string[]): number {
  if (reference.length + reading.length === 0) return 1;
  const left = new Map<string, number>();
  for (const w of reference) left.set(w, (left.get(w) ?? 0) + 1);
  let hits = 0;
  for (const w of reading) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      hits++;
      left.set(w, n - 1);
    }
  }
  return (2 * hits) / (reference.length + reading.length);
}

/** The clockwise turn that makes a page turned by `turn` upright again. */
export function undo(turn: Turn): Turn {
  return ((360 - turn) % 360) as Turn;
}

interface Row {
  path: string;
  uprightBeforeMs: number;
  uprightAfterMs: number;
  uprightAfterF1: number;
  uprightTurn: Turn;
  turned: Array<{ turn: Turn; beforeF1: number; afterF1: number; found: Turn; osd: Turn | undefined }>;
}

async function measure(pool: OcrPool, path: string): Promise<Row> {
  const image = await corpusImage(path);
  let started = performance.now();
  const reference = tokens(await recognizeAsIs(pool, image));
  const uprightBeforeMs = performance.now() - started;
  started = performance.now();
  const upright = await readUpright(pool, image);
  const uprightAfterMs = performance.now() - started;
  const turned = await Promise.all(
    ([90, 180, 270] as const).map(async (turn) => {
      const page = turnGrey(image, turn);
      const before = tokens(await recognizeAsIs(pool, page));
      const after = await readUpright(pool, page);
      const osd = (await pool.detectOrientation!(sizedForOrientation(page)))?.turn;
      return { turn, beforeF1: wordF1(reference, before), afterF1: wordF1(reference, tokens(after.words)), found: after.turn, osd };
    }),
  );
  return { path, uprightBeforeMs, uprightAfterMs, uprightAfterF1: wordF1(reference, tokens(upright.words)), uprightTurn: upright.turn, turned };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

export async function benchOrientation(): Promise<void> {
  if (!corpusAvailable()) {
    console.log('orientation: the corpus (../shared/corpus) is not here');
    return;
  }
  const paths = process.env.ORIENTATION_FILES === 'all' ? manifest().map((e) => e.path).filter((p) => imageKind(p)) : ORIENTATION_SAMPLE;
  const pool = await createOcrPool({ size: 2 });
  const rows: Row[] = [];
  try {
    await recognizeAsIs(pool, await corpusImage(paths[0]!)); // warm the workers
    for (const path of paths) {
      const row = await measure(pool, path);
      rows.push(row);
      const cells = row.turned.map((t) => `${t.turn}°: ${t.beforeF1.toFixed(2)}→${t.afterF1.toFixed(2)} found ${t.found}${t.found === undo(t.turn) ? '' : ' ✗'} (osd ${t.osd ?? '-'})`);
      console.log(`${path.split('/').pop()!.padEnd(48)} upright ${row.uprightTurn === 0 ? 'ok' : `✗ ${row.uprightTurn}`} F1 ${row.uprightAfterF1.toFixed(2)} ${Math.round(row.uprightBeforeMs)}→${Math.round(row.uprightAfterMs)} ms | ${cells.join(' | ')}`);
    }
  } finally {
    await pool.close();
  }
  const turned = rows.flatMap((r) => r.turned);
  const right = turned.filter((t) => t.found === undo(t.turn)).length;
  const osdRight = turned.filter((t) => t.osd === undo(t.turn)).length;
  const uprightKept = rows.filter((r) => r.uprightTurn === 0).length;
  console.log(`\norientation: ${rows.length} scans, each turned 90°, 180°, 270° (${turned.length} turned pages)`);
  console.log(`  orientation found: ${right}/${turned.length} turned pages (${((100 * right) / turned.length).toFixed(1)}%); OSD alone ${osdRight}/${turned.length}; upright pages kept upright ${uprightKept}/${rows.length}`);
  console.log(`  word F1 of turned pages against the upright reading: before ${mean(turned.map((t) => t.beforeF1)).toFixed(3)}, after ${mean(turned.map((t) => t.afterF1)).toFixed(3)}`);
  for (const turn of [90, 180, 270] as const) {
    const some = turned.filter((t) => t.turn === turn);
    console.log(`    ${turn}°: before ${mean(some.map((t) => t.beforeF1)).toFixed(3)}, after ${mean(some.map((t) => t.afterF1)).toFixed(3)}`);
  }
  console.log(`  upright pages: word F1 after ${mean(rows.map((r) => r.uprightAfterF1)).toFixed(3)} (1 = read as before); time ${Math.round(mean(rows.map((r) => r.uprightBeforeMs)))} → ${Math.round(mean(rows.map((r) => r.uprightAfterMs)))} ms a page`);
}
