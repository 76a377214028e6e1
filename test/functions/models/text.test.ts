import { describe, expect, it } from 'vitest';
import type { Page } from '../../../functions/documents/doc.ts';
import { buildQueries, decisiveQuotes, labelScores, textEvidence } from '../../../functions/models/local/evidence.ts';
import { findLabeledValues, identifierValue, keyHeadMatcher, pageMarker } from '../../../functions/models/local/identifiers.ts';
import { votedWeights } from '../../../functions/models/local/random.ts';
import { porterStem } from '../../../functions/models/shared/stem.ts';
import { countFeatures, type PageLine, pageLines } from '../../../functions/models/local/text.ts';
import { textFeatures, tokenize } from '../../../functions/models/shared/words.ts';
import { fixtureDoc } from '../../support/bundle-fixtures.ts';
import { classify } from '../../../functions/models/local/classify.ts';

const lines = (...texts: string[]): PageLine[] => texts.map((text, i) => ({ text, title: i === 0 }));

describe('Porter stemmer', () => {
  it('stems the reference examples of the algorithm', () => {
    const cases: Record<string, string> = {
      caresses: 'caress',
      ponies: 'poni',
      cats: 'cat',
      agreed: 'agre',
      plastered: 'plaster',
      motoring: 'motor',
      hopping: 'hop',
      filing: 'file',
      happy: 'happi',
      relational: 'relat',
      conditional: 'condit',
      generalization: 'gener',
      hopefulness: 'hope',
      electrical: 'electr',
      adjustment: 'adjust',
      controlling: 'control',
      rate: 'rate',
    };
    for (const [word, stem] of Object.entries(cases)) expect(porterStem(word), word).toBe(stem);
  });

  it('brings the forms of a business word together', () => {
    const stems = new Set(['invoice', 'invoices', 'invoiced', 'invoicing'].map(porterStem));
    expect(stems.size).toBe(1);
    expect(porterStem('payments')).toBe(porterStem('payment'));
  });

  it('keeps a booking apart from a book (a noun of its own, as Porter2 keeps exceptions)', () => {
    expect(porterStem('booking')).toBe(porterStem('bookings'));
    expect(porterStem('booking')).not.toBe(porterStem('book'));
    expect(porterStem('books')).toBe(porterStem('book'));
  });
});

