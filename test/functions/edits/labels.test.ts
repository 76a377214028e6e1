/**
 * Labels of form widgets read from the page layout (functions/edits/labels.ts), on pages built by hand
 * so each layout's labels are known exactly; and read-only AcroForm fields, which are never written.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { Box, Line, Page, Word } from '../../../functions/documents/doc.ts';
import { acroFormFields, detectedFields } from '../../../functions/edits/fields.ts';
import { printedLabels, type WidgetBox } from '../../../functions/edits/labels.ts';
import { fillPdf } from '../../../functions/edits/task.ts';
import { localFormFiller } from '../../../functions/models/local/form-values.ts';

/** A page whose lines are the given texts, each at (left, top), words 5 pt per character, 8 pt high. */
function page(texts: Array<[string, number, number]>): Page {
  const words: Word[] = [];
  const lines: Line[] = [];
  for (const [text, left, top] of texts) {
    const ids: number[] = [];
    let x = left;
    for (const t of text.split(' ')) {
      const box = { left: x, top, width: t.length * 5, height: 8 };
      ids.push(words.length);
      words.push({ text: t, box, origin: { kind: 'box', page: 1, box } });
      x += box.width + 3;
    }
    lines.push({ text, words: ids });
  }
  return { number: 1, width: 600, height: 800, unit: 'pt', ocr: false, words, lines, blocks: [], tables: [] };
}
const box = (left: number, top: number, width: number, height = 14): WidgetBox => ({ box: { left, top, width, height } as Box, tick: false });
const tick = (left: number, top: number): WidgetBox => ({ box: { left, top, width: 10, height: 10 }, tick: true });

