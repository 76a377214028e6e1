/**
 * Flat form field detection on a page of the Doc (API §8): pages are built by hand, words and rules
 * placed where a form would print them, so each layout's expected fields are known exactly.
 */
import { describe, expect, it } from 'vitest';
import type { Box, Page, Rule, Word } from '../../../functions/documents/doc.ts';
import { detectPageFields } from '../../../functions/models/local/form-detect.ts';

const word = (text: string, left: number, baseline: number, width = text.length * 5.5, height = 10): Word => {
  const box = { left, top: baseline - height * 0.8, width, height };
  return { text, box, origin: { kind: 'box', page: 1, box } };
};
/** A line of words starting at `left`, spaced like 11 pt text. */
const say = (text: string, left: number, baseline: number): Word[] => {
  let x = left;
  return text.split(' ').map((t) => {
    const w = word(t, x, baseline);
    x += w.box!.width + 3;
    return w;
  });
};
const hline = (x1: number, x2: number, y: number): Rule => ({ x1, y1: y, x2, y2: y });
const vline = (x: number, y1: number, y2: number): Rule => ({ x1: x, y1, x2: x, y2 });
const rect = (b: Box): Rule[] => [hline(b.left, b.left + b.width, b.top), hline(b.left, b.left + b.width, b.top + b.height), vline(b.left, b.top, b.top + b.height), vline(b.left + b.width, b.top, b.top + b.height)];

function page(words: Word[], rules: Rule[]): Page {
  return { number: 1, width: 612, height: 792, unit: 'pt', ocr: false, words, lines: [], blocks: [], tables: [], rules };
}

