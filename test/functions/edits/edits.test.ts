/**
 * Edits and edit templates through the API (API §8), on generated forms whose fields are known:
 * the 15-field AcroForm, the 2-page flat form, and that form scanned at 200 dpi. The filled PDFs are
 * read back with pdf-lib (AcroForm values, content streams) and poppler's pdftotext -bbox (where the
 * drawn text landed).
 */
import { createCanvas } from '@napi-rs/canvas';
import { existsSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { buildDocx, para } from '../../support/office-fixtures.ts';
import { acroFormPdf, flatFormPdf, iou, popplerWords, scannedCopy, type AcroFormFixture, type Bbox, type FlatFormFixture } from '../../support/form-fixtures.ts';

let cloud: TestCloud;
let acro: AcroFormFixture;
let flat: FlatFormFixture;
beforeAll(async () => {
  cloud = await startTestCloud();
  acro = await acroFormPdf();
  flat = await flatFormPdf();
});
afterAll(() => cloud?.close());

const docxBytes = () => buildDocx({ body: para('Name: ____________________') });
const pdfInput = (bytes: Uint8Array, filename = 'form.pdf') => ({ filename, url: dataUrl('application/pdf', Buffer.from(bytes)) });
const filledBytes = (edit: { output: { filled_document: { url: string } } }) => new Uint8Array(Buffer.from(edit.output.filled_document.url.split(',')[1]!, 'base64'));

interface Field {
  key: string;
  type: string;
  description: string;
  bbox: Bbox;
  value: string | null;
}

/** Decoded content streams of every page. */
function contentText(pdf: PDFDocument): string {
  const parts: string[] = [];
  for (const page of pdf.getPages()) {
    const contents = page.node.lookup(PDFName.of('Contents'));
    const streams = contents && 'asArray' in contents ? (contents as unknown as { asArray(): unknown[] }).asArray().map((ref) => pdf.context.lookup(ref as never)) : [contents];
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) continue;
      const raw = Buffer.from(stream.contents);
      const filter = stream.dict.lookup(PDFName.of('Filter'));
      parts.push((filter ? inflateSync(raw) : raw).toString('latin1'));
    }
  }
  return parts.join('\n');
}

/** Words poppler finds inside a 0..1 box (with a little slack), on its page. */
function wordsIn(words: ReturnType<typeof popplerWords>, box: Bbox, size = { width: 612, height: 792 }): string {
  const slack = 3;
  const x0 = box.left * size.width - slack;
  const x1 = (box.left + box.width) * size.width + slack;
  const y0 = box.top * size.height - slack;
  const y1 = (box.top + box.height) * size.height + slack;
  return words
    .filter((w) => w.page === box.page && w.xMin >= x0 && w.xMax <= x1 && w.yMin >= y0 && w.yMax <= y1)
    .map((w) => w.text)
    .join(' ');
}

