/**
 * TXT and Markdown reader: blocks (headings, lists, paragraphs, pipe tables) and `text` origins with
 * 1-based lines and code-point offsets in the decoded text (API §6.2 `text_span`).
 */
import { describe, expect, it } from 'vitest';
import { ReadFailure, tableRows, type Page } from '../../../functions/documents/doc.ts';
import { renderPage } from '../../../functions/documents/render.ts';
import { codePointLength, readText, wordSpans } from '../../../functions/documents/text.ts';

const originsOf = (page: Page, text: string) => page.words.filter((w) => w.text === text).map((w) => w.origin);

/** Every word's offsets select exactly its text from the decoded text (code points), on its line. */
function expectOffsetsExact(page: Page, decoded: string): void {
  const codePoints = [...decoded];
  const lines = decoded.split(/\r\n|\n|\r/);
  for (const word of page.words) {
    const origin = word.origin;
    if (origin.kind !== 'text') throw new Error('expected a text origin');
    expect(codePoints.slice(origin.charStart, origin.charEnd).join('')).toBe(word.text);
    expect(lines[origin.lineStart - 1]).toContain(word.text);
  }
}

const MARKDOWN = [
  '# Title 😀 here', // line 1
  '',
  'Some 😀 text with **bold**.', // 3
  'Second line.', // 4
  '',
  '- item one', // 6
  '* item 😀 two', // 7
  '1. first', // 8
  '',
  '| Name | Qty |', // 10
  '|------|----:|',
  '| x 😀 | 7 |', // 12
  '| a \\| b | 8 |', // 13
  '',
  '```',
  '# not a heading', // 16
  '```',
  '',
  'Setext heading', // 19
  '---',
].join('\n');

describe('readText: Markdown', () => {
  it('keeps headings, lists, paragraphs, tables and code as Markdown', () => {
    const [page] = readText(Buffer.from(MARKDOWN), 'md');
    expect(page!.blocks.map((b) => [b.kind, b.level, b.text])).toEqual([
      ['heading', 1, 'Title 😀 here'],
      ['paragraph', undefined, 'Some 😀 text with **bold**.\nSecond line.'],
      ['list_item', undefined, '- item one'],
      ['list_item', undefined, '* item 😀 two'],
      ['list_item', undefined, '1. first'],
      ['table', undefined, expect.any(String)],
      ['paragraph', undefined, '```\n# not a heading\n```'],
      ['heading', 2, 'Setext heading'],
    ]);
    expect(tableRows(page!.tables[0]!)).toEqual([
      ['Name', 'Qty'],
      ['x 😀', '7'],
      ['a | b', '8'],
    ]);
    expect(renderPage(page!, 'markdown')).toBe(
      [
        '# Title 😀 here',
        '',
        'Some 😀 text with **bold**.\nSecond line.',
        '',
        '- item one\n- item 😀 two\n1. first',
        '',
        '| Name | Qty |\n| --- | --- |\n| x 😀 | 7 |\n| a \\| b | 8 |',
        '',
        '```\n# not a heading\n```',
        '',
        '## Setext heading',
      ].join('\n'),
    );
  });

  it('gives line numbers and code-point offsets exactly', () => {
    const [page] = readText(Buffer.from(MARKDOWN), 'md');
    // "# Title 😀 here": the "#" is not a word; the emoji counts as one code point.
    expect(originsOf(page!, 'Title')).toEqual([{ kind: 'text', lineStart: 1, lineEnd: 1, charStart: 2, charEnd: 7 }]);
    expect(originsOf(page!, 'here')).toEqual([{ kind: 'text', lineStart: 1, lineEnd: 1, charStart: 10, charEnd: 14 }]);
    // Line 3 starts at code point 16: line 1 is 14 code points, then two newlines.
    expect(originsOf(page!, 'text')).toEqual([{ kind: 'text', lineStart: 3, lineEnd: 3, charStart: 23, charEnd: 27 }]);
    expect(originsOf(page!, 'two')).toEqual([{ kind: 'text', lineStart: 7, lineEnd: 7, charStart: 77, charEnd: 80 }]);
    expect(originsOf(page!, '7')).toEqual([{ kind: 'text', lineStart: 12, lineEnd: 12, charStart: 129, charEnd: 130 }]);
    expectOffsetsExact(page!, MARKDOWN);
  });

  it('counts offsets after the BOM and across CRLF line ends', () => {
    const text = 'Ünïcode 😀😀 line\r\nnext 𝄞 word\r\n';
    const [page] = readText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 'md');
    expect(originsOf(page!, 'Ünïcode')).toEqual([{ kind: 'text', lineStart: 1, lineEnd: 1, charStart: 0, charEnd: 7 }]);
    expect(originsOf(page!, 'word')).toEqual([{ kind: 'text', lineStart: 2, lineEnd: 2, charStart: 24, charEnd: 28 }]);
    expectOffsetsExact(page!, text);
  });
});

describe('readText: plain text', () => {
  const TEXT = 'Invoice 😀 42\nBilled to ACME\n\n• first item\n  wrapped on\n2) second item\nAfter the list.\n\nThanks.';

  it('splits paragraphs at blank lines and finds list-looking lines', () => {
    const [page] = readText(Buffer.from(TEXT), 'txt');
    expect(page!.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['paragraph', 'Invoice 😀 42\nBilled to ACME'],
      ['list_item', '• first item\nwrapped on'],
      ['list_item', '2) second item'],
      ['paragraph', 'After the list.'],
      ['paragraph', 'Thanks.'],
    ]);
    expect(renderPage(page!, 'markdown')).toBe('Invoice 😀 42\nBilled to ACME\n\n- first item\n  wrapped on\n2) second item\n\nAfter the list.\n\nThanks.');
    // A "#" line in a .txt is not a heading.
    expect(readText(Buffer.from('# not a heading'), 'txt')[0]!.blocks[0]!.kind).toBe('paragraph');
  });

  it('gives offsets exactly', () => {
    const [page] = readText(Buffer.from(TEXT), 'txt');
    expect(originsOf(page!, '42')).toEqual([{ kind: 'text', lineStart: 1, lineEnd: 1, charStart: 10, charEnd: 12 }]);
    expect(originsOf(page!, 'wrapped')).toEqual([{ kind: 'text', lineStart: 5, lineEnd: 5, charStart: 44, charEnd: 51 }]);
    expectOffsetsExact(page!, TEXT);
    expect(page!.number).toBe(1);
    expect(page!.unit).toBe('none');
  });

  it('refuses invalid UTF-8 and reads an empty file as an empty page', () => {
    expect(() => readText(Buffer.from([0x48, 0x69, 0xff, 0xfe]), 'txt')).toThrow(ReadFailure);
    const [empty] = readText(Buffer.alloc(0), 'txt');
    expect(empty!.blocks).toEqual([]);
  });
});

describe('text helpers', () => {
  it('count code points, not UTF-16 units', () => {
    expect(codePointLength('a😀b')).toBe(3);
    expect(codePointLength('\uD83D')).toBe(1); // a lone surrogate is still one position
    expect(wordSpans(' a😀 b\tc ')).toEqual([
      { text: 'a😀', start: 1, end: 3 },
      { text: 'b', start: 4, end: 5 },
      { text: 'c', start: 6, end: 7 },
    ]);
  });
});