describe('tokens and features', () => {
  it('drops stop words and one-letter words, keeps offsets for quoting', () => {
    const tokens = tokenize('The Invoice of a supplier');
    expect(tokens.filter((t) => !t.stop).map((t) => t.stem)).toEqual(['invoic', 'supplier']);
    const invoice = tokens.find((t) => t.stem === 'invoic')!;
    expect('The Invoice of a supplier'.slice(invoice.start, invoice.end)).toBe('Invoice');
  });

  it('reads a word printed letter-spaced as the word, its offsets spanning the letters: "I N V O I C E", an OCR layer\'s "c o n t r a c t s"', () => {
    const line = 'T A X  I N V O I C E for the c o n t r a c t s';
    const tokens = tokenize(line);
    expect(tokens.filter((t) => !t.stop).map((t) => t.stem)).toEqual(['tax', 'invoic', 'contract']);
    expect(tokens.filter((t) => !t.stop).map((t) => line.slice(t.start, t.end))).toEqual(['T A X', 'I N V O I C E', 'c o n t r a c t s']);
    // Two single letters are no word ("a b"), nor are initials glued to a word ("J. R. Smith").
    expect(tokenize('a b').map((t) => t.stem)).toEqual([]);
    expect(tokenize('J. R. Smith').map((t) => t.stem)).toEqual(['smith']);
  });

  it('reads Chinese, Japanese and Korean runs as pairs of characters, with offsets, and the words around them as words', () => {
    const line = '2018 年第一季度报告 Invoice 请求書';
    const tokens = tokenize(line);
    expect(tokens.map((t) => t.stem)).toEqual(['2018', '年第', '第一', '一季', '季度', '度报', '报告', 'invoic', '请求', '求書']);
    expect(tokens.map((t) => line.slice(t.start, t.end))).toEqual(['2018', '年第', '第一', '一季', '季度', '度报', '报告', 'Invoice', '请求', '求書']);
    // Korean particles glued to a word leave its pairs whole; Latin letters glued to a run are a word of their own.
    expect(tokenize('사업보고서는').map((t) => t.stem)).toEqual(['사업', '업보', '보고', '고서', '서는']);
    expect(tokenize('LPG충전소').map((t) => t.stem)).toEqual(['lpg', '충전', '전소']);
    // A name of three characters is a phrase of its two pairs, found inside a longer run.
    expect(textFeatures('使用说明书').phrases).toContain(textFeatures('说明书').phrases[0]);
  });

  it('a Chinese quarterly report that names itself is a report', async () => {
    const doc = fixtureDoc([{ blocks: [{ kind: 'heading', lines: ['东北电气发展股份有限公司', '2018 年第一季度报告', '2018 年 04 月'] }, { kind: 'paragraph', lines: ['公司负责人、主管会计工作负责人及会计机构负责人保证季度报告中财务报表的真实、准确、完整。'] }] }]);
    const categories = [
      { name: 'invoice', description: 'A bill from a supplier' },
      { name: 'report', description: 'A report' },
      { name: 'form', description: 'A form to fill in' },
    ];
    const result = classify({ doc, categories, instructions: null, firstNPages: undefined, nConsensus: 1, seed: 's' });
    expect(result.output.category).toBe('report');
    expect(result.output.reasoning).toContain('报告');
  });

  it('makes two-word phrases across stop words', () => {
    expect(textFeatures('Bill of lading').phrases).toEqual(['bill lade']);
    expect(textFeatures('bank statement').phrases).toEqual(['bank statement']);
  });

  it('counts phrases and title occurrences, quoting the title form', () => {
    const vocabulary = new Map([
      ['amount due', 0],
      ['invoic', 1],
    ]);
    const { counts } = countFeatures(lines('INVOICE', 'Amount due: 120.00', 'Please pay this invoice'), vocabulary);
    expect(counts.get(0)).toMatchObject({ tf: 1, titleTf: 0, surface: 'Amount due' });
    expect(counts.get(1)).toMatchObject({ tf: 2, titleTf: 1, surface: 'INVOICE', surfaceInTitle: true });
  });

  it('counts a compound as its last word when that word is asked for ("Warenrechnung", "Schlussrechnung": "Rechnung")', () => {
    const vocabulary = new Map([
      ['rechnung', 0],
      ['total', 1],
    ]);
    const { counts } = countFeatures(lines('WARENRECHNUNG', 'Schlussrechnung 4711', 'Rechnungsempfänger: Muster AG', 'Subtotal 12,00'), vocabulary);
    expect(counts.get(0)).toMatchObject({ tf: 2, titleTf: 1, surface: 'WARENRECHNUNG' });
    // Only heads of 7 letters or more: "Subtotal" is no "total"; a word that starts with the head is none either.
    expect(counts.has(1)).toBe(false);
  });

  it('does not count denied words: "This is not a VAT invoice"', () => {
    const vocabulary = new Map([
      ['invoic', 0],
      ['vat', 1],
    ]);
    const { counts } = countFeatures(lines('Receipt', 'This is not a VAT invoice.'), vocabulary);
    expect(counts.size).toBe(0);
    // "No." is a number word, not a negation.
    expect(countFeatures(lines('Invoice No. 12', 'VAT 20%'), vocabulary).counts.size).toBe(2);
  });

  it('reads pages through the Doc: block order, table rows as lines, headings as titles', () => {
    const doc = fixtureDoc([
      {
        blocks: [
          { kind: 'paragraph', lines: ['Acme Ltd', '1 High Street'] },
          { kind: 'heading', level: 1, lines: ['Invoice'] },
          { kind: 'table', lines: ['Item Qty', 'Paper 2'], rows: [['Item', 'Qty'], ['Paper', '2']] },
        ],
      },
    ]);
    expect(pageLines(doc.pages[0]!)).toEqual([
      { text: 'Acme Ltd', title: true },
      { text: '1 High Street', title: true },
      { text: 'Invoice', title: true },
      { text: 'Item Qty', title: false },
      { text: 'Paper 2', title: false },
    ]);
    // A table block without lines still gives its rows.
    const page: Page = { ...doc.pages[0]!, blocks: [{ kind: 'table', text: '', lines: [], table: 0 }] };
    expect(pageLines(page).map((l) => l.text)).toEqual(['Item Qty', 'Paper 2']);
  });

  it("leaves out the text of a page's pictures where the page prints text of its own, and never takes it as a title", () => {
    const doc = fixtureDoc([
      {
        blocks: [
          { kind: 'heading', level: 1, lines: ['Hetzner Online'] },
          { kind: 'paragraph', lines: ['Rechnung 2016-01'] },
        ],
      },
    ]);
    const page = doc.pages[0]!;
    // The banner's words read by OCR in a picture (only OCR's words carry a confidence).
    const banner = page.lines[0]!;
    for (const w of banner.words) page.words[w]!.confidence = 91;
    expect(pageLines(page)).toEqual([{ text: 'Rechnung 2016-01', title: true }]);
    // A page whose only text is in a picture (a slide that is one screenshot) is read from it, as no title.
    const onlyPicture: Page = { ...page, blocks: [{ kind: 'heading', level: 1, text: 'Hetzner Online', lines: [0] }] };
    expect(pageLines(onlyPicture)).toEqual([{ text: 'Hetzner Online', title: false, picture: true }]);
    // On a scan every word is OCR's: its lines are its own text.
    expect(pageLines({ ...page, ocr: true }).map((l) => l.text)).toEqual(['Hetzner Online', 'Rechnung 2016-01']);
  });
});

