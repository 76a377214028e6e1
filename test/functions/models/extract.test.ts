/**
 * The local extractor against the Extractor contract: outputs that validate (ajv with formats),
 * trees parallel to the output, nulls and required empty values, every schema shape (nested objects,
 * $defs / definitions, anyOf null, enums, formats, arrays of scalars), bad schemas that must not
 * hang (unknown and recursive $refs, 10,000 properties), determinism and consensus votes.
 */
import { withNullableValues } from '../../../functions/models/nullable-schema.ts';
import { Ajv } from 'ajv';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Doc } from '../../../functions/documents/doc.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import type { ExtractResult, Found, JsonSchema } from '../../../functions/models/engine.ts';
import { extract, localExtractor } from '../../../functions/models/local/extract.ts';
import { at, INVOICE_SCHEMA, invoicePdf, leafPaths } from '../../support/extract-fixtures.ts';

type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as unknown as FormatsPlugin;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

/** Valid under the null rule (API §6): the schema with every value nullable. */
function expectValid(schema: JsonSchema, output: unknown): void {
  const validate = ajv.compile(withNullableValues(schema));
  expect(validate(output), JSON.stringify(validate.errors)).toBe(true);
}

/** Reads a small text document (one page, `text` origins). */
async function txt(text: string): Promise<Doc> {
  return readDocument(new TextEncoder().encode(text), { kind: 'txt', dpi: 200, deadline: Date.now() + 10_000 });
}

const run = (doc: Doc, schema: JsonSchema, nConsensus = 1, seed = 'test'): ExtractResult => extract({ doc, schema, instructions: null, nConsensus, seed });

/** Same keys and array lengths all the way down, leaves where the output has leaves. */
function expectParallel(output: unknown, tree: unknown, leaf: (value: unknown, path: string) => void, path = ''): void {
  if (output !== null && typeof output === 'object') {
    if (Array.isArray(output)) {
      expect(Array.isArray(tree), path).toBe(true);
      expect((tree as unknown[]).length, path).toBe(output.length);
      output.forEach((item, i) => expectParallel(item, (tree as unknown[])[i], leaf, `${path}.${i}`));
      return;
    }
    expect(Object.keys(tree as object).sort(), path).toEqual(Object.keys(output).sort());
    for (const [key, value] of Object.entries(output)) expectParallel(value, (tree as Record<string, unknown>)[key], leaf, `${path}.${key}`);
    return;
  }
  leaf(tree, path);
}

let invoice: Doc;

beforeAll(async () => {
  const fixture = await invoicePdf();
  invoice = await readDocument(fixture.bytes, { kind: 'pdf', dpi: 200, deadline: Date.now() + 60_000 });
});