describe('AcroForm', () => {
  it('finds all 15 fields at their widgets, writes every value of the JSON instructions to the right field, and draws it there', async () => {
    const r = await cloud.api('POST', '/v1/edits', { body: { document: pdfInput(acro.bytes, 'application.pdf'), instructions: JSON.stringify(acro.instructions) } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', error: null, template_id: null, config: { color: '#000080' }, usage: { page_count: 1 } });
    expect(r.body.id).toMatch(/^edt_/);
    const fields = r.body.output.form_data as Field[];

    // Every AcroForm field is found (a radio group is one checkbox per option), with its widget box.
    for (const expected of acro.fields) {
      for (const [option, box] of Object.entries(expected.boxes)) {
        const key = expected.kind === 'radio' ? `${expected.name}.${option}` : expected.name;
        const field = fields.find((f) => f.key === key);
        expect(field, key).toBeDefined();
        expect(field!.bbox.page).toBe(1);
        expect(iou(field!.bbox, box), key).toBeGreaterThanOrEqual(0.9);
        expect(field!.type).toBe(expected.kind === 'checkbox' || expected.kind === 'radio' ? 'checkbox' : 'text');
      }
    }
    expect(new Set(fields.map((f) => f.key.split('.')[0])).size).toBe(15);

    // The values, as the AcroForm of the filled PDF holds them.
    const bytes = filledBytes(r.body);
    const form = (await PDFDocument.load(bytes)).getForm();
    for (const expected of acro.fields) {
      if (expected.kind === 'text') expect(form.getTextField(expected.name).getText(), expected.name).toBe(expected.expected);
      if (expected.kind === 'checkbox') expect(form.getCheckBox(expected.name).isChecked(), expected.name).toBe(expected.expected);
      if (expected.kind === 'radio') expect(form.getRadioGroup(expected.name).getSelected()).toBe(expected.expected);
      if (expected.kind === 'dropdown') expect(form.getDropdown(expected.name).getSelected()).toEqual([expected.expected]);
    }
    // ...and as drawn on the page, inside each field's box (poppler reads the page content).
    const words = popplerWords(bytes);
    for (const expected of acro.fields.filter((f) => f.kind === 'text' || f.kind === 'dropdown')) {
      expect(wordsIn(words, Object.values(expected.boxes)[0]!), expected.name).toContain(expected.expected as string);
    }
    // A ticked box gets a mark; an unticked one none.
    expect(wordsIn(words, acro.fields.find((f) => f.name === 'agree_terms')!.boxes.agree_terms!)).not.toBe('');
    expect(wordsIn(words, acro.fields.find((f) => f.name === 'paperless')!.boxes.paperless!)).toBe('');
    expect(wordsIn(words, acro.fields.find((f) => f.name === 'account_type')!.boxes.Savings!)).not.toBe('');
    expect(wordsIn(words, acro.fields.find((f) => f.name === 'account_type')!.boxes.Checking!)).toBe('');

    // The drawn text is in the default colour, #000080.
    expect(contentText(await PDFDocument.load(bytes))).toMatch(/\b0 0 0\.50196\d* rg\b/);

    // The filled PDF is a stored File.
    expect(r.body.filled_document_ref).toMatchObject({ filename: 'application_filled.pdf', mime_type: 'application/pdf' });
    expect(r.body.output.filled_document.filename).toBe('application_filled.pdf');
    const file = await cloud.api('GET', `/v1/files/${r.body.filled_document_ref.id}`);
    expect(file.status).toBe(200);
    expect(file.body.size_bytes).toBe(bytes.length);

    // include_output=false: the status-only projection keeps the record fields.
    const cheap = await cloud.api('GET', `/v1/edits/${r.body.id}?include_output=false`);
    expect(cheap.body.output).toEqual({ form_data: [], filled_document: { filename: '', url: '' } });
    expect(cheap.body.filled_document_ref).toEqual(r.body.filled_document_ref);
  });

  it('draws in config.color', async () => {
    const r = await cloud.api('POST', '/v1/edits', { body: { document: pdfInput(acro.bytes), instructions: 'city: Chicago', config: { color: '#FF0000' } } });
    expect(r.status, r.text).toBe(201);
    const text = contentText(await PDFDocument.load(filledBytes(r.body)));
    expect(text).toMatch(/\b1 0 0 rg\b/);
    expect(text).not.toMatch(/\b0 0 0\.50196\d* rg\b/);
    expect((r.body.output.form_data as Field[]).filter((f) => f.value !== null).map((f) => [f.key, f.value])).toEqual([['city', 'Chicago']]);
  });
});

function scoreFlat(fields: Field[], fixture: FlatFormFixture) {
  let found = 0;
  let right = 0;
  const wrong: string[] = [];
  for (const expected of fixture.fields) {
    const field = fields.find((f) => f.bbox.page === expected.box.page && iou(f.bbox, expected.box) >= 0.5);
    if (!field) {
      wrong.push(`${expected.label}: not found`);
      continue;
    }
    found++;
    if (field.value === expected.expected) right++;
    else wrong.push(`${expected.label}: ${JSON.stringify(field.value)} instead of ${JSON.stringify(expected.expected)}`);
  }
  return { found: found / fixture.fields.length, right: right / fixture.fields.length, wrong };
}

describe('flat and scanned forms', () => {
  it('finds ≥ 90% of the 20 fields of a flat form and places the values', async () => {
    const r = await cloud.api('POST', '/v1/edits', { body: { document: pdfInput(flat.bytes, 'paper.pdf'), instructions: flat.instructions } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.usage.page_count).toBe(2);
    const fields = r.body.output.form_data as Field[];
    const score = scoreFlat(fields, flat);
    expect(score.found, score.wrong.join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(score.right, score.wrong.join('\n')).toBeGreaterThanOrEqual(0.9);
    // Keys are label slugs; a tick box in a group says so.
    expect(fields.map((f) => f.key)).toContain('full_name');
    expect(fields.find((f) => f.key === 'account_type_savings')).toMatchObject({ type: 'checkbox', description: 'Account type: Savings', value: 'true' });
    // The drawn values are where the fields are (poppler).
    const words = popplerWords(filledBytes(r.body));
    for (const expected of flat.fields.filter((f) => f.type === 'text' && f.expected !== null && f.expected.length < 30)) {
      expect(wordsIn(words, expected.box), expected.label).toContain(expected.expected!);
    }
    // The long comment wraps inside its tall box: all of its words are there.
    const comments = flat.fields.find((f) => f.label === 'Comments')!;
    const inBox = wordsIn(words, comments.box).split(' ');
    expect(inBox.length).toBeGreaterThanOrEqual(comments.expected!.split(' ').length);
    for (const word of comments.expected!.split(' ')) expect(inBox, word).toContain(word);
  });

  it('finds ≥ 80% of the fields of the same form scanned at 200 dpi (OCR)', async () => {
    const scan = await scannedCopy(flat.bytes, 200);
    const r = await cloud.api('POST', '/v1/edits', { body: { document: pdfInput(scan, 'scan.pdf'), instructions: flat.instructions } });
    expect(r.status, r.text).toBe(201);
    const score = scoreFlat(r.body.output.form_data as Field[], flat);
    expect(score.found, score.wrong.join('\n')).toBeGreaterThanOrEqual(0.8);
    expect(score.right, score.wrong.join('\n')).toBeGreaterThanOrEqual(0.8);
  }, 60_000);
});

describe('bad input', () => {
  it('a PDF without fields completes with an empty form_data and the document unchanged', async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([612, 792]);
    page.drawText('A letter with no form on it at all.', { x: 72, y: 700, size: 12, font: await pdf.embedFont(StandardFonts.Helvetica) });
    const bytes = await pdf.save();
    const r = await cloud.api('POST', '/v1/edits', { body: { document: pdfInput(bytes, 'letter.pdf'), instructions: 'name: Jane' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.status).toBe('completed');
    expect(r.body.output.form_data).toEqual([]);
    expect(Buffer.from(filledBytes(r.body)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('a PNG scan is wrapped in a one-page PDF and filled like one', async () => {
    const canvas = createCanvas(850, 1100);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, 850, 1100);
    const r = await cloud.api('POST', '/v1/edits', { body: { document: { filename: 'page.png', url: dataUrl('image/png', canvas.toBuffer('image/png')) }, instructions: 'name: Jane' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', usage: { page_count: 1 }, output: { form_data: [], filled_document: { filename: 'page_filled.pdf' } } });
    const pdf = await PDFDocument.load(filledBytes(r.body));
    expect(pdf.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
  });

  it('instructions that match nothing write nothing (every value null, the PDF unchanged)', async () => {
    const r = await cloud.api('POST', '/v1/edits', { body: { document: pdfInput(acro.bytes), instructions: 'The weather is nice today. Favourite colour: teal' } });
    expect(r.status, r.text).toBe(201);
    expect((r.body.output.form_data as Field[]).every((f) => f.value === null)).toBe(true);
    expect(Buffer.from(filledBytes(r.body)).equals(Buffer.from(acro.bytes))).toBe(true);
  });

  it('refuses what it cannot fill with a 422 naming the problem, storing nothing', async () => {
    const before = (await cloud.api('GET', '/v1/edits?limit=100')).body.data.length;
    const docx = Buffer.from('PK\u0003\u0004 not really a docx');
    // Without LibreOffice (not installed here) a real DOCX cannot be converted: a 422 that says so.
    expect(process.env.PATH?.split(':').some((dir) => existsSync(`${dir}/soffice`))).toBe(false);
    const cases: Array<[Record<string, unknown>, (string | number)[], RegExp]> = [
      [{ document: { filename: 'a.csv', url: dataUrl('text/csv', 'a,b\n1,2\n') }, instructions: 'a: 1' }, ['body', 'document'], /not a form/],
      [{ document: { filename: 'a.docx', url: dataUrl('application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx) }, instructions: 'a: 1' }, ['body', 'document'], /./],
      [{ document: { filename: 'form.docx', url: dataUrl('application/vnd.openxmlformats-officedocument.wordprocessingml.document', await docxBytes()) }, instructions: 'a: 1' }, ['body', 'document'], /LibreOffice/],
      [{ document: { filename: 'broken.pdf', url: dataUrl('application/pdf', '%PDF-1.7\nnothing else') }, instructions: 'a: 1' }, ['body', 'document'], /PDF|damaged|cannot/i],
      [{ instructions: 'a: 1' }, ['body', 'document'], /exactly one of document and template_id/],
      [{ document: pdfInput(acro.bytes), template_id: 'etpl_01m7z0qenejn1pv4p44vpcbwww', instructions: 'a: 1' }, ['body', 'template_id'], /exactly one/],
      [{ document: pdfInput(acro.bytes) }, ['body', 'instructions'], /./],
      [{ document: pdfInput(acro.bytes), instructions: 'a', config: { color: 'navy' } }, ['body', 'config', 'color'], /#RRGGBB/],
      [{ template_id: 'etpl_01m7z0qenejn1pv4p44vpcbwww', instructions: 'a: 1' }, ['body', 'template_id'], /not found/],
      [{ document: pdfInput(acro.bytes), instructions: 'x'.repeat(1_000_000) }, ['body', 'instructions'], /at most 100000 characters/],
    ];
    for (const [body, loc, message] of cases) {
      const r = await cloud.api('POST', '/v1/edits', { body });
      expect(r.status, `${JSON.stringify(loc)} ${r.text.slice(0, 300)}`).toBe(422);
      expect(r.body.detail[0].loc.slice(0, loc.length)).toEqual(loc);
      expect(r.body.detail[0].msg).toMatch(message);
    }
    expect((await cloud.api('GET', '/v1/edits?limit=100')).body.data.length).toBe(before);
  });

  it('large instructions (100,000 characters of JSON) are read quickly', async () => {
    const big: Record<string, string> = { city: 'Chicago' };
    for (let i = 0; i < 2300; i++) big[`note_${i}`] = `unrelated remark number ${i}`;
    expect(JSON.stringify(big).length).toBeGreaterThan(90_000);
    const started = Date.now();
    const r = await cloud.api('POST', '/v1/edits', { body: { document: pdfInput(acro.bytes), instructions: JSON.stringify(big) } });
    expect(r.status, r.text.slice(0, 300)).toBe(201);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((r.body.output.form_data as Field[]).find((f) => f.key === 'city')!.value).toBe('Chicago');
  });
});

describe('runs', () => {
  it('background: queued at once, completed later; the list filters by status; a repeat is answered from the cache', async () => {
    const body = { document: pdfInput(acro.bytes), instructions: 'Owner 1 name: Carol King\nCity: Boston', background: true };
    const r = await cloud.api('POST', '/v1/edits', { body });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('queued');
    expect(r.body.output).toEqual({ form_data: [], filled_document: { filename: '', url: '' } });
    expect(r.body.filled_document_ref).toBeNull();
    const done = await until(async () => {
      const g = await cloud.api('GET', `/v1/edits/${r.body.id}`);
      return g.body.status === 'completed' ? g.body : undefined;
    }, 30_000);
    expect((done.output.form_data as Field[]).find((f) => f.key === 'owner1_name')!.value).toBe('Carol King');
    const again = await cloud.api('POST', '/v1/edits', { body: { ...body, background: false } });
    expect(again.body.id).not.toBe(r.body.id);
    expect(again.body.output).toEqual(done.output);
    expect(again.body.filled_document_ref).toEqual(done.filled_document_ref);
    const completed = await cloud.api('GET', '/v1/edits?status=completed&limit=100');
    expect(completed.body.data.map((e: { id: string }) => e.id)).toContain(r.body.id);
  });
});

describe('templates', () => {
  it('detects the fields at creation, lists without them, renames, replaces fields, and edits with the template without re-detection', async () => {
    const created = await cloud.api('POST', '/v1/edits/templates', { body: { name: 'Joint Account Form', document: pdfInput(acro.bytes, 'joint.pdf') } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.id).toMatch(/^etpl_/);
    expect(created.body.field_count).toBe(16);
    expect(created.body.form_fields.map((f: Field) => f.key)).toContain('owner2_name');
    expect(created.body.form_fields.every((f: Field) => f.value === null)).toBe(true);
    const id = created.body.id;

    const list = await cloud.api('GET', '/v1/edits/templates?name=ACCOUNT');
    expect(list.body.data.map((t: { id: string }) => t.id)).toContain(id);
    expect(list.body.data[0].form_fields).toBeUndefined();
    expect((await cloud.api('GET', '/v1/edits/templates?name=nothing-like-it')).body.data).toEqual([]);

    // An edit with the template fills its fields.
    const edit = await cloud.api('POST', '/v1/edits', { body: { template_id: id, instructions: JSON.stringify(acro.instructions) } });
    expect(edit.status, edit.text).toBe(201);
    expect(edit.body).toMatchObject({ template_id: id, file: { filename: 'joint.pdf' } });
    expect((edit.body.output.form_data as Field[]).find((f) => f.key === 'owner2_name')!.value).toBe('Bob Martin');
    expect((await cloud.api('GET', `/v1/edits?template_id=${id}`)).body.data.map((e: { id: string }) => e.id)).toEqual([edit.body.id]);

    // Replace the fields: the next edit fills exactly those (no detection), at their boxes.
    const mine = [{ key: 'who', type: 'text', description: 'Full name of the first owner', bbox: { left: 0.5, top: 0.9, width: 0.3, height: 0.03, page: 1 } }];
    const patched = await cloud.api('PATCH', `/v1/edits/templates/${id}`, { body: { name: 'Renamed', form_fields: mine } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Renamed', field_count: 1, form_fields: [{ ...mine[0], value: null }] });
    expect(patched.body.updated_at >= created.body.updated_at).toBe(true);
    const second = await cloud.api('POST', '/v1/edits', { body: { template_id: id, instructions: 'full name: Dana Scully' } });
    expect(second.body.output.form_data).toEqual([{ ...mine[0], value: 'Dana Scully' }]);
    expect(wordsIn(popplerWords(filledBytes(second.body)), mine[0]!.bbox as Bbox)).toBe('Dana Scully');

    // Bad template bodies.
    const bad = await cloud.api('PATCH', `/v1/edits/templates/${id}`, { body: { form_fields: [mine[0], mine[0]] } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].msg).toMatch(/unique/);
    const csv = await cloud.api('POST', '/v1/edits/templates', { body: { name: 'x', document: { filename: 'a.csv', url: dataUrl('text/csv', 'a,b\n') } } });
    expect(csv.status).toBe(422);

    expect((await cloud.api('DELETE', `/v1/edits/templates/${id}`)).status).toBe(204);
    const gone = await cloud.api('GET', `/v1/edits/templates/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ detail: `Template ${id} not found` });
  });

  it('takes the given form_fields without detecting anything', async () => {
    const fields = [{ key: 'name', type: 'text', bbox: { left: 0.1, top: 0.1, width: 0.4, height: 0.03, page: 1 } }];
    const r = await cloud.api('POST', '/v1/edits/templates', { body: { name: 'Given', document: pdfInput(flat.bytes), form_fields: fields } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.form_fields).toEqual([{ ...fields[0], description: '', value: null }]);
  });
});