describe('printedLabels', () => {
  it('reads labels printed under their boxes when the page does so (not the label of the box above)', () => {
    // [nom box]      [prénom box]
    //  nom            prénom
    // [numéro box]
    //  numéro
    const p = page([
      ['nom', 100, 116],
      ['prénom', 300, 116],
      ['numéro', 100, 146],
    ]);
    const labels = printedLabels(p, [box(100, 100, 150), box(300, 100, 150), box(100, 130, 80)]);
    expect(labels.map((l) => l.label)).toEqual(['nom', 'prénom', 'numéro']);
  });

  it('a sentence under a box is no label (a footnote under a rule); a long label ending in ":" still is one', () => {
    const footnote = '1) the certificate is not used to send the statements of the employees to the tax administration,';
    const p = page([
      ['nom', 100, 116],
      [footnote, 100, 166],
      ['NAME AND ADDRESS OF THE OFFICE THAT PAYS YOUR BENEFITS FOR SICKNESS AND MATERNITY INSURANCE:', 100, 200],
    ]);
    const labels = printedLabels(p, [box(100, 100, 150), box(100, 150, 450), box(100, 210, 450)]);
    expect(labels.map((l) => l.label)).toEqual(['nom', '', 'NAME AND ADDRESS OF THE OFFICE THAT PAYS YOUR BENEFITS FOR SICKNESS AND MATERNITY INSURANCE']);
  });

  it('reads the caption a form prints inside a cell its widget covers whole, and lends it to no other box', () => {
    // | Name, Vorname        | Geburtsdatum        |   captions in small print at the top of each cell,
    // |                      |                     |   the widgets covering the cells whole
    // | Straße, Hausnummer   | Postleitzahl, Wohnort |
    const p = page([
      ['Antrag auf Beratungshilfe', 100, 60],
      ['Name, Vorname', 102, 101],
      ['Geburtsdatum', 302, 101],
      ['Straße, Hausnummer', 102, 131],
      ['Postleitzahl, Wohnort', 302, 131],
    ]);
    const labels = printedLabels(p, [box(100, 100, 200, 30), box(300, 100, 200, 30), box(100, 130, 200, 30), box(300, 130, 200, 30)]);
    expect(labels.map((l) => l.label)).toEqual(['Name, Vorname', 'Geburtsdatum', 'Straße, Hausnummer', 'Postleitzahl, Wohnort']);
    // A label printed beside the box is still its label, whatever else the box holds.
    const beside = printedLabels(page([['Beruf:', 40, 103], ['EUR', 250, 103]]), [box(100, 100, 170, 14)]);
    expect(beside.map((l) => l.label)).toEqual(['Beruf']);
  });

  it('reads labels printed over their boxes on a page that prints them there', () => {
    const p = page([
      ['First name', 100, 88],
      ['Last name', 300, 88],
      ['Street', 100, 118],
    ]);
    const labels = printedLabels(p, [box(100, 98, 150), box(300, 98, 150), box(100, 128, 150)]);
    expect(labels.map((l) => l.label)).toEqual(['First name', 'Last name', 'Street']);
  });

  it("shares a row's label with the box right after another, skips line numbers, and names the section above", () => {
    const p = page([
      ['H) Employer', 320, 80],
      ['2', 20, 103],
      ['Gross pay', 40, 103],
      ['name:', 320, 103],
      ['address:', 320, 123],
    ]);
    const labels = printedLabels(p, [box(150, 100, 30), box(182, 100, 80), box(380, 100, 150), box(380, 120, 150)]);
    expect(labels.map((l) => l.label)).toEqual(['Gross pay', 'Gross pay', 'name', 'address']);
    expect(labels[2]!.section).toBe('H) Employer');
    expect(labels[3]!.section).toBe('H) Employer');
  });

  it('names tick boxes by the text on the side the page prints it (here before each box)', () => {
    const p = page([
      ['Sick leave paid', 300, 80],
      ['yes', 330, 101],
      ['no', 400, 101],
    ]);
    const labels = printedLabels(p, [tick(352, 100), tick(415, 100)]);
    expect(labels.map((l) => l.label)).toEqual(['yes', 'no']);
    expect(labels[0]!.section).toBe('Sick leave paid');
  });

  it('names a bare box right under a labelled one, nothing printed between, as its next line', () => {
    const p = page([
      ['address:', 40, 103],
      ['Phone:', 40, 143],
    ]);
    // "address:" [line 1], then a second line starting at the margin with the same right end.
    const labels = printedLabels(p, [box(100, 100, 300), box(40, 116, 360), box(100, 140, 300)]);
    expect(labels.map((l) => l.label)).toEqual(['address', 'address (line 2)', 'Phone']);
  });

  it('gives the boxes of a table column their header and row', () => {
    const p = page([['FAMILY NAME', 100, 88]]);
    const labels = printedLabels(p, [box(100, 98, 150), box(100, 114, 150), box(100, 130, 150)]);
    expect(labels.map((l) => l.column)).toEqual([
      { header: 'FAMILY NAME', row: 1 },
      { header: 'FAMILY NAME', row: 2 },
      { header: 'FAMILY NAME', row: 3 },
    ]);
  });

  it("a sentence printed under a table's last row is no label of its cell; it heads the boxes after it", () => {
    // FAMILY NAME / [row 1] [row 2] [row 3] / "I ask that the persons above be attached." / Done at [box] / On [box]
    const p = page([
      ['FAMILY NAME', 100, 88],
      ['I ask that the persons above', 100, 152],
      ['be attached to me.', 100, 162],
      ['Done at', 100, 184],
      ['On', 100, 198],
    ]);
    const labels = printedLabels(p, [box(100, 98, 150), box(100, 114, 150), box(100, 130, 150), box(150, 180, 100), box(150, 196, 100)]);
    expect(labels[2]).toEqual({ label: '', section: '', column: { header: 'FAMILY NAME', row: 3 } });
    expect(labels.slice(3).map((l) => [l.label, l.section])).toEqual([
      ['Done at', 'I ask that the persons above be attached to me.'],
      ['On', 'I ask that the persons above be attached to me.'],
    ]);
  });
});

