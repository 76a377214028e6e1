/**
 * DOCX reader: structure (headings, lists, tables, page breaks) rendered as Markdown, and provenance
 * origins exactly as API §6.2 defines them (body paragraph indices, code-point offsets, table cells).
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ReadFailure, type Origin, type Page } from '../../../functions/documents/doc.ts';
import { readDocx } from '../../../functions/documents/docx.ts';
import { renderPage } from '../../../functions/documents/render.ts';
import {
  buildDocx,
  declareSize,
  documentXml,
  equation,
  equationPara,
  frac,
  heading,
  listPara,
  NUMBERING_XML,
  PAGE_BREAK_RUN,
  para,
  mr,
  run,
  sqrt,
  sup,
  tbl,
  tc,
  textBoxFlyer,
  textBoxRun,
  tr,
  wordRecall,
  zipArchive,
} from '../../support/office-fixtures.ts';
import { failure } from '../../support/read-failure.ts';

const read = (bytes: Uint8Array) => readDocx(bytes, { deadline: Date.now() + 10_000 });

/** The origins of every word with this text on the page. */
function originsOf(page: Page, text: string): Origin[] {
  return page.words.filter((w) => w.text === text).map((w) => w.origin);
}


const REPORT_BODY = [
  heading(1, 'Quarterly Report'), // paragraph 0
  para(['Revenue grew ', '😀 strongly', ' in Q3.']), // 1: three runs, a non-BMP character before "strongly"
  '<w:p/>', // 2: empty, still counted
  heading(2, 'Highlights'), // 3
  listPara(1, 'Alpha launch'), // 4: bullets
  listPara(1, 'Beta pricing'), // 5
  listPara(2, 'First step'), // 6: "1."
  listPara(2, 'Second step'), // 7: "2."
  para(['Before break', PAGE_BREAK_RUN, 'After break']), // 8: split over pages 1 and 2
  tbl(3, [
    tr([tc('Item'), tc('Qty'), tc('Note')], true),
    tr([tc('Apples', '<w:vMerge w:val="restart"/>'), tc('3'), tc(['fresh', 'crisp 😀 red'])]),
    tr([tc('', '<w:vMerge/>'), tc('4'), tc('dried')]),
    tr([tc('Total: 7', '<w:gridSpan w:val="2"/>'), tc('ok')]),
  ]), // table 0: its paragraphs are not body paragraphs
  para('Closing 😀 words here.'), // 9
].join('');

