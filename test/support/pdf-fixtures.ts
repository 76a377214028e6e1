/**
 * PDF fixtures generated with pdf-lib (deterministic: a seeded generator writes the prose), with the
 * ground truth needed to score reading order, and a word-level edit distance to score it with.
 * Shared by the PDF reader tests, the parse tests and the page-count benchmarks.
 */
import { createCanvas } from '@napi-rs/canvas';
import { degrees, PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';

export interface PdfFixture {
  bytes: Uint8Array;
  /** Per page, the ground-truth words in reading order, separated by single spaces. */
  expectedText: string[];
}

const VOCABULARY = `
  river harbor survey sample water coastal estuary tide current sediment salinity temperature oxygen
  station transect season winter summer spring autumn morning evening team vessel crew captain engineer
  analyst report figure table record measure estimate compare observe collect deliver review approve
  result method model forecast trend increase decrease average median range error budget schedule
  project contract supplier invoice payment balance account customer order shipment warehouse pallet
  quality standard protocol procedure safety hazard permit license inspection audit finding remedy
  council district region village market bridge road canal lighthouse pier dock channel island shore
  north south eastern western upper lower central regional national local annual quarterly monthly
  careful steady gradual sudden notable modest strong weak early late recent former current future
  the a of and to in for with on at by from after before during across between under over through
  while because although since unless until whether each every several many most few some other
  our their its this that these those which where when how why who what
  was were is are has have had will would could should may might must can
  shows suggests confirms reveals indicates requires allows supports explains reduces improves extends
  clear brief detailed thorough limited broad narrow dense sparse fresh salty muddy sandy rocky calm
  signal sensor buoy probe cable battery panel logger archive dataset sheet column figure index
`.split(/\s+/).filter(Boolean);

const HEADINGS = ['Sampling Methods', 'Field Conditions', 'Results Overview', 'Data Quality', 'Next Steps', 'Budget Notes', 'Equipment Log', 'Site Access'];

/** A small deterministic generator (mulberry32), so fixtures are the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** A sentence of realistic vocabulary: capitalized, 7..16 words, ends with a period. */
export function sentence(random: () => number): string {
  const count = 7 + Math.floor(random() * 10);
  const words = Array.from({ length: count }, () => pick(random, VOCABULARY));
  words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')}.`;
}

export function paragraph(random: () => number, sentences = 2 + Math.floor(random() * 3)): string {
  return Array.from({ length: sentences }, () => sentence(random)).join(' ');
}

/** Greedy line breaking at spaces to a width in points. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Word-level Levenshtein distance (insertions, deletions and substitutions of whole words). */
export function wordEditDistance(actual: string[], expected: string[]): number {
  let previous = Array.from({ length: expected.length + 1 }, (_, j) => j);
  for (let i = 1; i <= actual.length; i++) {
    const current = [i];
    for (let j = 1; j <= expected.length; j++) {
      const substitution = previous[j - 1]! + (actual[i - 1] === expected[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1));
    }
    previous = current;
  }
  return previous[expected.length]!;
}

export const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

// ---------------------------------------------------------------------------------------------------
// Multi-column prose

interface SetLine {
  text: string;
  bold: boolean;
  size: number;
  /** Extra space above the line (paragraph or heading spacing), dropped at the top of a column. */
  gapBefore: number;
}

/** An endless stream of lines: paragraphs wrapped to a column width, with a subheading now and then. */
function lineStream(random: () => number, font: PDFFont, bold: PDFFont, size: number, width: number): () => SetLine {
  let queue: SetLine[] = [];
  let paragraphs = 0;
  return () => {
    if (queue.length === 0) {
      if (paragraphs > 0 && paragraphs % 3 === 0) queue.push({ text: pick(random, HEADINGS), bold: true, size: size + 2, gapBefore: size });
      const lines = wrap(paragraph(random), font, size, width);
      queue.push(...lines.map((text, k) => ({ text, bold: false, size, gapBefore: k === 0 && paragraphs > 0 ? size * 0.6 : 0 })));
      paragraphs++;
    }
    return queue.shift()!;
  };
}

interface ColumnsOptions {
  pages: number;
  /** Draw a big diagonal "DRAFT" across each page (not part of the expected text). */
  watermark: boolean;
  columns: number;
  seed: number;
  size: number;
  gutter: number;
}

async function columnsPdf(options: ColumnsOptions): Promise<PdfFixture> {
  const { pages, columns, size, gutter } = options;
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const random = seededRandom(options.seed);
  const margin = 54;
  const columnWidth = (612 - 2 * margin - (columns - 1) * gutter) / columns;
  const leading = size * 1.25;
  const next = lineStream(random, font, bold, size, columnWidth);
  const expectedText: string[] = [];
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([612, 792]);
    const title = `Coastal Survey Field Notes Part ${n}`;
    // Fill every column top to bottom first, remembering where each line goes.
    const placed: { text: string; x: number; y: number; bold: boolean; size: number }[][] = [];
    let pending: SetLine | undefined;
    for (let c = 0; c < columns; c++) {
      const column: (typeof placed)[number] = [];
      let y = 792 - 112;
      for (;;) {
        const line: SetLine = pending ?? next();
        pending = undefined;
        const top = column.length === 0 ? y : y - line.gapBefore;
        if (top - line.size < 96) {
          pending = line;
          break;
        }
        y = top;
        column.push({ text: line.text, x: margin + c * (columnWidth + gutter), y, bold: line.bold, size: line.size });
        y -= leading;
      }
      placed.push(column);
    }
    const footer = `Page ${n} of ${pages}`;
    // The content stream interleaves the columns: line 1 of each column, then line 2 of each, …
    page.drawText(title, { x: margin, y: 792 - 80, size: 20, font: bold });
    const rows = Math.max(...placed.map((c) => c.length));
    for (let row = 0; row < rows; row++) {
      for (const column of placed) {
        const line = column[row];
        if (line) page.drawText(line.text, { x: line.x, y: line.y, size: line.size, font: line.bold ? bold : font });
      }
    }
    page.drawText(footer, { x: 306 - font.widthOfTextAtSize(footer, 9) / 2, y: 40, size: 9, font });
    if (options.watermark) page.drawText('DRAFT', { x: 170, y: 250, size: 120, font: bold, rotate: degrees(45), color: rgb(0.85, 0.85, 0.85), opacity: 0.5 });
    expectedText.push([title, ...placed.flat().map((l) => l.text), footer].join(' '));
  }
  return { bytes: await doc.save(), expectedText };
}

