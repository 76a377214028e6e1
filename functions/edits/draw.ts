/**
 * Draws every written value inside its field's box, in the edit's colour (pdf-lib; task code only).
 * Text is fitted to the box: one line shrunk until it fits, or wrapped over several lines when the
 * box is tall enough for them. Ticked checkboxes get a ✓ (ZapfDingbats) sized to the box.
 */
import { rgb, StandardFonts, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import type { FormField } from './schema.ts';

const MAX_FONT = 12;
const MIN_FONT = 4;
const PADDING = 2;
/** ✔ (ZapfDingbats a20). */
const CHECK_MARK = '✔';

export function colorOf(hex: string) {
  const n = Number.parseInt(hex.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/** Keeps the characters the standard font can encode (WinAnsi); the others become "?". */
function encodable(font: PDFFont, text: string): string {
  const chars = font.getCharacterSet();
  const known = new Set(chars);
  return [...text.replace(/[\r\n\t]+/g, ' ')].map((ch) => (known.has(ch.codePointAt(0)!) ? ch : '?')).join('');
}

/** The box of a field in PDF user space (origin bottom-left). */
function pdfBox(page: PDFPage, bbox: FormField['bbox']) {
  const crop = page.getCropBox();
  return {
    x: crop.x + bbox.left * crop.width,
    y: crop.y + crop.height - (bbox.top + bbox.height) * crop.height,
    width: bbox.width * crop.width,
    height: bbox.height * crop.height,
  };
}

/** Words of `text` in lines no wider than `width` at `size` (a word wider than a line is kept whole). */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function drawTextIn(page: PDFPage, font: PDFFont, raw: string, box: ReturnType<typeof pdfBox>, color: ReturnType<typeof rgb>): void {
  const text = encodable(font, raw);
  const width = Math.max(1, box.width - 2 * PADDING);
  let size = Math.max(MIN_FONT, Math.min(MAX_FONT, box.height * 0.7));
  const lineHeight = (s: number) => s * 1.15;
  // Tall boxes (room for two lines at a readable size) wrap; others take one line, shrunk to fit.
  if (box.height >= 2 * lineHeight(8) + 2 * PADDING && font.widthOfTextAtSize(text, size) > width) {
    size = Math.min(MAX_FONT, 10);
    let lines = wrap(font, text, size, width);
    while (size > MIN_FONT && (lines.length * lineHeight(size) > box.height - 2 * PADDING || lines.some((l) => font.widthOfTextAtSize(l, size) > width))) {
      size -= 0.5;
      lines = wrap(font, text, size, width);
    }
    lines.forEach((line, i) => {
      page.drawText(line, { x: box.x + PADDING, y: box.y + box.height - PADDING - (i + 1) * lineHeight(size) + size * 0.2, size, font, color });
    });
    return;
  }
  while (size > MIN_FONT && font.widthOfTextAtSize(text, size) > width) size -= 0.25;
  const y = box.y + (box.height - size * 0.7) / 2;
  page.drawText(text, { x: box.x + PADDING, y, size, font, color });
}

export async function drawValues(pdf: PDFDocument, fields: FormField[], hexColor: string): Promise<void> {
  const color = colorOf(hexColor);
  const pages = pdf.getPages();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const marks = await pdf.embedFont(StandardFonts.ZapfDingbats);
  for (const field of fields) {
    if (field.value === null) continue;
    const page = pages[field.bbox.page - 1];
    if (!page) continue;
    const box = pdfBox(page, field.bbox);
    if (field.type === 'checkbox') {
      if (field.value !== 'true') continue;
      const size = Math.max(MIN_FONT, Math.min(box.width, box.height) * 0.8);
      const markWidth = marks.widthOfTextAtSize(CHECK_MARK, size);
      page.drawText(CHECK_MARK, { x: box.x + (box.width - markWidth) / 2, y: box.y + (box.height - size * 0.7) / 2, size, font: marks, color });
      continue;
    }
    drawTextIn(page, font, field.value, box, color);
  }
}