describe('localExtractor: the contract', () => {
  it('is an Extractor: output valid, sources and likelihoods parallel to it', async () => {
    const result = await localExtractor.extract({ doc: invoice, schema: INVOICE_SCHEMA, instructions: null, nConsensus: 1, seed: 's' });
    expectValid(INVOICE_SCHEMA, result.output);
    expectParallel(result.output, result.likelihoods, (l, path) => expect(typeof l === 'number' && l >= 0 && l <= 1, path).toBe(true));
    expectParallel(result.output, result.sources, (s, path) => {
      const value = at(result.output, path.slice(1));
      if (value === null) expect(s, path).toBeNull();
      else expect((s as Found).origin.kind, path).toBe('box');
    });
    expect(result.choices).toHaveLength(1);
    expect(result.choices[0]).toEqual(result.output);
  });

  it('gives the smallest backing text, its line as context, a box covering exactly its words', () => {
    const { sources } = run(invoice, INVOICE_SCHEMA);
    const total = at(sources, 'total') as Found;
    expect(total.content).toBe('$18,850.32');
    expect(total.context).toBe('Total Due: $18,850.32');
    const date = at(sources, 'invoice_date') as Found;
    expect(date.content).toBe('March 5, 2024');
    // Three words, one box: from "March" to "2024".
    const line = invoice.pages[0]!.lines.find((l) => l.text.includes('March 5, 2024'))!;
    const words = line.words.map((w) => invoice.pages[0]!.words[w]!).filter((w) => ['March', '5,', '2024'].includes(w.text));
    const left = Math.min(...words.map((w) => w.box!.left));
    const right = Math.max(...words.map((w) => w.box!.left + w.box!.width));
    expect(date.origin).toMatchObject({ kind: 'box', page: 1, box: { left, width: right - left } });
    // A table cell's context is its row (as the PDF prints it: the line).
    expect((at(sources, 'line_items.1.amount') as Found).context).toBe('Spare seal kit 24 38.50 924.00');
  });

  it('merges the spans of a value spanning words and lines (text: code points, end exclusive)', async () => {
    const doc = await txt('Customer:\nContoso Engineering Inc\n12 Main Street\nSpringfield\n\nTerms: Net 30 days\n');
    const schema: JsonSchema = { type: 'object', properties: { customer: { type: 'object', properties: { name: { type: 'string' }, address: { type: 'string' } } }, terms: { type: 'string' } } };
    const { output, sources } = run(doc, schema);
    expect(output).toEqual({ customer: { name: 'Contoso Engineering Inc', address: '12 Main Street Springfield' }, terms: 'Net 30 days' });
    const s = sources as { customer: Record<string, Found>; terms: Found };
    expect(s.customer.name.origin).toEqual({ kind: 'text', lineStart: 2, lineEnd: 2, charStart: 10, charEnd: 33 });
    // The address spans lines 3 and 4: one span from "12" to "Springfield".
    expect(s.customer.address.origin).toEqual({ kind: 'text', lineStart: 3, lineEnd: 4, charStart: 34, charEnd: 60 });
    expect(s.terms.origin).toEqual({ kind: 'text', lineStart: 6, lineEnd: 6, charStart: 69, charEnd: 80 });
  });
});

describe('localExtractor: section headings in an item list', () => {
  const ITEMS: JsonSchema = { type: 'object', properties: { line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, unit_price: { type: 'number' } } } } } };
  const names = (result: ExtractResult) => (result.output.line_items as Array<{ description: string }>).map((item) => item.description);

  it('gives no item for a heading in capitals among parts named in lower case (a repair estimate\'s "FRONT BUMPER")', async () => {
    const doc = await txt(
      [
        'Line  Oper  Description                   Qty    Price',
        '1           FRONT BUMPER',
        '2     Repl  Bumper cover w/o LED          1     365.40',
        '3     Repl  Impact bar w/o cruise         1     368.78',
        '4           COOLING',
        '5     Repl  Radiator assy                 1     212.10',
        '6     Repl  Fan shroud                    1      88.00',
        'Total 1034.28',
      ].join('\n'),
    );
    expect(names(run(doc, ITEMS))).toEqual(['Bumper cover w/o LED', 'Impact bar w/o cruise', 'Radiator assy', 'Fan shroud']);
  });

  it('keeps a row without figures where the items are named in capitals too (a name wrapped onto a row of its own)', async () => {
    const doc = await txt(
      [
        'Line  Description                   Qty    Price',
        '1     WHOLEMEAL BREAD               1       2.40',
        '2     FRESH MILK 1L                 2       1.10',
        '3     CHEDDAR CHEESE                1       4.25',
        '4     GIFT WRAP SERVICE',
        'Total 8.85',
      ].join('\n'),
    );
    expect(names(run(doc, ITEMS))).toContain('GIFT WRAP SERVICE');
  });
});

