/**
 * Reading a standard form by the place of its boxes (../knowledge/form-layouts.ts). On a page, each of
 * the form's captions printed once is looked for in the words read (OCR misreads a letter in five);
 * a straight fit, across and down apart, maps the form's positions to the page's from where the
 * captions were found. The form is recognised when four captions or more, spread over the page,
 * fit within a small distance; then the words inside each box of interest are its value.
 */
import type { Box } from '../../documents/doc.ts';
import { editDistance } from '../locate.ts';
import { FORM_LAYOUTS, type FormBox, type FormLayout } from '../knowledge/form-layouts.ts';
import type { BusinessValue } from './business.ts';
import { type DocIndex, normalizeToken, type XLine, type XWord } from './extract-index.ts';
import { parseDate } from './extract-values.ts';
import { FORM_LAYOUT_SETTINGS } from './weights/form-layouts.ts';

/** A box's value read where the fit puts it, without a score: the caller weighs it. */
export type BoxValue = Omit<BusinessValue, 'score'>;

const read = new WeakMap<DocIndex, BoxValue[]>();

/** The values of the boxes of the first standard form found on the document's pages (none when none is). */
export function formBoxValues(index: DocIndex): BoxValue[] {
  let values = read.get(index);
  if (!values) {
    values = [];
    const linesOf = new Map<number, XLine[]>();
    for (const line of index.lines) {
      const list = linesOf.get(line.page);
      if (list) list.push(line);
      else linesOf.set(line.page, [line]);
    }
    for (let page = 0; page < index.doc.pages.length && values.length === 0; page++) {
      for (const layout of FORM_LAYOUTS) {
        const fit = fitLayout(linesOf.get(page) ?? [], layout);
        if (!fit) continue;
        const words = index.words.filter((w) => w.page === page && w.box);
        values = layout.boxes.flatMap((box) => boxValue(words, fit, box) ?? []);
        break;
      }
    }
    read.set(index, values);
  }
  return values;
}

/** Where the form's positions fall on the page: page = scale × form + offset, across and down. */
interface Fit {
  x: { scale: number; offset: number };
  y: { scale: number; offset: number };
}

interface CaptionRead {
  form: { x: number; y: number };
  page: { x: number; y: number };
}

/** Where each caption printed once on the page (its lines) was read: the left and top of its first word, in the page's units. */
function captionsRead(lines: XLine[], layout: FormLayout): CaptionRead[] {
  const spelledLines = lines.map((line) => line.words.map((w) => normalizeToken(w.text)));
  const out: CaptionRead[] = [];
  for (const caption of layout.captions) {
    const wanted = normalizeToken(caption.text);
    const allowed = Math.max(1, Math.floor(wanted.length / FORM_LAYOUT_SETTINGS.lettersPerError));
    const found: XWord[] = [];
    lines.forEach((line, l) => {
      const texts = spelledLines[l]!;
      for (let i = 0; i < texts.length; i++) {
        if (texts[i]![0] !== wanted[0] || !line.words[i]!.box) continue;
        let text = '';
        for (let j = i; j < texts.length && text.length < wanted.length; j++) text += texts[j];
        if (editDistance(text, wanted, allowed) <= allowed) found.push(line.words[i]!);
      }
    });
    if (found.length !== 1) continue;
    const box = found[0]!.box!;
    out.push({ form: { x: caption.left, y: caption.top }, page: { x: box.left, y: box.top } });
  }
  return out;
}

/**
 * The least-squares fit of the captions' places on the form to where they were read, across and down
 * apart (a page may be printed or shown stretched). An axis the captions do not spread along takes
 * the other's scale: a form is printed at one scale.
 */
function fitPoints(points: CaptionRead[], aspect: number): Fit | undefined {
  const axis = (form: number[], page: number[]) => {
    const n = form.length;
    const mf = form.reduce((s, v) => s + v, 0) / n;
    const mp = page.reduce((s, v) => s + v, 0) / n;
    let cov = 0;
    let varf = 0;
    for (let i = 0; i < n; i++) {
      cov += (form[i]! - mf) * (page[i]! - mp);
      varf += (form[i]! - mf) ** 2;
    }
    const spread = Math.max(...form) - Math.min(...form);
    return { scale: spread >= FORM_LAYOUT_SETTINGS.minSpread ? cov / varf : undefined, mf, mp };
  };
  const x = axis(points.map((p) => p.form.x), points.map((p) => p.page.x));
  const y = axis(points.map((p) => p.form.y), points.map((p) => p.page.y));
  const xScale = x.scale ?? (y.scale === undefined ? undefined : y.scale / aspect);
  const yScale = y.scale ?? (xScale === undefined ? undefined : xScale * aspect);
  if (xScale === undefined || yScale === undefined || xScale <= 0 || yScale <= 0) return undefined;
  return { x: { scale: xScale, offset: x.mp - xScale * x.mf }, y: { scale: yScale, offset: y.mp - yScale * y.mf } };
}

