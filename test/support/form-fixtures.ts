/**
 * Forms with known fields, for the edit tests and benchmarks (API §8):
 * - an AcroForm PDF with 15 fields (text, checkboxes, a radio group, a dropdown), its widget boxes
 *   and a JSON instruction document with the value each field must receive;
 * - a flat "paper" form of 2 pages and 20 fields (labels with underscores, drawn lines, boxes, drawn
 *   tick boxes and "[ ]"), its field boxes and `key: value` instructions;
 * - the same flat form rasterized at 200 dpi (a scan: images only, no text layer), with poppler's
 *   pdftoppm.
 * Boxes are 0..1 fractions of the page, origin top-left, like the API's bbox.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

export interface Bbox {
  left: number;
  top: number;
  width: number;
  height: number;
  page: number;
}

const W = 612;
const H = 792;

/** A box given in points from the top-left corner of a Letter page, as a 0..1 bbox. */
const frac = (page: number, x: number, top: number, width: number, height: number): Bbox => ({ left: x / W, top: top / H, width: width / W, height: height / H, page });

export function iou(a: Omit<Bbox, 'page'>, b: Omit<Bbox, 'page'>): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

// ---------------------------------------------------------------------------------------------------
// The AcroForm

export interface AcroExpected {
  /** AcroForm field name. */
  name: string;
  kind: 'text' | 'checkbox' | 'radio' | 'dropdown';
  /** Widget box per option (radio) or the one widget box. */
  boxes: Record<string, Bbox>;
  /** The value the field must end with: text, true/false, the selected option. */
  expected: string | boolean | null;
}

export interface AcroFormFixture {
  bytes: Uint8Array;
  fields: AcroExpected[];
  instructions: Record<string, unknown>;
}