describe('localExtractor: an item table on later pages', () => {
  const ITEMS: JsonSchema = { type: 'object', properties: { line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } } } } } };

  /** A PDF whose pages each print an item table (header and rows), as given. */
  async function itemPages(pages: string[][][]): Promise<Doc> {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (const rows of pages) {
      const page = pdf.addPage([595, 842]);
      page.drawText('INVOICE 2024-117', { x: 60, y: 780, size: 14, font });
      rows.forEach((row, r) => {
        [60, 300, 420].forEach((x, c) => {
          const cell = row[c]!;
          const width = c === 0 ? 0 : font.widthOfTextAtSize(cell, 10);
          page.drawText(cell, { x: c === 0 ? x : x + 60 - width, y: 700 - 16 * r, size: 10, font });
        });
      });
    }
    return readDocument(await pdf.save(), { kind: 'pdf', dpi: 200, deadline: Date.now() + 60_000 });
  }
  const names = (result: ExtractResult) => (result.output.line_items as Array<{ description: string }>).map((item) => item.description);
  const header = ['Description', 'Quantity', 'Amount'];

  it('reads the rows a table continues with on the next page, but not the same rows printed again (a duplicate copy)', async () => {
    const first = [header, ['Hex bolts M8', '200', '48.00'], ['Washers M8', '200', '12.00'], ['Lock nuts M8', '100', '19.50']];
    const copies = await itemPages([first, first, first]);
    expect(names(run(copies, ITEMS))).toEqual(['Hex bolts M8', 'Washers M8', 'Lock nuts M8']);
    const continued = await itemPages([first, [header, ['Spring pins 4x20', '50', '7.25'], ['Cable ties 200mm', '100', '6.90'], ['Hex bolts M8', '200', '48.00']]]);
    expect(names(run(continued, ITEMS))).toEqual(['Hex bolts M8', 'Washers M8', 'Lock nuts M8', 'Spring pins 4x20', 'Cable ties 200mm', 'Hex bolts M8']);
    // The same lines twice on one page are items twice.
    const twice = await itemPages([[header, ['Hex bolts M8', '200', '48.00'], ['Washers M8', '200', '12.00'], ['Hex bolts M8', '200', '48.00'], ['Washers M8', '200', '12.00']]]);
    expect(names(run(twice, ITEMS))).toEqual(['Hex bolts M8', 'Washers M8', 'Hex bolts M8', 'Washers M8']);
  });
});

describe('localExtractor: values nothing backs', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      found: { type: 'string', title: 'Invoice Number' },
      nullable: { type: ['string', 'null'] },
      nullableAnyOf: { anyOf: [{ type: 'number' }, { type: 'null' }] },
      requiredString: { type: 'string' },
      requiredNumber: { type: 'number', minimum: 5 },
      requiredInteger: { type: 'integer', exclusiveMinimum: 0 },
      requiredBoolean: { type: 'boolean' },
      requiredEnum: { type: 'string', enum: ['alpha', 'beta'] },
      requiredDate: { type: 'string', format: 'date' },
      requiredDateTime: { type: 'string', format: 'date-time' },
      requiredEmail: { type: 'string', format: 'email' },
      requiredLength: { type: 'string', minLength: 2 },
      requiredArray: { type: 'array', items: { type: 'string' } },
      requiredObject: { type: 'object', properties: { inner: { type: 'string' }, maybe: { type: ['integer', 'null'] } }, required: ['inner', 'maybe'] },
      optionalString: { type: 'string' },
      optionalObject: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      nullableObject: { type: ['object', 'null'], properties: { a: { type: 'string' } }, required: ['a'] },
    },
    required: [
      'found', 'nullable', 'nullableAnyOf', 'requiredString', 'requiredNumber', 'requiredInteger', 'requiredBoolean', 'requiredEnum',
      'requiredDate', 'requiredDateTime', 'requiredEmail', 'requiredLength', 'requiredArray', 'requiredObject', 'nullableObject',
    ],
  };

  it('null for every value nothing backs, whatever its type (never a made-up value); optional non-nullable ones left out', async () => {
    const doc = await txt('Invoice Number: INV-77\n');
    const { output, sources, likelihoods } = run(doc, schema);
    expectValid(schema, output);
    expect(output).toEqual({
      found: 'INV-77',
      nullable: null,
      nullableAnyOf: null,
      requiredString: null,
      requiredNumber: null,
      requiredInteger: null,
      requiredBoolean: null,
      requiredEnum: null,
      requiredDate: null,
      requiredDateTime: null,
      requiredEmail: null,
      requiredLength: null,
      requiredArray: [],
      requiredObject: { inner: null, maybe: null },
      nullableObject: null,
    });
    const s = sources as Record<string, unknown>;
    const l = likelihoods as Record<string, unknown>;
    expect((s.found as Found).content).toBe('INV-77');
    // A null the schema did not allow has no source and likelihood 0; allowed nulls a low likelihood.
    for (const key of ['requiredString', 'requiredNumber', 'requiredBoolean', 'requiredEnum', 'requiredDate']) {
      expect(s[key], key).toBeNull();
      expect(l[key], key).toBe(0);
    }
    expect(s.requiredObject).toEqual({ inner: null, maybe: null });
    expect(l.nullable).toBeLessThanOrEqual(0.2);
    expect(l.found).toBeGreaterThan(0.5);
  });
});

