/**
 * The check an uploaded document gets (POST /v1/files, the upload's complete): what a read would
 * refuse when it opens the document, refused now with the read's own message, and the page count
 * the File records. Cheap: no page is read, no text, no OCR.
 *
 * It runs in the API Lambdas, which bundle all their code under 1 MB, so it uses only the light
 * parts of the readers: the ZIP directory reader (../documents/zip.ts) and the PDF probe (../documents/pdf-probe.ts),
 * never pdf.js, ExcelJS or the image decoders. What only shows while pages are read (a damaged page,
 * a truncated image) still fails the parse later, as before.
 */
import { ReadFailure } from '../documents/doc.ts';
import { checkInflatedSizes, inflateEntry, readZipDirectory } from '../documents/zip.ts';
import { epubSpine } from '../documents/epub-spine.ts';
import { probePdf } from '../documents/pdf-probe.ts';
import { DocumentProblem, knownPageCount, type DocumentKind } from '../documents/sniff.ts';

export interface CheckedDocument {
  /** Pages as a parse counts them: PDF pages, XLSX sheets, PPTX slides, 1 for a single image or a text; null when not known cheaply. */
  pageCount: number | null;
}

/**
 * Checks a document of `kind` (as sniffed). `readBytes` is called only for the kinds whose check
 * reads the file (PDF, DOCX, XLSX, PPTX, EPUB); the sniffer has already looked at the others.
 * Throws DocumentProblem (a 422) with the message a parse of the document would give.
 */
export async function checkDocument(kind: DocumentKind, readBytes: () => Promise<Uint8Array>): Promise<CheckedDocument> {
  try {
    switch (kind) {
      case 'pdf':
        return { pageCount: probePdf(await readBytes()).pageCount };
      case 'docx':
        checkDocx(await readBytes());
        // A DOCX has no pages of its own: a parse splits it at page breaks, which needs its XML read.
        return { pageCount: null };
      case 'xlsx':
        return { pageCount: xlsxSheetCount(await readBytes()) };
      case 'pptx':
        return { pageCount: pptxSlideCount(await readBytes()) };
      case 'epub':
        // A parse makes a page of each document of the book's spine.
        return { pageCount: epubSpine(await readBytes(), Date.now() + EPUB_CHECK_MS).length };
      default:
        return { pageCount: knownPageCount(kind) };
    }
  } catch (error) {
    if (error instanceof ReadFailure && error.code !== 'timeout') throw new DocumentProblem(error.message, error.code);
    throw error;
  }
}

/** How long the check may parse an EPUB's container and package document (a book's OPF is small). */
const EPUB_CHECK_MS = 5_000;

/** The ZIP checks readDocx makes before it parses any XML (same messages). */
function checkDocx(bytes: Uint8Array): void {
  const what = 'DOCX file';
  const document = readZipDirectory(bytes, what).get('word/document.xml');
  if (!document) throw new ReadFailure(`The ${what} is corrupt (it has no word/document.xml)`);
  checkInflatedSizes([document], what);
}

/** The slides of a presentation (a parse makes one page of each), from ppt/presentation.xml alone. */
function pptxSlideCount(bytes: Uint8Array): number {
  // <p:sldId …/> in the slide list (\b keeps <p:sldIdLst> out).
  return partElements(bytes, 'PPTX file', 'ppt/presentation.xml', /<(?:[\w.-]+:)?sldId\b/g);
}

/** The sheets of a workbook (a parse makes one page of each), from xl/workbook.xml alone. */
function xlsxSheetCount(bytes: Uint8Array): number {
  // <sheet …/> elements, with or without a namespace prefix (\b keeps <sheets> and <sheetPr> out).
  const sheets = partElements(bytes, 'XLSX file', 'xl/workbook.xml', /<(?:[\w.-]+:)?sheet\b/g);
  if (sheets === 0) throw new ReadFailure('The XLSX file has no readable sheets (its xl/workbook.xml is damaged or empty)');
  return sheets;
}

/** How many elements `pattern` matches in one part of an OOXML package (the read's messages for a missing or oversized part). */
function partElements(bytes: Uint8Array, what: string, part: string, pattern: RegExp): number {
  const entry = readZipDirectory(bytes, what).get(part);
  if (!entry) throw new ReadFailure(`The ${what} is corrupt (it has no ${part})`);
  checkInflatedSizes([entry], what);
  return inflateEntry(bytes, entry, what).toString('utf8').match(pattern)?.length ?? 0;
}
