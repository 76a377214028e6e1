/**
 * No control characters or lone surrogates leave a reader (issue 23): readDocument cleans every text
 * of the Doc in one place (functions/documents/clean-text.ts), keeping lengths so word origins still
 * point at the right characters.
 */
import { describe, expect, it } from 'vitest';
import { cleanText } from '../../../functions/documents/clean-text.ts';
import type { Doc } from '../../../functions/documents/doc.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import { codePointLength } from '../../../functions/documents/text.ts';
import { buildDocx, para } from '../../support/office-fixtures.ts';

const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every text of a Doc: words, lines, blocks, cells, sheet names. */
function textsOf(doc: Doc): string[] {
  return doc.pages.flatMap((page) => [
    ...page.words.map((w) => w.text),
    ...page.lines.map((l) => l.text),
    ...page.blocks.map((b) => b.text),
    ...page.tables.flatMap((t) => t.cells.map((c) => c.text)),
    ...(page.name === undefined ? [] : [page.name]),
  ]);
}

function expectClean(doc: Doc): void {
  for (const text of textsOf(doc)) {
    expect(UNSAFE.test(text), JSON.stringify(text)).toBe(false);
    expect(LONE_SURROGATE.test(text), JSON.stringify(text)).toBe(false);
  }
}

const read = (bytes: Uint8Array, kind: 'docx' | 'txt' | 'csv') => readDocument(bytes, { kind, dpi: 72, deadline: Date.now() + 30_000 });

describe('cleanText', () => {
  it('replaces controls with a space and lone surrogates with U+FFFD, keeping tab, newline, pairs and lengths', () => {
    expect(cleanText('a\u0000b\u0001c\u001fd\u007fe\u0085f\u009fg')).toBe('a b c d e f g');
    expect(cleanText('tab\there\nnext\rline\u000b\u000c')).toBe('tab\there\nnext line  ');
    expect(cleanText('lone \ud800 high, lone \udc00 low, end \ud83d')).toBe('lone \ufffd high, lone \ufffd low, end \ufffd');
    expect(cleanText('pair 😀 kept, é and € kept')).toBe('pair 😀 kept, é and € kept');
    const clean = 'Nothing to do here';
    expect(cleanText(clean)).toBe(clean);
  });
});

describe('readDocument', () => {
  it('a DOCX whose text holds character references to controls and a lone surrogate: clean words, offsets kept', async () => {
    const docx = await buildDocx({ body: para('<w:r><w:t xml:space="preserve">Total&#xD800; due&#x1; now&#x85; &#x7;</w:t></w:r>') });
    const doc = await read(docx, 'docx');
    expectClean(doc);
    expect(doc.pages[0]!.blocks[0]!.text).toBe('Total\ufffd due  now   ');
    for (const word of doc.pages[0]!.words) {
      const origin = word.origin as { charStart: number; charEnd: number };
      expect(codePointLength(word.text), word.text).toBe(origin.charEnd - origin.charStart);
    }
    expect(doc.pages[0]!.words.map((w) => w.text.trim())).toContain('due');
  });

  it('text and CSV files with control characters: clean words, lines, blocks and cells; line offsets kept', async () => {
    const txt = await read(Buffer.from('Invoice\u0001 total\u0085 12\r\nsecond\u0007line end\n'), 'txt');
    expectClean(txt);
    const second = txt.pages[0]!.words.find((w) => w.text.startsWith('second'))!;
    expect(second.text).toBe('second line');
    const origin = second.origin as { charStart: number; charEnd: number };
    expect(origin.charEnd - origin.charStart).toBe(second.text.length);

    const csv = await read(Buffer.from('name,note\nA\u0001,x\u0090y\n'), 'csv');
    expectClean(csv);
    expect(csv.pages[0]!.tables[0]!.cells.map((c) => c.text)).toEqual(['name', 'note', 'A ', 'x y']);
  });
});
