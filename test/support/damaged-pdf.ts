/**
 * PDFs with damaged pages (issue 23 item 6), built with pdf-lib: every page prints one known line,
 * and the pages named are broken as real files break.
 */
import { type PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, StandardFonts } from 'pdf-lib';

/** The line page `n` prints. */
export const pageLine = (n: number) => `Page ${n} reports quarterly revenue of ${n * 1000} euros`;

/**
 * `pages` pages; each page of `broken` (1-based) has its page object missing from the file, a
 * dangling reference in the page tree, as a file whose object was lost or overwritten has. Page n
 * prints `lines[n - 1]` when given, else pageLine(n).
 */
export async function pdfWithBrokenPages(pages: number, broken: number[], lines: string[] = []): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) doc.addPage([500, 300]).drawText(lines[n - 1] ?? pageLine(n), { x: 30, y: 240, size: 16, font, lineHeight: 22 });
  for (const n of broken) doc.context.delete(doc.getPage(n - 1).ref);
  return doc.save({ useObjectStreams: false });
}

/**
 * `pages` pages whose content is damaged where pdf.js reads the page as blank, without a word: on
 * each page of `garbled` the compressed content stream is replaced by bytes that are no zlib data;
 * on each page of `lost` the page's /Contents points to an object missing from the file.
 */
export async function pdfWithDamagedContent(pages: number, { garbled = [], lost = [] }: { garbled?: number[]; lost?: number[] }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) doc.addPage([500, 300]).drawText(pageLine(n), { x: 30, y: 240, size: 16, font });
  for (const n of garbled) {
    const junk = PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode' }) as PDFDict, new Uint8Array(Buffer.from('x\x9c garbage not zlib at all ##########', 'latin1')));
    doc.getPage(n - 1).node.set(PDFName.of('Contents'), doc.context.register(junk));
  }
  for (const n of lost) doc.getPage(n - 1).node.set(PDFName.of('Contents'), PDFRef.of(9999));
  return doc.save({ useObjectStreams: false });
}