describe('detected fields of a flat form', () => {
  it('finds boxes stacked on one another (a shared edge), the lower one closed by a rule that runs on into the next row', () => {
    //  Address 1: [__________]
    //  Address 2: [__________]     (its top is the box above's bottom)
    //  Postcode:  [____]  City: [______]   (their top edge and Address 2's bottom are one drawn line)
    const p = page([
      ['Address 1:', 40, 104],
      ['Address 2:', 40, 124],
      ['Postcode:', 40, 144],
      ['City:', 210, 144],
    ]);
    const h = (y: number, x1: number, x2: number) => ({ x1, y1: y, x2, y2: y });
    const v = (x: number, y1: number, y2: number) => ({ x1: x, y1, x2: x, y2 });
    p.rules = [
      h(100, 120, 300), h(120, 120, 300), v(120, 100, 120), v(300, 100, 120),
      h(120, 120, 300), h(140, 120, 300), v(120, 120, 140), v(300, 120, 140),
      h(140, 120, 190), h(160, 120, 190), v(120, 140, 160), v(190, 140, 160),
      h(140, 240, 400), h(160, 240, 400), v(240, 140, 160), v(400, 140, 160),
    ];
    const fields = detectedFields({ kind: 'pdf', pages: [p] });
    expect(fields.map((f) => f.description)).toEqual(['Address 1', 'Address 2', 'Postcode', 'City']);
  });

  it('a field nothing names has no description: the section it sits in does not say what goes there', () => {
    const p = page([
      ['E) Tax withheld', 55, 100],
      ['1) This certificate is not used to send the statements of the employees to the tax administration,', 55, 152],
    ]);
    p.rules = [{ x1: 55, y1: 146, x2: 560, y2: 146 }];
    const fields = detectedFields({ kind: 'pdf', pages: [p] });
    expect(fields.map((f) => f.description)).toEqual(['']);
  });

  it('numbers the empty rows of a ruled table under one header, so the 2nd row can be asked for', () => {
    const p = page([
      ['NAME', 55, 104],
      ['BORN', 205, 104],
    ]);
    const h = (y: number) => ({ x1: 50, y1: y, x2: 350, y2: y });
    const v = (x: number) => ({ x1: x, y1: 100, x2: x, y2: 164 });
    p.rules = [h(100), h(116), h(132), h(148), h(164), v(50), v(200), v(350)];
    const fields = detectedFields({ kind: 'pdf', pages: [p] });
    expect(fields.map((f) => f.description)).toEqual(['NAME (row 1)', 'BORN (row 1)', 'NAME (row 2)', 'BORN (row 2)', 'NAME (row 3)', 'BORN (row 3)']);
  });
});

describe('blocks of a form', () => {
  it("a short line alone on its row, centred, titles the block under it down to the rule across the page: 'Donor – postcode' is the donor's", async () => {
    const pdf = await PDFDocument.create();
    const pageRef = pdf.addPage([600, 800]);
    const form = pdf.getForm();
    // Widgets at the page's top-left positions of page() below: top 120, 140 (beneficiary), 210, 230 (donor).
    for (const [name, top] of [['name', 120], ['postcode', 140], ['name_2', 210], ['postcode_2', 230]] as const) {
      form.createTextField(name).addToPage(pageRef, { x: 120, y: 800 - top - 14, width: 200, height: 14 });
    }
    const bytes = await pdf.save();
    const loaded = await PDFDocument.load(bytes);
    const printed = page([
      ['Beneficiary', 272, 100],
      ['Name:', 50, 123],
      ['Postcode:', 50, 143],
      ['Donor', 287, 190],
      ['Name:', 50, 213],
      ['Postcode:', 50, 233],
      ['Signed on behalf of the beneficiary by its treasurer', 50, 300],
    ]);
    printed.rules = [{ x1: 40, y1: 170, x2: 560, y2: 170 }];
    const fields = acroFormFields(loaded, { kind: 'pdf', pages: [printed] });
    expect(fields.map((f) => [f.description, f.block])).toEqual([
      ['Beneficiary › Name', 'Beneficiary'],
      ['Beneficiary › Postcode', 'Beneficiary'],
      ['Donor › Name', 'Donor'],
      ['Donor › Postcode', 'Donor'],
    ]);
    const instructions = 'Donor – postcode: 67400\nBeneficiary – postcode: 67000\nDonor – name: Helen Muller\nBeneficiary – name: Food Bank Strasbourg';
    const { formData } = await fillPdf(loaded, bytes, fields, { filler: localFormFiller, instructions, color: '#0000ff' });
    expect(formData.map((f) => [f.key, f.value])).toEqual([
      ['name', 'Food Bank Strasbourg'],
      ['postcode', '67000'],
      ['name_2', 'Helen Muller'],
      ['postcode_2', '67400'],
    ]);
  });

  it("a title in larger print, not centred, heads the boxes of its own column only: 'Spouse' over the right half", () => {
    const p = page([
      ['Name:', 50, 123],
      ['Spouse', 350, 40],
      ['Name:', 350, 123],
    ]);
    // Far enough over the boxes not to be their section's heading.
    for (const w of p.words.filter((w) => w.text === 'Spouse')) w.box = { ...w.box!, top: 39, height: 10 };
    const labels = printedLabels(p, [box(100, 120, 150), box(400, 120, 150)]);
    expect(labels.map((l) => [l.label, l.block])).toEqual([
      ['Name', undefined],
      ['Name', 'Spouse'],
    ]);
  });

  it('a line ending in ":", a long line, or one beside other text titles no block; the block ends at a rule across the page', () => {
    const p = page([
      ['Address:', 265, 40],
      ['Name:', 50, 78],
      ['Donor', 287, 100],
      ['Name:', 50, 123],
      ['Name:', 50, 183],
      ['Employer', 50, 200],
      ['page 2', 500, 200],
      ['Name:', 50, 268],
    ]);
    p.rules = [{ x1: 40, y1: 170, x2: 560, y2: 170 }];
    // "Employer" in larger print, but with "page 2" on its row.
    for (const w of p.words.filter((w) => w.text === 'Employer')) w.box = { ...w.box!, top: 199, height: 10 };
    const labels = printedLabels(p, [box(120, 75, 200), box(120, 120, 200), box(120, 180, 200), box(120, 265, 200)]);
    expect(labels.map((l) => l.block)).toEqual([undefined, 'Donor', undefined, undefined]);
  });
});

