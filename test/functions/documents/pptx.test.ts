/**
 * PPTX reader: one page per slide in presentation order, slide text in reading order (title first,
 * then shapes by position, groups included), tables, speaker notes; `box` origins on the slide.
 */
import { describe, expect, it } from 'vitest';
import { ReadFailure, tableRows, type Page } from '../../../functions/documents/doc.ts';
import { anchorOf, documentTypeOf } from '../../../functions/extractions/anchors.ts';
import { countSlides, readPptx } from '../../../functions/documents/pptx.ts';
import { renderPage } from '../../../functions/documents/render.ts';
import { aPara, buildPptx, placeholder, quarterlyDeck, textShape, wordRecall, zipArchive } from '../../support/office-fixtures.ts';
import { failure } from '../../support/read-failure.ts';

const read = (bytes: Uint8Array) => readPptx(bytes, { deadline: Date.now() + 10_000 });


const boxOf = (page: Page, text: string) => page.words.filter((w) => w.text === text).map((w) => w.origin);

describe('readPptx', () => {
  it('gives one page per slide in presentation order, each in reading order with its notes', async () => {
    const { bytes, written } = await quarterlyDeck();
    const pages = await read(bytes);
    expect(pages.map((p) => [p.number, p.unit, p.width, p.height])).toEqual([
      [1, 'pt', 720, 540],
      [2, 'pt', 720, 540],
      [3, 'pt', 720, 540],
    ]);
    expect(renderPage(pages[0]!, 'markdown')).toBe(
      ['# Quarterly Review', 'Finance team, October 2025', '## Speaker notes', 'Welcome everyone and thank the regional leads.'].join('\n\n'),
    );
    // slide3.xml is listed second: the title first, the body's bullets (the last one says buNone),
    // then the row of two text boxes left to right, then the group's shapes left to right.
    expect(renderPage(pages[1]!, 'markdown')).toBe(
      [
        '# Highlights',
        '',
        '- Revenue up in every region',
        '- Churn below two percent',
        '',
        'Three new markets opened',
        '',
        'Left column: revenue rose 8%',
        '',
        'Right column: costs fell 3%',
        '',
        'Risks: supplier delays',
        '',
        'Next: hire two analysts',
        '',
        '## Speaker notes',
        '',
        'Stress the churn figure.',
        '',
        'Mention the supplier issue only if asked.',
      ].join('\n'),
    );
    // The slide number placeholder is left out; the table has its header row and merged last row.
    expect(renderPage(pages[2]!, 'markdown')).toBe(
      [
        '# Results by region',
        '',
        '| Region | Revenue | Growth |',
        '| --- | --- | --- |',
        '| North | 4.2 M | 12% |',
        '| South | 3.1 M | -4% |',
        '| Total across regions: 7.3 M |  |  |',
      ].join('\n'),
    );
    const table = pages[2]!.tables[0]!;
    expect([table.rowCount, table.columnCount, table.headerRows]).toEqual([4, 3, 1]);
    expect(table.cells.find((c) => c.row === 3 && c.column === 0)).toMatchObject({ columnSpan: 3, text: 'Total across regions: 7.3 M' });
    expect(tableRows(table)[1]).toEqual(['North', '4.2 M', '12%']);

    const text = pages.map((p) => renderPage(p, 'markdown')).join('\n\n');
    expect(wordRecall(written, text)).toEqual({ read: 74, written: 74 });
    expect(countSlides(bytes)).toBe(3);
  });

  it('gives each word the slide and the frame of its shape, group transforms and inherited placeholders applied', async () => {
    const { bytes } = await quarterlyDeck();
    const [, detail, results] = await read(bytes);
    // A text box's own position, in points.
    expect(boxOf(detail!, 'Left')).toEqual([{ kind: 'box', page: 2, box: { left: 40, top: 305, width: 300, height: 60 } }]);
    // The group maps its 300 × 40 child space onto 600 × 80 at (60, 400): the child at x 150 lands at 360.
    expect(boxOf(detail!, 'Next:')).toEqual([{ kind: 'box', page: 2, box: { left: 360, top: 400, width: 300, height: 80 } }]);
    // The title states no position: the layout's; the body's comes from the master.
    expect(boxOf(detail!, 'Highlights')).toEqual([{ kind: 'box', page: 2, box: { left: 36, top: 22, width: 648, height: 90 } }]);
    expect(boxOf(detail!, 'Churn')).toEqual([{ kind: 'box', page: 2, box: { left: 36, top: 126, width: 648, height: 360 } }]);
    // Notes are not on the slide: the whole slide.
    expect(boxOf(detail!, 'Stress')).toEqual([{ kind: 'box', page: 2, box: { left: 0, top: 0, width: 720, height: 540 } }]);
    // A table cell's frame from the grid: column 2 of 3 (200 pt each), row 2 of 4 (30 pt each).
    expect(boxOf(results!, '12%')).toEqual([{ kind: 'box', page: 3, box: { left: 460, top: 170, width: 200, height: 30 } }]);
    // The contract has no presentation anchor: a source is a box on the slide, in 0..1 of it.
    const doc = { kind: 'pptx' as const, pages: [detail!, detail!] };
    expect(anchorOf(boxOf(detail!, 'Left')[0]!, doc, documentTypeOf('pptx'))).toEqual({ kind: 'image_bbox', page: 2, left: 0.055556, top: 0.564815, width: 0.416667, height: 0.111111 });
  });

  it('numbers auto-numbered paragraphs and keeps line breaks inside a paragraph', async () => {
    const bytes = await buildPptx([
      {
        shapes: [
          textShape({ x: 40, y: 40, width: 400, height: 200 }, [
            aPara('Open the file', '<a:buAutoNum type="arabicPeriod"/>'),
            aPara('Check the totals', '<a:buAutoNum type="arabicPeriod"/>'),
            aPara('First line\nsecond line'),
          ]),
          placeholder('subTitle', ['A subtitle']),
        ],
      },
    ]);
    const [page] = await read(bytes);
    expect(page!.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['list_item', '1. Open the file'],
      ['list_item', '2. Check the totals'],
      ['paragraph', 'First line\nsecond line'],
      ['paragraph', 'A subtitle'],
    ]);
  });

  it('refuses what is not a presentation', async () => {
    expect((await failure(read(zipArchive([{ name: 'ppt/other.xml', data: Buffer.from('<x/>') }])))).message).toMatch(/PPTX file is corrupt \(it has no ppt\/presentation\.xml\)/);
    expect((await failure(read(Buffer.from('not a zip')))).message).toMatch(/PPTX file is corrupt/);
  });
});
