/** Found origins → API §6.2 anchors, for every document type. */
import { describe, expect, it } from 'vitest';
import type { Doc, Origin } from '../../../functions/documents/doc.ts';
import { anchorOf, documentTypeOf, pairWithSources, sourceTree } from '../../../functions/extractions/anchors.ts';
import { checkSchema } from '../../../functions/extractions/json-schema.ts';

const doc = (width: number, height: number): Doc => ({
  kind: 'pdf',
  pages: [{ number: 1, width, height, unit: 'pt', ocr: false, words: [], lines: [], blocks: [], tables: [] }, { number: 2, width: 200, height: 100, unit: 'pt', ocr: false, words: [], lines: [], blocks: [], tables: [] }],
});

describe('anchorOf', () => {
  it('normalizes boxes to 0..1 of their own page, origin top-left', () => {
    const origin: Origin = { kind: 'box', page: 2, box: { left: 50, top: 25, width: 100, height: 10 } };
    expect(anchorOf(origin, doc(612, 792), 'pdf')).toEqual({ kind: 'pdf_bbox', page: 2, left: 0.25, top: 0.25, width: 0.5, height: 0.1 });
    expect(anchorOf(origin, doc(612, 792), 'image')).toMatchObject({ kind: 'image_bbox', page: 2 });
  });

  it('gives CSV and spreadsheet cells letters and coordinates (header row is 1)', () => {
    expect(anchorOf({ kind: 'cell', row: 12, column: 2 }, doc(1, 1), 'csv')).toEqual({ kind: 'csv_cell', row: 12, column: 'C', coordinate: 'C12' });
    expect(anchorOf({ kind: 'cell', sheetIndex: 1, sheetName: 'Stock', row: 3, column: 27 }, doc(1, 1), 'xlsx')).toEqual({
      kind: 'spreadsheet_cell',
      sheet_index: 1,
      sheet_name: 'Stock',
      row: 3,
      column: 'AB',
      coordinate: 'AB3',
    });
  });

  it('keeps DOCX and text spans as they are, in snake_case', () => {
    expect(anchorOf({ kind: 'docx_paragraph', paragraph: 4, charStart: 3, charEnd: 9 }, doc(1, 1), 'docx')).toEqual({ kind: 'docx_text_span', paragraph: 4, char_start: 3, char_end: 9 });
    expect(anchorOf({ kind: 'docx_cell', table: 0, row: 2, column: 1, charStart: 0, charEnd: 5 }, doc(1, 1), 'docx')).toEqual({
      kind: 'docx_table_cell',
      table: 0,
      row: 2,
      column: 1,
      char_start: 0,
      char_end: 5,
    });
    expect(anchorOf({ kind: 'text', lineStart: 2, lineEnd: 3, charStart: 10, charEnd: 40 }, doc(1, 1), 'txt')).toEqual({ kind: 'text_span', line_start: 2, line_end: 3, char_start: 10, char_end: 40 });
  });

  it('maps document kinds to document types', () => {
    expect(['pdf', 'png', 'jpeg', 'tiff', 'webp', 'csv', 'xlsx', 'docx', 'txt', 'md'].map((k) => documentTypeOf(k as never))).toEqual(['pdf', 'image', 'image', 'image', 'image', 'csv', 'xlsx', 'docx', 'txt', 'txt']);
    // HTML and e-mail words are text spans of the decoded source; a slide's are boxes on it.
    expect(['html', 'eml', 'msg', 'pptx'].map((k) => documentTypeOf(k as never))).toEqual(['txt', 'txt', 'txt', 'image']);
  });
});

describe('source trees', () => {
  it('pairs every leaf of the output with its source, arrays and objects kept', () => {
    const found = { content: '42', context: 'Total 42', origin: { kind: 'text', lineStart: 1, lineEnd: 1, charStart: 6, charEnd: 8 } as Origin };
    const sources = sourceTree({ total: found, items: [{ name: null }], note: null }, doc(1, 1), 'txt', 'file_x');
    const paired = pairWithSources({ total: 42, items: [{ name: null }], note: null }, sources);
    expect(paired).toEqual({
      total: { value: 42, source: { content: '42', context: 'Total 42', anchor: { kind: 'text_span', line_start: 1, line_end: 1, char_start: 6, char_end: 8 }, file_id: 'file_x' } },
      items: [{ name: { value: null, source: null } }],
      note: { value: null, source: null },
    });
  });
});

describe('json_schema', () => {
  it('accepts a schema that declares its dialect', () => {
    expect(() => checkSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } } })).not.toThrow();
  });
});
