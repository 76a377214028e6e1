import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * A PDF with one page per entry, each line of text drawn top-down in Helvetica. Lines wider than the
 * page are wrapped, so no text falls off the page.
 */
export async function textPdf(pages: string[][], fontSize = 11): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const maxWidth = 612 - 2 * 72;
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    const wrapped = lines.flatMap((line) => wrap(line, (text) => font.widthOfTextAtSize(text, fontSize), maxWidth));
    wrapped.forEach((line, i) => page.drawText(line, { x: 72, y: 720 - i * fontSize * 1.45, size: fontSize, font }));
  }
  return doc.save();
}

function wrap(line: string, width: (text: string) => number, maxWidth: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && width(candidate) > maxWidth) {
      out.push(current);
      current = word;
    } else current = candidate;
  }
  if (current) out.push(current);
  return out;
}