describe('readDocx: a report with headings, lists, a merged-cell table and a page break', () => {
  it('gives two pages rendered as exact Markdown', async () => {
    const pages = await read(await buildDocx({ body: REPORT_BODY, numbering: NUMBERING_XML }));
    expect(pages).toHaveLength(2);
    expect(pages.map((p) => [p.number, p.unit, p.width, p.height, p.ocr])).toEqual([
      [1, 'none', 0, 0, false],
      [2, 'none', 0, 0, false],
    ]);
    expect(renderPage(pages[0]!, 'markdown')).toBe(
      [
        '# Quarterly Report',
        '',
        'Revenue grew 😀 strongly in Q3.',
        '',
        '## Highlights',
        '',
        '- Alpha launch',
        '- Beta pricing',
        '1. First step',
        '2. Second step',
        '',
        'Before break',
      ].join('\n'),
    );
    expect(renderPage(pages[1]!, 'markdown')).toBe(
      [
        'After break',
        '',
        '| Item | Qty | Note |',
        '| --- | --- | --- |',
        '| Apples | 3 | fresh<br>crisp 😀 red |',
        '|  | 4 | dried |',
        '| Total: 7 |  | ok |',
        '',
        'Closing 😀 words here.',
      ].join('\n'),
    );
  });

  it('renders merged cells as rowspan/colspan in HTML', async () => {
    const pages = await read(await buildDocx({ body: REPORT_BODY, numbering: NUMBERING_XML }));
    expect(renderPage(pages[1]!, 'html')).toContain(
      [
        '<table>',
        '<thead>',
        '<tr><th>Item</th><th>Qty</th><th>Note</th></tr>',
        '</thead>',
        '<tbody>',
        '<tr><td rowspan="2">Apples</td><td>3</td><td>fresh<br>crisp 😀 red</td></tr>',
        '<tr><td>4</td><td>dried</td></tr>',
        '<tr><td colspan="2">Total: 7</td><td>ok</td></tr>',
        '</tbody>',
        '</table>',
      ].join('\n'),
    );
  });

  it('gives body paragraph indices and code-point offsets exactly', async () => {
    const [first, second] = await read(await buildDocx({ body: REPORT_BODY, numbering: NUMBERING_XML }));
    // "Revenue grew 😀 strongly": the emoji is one code point (two UTF-16 units).
    expect(originsOf(first!, 'strongly')).toEqual([{ kind: 'docx_paragraph', paragraph: 1, charStart: 15, charEnd: 23 }]);
    expect(originsOf(first!, 'Q3.')).toEqual([{ kind: 'docx_paragraph', paragraph: 1, charStart: 27, charEnd: 30 }]);
    expect(originsOf(first!, 'Highlights')).toEqual([{ kind: 'docx_paragraph', paragraph: 3, charStart: 0, charEnd: 10 }]);
    // List item words are the paragraph's own text: the marker is not in the document's text.
    expect(originsOf(first!, 'Second')).toEqual([{ kind: 'docx_paragraph', paragraph: 7, charStart: 0, charEnd: 6 }]);
    // One paragraph across the page break: offsets run on.
    expect(originsOf(first!, 'break')).toEqual([{ kind: 'docx_paragraph', paragraph: 8, charStart: 7, charEnd: 12 }]);
    expect(originsOf(second!, 'After')).toEqual([{ kind: 'docx_paragraph', paragraph: 8, charStart: 12, charEnd: 17 }]);
    // After the table, counting resumes at 9: table paragraphs are not body paragraphs.
    expect(originsOf(second!, 'words')).toEqual([{ kind: 'docx_paragraph', paragraph: 9, charStart: 10, charEnd: 15 }]);
  });

  it('gives table cell origins by grid position with offsets in the cell text', async () => {
    const [, page] = await read(await buildDocx({ body: REPORT_BODY, numbering: NUMBERING_XML }));
    const cell = (row: number, column: number, charStart: number, charEnd: number): Origin => ({ kind: 'docx_cell', table: 0, row, column, charStart, charEnd });
    expect(originsOf(page!, 'Apples')).toEqual([cell(1, 0, 0, 6)]);
    // A cell's paragraphs are joined by "\n": "fresh\ncrisp 😀 red".
    expect(originsOf(page!, 'red')).toEqual([cell(1, 2, 14, 17)]);
    expect(originsOf(page!, 'dried')).toEqual([cell(2, 2, 0, 5)]);
    expect(originsOf(page!, '7')).toEqual([cell(3, 0, 7, 8)]);
    expect(originsOf(page!, 'ok')).toEqual([cell(3, 2, 0, 2)]);

    const table = page!.tables[0]!;
    expect([table.rowCount, table.columnCount, table.headerRows]).toEqual([4, 3, 1]);
    const spans = table.cells.map((c) => [c.row, c.column, c.rowSpan, c.columnSpan, c.text]);
    expect(spans).toEqual([
      [0, 0, 1, 1, 'Item'],
      [0, 1, 1, 1, 'Qty'],
      [0, 2, 1, 1, 'Note'],
      [1, 0, 2, 1, 'Apples'],
      [1, 1, 1, 1, '3'],
      [1, 2, 1, 1, 'fresh\ncrisp 😀 red'],
      [2, 1, 1, 1, '4'],
      [2, 2, 1, 1, 'dried'],
      [3, 0, 1, 2, 'Total: 7'],
      [3, 2, 1, 1, 'ok'],
    ]);
    // Every cell's words point back into that cell.
    for (const c of table.cells) for (const w of c.words) expect(page!.words[w]!.origin).toMatchObject({ row: c.row, column: c.column });
  });

  it('keeps blocks, lines and words consistent', async () => {
    const pages = await read(await buildDocx({ body: REPORT_BODY, numbering: NUMBERING_XML }));
    const [first] = pages;
    expect(first!.blocks.map((b) => [b.kind, b.level, b.text])).toEqual([
      ['heading', 1, 'Quarterly Report'],
      ['paragraph', undefined, 'Revenue grew 😀 strongly in Q3.'],
      ['heading', 2, 'Highlights'],
      ['list_item', undefined, '- Alpha launch'],
      ['list_item', undefined, '- Beta pricing'],
      ['list_item', undefined, '1. First step'],
      ['list_item', undefined, '2. Second step'],
      ['paragraph', undefined, 'Before break'],
    ]);
    for (const page of pages) {
      for (const line of page.lines) expect(line.words.map((w) => page.words[w]!.text).join(' ')).toBe(line.text.split(/\s+/).join(' '));
    }
  });
});

