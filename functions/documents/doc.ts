/**
 * The Doc model: every supported file is read into this, and every operation (parse, split, classify,
 * extract, edit, schema generation) reads documents only through it. Pure data, no I/O.
 *
 * Geometry is in the page's own units (PDF points, image pixels), origin top-left, y down.
 * `origin` keeps the native coordinates provenance needs (API §6.2): page + box for PDFs and images,
 * sheet/row/column for spreadsheets and CSV, paragraph or table cell + character offsets for DOCX,
 * line + character offsets for text files.
 */
import type { DocumentKind } from './sniff.ts';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where a piece of text sits in the original file (API §6.2 anchors before normalization). */
export type Origin =
  /** PDF or image: 1-based page (or frame) and a box in page units. */
  | { kind: 'box'; page: number; box: Box }
  /** XLSX (with sheet) or CSV: 1-based row (the header row is 1), 0-based column. */
  | { kind: 'cell'; sheetIndex?: number; sheetName?: string; row: number; column: number }
  /** DOCX body paragraph (0-based, headings and list items included, table paragraphs not). */
  | { kind: 'docx_paragraph'; paragraph: number; charStart: number; charEnd: number }
  /** DOCX table cell (all 0-based). */
  | { kind: 'docx_cell'; table: number; row: number; column: number; charStart: number; charEnd: number }
  /** Text file: 1-based lines; code-point offsets in the decoded text, end exclusive. */
  | { kind: 'text'; lineStart: number; lineEnd: number; charStart: number; charEnd: number };

export interface Word {
  text: string;
  /** Present for PDFs and images. */
  box?: Box;
  origin: Origin;
  /** OCR confidence 0..100, for OCRed words. */
  confidence?: number;
}

/**
 * Whether a word was read by OCR: only OCR's words carry a confidence. On a page that is no scan
 * (Page.ocr false), those are the words read in its pictures (./pictures.ts).
 */
export function readByOcr(word: { confidence?: number }): boolean {
  return word.confidence !== undefined;
}

export interface Line {
  text: string;
  box?: Box;
  /** Indices into `page.words`, in reading order. */
  words: number[];
}

export type BlockKind = 'heading' | 'paragraph' | 'list_item' | 'table';

export interface Block {
  kind: BlockKind;
  /** Heading level 1..6. */
  level?: number;
  /** The block's text without Markdown markers (list bullets/numbers are kept as printed). */
  text: string;
  box?: Box;
  /** Indices into `page.lines`. */
  lines: number[];
  /** For `table` blocks: index into `page.tables`. */
  table?: number;
}

export interface Cell {
  /** 0-based position in the grid. */
  row: number;
  column: number;
  rowSpan: number;
  columnSpan: number;
  text: string;
  box?: Box;
  /** Indices into `page.words` of the words in this cell. */
  words: number[];
}

export interface Table {
  rowCount: number;
  columnCount: number;
  /** How many leading rows are header rows (0 when none was detected). */
  headerRows: number;
  cells: Cell[];
  box?: Box;
  /**
   * A form's captioned boxes read as a grid (each caption over its value, several a row): its captions
   * every other row from row `captionRow`, or, without it, each box's caption atop its value in the box.
   * Kept for what reads values by their captions (extraction, sources), rendered as captions and
   * values, and no table of the page's (dataTables).
   */
  form?: { captionRow?: 0 | 1 };
}

/** A page's tables of data: its tables but a form's captioned boxes. */
export function dataTables(page: Page): Table[] {
  return page.tables.filter((table) => !table.form);
}

export interface Page {
  /** 1-based page number (sheet number for spreadsheets). */
  number: number;
  width: number;
  height: number;
  unit: 'pt' | 'px' | 'none';
  /** Sheet name, for spreadsheets. */
  name?: string;
  /** Whether the words came from OCR. */
  ocr: boolean;
  words: Word[];
  lines: Line[];
  /** In reading order. */
  blocks: Block[];
  tables: Table[];
  /**
   * Straight lines drawn on the page (PDF vector strokes; for scanned pages, the long dark runs of
   * the raster), in page units: form field detection reads underlines and boxes from them.
   */
  rules?: Rule[];
  /**
   * Form filling only (read with `forms`): light-shaded rectangles of input-box size, in page units —
   * many forms mark where to write by shading, with no drawn border.
   */
  shaded?: Box[];
  /** Form filling only (read with `forms`): small round outlines (radio buttons "○"), in page units. */
  rings?: Box[];
  /**
   * OCRed pages read by a second reader too (OcrPool.readSecond): its words, in the same units and
   * coordinates as `words`. Not part of any output: extraction reads the page both ways and keeps
   * what the readings agree on (models/local/extract.ts).
   */
  secondWords?: Word[];
  /** How many fillable form fields (PDF widget annotations) the page has; absent when none. */
  formFields?: number;
  /**
   * Why the page could not be read, when it could not (a damaged page of an otherwise readable
   * document): the page is then empty, and the parse lists it in `failed_pages` rather than failing.
   */
  failure?: string;
}

export interface Doc {
  kind: DocumentKind;
  pages: Page[];
}

/** A cell grid as rows of strings (merged cells repeat their text in the first slot only). */
export function tableRows(table: Table): string[][] {
  const rows = Array.from({ length: table.rowCount }, () => Array<string>(table.columnCount).fill(''));
  for (const cell of table.cells) rows[cell.row]![cell.column] = cell.text;
  return rows;
}

export function unionBox(boxes: Box[]): Box | undefined {
  if (boxes.length === 0) return undefined;
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const b of boxes) {
    if (b.left < left) left = b.left;
    if (b.top < top) top = b.top;
    if (b.left + b.width > right) right = b.left + b.width;
    if (b.top + b.height > bottom) bottom = b.top + b.height;
  }
  return { left, top, width: right - left, height: bottom - top };
}

/** The union of two boxes (the hot path of line building: no array). */
export function unionOfTwo(a: Box, b: Box): Box {
  const left = Math.min(a.left, b.left);
  const top = Math.min(a.top, b.top);
  return { left, top, width: Math.max(a.left + a.width, b.left + b.width) - left, height: Math.max(a.top + a.height, b.top + b.height) - top };
}

/** A straight line drawn on a page (table borders, underlines), in page units. */
export interface Rule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A greyscale raster: one byte per pixel, row-major (0 black, 255 white). */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
  /** Dots per inch the raster was made or scanned at (72 when unknown). */
  dpi: number;
}

/** A document that cannot be read; readers throw this (never a crash) and the service maps it. */
export class ReadFailure extends Error {
  constructor(
    message: string,
    readonly code: 'document_invalid' | 'document_unsupported' | 'timeout' = 'document_invalid',
  ) {
    super(message);
    this.name = 'ReadFailure';
  }
}

/** The pages of a document that could not be read, 1-based by position, with the reason (API §3 failed_pages). */
export function failedPages(doc: Doc): Array<{ page: number; reason: string }> {
  return doc.pages.flatMap((page, i) => (page.failure === undefined ? [] : [{ page: i + 1, reason: page.failure }]));
}

/** Reading limits (issue: documents up to 2,000 pages; every reader has a time budget). */
export const MAX_PAGES = 2000;
