/**
 * HTML through the real sniffer and reader: text in document order with headings, paragraphs, lists
 * and tables (the Doc's Table model); scripts, styles and hidden text dropped; every word anchored
 * where it is written in the decoded source (text_span: 1-based lines, code-point offsets).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReadFailure, type Page } from '../../../functions/documents/doc.ts';
import { readHtml } from '../../../functions/documents/html.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import { renderPage } from '../../../functions/documents/render.ts';
import { knownPageCount, sniffDocument } from '../../../functions/documents/sniff.ts';

const read = (html: string | Buffer) => readHtml(typeof html === 'string' ? Buffer.from(html, 'utf8') : html, { deadline: Date.now() + 10_000 })[0]!;
const markdown = (page: Page) => renderPage(page, 'markdown');

/** The source text a word's origin points at (code points, as API §6.2 counts). */
function written(source: string, page: Page, word: string): string {
  const found = page.words.find((w) => w.text === word);
  if (!found || found.origin.kind !== 'text') throw new Error(`no text word ${word}`);
  return [...source].slice(found.origin.charStart, found.origin.charEnd).join('');
}

const REPORT = [
  '<!DOCTYPE html>',
  '<html lang="en"><head><meta charset="utf-8"><title>Quarterly report</title>',
  '<style>h1 { font-size: 2em }</style><script>document.write("<p>not text</p>")</script></head>',
  '<body>',
  '<nav hidden>Home | About</nav>',
  '<h1>Quarterly report</h1>',
  '<p>Revenue grew by <b>12</b>% to EUR&nbsp;4.2 million &mdash; the best quarter 😀 yet.<br>Costs were flat.</p>',
  '<h2>Highlights</h2>',
  '<ul><li>New office in Lyon<li>Two new <i>customers</i>:',
  '  <ol start="3"><li>Globex</li><li>Initech</li></ol></li></ul>',
  '<table>',
  '  <caption>Revenue by region</caption>',
  '  <tr><th>Region</th><th>Q1</th><th>Q2</th></tr>',
  '  <tr><td>North</td><td>1.9</td><td>2.1</td></tr>',
  '  <tr><td rowspan="2">South</td><td colspan="2">n/a</td></tr>',
  '  <tr><td>0.8</td><td>0.9</td></tr>',
  '</table>',
  '<pre>total  4.2\n  growth 12%</pre>',
  '<p style="display: none">tracking pixel text</p>',
  '</body></html>',
].join('\r\n');

describe('HTML sniffing', () => {
  it('by content (doctype or <html>), by name (.html, .htm) and by declared MIME; Latin-1 pages too', () => {
    const sniff = (data: string | Buffer, filename: string, declaredMime?: string) => {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      return sniffDocument({ head: bytes, size: bytes.length, filename, declaredMime });
    };
    expect(sniff(REPORT, 'download')).toEqual({ kind: 'html', mimeType: 'text/html' });
    expect(sniff('\ufeff<!-- saved --><html><body>x</body></html>', 'page').kind).toBe('html');
    expect(sniff('<p>hi</p>', 'page', 'text/html').kind).toBe('html');
    expect(sniff('<p>hi</p>', 'page', 'application/xhtml+xml').kind).toBe('html');
    expect(sniff('<div>hi</div>', 'index.htm').kind).toBe('html');
    expect(sniff(Buffer.from('<html><head><meta charset="windows-1252"></head><body>Caf\xe9</body></html>', 'latin1'), 'page').kind).toBe('html');
    // Markup in a text file without an HTML start or name stays text.
    expect(sniff('Use <b> for bold.', 'notes.txt').kind).toBe('txt');
  });

  it('an HTML file is one page before it is read (an e-mail is not known until its attachments are read)', () => {
    expect(knownPageCount('html')).toBe(1);
    expect(knownPageCount('eml')).toBeNull();
    expect(knownPageCount('msg')).toBeNull();
  });
});