describe('readDocx: Word details', () => {
  const STYLES = `<?xml version="1.0" encoding="UTF-8"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:default="1" w:styleId="Standard"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:basedOn w:val="Standard"/><w:pPr><w:pageBreakBefore/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Aufzhlung"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Titel"><w:name w:val="Title"/></w:style>
</w:styles>`;

  it('finds headings by style name (localized ids), lists by style, and page breaks from styles and sections', async () => {
    const body = [
      para('Handbuch', '<w:pStyle w:val="Titel"/>'), // 0
      para('Intro', '<w:pStyle w:val="berschrift1"/>'), // 1: pageBreakBefore from its style
      para('Punkt eins', '<w:pStyle w:val="Aufzhlung"/>'), // 2: a bullet through its style
      para('Outline three', '<w:outlineLvl w:val="2"/>'), // 3: heading level 3 by outline level
      para('End of section', '<w:sectPr><w:type w:val="nextPage"/></w:sectPr>'), // 4: section break after
      para('Same page', '<w:sectPr><w:type w:val="continuous"/></w:sectPr>'), // 5: continuous: no break
      para([run('Wrapped'), '<w:r><w:lastRenderedPageBreak/><w:t>here</w:t></w:r>']), // 6: not a hard break
    ].join('');
    const pages = await read(await buildDocx({ body, styles: STYLES, numbering: NUMBERING_XML }));
    expect(pages.map((p) => renderPage(p, 'markdown'))).toEqual([
      '# Handbuch',
      '# Intro\n\n- Punkt eins\n\n### Outline three\n\nEnd of section',
      'Same page\n\nWrappedhere',
    ]);
    expect(originsOf(pages[2]!, 'Wrappedhere')).toEqual([{ kind: 'docx_paragraph', paragraph: 6, charStart: 0, charEnd: 11 }]);
  });

  it('reads hyperlinks, insertions, tabs, line breaks and content controls; skips deletions', async () => {
    const body = [
      para([
        run('See'),
        '<w:hyperlink r:id="rId9"><w:r><w:t xml:space="preserve"> the site</w:t></w:r></w:hyperlink>',
        '<w:del><w:r><w:delText>removed </w:delText></w:r></w:del>',
        '<w:ins><w:r><w:t xml:space="preserve"> now</w:t></w:r></w:ins>',
        '<w:r><w:tab/><w:t>tabbed</w:t><w:br/><w:t>next &amp; last</w:t></w:r>',
      ]),
      '<w:sdt><w:sdtContent>' + para('Inside control') + '</w:sdtContent></w:sdt>',
    ].join('');
    const [page] = await read(await buildDocx({ body }));
    expect(page!.blocks.map((b) => b.text)).toEqual(['See the site now\ttabbed\nnext & last', 'Inside control']);
    expect(originsOf(page!, 'last')).toEqual([{ kind: 'docx_paragraph', paragraph: 0, charStart: 31, charEnd: 35 }]);
    expect(originsOf(page!, 'control')).toEqual([{ kind: 'docx_paragraph', paragraph: 1, charStart: 7, charEnd: 14 }]);
  });

  it('continues numbering across interruptions and restarts deeper levels', async () => {
    const body = [listPara(2, 'one'), listPara(2, 'sub a', 1), listPara(2, 'sub b', 1), para('between'), listPara(2, 'two'), listPara(2, 'sub again', 1)].join('');
    const [page] = await read(await buildDocx({ body, numbering: NUMBERING_XML }));
    expect(page!.blocks.map((b) => b.text)).toEqual(['1. one', 'a) sub a', 'b) sub b', 'between', '2. two', 'a) sub again']);
  });

  it('uses "-" for list items whose numbering cannot be determined', async () => {
    const [page] = await read(await buildDocx({ body: listPara(7, 'orphan') }));
    expect(renderPage(page!, 'markdown')).toBe('- orphan');
  });

  it('reads a document whose WordprocessingML namespace has another prefix', async () => {
    const xml = `<?xml version="1.0"?><ns0:document xmlns:ns0="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><ns0:body><ns0:p><ns0:pPr><ns0:pStyle ns0:val="Heading2"/></ns0:pPr><ns0:r><ns0:t>Other prefix</ns0:t></ns0:r></ns0:p></ns0:body></ns0:document>`;
    const [page] = await read(zipArchive([{ name: 'word/document.xml', data: Buffer.from(xml) }]));
    expect(renderPage(page!, 'markdown')).toBe('## Other prefix');
  });

  it('gives one empty page for an empty document', async () => {
    const pages = await read(await buildDocx({ body: '' }));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.blocks).toEqual([]);
  });
});