describe('localExtractor: a currency among options', () => {
  const schema = (options: Array<string | null>): JsonSchema => ({
    type: 'object',
    properties: { total: { type: ['number', 'null'] }, currency: { type: ['string', 'null'], enum: options } },
  });
  const argentine = 'FACTURA\nCUIT: 30-71234567-8\nIngresos Brutos: 901-123456-7\nBuenos Aires\nTotal: $ 12.100,00\n';

  it('a "$" of a country whose dollar is not an option is no option: null, never the US dollar', async () => {
    const doc = await txt(argentine);
    expect(run(doc, schema(['ARS', 'USD', 'EUR', null])).output.currency).toBe('ARS');
    expect(run(doc, schema(['USD', 'EUR', 'GBP', null])).output.currency).toBeNull();
  });

  it('a "$" with no other country\'s cues is the US dollar among options', async () => {
    const doc = await txt('INVOICE\nTotal: $1,250.00\n');
    expect(run(doc, schema(['USD', 'EUR', null])).output.currency).toBe('USD');
  });
});

describe('localExtractor: what a schema asks for, read with its other fields', () => {
  const receipt = ['KEDAI RUNCIT MAJU', 'Receipt No: R000123', '', 'Bread          3.50', 'Milk           6.40', 'TOTAL          9.90', 'CASH          20.00', 'CHANGE        10.10', ''].join('\n');

  it("reads what was paid as the receipt's total when the schema asks for no total, and as the payment when it does", async () => {
    const doc = await txt(receipt);
    const paidOnly: JsonSchema = { type: 'object', properties: { merchant: { type: ['string', 'null'] }, amount_paid: { type: ['number', 'null'], title: 'Total paid' } } };
    expect((run(doc, paidOnly).output as Record<string, unknown>).amount_paid).toBe(9.9);
    const both: JsonSchema = { type: 'object', properties: { total: { type: ['number', 'null'] }, amount_paid: { type: ['number', 'null'], title: 'Amount tendered' } } };
    const output = run(doc, both).output as Record<string, unknown>;
    expect(output.total).toBe(9.9);
    expect(output.amount_paid).toBe(20);
  });
});