/** Pages with a full-width title, two interleaved columns of prose and a "Page N of M" footer. */
export function twoColumnPdf(options: { pages?: number; seed?: number; watermark?: boolean } = {}): Promise<PdfFixture> {
  return columnsPdf({ pages: options.pages ?? 3, columns: 2, seed: options.seed ?? 7, size: 10, gutter: 24, watermark: options.watermark ?? false });
}

/** Pages with a title, three interleaved narrow columns and a centered footer below the middle one. */
export function threeColumnPdf(options: { pages?: number; seed?: number; watermark?: boolean } = {}): Promise<PdfFixture> {
  return columnsPdf({ pages: options.pages ?? 1, columns: 3, seed: options.seed ?? 11, size: 9, gutter: 18, watermark: options.watermark ?? false });
}

// ---------------------------------------------------------------------------------------------------
// Structure

/** A heading, a paragraph, a bullet list (markers drawn apart), a numbered and a lettered list. */
export async function listsPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([612, 792]);
  let y = 792 - 80;
  const text = (s: string, x: number, size = 10, f = font) => page.drawText(s, { x, y, size, font: f });
  text('Project Checklist', 72, 20, bold);
  y -= 34;
  text('The field team prepares the following items before every survey of the', 72);
  y -= 12.5;
  text('estuary, and reports any missing equipment to the station manager.', 72);
  y -= 26;
  text('Materials', 72, 14, bold);
  y -= 22;
  text('•', 76);
  text('Fresh water sample bottles', 88);
  y -= 12.5;
  text('•', 76);
  text('Calibrated sensors for the survey team, checked against the reference', 88);
  y -= 12.5;
  text('probe on the morning of departure', 88);
  y -= 12.5;
  text('•', 76);
  text('Spare batteries and cables', 88);
  y -= 26;
  text('PROCEDURE', 72);
  y -= 20;
  for (const item of ['1. Collect the samples at dawn', '2. Label each bottle clearly', '3. Ship them to the laboratory']) {
    text(item, 76);
    y -= 12.5;
  }
  y -= 12;
  for (const item of ['a) Record the water temperature', 'b) Note the weather at the station']) {
    text(item, 76);
    y -= 12.5;
  }
  y -= 12;
  text('Questions go to the regional office before the end of the month.', 72);
  return doc.save();
}

/** A single-column report whose pages share a running header and a "Page N of M" footer. */
export async function runningHeadsPdf(pageCount: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const random = seededRandom(23);
  for (let n = 1; n <= pageCount; n++) {
    const page = doc.addPage([612, 792]);
    page.drawText('Quire Quarterly Review', { x: 72, y: 792 - 40, size: 9, font });
    let y = 792 - 96;
    for (let p = 0; p < 3; p++) {
      for (const line of wrap(paragraph(random), font, 11, 468)) {
        page.drawText(line, { x: 72, y, size: 11, font });
        y -= 14;
      }
      y -= 10;
    }
    const footer = `Page ${n} of ${pageCount}`;
    page.drawText(footer, { x: 306 - font.widthOfTextAtSize(footer, 9) / 2, y: 36, size: 9, font });
  }
  return doc.save();
}

