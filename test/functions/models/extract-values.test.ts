/**
 * The extractor's small pieces: reading printed numbers, dates, booleans and enum options; compiling
 * schemas (refs, nullability, cutoffs); label similarity.
 */
import { describe, expect, it } from 'vitest';
import { compileSchema, type FieldNode, leafAccepts, type LeafNode, REF_DEPTH } from '../../../functions/models/local/extract-schema.ts';
import { booleanOf, optionSimilarity, parseDate, parseNumber } from '../../../functions/models/local/extract-values.ts';
import { fieldPhrases, labelSimilarity, textStems, wordStems } from '../../../functions/models/local/extract-words.ts';

describe('parseNumber', () => {
  it.each([
    ['1,250.00', 1250],
    ['$18,850.32', 18850.32],
    ['1.234,56', 1234.56],
    ['€1.000,32', 1000.32],
    ['38,5', 38.5],
    ['1,250', 1250],
    ['1.250.000', 1250000],
    ['(45.00)', -45],
    ['-84.12', -84.12],
    ['45.00-', -45],
    ['USD 12', 12],
    ['12', 12],
    ['.5', 0.5],
  ])('%s → %d', (text, value) => {
    expect(parseNumber(text)?.value).toBeCloseTo(value, 9);
  });

  it('marks percentages and refuses non-numbers', () => {
    expect(parseNumber('8%')).toEqual({ value: 8, percent: true });
    for (const text of ['INV-2024', '03/05/2024', 'abc', '', '1,2,3']) expect(parseNumber(text), text).toBeUndefined();
  });
});

describe('parseDate', () => {
  it.each([
    ['2024-03-05', 'mdy', '2024-03-05'],
    ['03/05/2024', 'mdy', '2024-03-05'],
    ['03/05/2024', 'dmy', '2024-05-03'],
    ['15/03/2024', 'mdy', '2024-03-15'],
    ['05.03.24', 'dmy', '2024-03-05'],
    ['March 5, 2024', 'mdy', '2024-03-05'],
    ['5 March 2024', 'mdy', '2024-03-05'],
    ['5th of Mar. 2024', 'mdy', '2024-03-05'],
    ['Sept 30 2023', 'mdy', '2023-09-30'],
    ['12-Feb-2024', 'mdy', '2024-02-12'],
  ] as const)('%s (%s) → %s', (text, order, iso) => {
    expect(parseDate(text, order)?.iso).toBe(iso);
  });

  it('reads a time after the date, refuses impossible dates', () => {
    expect(parseDate('2024-06-01 2:30 pm', 'mdy')).toMatchObject({ iso: '2024-06-01', time: '14:30:00' });
    expect(parseDate('2024-02-30', 'mdy')).toBeUndefined();
    expect(parseDate('13/13/2024', 'mdy')).toBeUndefined();
    expect(parseDate('Net 30', 'mdy')).toBeUndefined();
  });
});

describe('booleans and enum options', () => {
  it('reads yes/no words and checkboxes', () => {
    for (const text of ['Yes', 'y', 'TRUE', '☑', '[x]', 'X']) expect(booleanOf(text), text).toBe(true);
    for (const text of ['No', 'false', '☐', '[ ]', 'unchecked', 'Unpaid']) expect(booleanOf(text), text).toBe(false);
    expect(booleanOf('maybe')).toBeUndefined();
  });

  it('matches options exactly, by currency sign, by stem and through misspellings', () => {
    expect(optionSimilarity('SHIPPED', 'shipped')).toBe(1);
    expect(optionSimilarity('$', 'USD')).toBe(0.9);
    expect(optionSimilarity('€12.00', 'EUR')).toBe(0.9);
    expect(optionSimilarity('In Transit', 'in transit')).toBe(1);
    expect(optionSimilarity('delivrd', 'delivered')).toBeGreaterThan(0.5);
    expect(optionSimilarity('pending', 'delivered')).toBe(0);
  });
});