describe('HTML reader', () => {
  it('reads headings, paragraphs with line breaks, nested lists and a table in document order; drops head, scripts, styles, hidden text', () => {
    const page = read(REPORT);
    expect(markdown(page)).toBe(
      [
        '# Quarterly report',
        '',
        'Revenue grew by 12% to EUR 4.2 million — the best quarter 😀 yet.\nCosts were flat.',
        '',
        '## Highlights',
        '',
        '- New office in Lyon\n- Two new customers:\n3. Globex\n4. Initech',
        '',
        'Revenue by region',
        '',
        '| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | 1.9 | 2.1 |\n| South | n/a |  |\n|  | 0.8 | 0.9 |',
        '',
        'total 4.2\ngrowth 12%',
      ].join('\n'),
    );
    expect(page.blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'heading', 'list_item', 'list_item', 'list_item', 'list_item', 'paragraph', 'table', 'paragraph']);
    expect(page.blocks[2]).toMatchObject({ kind: 'heading', level: 2, text: 'Highlights' });
  });

  it('tables become the Table model: header row from <th>, rowspan and colspan on the grid, every slot filled', () => {
    const table = read(REPORT).tables[0]!;
    expect(table).toMatchObject({ rowCount: 4, columnCount: 3, headerRows: 1 });
    const at = (row: number, column: number) => table.cells.find((c) => c.row === row && c.column === column);
    expect(at(2, 0)).toMatchObject({ text: 'South', rowSpan: 2, columnSpan: 1 });
    expect(at(2, 1)).toMatchObject({ text: 'n/a', rowSpan: 1, columnSpan: 2 });
    expect(at(3, 1)).toMatchObject({ text: '0.8' });
    expect(table.cells).toHaveLength(10);
    expect(renderPage(read(REPORT), 'html')).toContain('<thead>\n<tr><th>Region</th><th>Q1</th><th>Q2</th></tr>\n</thead>');
    expect(renderPage(read(REPORT), 'html')).toContain('<tr><td rowspan="2">South</td><td colspan="2">n/a</td></tr>');
  });

  it('layout tables (presentation, nested, one column or one row) are read as blocks, the data table inside stays a table', () => {
    const html = `<table role="presentation"><tr><td><img src="logo.png" alt="Logo"></td><td><h2>Receipt</h2></td></tr>
      <tr><td colspan="2"><table><thead><tr><td>Item</td><td>Price</td></tr></thead><tr><td>Tea</td><td>3.50</td></tr></table></td></tr></table>
      <table><tr><td>Only</td><td>one row</td></tr></table>`;
    const page = read(html);
    expect(markdown(page)).toBe('## Receipt\n\n| Item | Price |\n| --- | --- |\n| Tea | 3.50 |\n\nOnly\n\none row');
    expect(page.tables).toHaveLength(1);
  });

  it('anchors every word where the source writes it: entities, CRLF lines and characters outside the BMP', () => {
    const page = read(REPORT);
    expect(written(REPORT, page, 'Revenue')).toBe('Revenue');
    expect(written(REPORT, page, '—')).toBe('&mdash;');
    expect(written(REPORT, page, '😀')).toBe('😀');
    // "12%" runs across <b>12</b>% : its span covers both pieces.
    expect(written(REPORT, page, '12%')).toBe('12</b>%');
    expect(written(REPORT, page, 'Initech')).toBe('Initech');
    // Lines count as text.ts counts them (CRLF is one break).
    const lyon = page.words.find((w) => w.text === 'Lyon')!;
    expect(lyon.origin).toMatchObject({ kind: 'text', lineStart: 9, lineEnd: 9 });
    // Table cells keep their words.
    const north = read(REPORT).tables[0]!.cells.find((c) => c.text === 'North')!;
    expect(north.words.map((w) => page.words[w]!.text)).toEqual(['North']);
  });

  it('decodes the charset a page declares, else UTF-8, else windows-1252', () => {
    const declared = Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><body><p>Caf\xe9 cr\xe8me</p></body></html>', 'latin1');
    expect(markdown(read(declared))).toBe('Café crème');
    expect(markdown(read(Buffer.from('<p>Na\xefve \x80 price</p>', 'latin1')))).toBe('Naïve € price');
    expect(markdown(read('<p>Ünïcödé</p>'))).toBe('Ünïcödé');
  });

  it('drops control characters and zero-width padding; an empty page is empty', () => {
    expect(markdown(read('<p>a\u0007b \u200b\u200b c\u00add</p>'))).toBe('ab cd');
    expect(markdown(read('<html><head><title>x</title></head><body></body></html>'))).toBe('');
  });

  it('nesting too deep to walk is a ReadFailure, not a crash', () => {
    const deep = '<span>'.repeat(20_000) + 'x';
    expect(() => read(deep)).toThrow(ReadFailure);
  });

  it('arbitrary markup never crashes, and every word span lies within the source', () => {
    const piece = fc.oneof(fc.constantFrom('<p>', '</p>', '<table>', '<tr>', '<td>', '<th colspan=3>', '<td rowspan=0>', '</table>', '<li>', '<ol start=x>', '<br>', '<pre>', '\r\n', '&amp;', '&#128512;', '&nbsp;', '<script>', '<h2>', '<!--', '😀'), fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const source = pieces.join('');
        const page = read(source);
        const chars = [...source];
        for (const word of page.words) {
          if (word.origin.kind !== 'text') throw new Error('text origin expected');
          expect(word.origin.charEnd).toBeGreaterThanOrEqual(word.origin.charStart);
          expect(word.origin.charEnd).toBeLessThanOrEqual(chars.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads through readDocument as kind html', async () => {
    const doc = await readDocument(Buffer.from(REPORT), { kind: 'html', dpi: 150, deadline: Date.now() + 10_000 });
    expect(doc.kind).toBe('html');
    expect(doc.pages).toHaveLength(1);
    expect(doc.pages[0]!.number).toBe(1);
  });
});