describe('detectPageFields', () => {
  it('finds labelled underlines, a signature line captioned below, a boxed field, grouped tick boxes and "[ ]" boxes', () => {
    const words = [
      ...say('Application', 72, 60), // a heading, underlined: not a field
      ...say('Full name:', 72, 100),
      ...say('Employer', 72, 140),
      ...say('Account type:', 72, 180),
      ...say('Checking', 176, 180),
      ...say('Savings', 276, 180),
      word('[', 72, 220, 3),
      word(']', 82, 220, 3),
      ...say('I agree to the terms', 92, 220),
      ...say('Signature', 72, 274),
    ];
    const rules = [hline(72, 140, 62), hline(130, 400, 101), ...rect({ left: 130, top: 128, width: 250, height: 18 }), ...rect({ left: 160, top: 171, width: 10, height: 10 }), ...rect({ left: 260, top: 171, width: 10, height: 10 }), hline(72, 300, 262)];
    const fields = detectPageFields(page(words, rules));
    expect(fields.map((f) => [f.type, f.label])).toEqual([
      ['text', 'Full name'],
      ['text', 'Employer'],
      ['checkbox', 'Account type: Checking'],
      ['checkbox', 'Account type: Savings'],
      ['checkbox', 'I agree to the terms'],
      ['text', 'Signature'],
    ]);
    expect(fields[0]!.box).toMatchObject({ left: 130, width: 270 });
    expect(bottomOf(fields[0]!.box)).toBeCloseTo(101, 5);
    expect(fields[1]!.box).toEqual({ left: 130, top: 128, width: 250, height: 18 });
    expect(fields[2]!.box).toEqual({ left: 160, top: 171, width: 10, height: 10 });
  });

  it('takes a writing line printed as underscores or dot leaders ("Name: ______", "NOM ..........")', () => {
    const words = [...say('Name:', 72, 100), word('______________', 110, 100, 140), ...say('NOM', 72, 140), word('..............................', 100, 140, 160)];
    const fields = detectPageFields(page(words, []));
    expect(fields.map((f) => [f.type, f.label])).toEqual([
      ['text', 'Name'],
      ['text', 'NOM'],
    ]);
    expect(fields[1]!.box).toMatchObject({ left: 100, width: 160 });
  });

  it('a bare writing line right under another continues it ("ADRESSE : ....." then "....."); one under a new label does not', () => {
    const words = [
      ...say('ADRESSE :', 72, 100),
      word('....................................', 122, 100, 300),
      word('..............................................', 72, 118, 350),
      ...say('Signature', 72, 160),
      word('....................................', 122, 160, 300),
    ];
    const fields = detectPageFields(page(words, []));
    expect(fields.map((f) => f.label)).toEqual(['ADRESSE', 'ADRESSE (line 2)', 'Signature']);
  });

  it('a comb field drawn as short ticks standing on a baseline ("|_|_|_|") is a writing line', () => {
    const words = [...say('ID number:', 72, 100)];
    const ticks = [140, 154, 168, 182, 196, 210].map((x) => vline(x, 92, 101));
    const fields = detectPageFields(page(words, [hline(140, 210, 101), ...ticks]));
    expect(fields.map((f) => [f.type, f.label, f.kind])).toEqual([['text', 'ID number', 'line']]);
    expect(fields[0]!.box).toMatchObject({ left: 140, width: 70 });
  });

  it("a comb line counts its character boxes; a short comb of two boxes after it (a number's key) is a field too, a bare short rule is not", () => {
    const words = [...say('ID number:', 72, 100)];
    const ticks = [140, 154, 168, 182, 196, 210].map((x) => vline(x, 92, 101));
    const key = [220, 234, 248].map((x) => vline(x, 92, 101));
    const fields = detectPageFields(page(words, [hline(140, 210, 101), ...ticks, hline(220, 248, 101), ...key, hline(300, 325, 101)]));
    expect(fields.map((f) => [f.kind, f.comb])).toEqual([
      ['line', 5],
      ['line', 2],
    ]);
    expect(fields[1]!.box).toMatchObject({ left: 220, width: 28 });
    // A stray mark standing on a long line (a scan's letter stroke) makes no comb; a short comb under a
    // word is a stroke of that word.
    const scan = detectPageFields(page([...say('Street:', 72, 140), ...say('Date', 300, 140)], [hline(120, 280, 141), vline(200, 133, 141), hline(300, 314, 141), vline(307, 133, 141)]));
    expect(scan.map((f) => [f.label, f.comb])).toEqual([['Street', undefined]]);
  });

  it('a frame around printed paragraphs is no field; the tick box inside it is one', () => {
    const words = [
      ...say('I certify on my honour that the facts below are true', 72, 420),
      ...say('and complete, and that I will report any change.', 72, 434),
      ...say('I am a member of the family of the insured person', 100, 470),
      ...say('Name and first name', 72, 500),
    ];
    const rules = [...rect({ left: 60, top: 400, width: 480, height: 130 }), ...rect({ left: 80, top: 461, width: 12, height: 12 })];
    const fields = detectPageFields(page(words, rules));
    expect(fields.map((f) => [f.type, f.label])).toEqual([['checkbox', 'I am a member of the family of the insured person']]);
  });

  it('a tall box holding a few short words, one a line, is a field (what was written in it), not a frame around paragraphs', () => {
    const words = [...say('Other Job Experience', 60, 96), ...say('Several', 62, 116), ...say('Other', 62, 140), ...say('Jobs', 62, 164)];
    const fields = detectPageFields(page(words, rect({ left: 58, top: 100, width: 150, height: 88 })));
    expect(fields.map((f) => [f.type, f.label, f.kind])).toEqual([['text', 'Other Job Experience', 'box']]);
    expect(fields[0]!.box).toEqual({ left: 58, top: 100, width: 150, height: 88 });
  });

  it("a tall tick box's text is the printed row nearest its middle, not words of a row of small print above it read in between", () => {
    const small = ['sur', 'papier', 'blanc,', 'la', 'dater'].map((t, k) => word(t, 100 + k * 40, 103, t.length * 4, 6));
    const main: Word[] = [];
    let x = 96;
    for (const t of 'I am a member of the family'.split(' ')) {
      main.push(word(t, x, 114));
      x += t.length * 5.5 + 3;
    }
    const fields = detectPageFields(page([...small, ...main], rect({ left: 76, top: 100, width: 17, height: 17 })));
    expect(fields.map((f) => [f.type, f.label])).toEqual([['checkbox', 'I am a member of the family']]);
  });

  it('takes a light-shaded box with no border as a text box (page.shaded)', () => {
    const p = page([...say('City:', 72, 100)], []);
    p.shaded = [{ left: 120, top: 88, width: 200, height: 16 }];
    const fields = detectPageFields(p);
    expect(fields.map((f) => [f.type, f.label, f.kind])).toEqual([['text', 'City', 'box']]);
    expect(fields[0]!.box).toMatchObject({ left: 120, width: 200 });
  });

  it('takes radio buttons drawn as rings (page.rings), options printed before their buttons ("oui ○ non ○")', () => {
    const p = page([...say('Paid by the insurer', 72, 80), ...say('oui', 300, 100), ...say('non', 360, 100)], []);
    p.rings = [
      { left: 322, top: 91, width: 9, height: 9 },
      { left: 384, top: 91, width: 9, height: 9 },
    ];
    const fields = detectPageFields(p);
    expect(fields.map((f) => [f.type, f.label, f.kind])).toEqual([
      ['checkbox', 'oui', 'tick'],
      ['checkbox', 'non', 'tick'],
    ]);
    expect(fields[1]!.box).toEqual({ left: 384, top: 91, width: 9, height: 9 });
  });

  it('a ruled row of narrow boxes of one width, a character or none in each, is one comb field', () => {
    const xs = Array.from({ length: 9 }, (_, i) => 160 + 14 * i);
    const rules = [hline(160, 272, 92), hline(160, 272, 108), ...xs.map((x) => vline(x, 92, 108))];
    const words = [...say('IBAN', 120, 104), word('N', 164, 104, 6), word('L', 178, 104, 6)];
    const fields = detectPageFields(page(words, rules));
    expect(fields.map((f) => [f.type, f.label, f.kind, f.comb])).toEqual([['text', 'IBAN', 'box', 8]]);
    expect(fields[0]!.box).toEqual({ left: 160, top: 92, width: 112, height: 16 });
    // Cells holding words are a table's, not a comb.
    const table = detectPageFields(page([...say('IBAN', 120, 104), ...xs.slice(0, -1).map((x) => word('ab', x + 2, 104, 10))], rules));
    expect(table.filter((f) => f.comb !== undefined)).toEqual([]);
  });

  it('a box whose text runs on below its first line holds a value, not a caption: the whole box is the field, labelled from outside', () => {
    const words = [...say('Notes', 110, 110), ...say('Leave the parcel with', 150, 110), ...say('the neighbours at 14', 150, 122), ...say('if nobody is home', 150, 134)];
    const fields = detectPageFields(page(words, rect({ left: 146, top: 100, width: 300, height: 40 })));
    expect(fields.map((f) => [f.type, f.label])).toEqual([['text', 'Notes']]);
    expect(fields[0]!.box).toEqual({ left: 146, top: 100, width: 300, height: 40 });
    // A caption alone at the top of a box still labels it, and values go under it.
    const captioned = detectPageFields(page([...say('Name and address', 150, 110)], rect({ left: 146, top: 100, width: 300, height: 40 })));
    expect(captioned.map((f) => f.label)).toEqual(['Name and address']);
    expect(captioned[0]!.box.top).toBeGreaterThan(110);
  });

  it('a bare line takes the label printed over it, not the word under it that labels a field of its own ("Le |_|_|"), nor a footnote', () => {
    const words = [
      ...say('I certify that I live with the insured person', 72, 84),
      ...say('Nom et prénom :', 72, 98),
      word('....................................', 72, 112, 200),
      ...say('Le', 72, 126),
      word('______________', 90, 126, 80),
      ...say('1) This certificate is not used to send the statements of the employees to the tax office,', 72, 214),
    ];
    const fields = detectPageFields(page(words, [hline(72, 540, 202)]));
    expect(fields.map((f) => [f.label, f.kind])).toEqual([
      ['Nom et prénom', 'line'],
      ['Le', 'line'],
      ['', 'line'],
    ]);
  });

  it('takes a label stacked over its line, and writes below that label', () => {
    const words = [...say('Mailing address', 72, 100)];
    const fields = detectPageFields(page(words, [hline(72, 400, 116)]));
    expect(fields).toHaveLength(1);
    expect(fields[0]!.label).toBe('Mailing address');
    expect(fields[0]!.box.top).toBeGreaterThanOrEqual(102);
    expect(bottomOf(fields[0]!.box)).toBeCloseTo(116, 5);
  });

  it('finds nothing on a page of prose, or in a ruled table', () => {
    const prose = [...say('This letter has no form on it at all.', 72, 100)];
    const grid = [hline(72, 400, 200), hline(72, 400, 220), hline(72, 400, 240), vline(72, 200, 240), vline(200, 200, 240), vline(300, 200, 240), vline(400, 200, 240)];
    const table = [...say('Item', 80, 214), ...say('Qty', 210, 214), ...say('Price', 310, 214), ...say('Rope', 80, 234), ...say('4', 210, 234), ...say('12.50', 310, 234)];
    expect(detectPageFields(page(prose, []))).toEqual([]);
    expect(detectPageFields(page([...prose, ...table], grid))).toEqual([]);
  });

  it('reads a ruled grid form: captions at the top of cells, and empty cells named by their column header and row', () => {
    // Row 1: two tall cells with captions at their top. Rows 2–4: a header row and two empty entry rows.
    const xs = [72, 300, 500];
    const ys = [100, 136, 156, 176, 196];
    const rules = [...ys.map((y) => hline(72, 500, y)), ...xs.map((x) => vline(x, 100, 196))];
    const words = [...say('Name', 76, 110), ...say('Date of birth', 304, 110), ...say('Item', 76, 150), ...say('Quantity', 304, 150), ...say('Rope', 76, 170)];
    const fields = detectPageFields(page(words, rules));
    expect(fields.map((f) => f.label)).toEqual(['Name', 'Date of birth', 'Rope Quantity', 'Item', 'Quantity']);
    expect(fields[0]!.box).toMatchObject({ left: 72, width: 228 });
    expect(fields[0]!.box.top).toBeGreaterThan(110);
    expect(bottomOf(fields[0]!.box)).toBe(136);
    expect(fields[2]!.box).toEqual({ left: 300, top: 156, width: 200, height: 20 });
    expect(fields[4]!.box).toEqual({ left: 300, top: 176, width: 200, height: 20 });
  });
});

function bottomOf(b: Box): number {
  return b.top + b.height;
}
