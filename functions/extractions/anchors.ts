/**
 * Provenance in wire form (API §6.2): an engine's Found (native coordinates in page units, sheet
 * cells, character spans) becomes a Source with the anchor of the document type. Computed in the
 * task, where the Doc (and so every page's size) is at hand.
 */
import type { Doc, Origin } from '../documents/doc.ts';
import { columnLetters } from '../documents/columns.ts';
import type { DocumentKind } from '../documents/sniff.ts';
import type { Found, Tree } from '../models/engine.ts';

export type DocumentType = 'pdf' | 'image' | 'csv' | 'xlsx' | 'docx' | 'txt';

export function documentTypeOf(kind: DocumentKind): DocumentType {
  switch (kind) {
    case 'pdf':
    case 'csv':
    case 'xlsx':
    case 'docx':
    case 'txt':
      return kind;
    case 'md':
    // HTML and e-mail words are anchored as text spans of the decoded source (the contract's six
    // types have none of their own); an e-mail's attachments keep their own anchors (a PDF's pdf_bbox).
    case 'html':
    case 'eml':
    case 'msg':
    // An EPUB's words: text spans of its spine's documents read one after another (documents/epub.ts).
    case 'epub':
      return 'txt';
    // A slide's words are boxes on the slide (image_bbox, page = slide): the contract has no
    // presentation anchor.
    case 'pptx':
      return 'image';
    default:
      return 'image';
  }
}

export type Anchor = Record<string, string | number> & { kind: string };

export interface Source {
  content: string;
  context: string;
  anchor: Anchor;
  file_id: string;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function anchorOf(origin: Origin, doc: Doc, type: DocumentType): Anchor {
  switch (origin.kind) {
    case 'box': {
      const page = doc.pages[origin.page - 1];
      const width = page?.width || 1;
      const height = page?.height || 1;
      return {
        kind: type === 'image' ? 'image_bbox' : 'pdf_bbox',
        page: origin.page,
        left: round(origin.box.left / width),
        top: round(origin.box.top / height),
        width: round(origin.box.width / width),
        height: round(origin.box.height / height),
      };
    }
    case 'cell': {
      const column = columnLetters(origin.column);
      const cell = { row: origin.row, column, coordinate: `${column}${origin.row}` };
      if (type === 'xlsx') return { kind: 'spreadsheet_cell', sheet_index: origin.sheetIndex ?? 0, sheet_name: origin.sheetName ?? '', ...cell };
      return { kind: 'csv_cell', ...cell };
    }
    case 'docx_paragraph':
      return { kind: 'docx_text_span', paragraph: origin.paragraph, char_start: origin.charStart, char_end: origin.charEnd };
    case 'docx_cell':
      return { kind: 'docx_table_cell', table: origin.table, row: origin.row, column: origin.column, char_start: origin.charStart, char_end: origin.charEnd };
    case 'text':
      return { kind: 'text_span', line_start: origin.lineStart, line_end: origin.lineEnd, char_start: origin.charStart, char_end: origin.charEnd };
  }
}

function isFound(value: unknown): value is Found {
  return typeof value === 'object' && value !== null && 'origin' in value && 'content' in value;
}

/** The engine's Found tree as Sources (same shape; null stays null). */
export function sourceTree(found: Tree<Found | null>, doc: Doc, type: DocumentType, fileId: string): Tree<Source | null> {
  if (found === null || isFound(found)) {
    return found === null ? null : { content: found.content, context: found.context.slice(0, 200), anchor: anchorOf(found.origin, doc, type), file_id: fileId };
  }
  if (Array.isArray(found)) return found.map((item) => sourceTree(item, doc, type, fileId));
  return Object.fromEntries(Object.entries(found).map(([key, value]) => [key, sourceTree(value, doc, type, fileId)]));
}

/**
 * The sources response's tree (API §6.2): the output's shape, every leaf replaced by
 * `{value, source}`. Arrays keep their items, objects their keys.
 */
export function pairWithSources(output: unknown, sources: unknown): unknown {
  if (Array.isArray(output)) return output.map((item, i) => pairWithSources(item, Array.isArray(sources) ? sources[i] : null));
  if (output !== null && typeof output === 'object') {
    const nested = sources !== null && typeof sources === 'object' && !Array.isArray(sources) && !('anchor' in sources) ? (sources as Record<string, unknown>) : {};
    return Object.fromEntries(Object.entries(output).map(([key, value]) => [key, pairWithSources(value, nested[key] ?? null)]));
  }
  return { value: output, source: output === null || sources === null || typeof sources !== 'object' || !('anchor' in (sources as object)) ? null : sources };
}