describe('evidence', () => {
  const categories = [
    { name: 'invoice', description: 'A bill from a supplier requesting payment for goods or services' },
    { name: 'payslip', description: 'An employee pay statement' },
  ];

  it('scores a document for the label it names and quotes what decided it', () => {
    const queries = buildQueries(categories, null);
    const evidence = textEvidence(queries, lines('INVOICE', 'Bill to: Acme', 'Amount due 40.00', 'Payment terms: net 30'), 100);
    const [invoice, payslip] = labelScores(queries, evidence, null);
    expect(invoice).toBeGreaterThan(3 * payslip!);
    const quotes = decisiveQuotes(queries, evidence, 0, null, 3).map((q) => q.text);
    expect(quotes).toContain('INVOICE');
  });

  it('lets instructions lend words to the label a clause names', () => {
    const plain = buildQueries(categories, null);
    const instructed = buildQueries(categories, 'Anything with a "dunning notice" is an invoice. Ignore colours.');
    const text = lines('Dunning notice', 'Reference 55');
    const before = labelScores(plain, textEvidence(plain, text, 50), null);
    const after = labelScores(instructed, textEvidence(instructed, text, 50), null);
    expect(before[0]).toBe(0);
    expect(after[0]).toBeGreaterThan(after[1]!);
  });

  it("a kind only a modifier of the name calls on lends no names: a 'book listing' is no booking, a 'medical bill' is a bill", () => {
    const queries = buildQueries([{ name: 'book_listing', description: 'A web page listing books to download' }, { name: 'medical_bill', description: 'Bill for care received' }], null);
    const booking = lines("Confirmation d'affrètement", 'Booking confirmation', 'Transporteur : TRANSPORT EXPRESS', 'Livraison le 5/3/2023');
    const [listing] = labelScores(queries, textEvidence(queries, booking, 50), null);
    expect(listing).toBeLessThan(3);
    const invoice = lines('INVOICE', 'Patient: J. Doe', 'Amount due 40.00');
    const [, medical] = labelScores(queries, textEvidence(queries, invoice, 50), null);
    expect(medical).toBeGreaterThan(3);
  });

  it('weighs features a little differently per vote, reproducibly', () => {
    const vocabulary = Array.from({ length: 400 }, (_, i) => `f${i}`);
    expect([...votedWeights(vocabulary, 's', 0, 1, 0.25)].every((w) => w === 1)).toBe(true);
    const a = votedWeights(vocabulary, 's', 1, 5, 0.25);
    expect([...a]).toEqual([...votedWeights(vocabulary, 's', 1, 5, 0.25)]);
    expect([...a]).not.toEqual([...votedWeights(vocabulary, 's', 2, 5, 0.25)]);
    // No feature is dropped: every weight within the spread, spread over all of it.
    expect(Math.min(...a)).toBeGreaterThanOrEqual(0.75);
    expect(Math.max(...a)).toBeLessThanOrEqual(1.25);
    expect(Math.max(...a) - Math.min(...a)).toBeGreaterThan(0.45);
  });
});