export async function acroFormPdf(): Promise<AcroFormFixture> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([W, H]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const form = pdf.getForm();
  const fields: AcroExpected[] = [];
  page.drawText('Joint Account Application', { x: 72, y: H - 60, size: 16, font });
  const label = (text: string, top: number, x = 72) => page.drawText(text, { x, y: H - top - 14, size: 10, font });

  const text = (name: string, caption: string, x: number, top: number, width: number, expected: string, tooltip?: string) => {
    label(caption, top, x);
    const fieldX = x + font.widthOfTextAtSize(caption, 10) + 8;
    const field = form.createTextField(name);
    field.addToPage(page, { x: fieldX, y: H - top - 18, width, height: 18, borderWidth: 1 });
    if (tooltip) field.acroField.dict.set(pdf.context.obj('TU') as never, pdf.context.obj(tooltip) as never);
    fields.push({ name, kind: 'text', boxes: { [name]: frac(1, fieldX, top, width, 18) }, expected });
  };
  text('owner1_name', 'Owner 1 name:', 72, 100, 200, 'Alice Martin');
  text('owner1_dob', 'Owner 1 date of birth (MM/DD/YYYY):', 72, 130, 100, '04/12/1985');
  text('owner1_email', 'Owner 1 email:', 72, 160, 200, 'alice@example.com');
  text('owner2_name', 'Owner 2 name:', 72, 200, 200, 'Bob Martin');
  text('owner2_dob', 'Owner 2 date of birth (MM/DD/YYYY):', 72, 230, 100, '11/02/1983');
  text('owner2_email', 'Owner 2 email:', 72, 260, 200, 'bob@example.com');
  text('street', 'Street address:', 72, 300, 260, '12 Elm Street');
  text('city', 'City:', 72, 330, 150, 'Springfield');
  text('zip', 'ZIP code:', 330, 330, 80, '62701');
  text('phone', 'Phone:', 72, 360, 150, '555-0100');
  text('deposit', 'Initial deposit ($):', 72, 390, 120, '2,500.00', 'Initial deposit amount ($)');

  // Dropdown.
  label('State:', 420);
  const state = form.createDropdown('state');
  state.addOptions(['California', 'Illinois', 'New York', 'Texas']);
  const stateX = 72 + font.widthOfTextAtSize('State:', 10) + 8;
  state.addToPage(page, { x: stateX, y: H - 420 - 18, width: 120, height: 18 });
  fields.push({ name: 'state', kind: 'dropdown', boxes: { state: frac(1, stateX, 420, 120, 18) }, expected: 'Illinois' });

  // Radio group.
  label('Account type:', 460);
  const radio = form.createRadioGroup('account_type');
  const radioBoxes: Record<string, Bbox> = {};
  ['Checking', 'Savings'].forEach((option, i) => {
    const x = 160 + i * 110;
    radio.addOptionToPage(option, page, { x, y: H - 460 - 14, width: 14, height: 14, borderWidth: 0 });
    page.drawText(option, { x: x + 20, y: H - 460 - 12, size: 10, font });
    radioBoxes[option] = frac(1, x, 460, 14, 14);
  });
  fields.push({ name: 'account_type', kind: 'radio', boxes: radioBoxes, expected: 'Savings' });

  // Checkboxes.
  const check = (name: string, caption: string, top: number, expected: boolean) => {
    const box = form.createCheckBox(name);
    box.addToPage(page, { x: 72, y: H - top - 14, width: 14, height: 14, borderWidth: 0 });
    page.drawText(caption, { x: 92, y: H - top - 12, size: 10, font });
    fields.push({ name, kind: 'checkbox', boxes: { [name]: frac(1, 72, top, 14, 14) }, expected });
  };
  check('agree_terms', 'I agree to the terms and conditions', 500, true);
  check('paperless', 'Paperless statements', 530, false);

  return {
    bytes: await pdf.save(),
    fields,
    instructions: {
      owners: [
        { name: 'Alice Martin', date_of_birth: '1985-04-12', email: 'alice@example.com' },
        { name: 'Bob Martin', date_of_birth: '1983-11-02', email: 'bob@example.com' },
      ],
      street_address: '12 Elm Street',
      city: 'Springfield',
      state: 'Illinois',
      zip: '62701',
      phone: '555-0100',
      initial_deposit: 2500,
      account_type: 'Savings',
      agree_to_terms: true,
      paperless: false,
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The flat form

export interface FlatExpected {
  /** What the field is (for messages). */
  label: string;
  type: 'text' | 'checkbox';
  box: Bbox;
  /** The value it must receive ("true"/"false" for tick boxes), or null when the instructions give none. */
  expected: string | null;
}

export interface FlatFormFixture {
  bytes: Uint8Array;
  fields: FlatExpected[];
  instructions: string;
}

/** The writing band above an underline at `lineTop` (points from the top). */
const BAND = 16;

export async function flatFormPdf(): Promise<FlatFormFixture> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const fields: FlatExpected[] = [];
  const size = 11;
  const black = rgb(0, 0, 0);
  /** Draws text with its baseline `baseline` points from the top. */
  const say = (page: PDFPage, text: string, x: number, baseline: number, f: PDFFont = font, s = size) => page.drawText(text, { x, y: H - baseline, size: s, font: f, color: black });
  const hline = (page: PDFPage, x1: number, x2: number, top: number) => page.drawLine({ start: { x: x1, y: H - top }, end: { x: x2, y: H - top }, thickness: 0.8, color: black });
  const rect = (page: PDFPage, x: number, top: number, width: number, height: number) => page.drawRectangle({ x, y: H - top - height, width, height, borderWidth: 0.8, borderColor: black });
  const width = (text: string) => font.widthOfTextAtSize(text, size);

  /** "Label: ______" in text; the underline sits about 1.5 pt under the baseline. */
  const underscores = (pageNo: number, page: PDFPage, caption: string, x: number, baseline: number, count: number, expected: string | null) => {
    const run = '_'.repeat(count);
    say(page, `${caption} ${run}`, x, baseline);
    const left = x + width(`${caption} `);
    fields.push({ label: caption, type: 'text', box: frac(pageNo, left, baseline + 1.5 - BAND, width(run), BAND), expected });
  };
  /** "Label" then a drawn line from the end of the label to `x2`. */
  const drawnLine = (pageNo: number, page: PDFPage, caption: string, x: number, baseline: number, x2: number, expected: string | null) => {
    say(page, caption, x, baseline);
    const x1 = x + width(caption) + 6;
    hline(page, x1, x2, baseline + 2);
    fields.push({ label: caption, type: 'text', box: frac(pageNo, x1, baseline + 2 - BAND, x2 - x1, BAND), expected });
  };
  const tick = (pageNo: number, page: PDFPage, x: number, baseline: number, caption: string, label: string, expected: string | null) => {
    rect(page, x, baseline - 10, 11, 11);
    say(page, caption, x + 16, baseline);
    fields.push({ label, type: 'checkbox', box: frac(pageNo, x, baseline - 10, 11, 11), expected });
  };
  const textTick = (pageNo: number, page: PDFPage, x: number, baseline: number, caption: string, expected: string | null) => {
    say(page, `[   ] ${caption}`, x, baseline);
    fields.push({ label: caption, type: 'checkbox', box: frac(pageNo, x, baseline - size * 0.8, width('[   ]'), size * 1.05), expected });
  };

  // Page 1
  const p1 = pdf.addPage([W, H]);
  say(p1, 'Account Application', 72, 70, bold, 18);
  say(p1, 'Please print clearly. Complete every section.', 72, 92);
  underscores(1, p1, 'Full name:', 72, 130, 40, 'Jane Q. Doe');
  drawnLine(1, p1, 'Date of birth (MM/DD/YYYY):', 72, 165, 400, '07/04/1990');
  underscores(1, p1, 'Email:', 72, 200, 22, 'jane@example.com');
  drawnLine(1, p1, 'Phone:', 330, 200, 540, '555-0123');
  drawnLine(1, p1, 'Street address:', 72, 235, 540, '42 Harbour Street');
  drawnLine(1, p1, 'City:', 72, 270, 300, 'Bristol');
  drawnLine(1, p1, 'ZIP code:', 330, 270, 480, '02110');
  say(p1, 'Account type:', 72, 310);
  tick(1, p1, 160, 310, 'Checking', 'Checking', 'false');
  tick(1, p1, 260, 310, 'Savings', 'Savings', 'true');
  tick(1, p1, 360, 310, 'Business', 'Business', 'false');
  say(p1, 'Employer', 72, 352);
  rect(p1, 140, 338, 300, 20);
  fields.push({ label: 'Employer', type: 'text', box: frac(1, 140, 338, 300, 20), expected: 'Northwind Traders' });
  rect(p1, 72, 380, 250, 40);
  say(p1, 'Annual income (USD)', 76, 391, font, 8);
  fields.push({ label: 'Annual income', type: 'text', box: frac(1, 72, 394, 250, 26), expected: '85,000.00' });
  tick(1, p1, 72, 450, 'I want paperless statements', 'paperless statements', 'true');

  // Page 2
  const p2 = pdf.addPage([W, H]);
  say(p2, 'Second applicant', 72, 70, bold, 14);
  underscores(2, p2, 'Applicant 2 name:', 72, 110, 40, 'John Doe');
  underscores(2, p2, 'Applicant 2 date of birth:', 72, 145, 30, '1988-02-29');
  say(p2, 'Comments', 72, 185);
  rect(p2, 72, 192, 460, 80);
  fields.push({ label: 'Comments', type: 'text', box: frac(2, 72, 192, 460, 80), expected: 'COMMENTS' });
  textTick(2, p2, 72, 310, 'I agree to the terms and conditions', 'true');
  textTick(2, p2, 72, 335, 'Send me marketing emails', null);
  hline(p2, 72, 300, 400);
  say(p2, 'Signature', 72, 414, font, 9);
  fields.push({ label: 'Signature', type: 'text', box: frac(2, 72, 400 - BAND, 228, BAND), expected: 'Jane Doe' });
  drawnLine(2, p2, 'Date:', 330, 398, 520, '2026-11-21');

  const comments =
    'Please open the account before the end of the month. We will transfer our existing savings from another bank, and we would like statements sent to both applicants.';
  const expectedComments = fields.find((f) => f.expected === 'COMMENTS')!;
  expectedComments.expected = comments;
  const instructions = [
    'Full name: Jane Q. Doe',
    'Date of birth: 1990-07-04',
    'Email: jane@example.com',
    'Phone: 555-0123',
    'Street address: 42 Harbour Street',
    'City: Bristol',
    'ZIP code: 02110',
    'Account type: Savings',
    'Employer: Northwind Traders',
    'Annual income: 85000',
    'Paperless statements: yes',
    'Applicant 2 name: John Doe',
    'Applicant 2 date of birth: 1988-02-29',
    `Comments: ${comments}`,
    'I agree to the terms and conditions: yes',
    'Signature: Jane Doe',
    'Date: 2026-11-21',
  ].join('\n');
  return { bytes: await pdf.save(), fields, instructions };
}

/** A PDF as a scan: each page rasterized at `dpi` (pdftoppm) and put back as a page-sized image. */
export async function scannedCopy(bytes: Uint8Array, dpi = 200): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-scan-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-png', join(dir, 'in.pdf'), join(dir, 'page')]);
    const source = await PDFDocument.load(bytes);
    const pdf = await PDFDocument.create();
    const images = readdirSync(dir)
      .filter((f) => f.startsWith('page') && f.endsWith('.png'))
      .sort();
    for (const [i, name] of images.entries()) {
      const { width, height } = source.getPage(i).getSize();
      const image = await pdf.embedPng(readFileSync(join(dir, name)));
      pdf.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
    }
    return pdf.save();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Words of a PDF page with their boxes in points (top-left origin), read by poppler's pdftotext -bbox. */
export function popplerWords(bytes: Uint8Array): Array<{ page: number; text: string; xMin: number; yMin: number; xMax: number; yMax: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bbox-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    const html = execFileSync('pdftotext', ['-bbox', join(dir, 'in.pdf'), '-'], { encoding: 'utf8' });
    const out: Array<{ page: number; text: string; xMin: number; yMin: number; xMax: number; yMax: number }> = [];
    let page = 0;
    for (const line of html.split('\n')) {
      if (line.includes('<page ')) page++;
      const m = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
      if (m) out.push({ page, text: m[5]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"'), xMin: +m[1]!, yMin: +m[2]!, xMax: +m[3]!, yMax: +m[4]! });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