describe('what a field holds', () => {
  it('read-only fields are listed but never offered a value nor written', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const pageRef = pdf.addPage([600, 800]);
    const form = pdf.getForm();
    pageRef.drawText('Name', { x: 50, y: 700, size: 10, font });
    form.createTextField('name').addToPage(pageRef, { x: 120, y: 695, width: 200, height: 18 });
    pageRef.drawText('Total', { x: 50, y: 660, size: 10, font });
    const total = form.createTextField('total');
    total.addToPage(pageRef, { x: 120, y: 655, width: 200, height: 18 });
    total.enableReadOnly();
    const bytes = await pdf.save();

    const loaded = await PDFDocument.load(bytes);
    const fields = acroFormFields(loaded, { kind: 'pdf', pages: [page([['Name', 50, 92], ['Total', 50, 132]])] });
    expect(fields.map((f) => [f.key, f.description, f.readOnly ?? false])).toEqual([
      ['name', 'Name', false],
      ['total', 'Total', true],
    ]);
    const { formData, filled } = await fillPdf(loaded, bytes, fields, { filler: localFormFiller, instructions: 'Name: Jane Doe\nTotal: 99.00', color: '#0000ff' });
    expect(formData.map((f) => [f.key, f.value])).toEqual([
      ['name', 'Jane Doe'],
      ['total', null],
    ]);
    const after = (await PDFDocument.load(filled)).getForm();
    expect(after.getTextField('name').getText()).toBe('Jane Doe');
    expect(after.getTextField('total').getText()).toBeUndefined();
  });

  it('a value longer than the field holds is never cut: the field stays empty and its description says why; a comb field drops spaces', async () => {
    const pdf = await PDFDocument.create();
    const pageRef = pdf.addPage([600, 800]);
    const form = pdf.getForm();
    const city = form.createTextField('city');
    city.setMaxLength(5);
    city.addToPage(pageRef, { x: 120, y: 695, width: 200, height: 18 });
    const id = form.createTextField('id');
    id.setMaxLength(6);
    id.enableCombing();
    id.addToPage(pageRef, { x: 120, y: 655, width: 200, height: 18 });
    const bytes = await pdf.save();
    const loaded = await PDFDocument.load(bytes);
    const fields = acroFormFields(loaded, { kind: 'pdf', pages: [page([['City', 50, 92], ['ID number', 50, 132]])] });
    // A filler that answers too long a value (as a provider model may) for the 5-character city.
    const answering = { fill: async () => ({ values: ['Rotterdam', '123 456'] }) };
    const { formData, filled } = await fillPdf(loaded, bytes, fields, { filler: answering, instructions: 'City: Rotterdam\nID number: 123 456', color: '#0000ff' });
    expect(formData.map((f) => [f.key, f.value])).toEqual([
      ['city', null],
      ['id', '123456'],
    ]);
    expect(formData[0]!.description).toContain('not filled: "Rotterdam" is longer than the 5 characters the field holds');
    const after = (await PDFDocument.load(filled)).getForm();
    expect(after.getTextField('city').getText()).toBeUndefined();
    expect(after.getTextField('id').getText()).toBe('123456');
  });
});