describe('readDocx: refusals', () => {
  it('refuses a ZIP whose document.xml declares a huge size, fast and without inflating', async () => {
    // 200 MB of spaces deflate to about 200 KB (pre-deflated: a CRC over 200 MB would be slow in JS).
    const spaces = Buffer.alloc(200 * 1024 * 1024, 0x20);
    const bomb = zipArchive([{ name: 'word/document.xml', deflated: { data: deflateRawSync(spaces, { level: 9 }), size: spaces.length } }]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    const error = await failure(read(bomb));
    expect(Date.now() - started).toBeLessThan(200);
    expect(error.code).toBe('document_invalid');
    expect(error.message).toMatch(/decompression bomb|too large/);
  });

  it('refuses a part that compresses far better than real XML', async () => {
    const dense = zipArchive([{ name: 'word/document.xml', data: Buffer.alloc(20 * 1024 * 1024, 0x20) }]);
    expect((await failure(read(dense))).message).toMatch(/decompression bomb: word\/document\.xml expands \d+:1/);
  });

  it('stops inflating at the declared size when the header lies', async () => {
    const honest = zipArchive([{ name: 'word/document.xml', data: Buffer.from(documentXml(para('x'.repeat(5_000_000)))) }]);
    const lying = declareSize(honest, 'word/document.xml', 4096);
    expect((await failure(read(lying))).message).toMatch(/expands beyond its declared size/);
  });

  it('refuses corrupt files', async () => {
    const good = await buildDocx({ body: para('hello') });
    expect((await failure(read(Buffer.from('not a zip at all')))).message).toMatch(/corrupt/);
    expect((await failure(read(good.subarray(0, good.length - 30)))).message).toMatch(/corrupt/);
    expect((await failure(read(zipArchive([{ name: 'word/other.xml', data: Buffer.from('<x/>') }])))).message).toMatch(/no word\/document\.xml/);
    const broken = zipArchive([{ name: 'word/document.xml', data: Buffer.from('<w:document><w:body><w:p></w:body>') }]);
    expect((await failure(read(broken))).message).toMatch(/corrupt/);
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    expect((await failure(read(ole))).code).toBe('document_unsupported');
  });

  it('times out past its deadline', async () => {
    const body = para('x').repeat(2000);
    const error = await failure(readDocx(await buildDocx({ body }), { deadline: Date.now() - 1 }));
    expect(error.code).toBe('timeout');
  });
});

describe('readDocx: text boxes, shapes, equations, headers and footers', () => {
  it('reads a flyer laid out in text boxes: every word once, in order, header first and footer last', async () => {
    const { bytes, written } = await textBoxFlyer();
    const pages = await read(bytes);
    expect(pages).toHaveLength(1);
    const text = renderPage(pages[0]!, 'markdown');
    expect(text).toBe(
      [
        'Northwind Community Centre: Spring Programme',
        'Welcome to the spring term.',
        'Yoga for beginners',
        'Tuesdays at 7 pm in Hall B with Maria.',
        'Pottery',
        'Wheel throwing, all materials included.',
        'Chess club',
        'Fridays from 6 pm; boards provided.',
        'Fees are due by 15 March.',
        'Each table has area A = πr^2',
        'x = (a + b) / 2',
        'Doors open at 9 am.',
        'Call 555-0142 to register',
      ].join('\n\n'),
    );
    // Word stores each box twice (DrawingML and its VML fallback): read once, so nothing is left over.
    expect(wordRecall(written, text)).toEqual({ read: 61, written: 61 });
    expect(text.match(/Yoga/g)).toHaveLength(1);
  });

  it('points text-box words into their anchoring paragraph, past its own text; body paragraph indices do not move', async () => {
    const { bytes } = await textBoxFlyer();
    const [page] = await read(bytes);
    // Paragraph 0 is "Welcome to the spring term." (27 code points), then "\nYoga for beginners\nTuesdays …".
    expect(originsOf(page!, 'Welcome')).toEqual([{ kind: 'docx_paragraph', paragraph: 0, charStart: 0, charEnd: 7 }]);
    expect(originsOf(page!, 'Yoga')).toEqual([{ kind: 'docx_paragraph', paragraph: 0, charStart: 28, charEnd: 32 }]);
    expect(originsOf(page!, 'Tuesdays')).toEqual([{ kind: 'docx_paragraph', paragraph: 0, charStart: 47, charEnd: 55 }]);
    // Paragraph 1 holds only the group: "Pottery\nWheel …" after its empty own text.
    expect(originsOf(page!, 'Pottery')).toEqual([{ kind: 'docx_paragraph', paragraph: 1, charStart: 1, charEnd: 8 }]);
    expect(originsOf(page!, 'Doors')).toEqual([{ kind: 'docx_paragraph', paragraph: 5, charStart: 0, charEnd: 5 }]);
    // Headers and footers have no anchor in the contract: their text is rendered, but no words point at it.
    expect(page!.words.some((w) => w.text === 'Northwind' || w.text === '555-0142')).toBe(false);
  });

  it('writes equations as linear text inside their paragraph', async () => {
    const body = [
      equationPara(mr('x=') + sqrt(sup(mr('b'), mr('2')) + mr('−4ac'))),
      para([run('Half of it: '), equation(frac(mr('1'), mr('2')) + mr('y'))]),
      equationPara(`<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${mr('i=1')}</m:sub><m:sup>${mr('n')}</m:sup><m:e>${mr('i')}</m:e></m:nary>`),
      equationPara(`<m:d><m:e>${mr('a')}</m:e><m:e>${mr('b')}</m:e></m:d>`),
    ].join('');
    const [page] = await read(await buildDocx({ body }));
    expect(page!.blocks.map((b) => b.text)).toEqual(['x = √(b^2 − 4ac)', 'Half of it: 1 / 2 y', '∑_(i = 1)^n i', '(a | b)']);
    expect(originsOf(page!, '√(b^2')).toEqual([{ kind: 'docx_paragraph', paragraph: 0, charStart: 4, charEnd: 9 }]);
  });

  it('reads a text box inside a table cell into the cell text', async () => {
    const body = tbl(2, [tr([tc('Name'), `<w:tc><w:p>${run('See')}${textBoxRun(['boxed note'])}</w:p></w:tc>`])]);
    const [page] = await read(await buildDocx({ body }));
    expect(page!.tables[0]!.cells.map((c) => c.text)).toEqual(['Name', 'See\nboxed note']);
    expect(originsOf(page!, 'boxed')).toEqual([{ kind: 'docx_cell', table: 0, row: 0, column: 1, charStart: 4, charEnd: 9 }]);
  });
});
