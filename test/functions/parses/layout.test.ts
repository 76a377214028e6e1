/**
 * The layout a parse keeps for the dashboard: the reader's words and tables in fractions of their
 * page, for pages with coordinates only, at most LAYOUT_PAGES of them.
 */
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../../functions/documents/read.ts';
import { layoutOf, LAYOUT_PAGES } from '../../../functions/parses/layout.ts';
import { tablesPdf } from '../../support/table-fixtures.ts';
import { textPdf } from '../../support/text-pdf.ts';

describe('parse layout', () => {
  it("keeps every word with a box and every table with its cells, in fractions of the page", async () => {
    const { bytes } = await tablesPdf();
    const doc = await readDocument(bytes, { kind: 'pdf', dpi: 192, deadline: Date.now() + 60_000 });
    const [page, ...rest] = layoutOf(doc);
    expect(rest).toEqual([]);
    expect(page!.page).toBe(1);
    expect(page!.words.map(([text]) => text)).toEqual(doc.pages[0]!.words.map((w) => w.text));
    const [, box] = page!.words.find(([text]) => text === 'survey')!;
    const word = doc.pages[0]!.words.find((w) => w.text === 'survey')!.box!;
    expect(box).toEqual([word.left / 612, word.top / 792, word.width / 612, word.height / 792].map((n) => Math.round(n * 10_000) / 10_000));
    expect(page!.tables).toHaveLength(3);
    expect(page!.tables.map((t) => t.cells.length)).toEqual(doc.pages[0]!.tables.map((t) => t.cells.length));
    for (const table of page!.tables) for (const cell of table.cells) for (const n of cell.box) expect(n).toBeGreaterThanOrEqual(0);
    for (const [, [left, top, width, height]] of page!.words) expect(left + width <= 1 && top + height <= 1).toBe(true);
  });

  it('has nothing for documents without page coordinates, and stops after LAYOUT_PAGES pages', async () => {
    expect(layoutOf(await readDocument(Buffer.from('name,total\nACME,12\n'), { kind: 'csv', dpi: 192, deadline: Date.now() + 60_000 }))).toEqual([]);
    // A different sentence on every page (a line repeated on every page would be read as a running header).
    const name = (i: number) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;
    const long = await textPdf(Array.from({ length: LAYOUT_PAGES + 2 }, (_, i) => [`Station ${name(i)}${name(i)} logged samples`]));
    const layout = layoutOf(await readDocument(long, { kind: 'pdf', dpi: 192, deadline: Date.now() + 60_000 }));
    expect(layout).toHaveLength(LAYOUT_PAGES);
    expect(layout.at(-1)!.page).toBe(LAYOUT_PAGES);
    expect(layout[0]!.words.map(([text]) => text)).toEqual(['Station', 'aaaa', 'logged', 'samples']);
    expect(layout.at(-1)!.words.map(([text]) => text)).toEqual(['Station', `${name(LAYOUT_PAGES - 1)}${name(LAYOUT_PAGES - 1)}`, 'logged', 'samples']);
  });
});