describe('localExtractor: schema shapes', () => {
  it('reads $defs and definitions refs, nested objects, enums by similarity, formats and scalar arrays', async () => {
    const doc = await txt(
      [
        'Shipment Status: delivrd',
        'Contact Email: ops@example.org',
        'Created: 2024-06-01 14:30',
        'Tags: fragile, express, insured',
        'Sender: Acme Ltd',
        'Priority: 2',
        'Reference: AB-1234',
        '',
      ].join('\n'),
    );
    const schema: JsonSchema = {
      type: 'object',
      $defs: { Status: { type: 'string', enum: ['pending', 'in transit', 'delivered'] } },
      definitions: { Party: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      properties: {
        shipment_status: { $ref: '#/$defs/Status' },
        contact_email: { type: 'string', format: 'email' },
        created: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' } },
        sender: { $ref: '#/definitions/Party' },
        priority: { type: 'integer', enum: [1, 2, 3] },
        reference: { type: 'string', pattern: '^[A-Z]{2}-\\d{4}$' },
        constant: { const: 'fixed' },
      },
      required: ['shipment_status', 'contact_email', 'created', 'tags', 'sender', 'priority', 'reference', 'constant'],
    };
    const { output } = run(doc, schema);
    expectValid(schema, output);
    expect(output).toEqual({
      shipment_status: 'delivered',
      contact_email: 'ops@example.org',
      created: '2024-06-01T14:30:00Z',
      tags: ['fragile', 'express', 'insured'],
      sender: { name: 'Acme Ltd' },
      priority: 2,
      reference: 'AB-1234',
      // A const is not evidence: nothing in the document prints it (API §6).
      constant: null,
    });
  });

  it('survives an unknown $ref: the field is unconstrained text or null', async () => {
    const doc = await txt('Mystery: 42 apples\n');
    const schema: JsonSchema = { type: 'object', properties: { mystery: { $ref: '#/$defs/Missing' }, other: { $ref: 'https://example.com/remote.json' } }, required: ['mystery', 'other'] };
    const { output, sources } = run(doc, schema);
    expect(output).toEqual({ mystery: '42 apples', other: null });
    expect((sources as Record<string, Found | null>).other).toBeNull();
  });

  it('terminates on recursive $refs (a tree of nodes, a required self-reference)', async () => {
    const doc = await txt('Name: root node\n');
    const tree: JsonSchema = {
      type: 'object',
      $defs: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } }, parent: { $ref: '#/$defs/Node' } },
          required: ['name', 'children'],
        },
      },
      properties: { root: { $ref: '#/$defs/Node' } },
      required: ['root'],
    };
    const started = performance.now();
    const { output } = run(doc, tree);
    expectValid(tree, output);
    expect((output.root as { name: string }).name).toBe('root node');
    // Unsatisfiable (infinitely deep) but must end: every level requires the next.
    const endless: JsonSchema = { type: 'object', $defs: { Loop: { type: 'object', properties: { next: { $ref: '#/$defs/Loop' } }, required: ['next'] } }, properties: { loop: { $ref: '#/$defs/Loop' } }, required: ['loop'] };
    expect(run(doc, endless).output).toHaveProperty('loop');
    // Mutual recursion through allOf and anyOf.
    const mutual: JsonSchema = {
      type: 'object',
      $defs: { A: { anyOf: [{ type: 'object', properties: { b: { $ref: '#/$defs/B' } } }, { type: 'null' }] }, B: { allOf: [{ $ref: '#/$defs/A' }] } },
      properties: { a: { $ref: '#/$defs/A' } },
    };
    expectValid(mutual, run(doc, mutual).output);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('survives empty documents and odd schemas', async () => {
    const empty: Doc = { kind: 'pdf', pages: [] };
    const blank = await txt('\n\n');
    const schemas: JsonSchema[] = [
      { type: 'object' },
      { type: 'object', properties: {} },
      { type: 'object', properties: { yes: true, no: false, any: {} }, required: ['yes', 'any'] },
      { type: 'object', properties: { list: { type: 'array', items: { type: 'array', items: { type: 'string' } } }, tuple: { type: 'array', prefixItems: [{ type: 'string' }] } } },
      { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'string' } }, required: ['c'] } }, required: ['b'] } }, required: ['a'] },
    ];
    for (const doc of [empty, blank, invoice]) {
      for (const schema of schemas) {
        const result = run(doc, schema, 2);
        expectValid(schema, result.output);
        expect(result.choices).toHaveLength(2);
      }
    }
    // Not an object schema (refused before the engine by the service): an empty object, no crash.
    expect(run(invoice, { type: 'string' }).output).toEqual({});
  });

  it('extracts with a 10,000-property schema in time that grows with the schema, not faster; output valid', () => {
    const words = ['invoice', 'date', 'total', 'amount', 'customer', 'vendor', 'tax', 'due', 'number', 'price', 'quantity', 'description', 'name', 'address', 'payment', 'terms', 'currency', 'order', 'balance', 'account'];
    const types: unknown[] = ['string', 'number', 'integer', 'boolean', ['string', 'null']];
    const schemaOf = (count: number): JsonSchema => {
      const properties: Record<string, unknown> = {};
      for (let i = 0; i < count; i++) {
        const a = words[i % words.length]!;
        const b = words[Math.floor(i / words.length) % words.length]!;
        properties[`${a}_${b}_${i}`] = { type: types[i % types.length], description: `The ${a} ${b} of entry ${i}` };
      }
      return { type: 'object', properties, required: Object.keys(properties).filter((_, i) => i % 2 === 0) };
    };
    const timed = (schema: JsonSchema) => {
      const started = performance.now();
      const { output } = run(invoice, schema, 3);
      return { output, ms: performance.now() - started };
    };
    // Timed against a tenth of the schema in the same run, so a busy machine slows both sides: ten
    // times the properties must cost about ten times as much, not a hundred (a quadratic step).
    const small = schemaOf(1_000);
    timed(small); // warm up
    const shortMs = [timed(small).ms, timed(small).ms, timed(small).ms].sort((x, y) => x - y)[1]!;
    const schema = schemaOf(10_000);
    const { output, ms } = timed(schema);
    console.log(`10,000-property schema, 3 votes: ${ms.toFixed(0)} ms against ${shortMs.toFixed(0)} ms for 1,000 (${(ms / shortMs).toFixed(1)}x)`);
    expect(ms / shortMs).toBeLessThan(25);
    expect(ms).toBeLessThan(60_000);
    expectValid(schema, output);
  });
});