/** The fit of the form's layout to the page, or undefined when the page is not that form. */
function fitLayout(lines: XLine[], layout: FormLayout): Fit | undefined {
  let points = captionsRead(lines, layout);
  while (points.length >= FORM_LAYOUT_SETTINGS.minCaptions) {
    const fit = fitPoints(points, layout.aspect);
    if (!fit) return undefined;
    // How far each caption lies from its place by the fit, in thousandths of the form.
    const misses = points.map((p) => Math.max(Math.abs((p.page.x - fit.x.offset) / fit.x.scale - p.form.x), Math.abs((p.page.y - fit.y.offset) / fit.y.scale - p.form.y)));
    const worst = misses.indexOf(Math.max(...misses));
    if (misses[worst]! <= FORM_LAYOUT_SETTINGS.fitTolerance) return fit;
    // A caption read somewhere else (a word of a value that spells it): fit without it.
    points = points.filter((_, i) => i !== worst);
  }
  return undefined;
}

/** The words of the page (`pageWords`, all boxed) inside a box (their middle in it), in reading order, and the value they print. */
function boxValue(pageWords: XWord[], fit: Fit, box: FormBox): BoxValue | undefined {
  const toPageX = (v: number) => fit.x.scale * v + fit.x.offset;
  const toPageY = (v: number) => fit.y.scale * v + fit.y.offset;
  const inside = pageWords.filter((w) => {
    const cx = w.box!.left + w.box!.width / 2;
    const cy = w.box!.top + w.box!.height / 2;
    return cx >= toPageX(box.left) && cx <= toPageX(box.right) && cy >= toPageY(box.top) && cy <= toPageY(box.bottom);
  });
  // Marks OCR reads from the box's rules ("|", "»", "[") are no part of a value; nor is a word read
  // twice over itself ("A" "A").
  const words = inside
    .filter((w) => /[\p{L}\p{N}]/u.test(w.text))
    .sort((a, b) => a.line - b.line || a.position - b.position)
    .filter((w, i, all) => i === 0 || w.text !== all[i - 1]!.text || !overlap(w.box!, all[i - 1]!.box!));
  // A box's number printed in the next box's corner, read at the end of a name ("Richmond IOP, PLC 2").
  if (box.kind === 'name') while (words.length > 1 && /^\d{1,2}$/.test(words[words.length - 1]!.text)) words.pop();
  if (words.length === 0) return undefined;
  const text = words.map((w) => w.text).join(' ').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.)]+$/gu, '');
  let value: string | number | undefined;
  switch (box.kind) {
    case 'name':
      value = /\p{L}{2}/u.test(text) ? text : undefined;
      break;
    case 'identifier':
      value = /\p{N}/u.test(text) ? text : undefined;
      break;
    case 'date':
      value = formDate(text);
      break;
    case 'amount':
      value = splitAmount(words, box.centsFrom === undefined ? undefined : toPageX(box.centsFrom));
      break;
  }
  return value === undefined ? undefined : { concept: box.concept, value, words };
}

/** Whether two boxes overlap across. */
function overlap(a: Box, b: Box): boolean {
  return Math.min(a.left + a.width, b.left + b.width) > Math.max(a.left, b.left);
}

/** A date as such forms print it: MMDDYY or MMDDYYYY in digits (OCR may space them), or a date in words or with separators, month first. */
function formDate(text: string): string | undefined {
  const digits = text.replace(/\s+/g, '');
  const m = /^(\d{2})(\d{2})(\d{2}|\d{4})$/.exec(digits);
  return parseDate(m ? `${m[1]}/${m[2]}/${m[3]}` : text, 'mdy')?.iso;
}

/**
 * An amount of a box split into dollars and cents: read as "2169.50", "2169 50" or "216950" (the
 * divider lost, its digits reaching into the cents box). Dollars read without cents are not read
 * whole, and give no value. (Stricter than extract-values.ts's withSplitCents, which reads a column
 * of such amounts without knowing where its cents box begins: here the form says.)
 */
function splitAmount(words: XWord[], centsLeft: number | undefined): number | undefined {
  const runs = words.map((w) => w.text).join(' ').match(/\d+/g) ?? [];
  if (runs.length >= 2) return runs[runs.length - 1]!.length === 2 ? Number(runs.slice(0, -1).join('')) + Number(runs[runs.length - 1]) / 100 : undefined;
  const last = words[words.length - 1]!.box!;
  if (runs.length === 1 && runs[0]!.length >= FORM_LAYOUT_SETTINGS.splitCentsDigits && (centsLeft === undefined || last.left + last.width > centsLeft)) return Number(runs[0]) / 100;
  return undefined;
}
