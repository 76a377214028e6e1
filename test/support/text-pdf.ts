import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A PDF with one page per entry, each line of text drawn top-down in Helvetica 11 pt. */
export async function textPdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: 720 - i * 16, size: 11, font }));
  }
  return doc.save();
}