describe('identifiers', () => {
  it('accepts identifiers, not dates, amounts, times or postcodes-as-numbers', () => {
    const options = { minLength: 2, allowYear: false };
    expect(identifierValue('INV-5101', options)).toBe('INV-5101');
    expect(identifierValue('#5103,', options)).toBe('5103');
    expect(identifierValue('INV/2024/0117', options)).toBe('INV/2024/0117');
    for (const bad of ['2024-03-01', '12/03/2024', '$1,234.00', '1,234.56', '14:06', '20%', 'Acme', '2024']) expect(identifierValue(bad, options), bad).toBeUndefined();
  });

  it('finds a value beside its label, under it in a table, or on the next line', () => {
    const doc = fixtureDoc([
      { blocks: [{ kind: 'paragraph', lines: ['Inv. No.: INV-1', 'Customer No: C-9'] }] },
      { blocks: [{ kind: 'table', lines: ['Invoice number Date', 'INV-2 2024-01-02'], rows: [['Invoice number', 'Date'], ['INV-2', '2024-01-02']] }] },
      { blocks: [{ kind: 'paragraph', lines: ['Invoice #', 'INV-3'] }] },
      { blocks: [{ kind: 'paragraph', lines: ['Please quote the invoice number with your payment.', 'Sort code 12-34-56 Account 12345678'] }] },
    ]);
    const found = doc.pages.map((page) => {
      const pl = pageLines(page);
      return findLabeledValues(page, pl, keyHeadMatcher(['invoice']), { requireNumberWord: false, minLength: 2, below: true }).map((v) => `${v.value}/${v.placement}`);
    });
    expect(found).toEqual([['INV-1/inline'], ['INV-2/cell'], ['INV-3/below'], []]);
  });

  it('uses word boxes, when the page has them, to find the value under its label', () => {
    const word = (text: string, left: number, top: number) => ({ text, box: { left, top, width: 8 * text.length, height: 10 }, origin: { kind: 'box' as const, page: 1, box: { left, top, width: 8 * text.length, height: 10 } } });
    const page: Page = {
      number: 1,
      width: 600,
      height: 800,
      unit: 'pt',
      ocr: false,
      words: [word('Invoice', 300, 50), word('No', 360, 50), word('Acme', 20, 64), word('Ltd', 60, 64), word('INV-9', 300, 64)],
      lines: [
        { text: 'Invoice No', words: [0, 1] },
        { text: 'Acme Ltd INV-9', words: [2, 3, 4] },
      ],
      blocks: [{ kind: 'paragraph', text: 'Invoice No\nAcme Ltd INV-9', lines: [0, 1] }],
      tables: [],
    };
    const found = findLabeledValues(page, pageLines(page), keyHeadMatcher(['invoice']), { requireNumberWord: false, minLength: 2, below: true });
    expect(found.map((v) => `${v.value}/${v.placement}`)).toEqual(['INV-9/below']);
  });

  it('reads page markers', () => {
    expect(pageMarker(lines('Page 2 of 3'))).toEqual({ index: 2, total: 3, continued: false });
    expect(pageMarker(lines('Items (continued)', 'page 1/4'))).toEqual({ index: 1, total: 4, continued: true });
    // In the languages the knowledge names the page in, accents or not; not inside another word.
    expect(pageMarker(lines('Seite 2 von 5'))).toEqual({ index: 2, total: 5, continued: false });
    expect(pageMarker(lines('Página 1 de 4'))).toEqual({ index: 1, total: 4, continued: false });
    expect(pageMarker(lines('Page 3 sur 3'))).toEqual({ index: 3, total: 3, continued: false });
    expect(pageMarker(lines('Pagina 2 di 7'))).toEqual({ index: 2, total: 7, continued: false });
    expect(pageMarker(lines('Seite 3'))).toEqual({ index: 3, continued: false });
    expect(pageMarker(lines('Homepage 2 of 3'))).toEqual({ continued: false });
    // A page that carries on from the one before says so in its language; "report" or "discontinued" does not.
    expect(pageMarker(lines('Übertrag: 1.234,00'))).toEqual({ continued: true });
    expect(pageMarker(lines('Continuación'))).toEqual({ continued: true });
    expect(pageMarker(lines('Annual report', 'discontinued items'))).toEqual({ continued: false });
    // A number between dashes, and a bare number closing a page of some length, are page numbers.
    expect(pageMarker(lines('achievable cleanup has occurred.', '- 4 -'))).toEqual({ index: 4, continued: false });
    const body = Array.from({ length: 12 }, (_, i) => `Clause ${i + 1} of the agreement continues here.`);
    expect(pageMarker(lines(...body, '7'))).toEqual({ index: 7, continued: false });
    // …but not a number closing a short page (a receipt's last line), nor a number inside a sentence.
    expect(pageMarker(lines('TOTAL', '7'))).toEqual({ continued: false });
    expect(pageMarker(lines(...body, 'Total items: 7'))).toEqual({ continued: false });
  });
});