describe('localExtractor: determinism and consensus', () => {
  it('gives the same result for the same request', () => {
    expect(run(invoice, INVOICE_SCHEMA, 1, 'a')).toEqual(run(invoice, INVOICE_SCHEMA, 1, 'a'));
    expect(run(invoice, INVOICE_SCHEMA, 4, 'a')).toEqual(run(invoice, INVOICE_SCHEMA, 4, 'a'));
  });

  it('n_consensus 3: three choices, likelihoods are vote shares in 0..1, output valid', () => {
    const result = run(invoice, INVOICE_SCHEMA, 3, 'votes');
    expect(result.choices).toHaveLength(3);
    expectValid(INVOICE_SCHEMA, result.output);
    for (const choice of result.choices) expectValid(INVOICE_SCHEMA, choice);
    const shares = leafPaths(result.likelihoods).map((p) => at(result.likelihoods, p) as number);
    expect(shares.length).toBeGreaterThan(20);
    for (const share of shares) expect([0, 1 / 3, 2 / 3, 1].some((x) => Math.abs(x - share) < 1e-9), String(share)).toBe(true);
    // This invoice is unambiguous: the votes agree with the single vote.
    expect(result.output).toEqual(run(invoice, INVOICE_SCHEMA, 1, 'votes').output);
  });

  it('consolidates disagreeing votes leaf by leaf by majority', async () => {
    // A borderline label ("Amt" under a table, far from its value): votes may differ; the answer is a majority.
    const doc = await txt('Ref: A-1\nAmt: 12.50   Payable 13.75\nNote: see total\n');
    const schema: JsonSchema = { type: 'object', properties: { amount_payable: { type: ['number', 'null'] }, ref: { type: 'string' } }, required: ['amount_payable', 'ref'] };
    for (const seed of ['x', 'y', 'z']) {
      const result = run(doc, schema, 5, seed);
      expect(result.choices).toHaveLength(5);
      const values = result.choices.map((c) => JSON.stringify(c.amount_payable));
      const winner = JSON.stringify(result.output.amount_payable);
      const share = values.filter((v) => v === winner).length / 5;
      expect(values.every((v) => values.filter((w) => w === v).length / 5 <= share)).toBe(true);
      expect((result.likelihoods as Record<string, number>).amount_payable).toBeCloseTo(share, 9);
      expect(result.output.ref).toBe('A-1');
    }
  });
});