describe('label words', () => {
  it('expands abbreviations and number words', () => {
    expect(wordStems('Qty')).toEqual(wordStems('quantity'));
    expect(wordStems('No.')).toEqual(['#']);
    expect(wordStems('#')).toEqual(['#']);
    expect(wordStems('P.O.')).toEqual(textStems('purchase order'));
    expect(wordStems('Vto.')).toEqual(wordStems('vencimiento'));
    expect(textStems('invoiceNumber')).toEqual(textStems('Invoice No'));
    expect(wordStems('(8%):')).toEqual([]);
  });

  it('drops articles in the corpus languages, elided ones too, and keeps words that are labels of their own', () => {
    expect(wordStems("l'acheteur")).toEqual(wordStems('acheteur'));
    expect(["Date d'échéance", 'Nom de la société', 'Name der Firma'].map((t) => t.split(' ').flatMap(wordStems))).toEqual([
      ['date', ...wordStems('échéance')],
      ['nom', 'de', ...wordStems('société')],
      ['name', ...wordStems('Firma')],
    ]);
    // "De :" and "Von:" say who it is from (the issuer's label).
    expect(wordStems('De')).toEqual(['de']);
    expect(wordStems('von')).toEqual(['von']);
  });

  it('scores a label by the phrases of a field, synonyms included', () => {
    const best = (label: string, key: string) => Math.max(...fieldPhrases({ key }).map((p) => labelSimilarity(textStems(label), p)));
    expect(best('Invoice No.', 'invoice_number')).toBe(1);
    expect(best('Due Date', 'invoice_date')).toBeLessThan(best('Invoice Date', 'invoice_date'));
    expect(best('Sub-total', 'netAmount')).toBeGreaterThan(0.8);
    expect(best('Amount Due', 'grossAmount')).toBeGreaterThan(0.8);
    expect(best('Bill To', 'customer')).toBeGreaterThan(0.8);
    expect(best('Subtotal', 'total')).toBe(0);
  });
});

describe('compileSchema', () => {
  const leafAt = (root: FieldNode, ...keys: string[]): FieldNode =>
    keys.reduce<FieldNode>((node, key) => (node.kind === 'object' ? node.properties.find((p) => p.key === key)!.node : node.kind === 'array' ? node.items : node), root);

  it('resolves refs, merges allOf, reads nullability from type arrays, anyOf and enums', () => {
    const { root } = compileSchema({
      type: 'object',
      $defs: { Money: { type: 'number', minimum: 0, description: 'An amount' }, Named: { type: 'object', properties: { name: { type: 'string' } } } },
      properties: {
        a: { $ref: '#/$defs/Money' },
        b: { type: ['string', 'null'], format: 'date' },
        c: { anyOf: [{ $ref: '#/$defs/Money' }, { type: 'null' }], description: 'Own description' },
        d: { enum: ['x', 'y', null] },
        e: { allOf: [{ $ref: '#/$defs/Named' }, { properties: { extra: { type: 'integer' } }, required: ['extra'] }] },
        f: { $ref: '#/$defs/Nope' },
      },
    });
    expect(leafAt(root, 'a')).toMatchObject({ kind: 'leaf', type: 'number', minimum: 0, nullable: false, info: { key: 'a', description: 'An amount' } });
    expect(leafAt(root, 'b')).toMatchObject({ kind: 'leaf', type: 'string', format: 'date', nullable: true });
    expect(leafAt(root, 'c')).toMatchObject({ kind: 'leaf', type: 'number', nullable: true, info: { description: 'Own description' } });
    expect(leafAt(root, 'd')).toMatchObject({ kind: 'leaf', type: 'string', enum: ['x', 'y'], nullable: true });
    const e = leafAt(root, 'e');
    expect(e.kind === 'object' && e.properties.map((p) => [p.key, p.required])).toEqual([
      ['name', false],
      ['extra', true],
    ]);
    expect(leafAt(root, 'f')).toMatchObject({ kind: 'leaf', type: 'any', nullable: true });
  });

  it('cuts recursion after REF_DEPTH hops, keeping the cut schema type', () => {
    const { root } = compileSchema({ type: 'object', $defs: { N: { type: 'object', properties: { next: { $ref: '#/$defs/N' } } } }, properties: { n: { $ref: '#/$defs/N' } } });
    let node = leafAt(root, 'n');
    let depth = 0;
    while (node.kind === 'object') {
      node = leafAt(node, 'next');
      depth++;
    }
    expect(depth).toBe(REF_DEPTH);
    expect(node).toMatchObject({ kind: 'cutoff', type: 'object' });
  });

  it('checks values against a leaf (formats, patterns)', () => {
    const leaf = (extra: Partial<LeafNode>): LeafNode => ({ kind: 'leaf', type: 'string', nullable: false, info: { key: 'x' }, ...extra });
    expect(leafAccepts(leaf({ format: 'date' }), '2024-02-28')).toBe(true);
    expect(leafAccepts(leaf({ format: 'date' }), '2024-02-30')).toBe(false);
    expect(leafAccepts(leaf({ pattern: /^A\d$/u }), 'A1')).toBe(true);
    expect(leafAccepts(leaf({ type: 'integer', exclusiveMinimum: 3 }), 3)).toBe(false);
  });
});