/** A /Rotate 90 page whose text is drawn turned, so it reads upright as displayed (792 × 612). */
export async function rotatedPdf(): Promise<PdfFixture> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.setRotation(degrees(90));
  const lines = ['Landscape summary of the harbor survey', 'Water temperature rose during the summer season', 'Salinity stayed steady across every station'];
  // Displayed (X, Y) is user (Y, X) here: a baseline at displayed Y = 72 + 16k is user x = 72 + 16k.
  lines.forEach((line, k) => page.drawText(line, { x: 72 + 16 * k, y: 72, size: 12, font, rotate: degrees(90) }));
  return { bytes: await doc.save(), expectedText: [lines.join(' ')] };
}

/** A short text, then a stroked horizontal line, a thin filled bar and a stroked rectangle. */
export async function ruledPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Quarterly totals by station', { x: 72, y: 700, size: 12, font });
  page.drawLine({ start: { x: 72, y: 600 }, end: { x: 300, y: 600 }, thickness: 1 });
  page.drawRectangle({ x: 72, y: 500, width: 200, height: 0.5, color: rgb(0, 0, 0) });
  page.drawRectangle({ x: 72, y: 400, width: 200, height: 50, borderWidth: 1, borderColor: rgb(0, 0, 0) });
  return doc.save();
}

/** A label, a filled text field, a selected dropdown and a checked box (an unflattened form). */
export async function formPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  const form = doc.getForm();
  page.drawText('Name:', { x: 72, y: 700, size: 12, font });
  const name = form.createTextField('name');
  name.setText('Jane Harbor');
  name.addToPage(page, { x: 130, y: 694, width: 200, height: 20, font });
  page.drawText('Color:', { x: 72, y: 660, size: 12, font });
  const color = form.createDropdown('color');
  color.addOptions(['Red', 'Blue']);
  color.select('Blue');
  color.addToPage(page, { x: 130, y: 654, width: 100, height: 20, font });
  const agree = form.createCheckBox('agree');
  agree.addToPage(page, { x: 72, y: 620, width: 12, height: 12 });
  agree.check();
  return doc.save();
}

/**
 * Page 1 is only an image (a "scan"), page 2 has real text, page 3 is a scan with a stamped page
 * number in its text layer (a page-sized image and a few stray characters still make a scanned page).
 */
export async function scannedPdf(): Promise<Uint8Array> {
  const canvas = createCanvas(200, 260);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 200, 260);
  context.fillStyle = '#000000';
  context.fillRect(20, 20, 160, 8);
  const png = await canvas.encode('png');
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('A page with a real text layer', { x: 72, y: 700, size: 12, font });
  const stamped = doc.addPage([612, 792]);
  stamped.drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  stamped.drawText('17', { x: 560, y: 30, size: 10, font });
  return doc.save();
}

/** `pageCount` single-column pages of prose (for reading-speed checks and benchmarks). */
export async function manyPagesPdf(pageCount: number, seed = 31): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const random = seededRandom(seed);
  // A pool of pre-wrapped paragraphs keeps generation fast for hundreds of pages.
  const pool = Array.from({ length: 40 }, () => wrap(paragraph(random, 4), font, 10.5, 468));
  for (let n = 1; n <= pageCount; n++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Section ${n}`, { x: 72, y: 792 - 72, size: 16, font });
    let y = 792 - 104;
    for (let p = 0; y > 120; p++) {
      for (const line of pool[(n * 7 + p) % pool.length]!) {
        if (y < 100) break;
        page.drawText(line, { x: 72, y, size: 10.5, font });
        y -= 13;
      }
      y -= 8;
    }
    page.drawText(`${n}`, { x: 300, y: 40, size: 9, font });
  }
  return doc.save();
}

// ---------------------------------------------------------------------------------------------------
// Broken and protected files

/**
 * A PDF written by hand: `objects` numbered from 1 (the first is the catalog), a cross-reference
 * table, and a trailer with `trailerEntries` added to /Size and /Root.
 */
export function pdfOfObjects(objects: string[], trailerEntries = ''): Uint8Array {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailerEntries} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}

/**
 * A minimal hand-written PDF whose trailer names a Standard security handler (RC4, revision 2) with
 * a user password that is not empty: pdf.js asks for a password. pdf-lib cannot encrypt.
 */
export function encryptedPdf(): Uint8Array {
  const hex32 = (seed: number) => Array.from({ length: 32 }, (_, i) => ((seed * 31 + i * 17) & 0xff).toString(16).padStart(2, '0')).join('');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    `<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${hex32(3)}> /U <${hex32(5)}> >>`,
  ];
  const id = '0123456789abcdef0123456789abcdef';
  return pdfOfObjects(objects, ` /Encrypt 4 0 R /ID [<${id}> <${id}>]`);
}

