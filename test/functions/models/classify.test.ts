/**
 * quire-local classification (API §5) on generated documents: accuracy with ordinary category
 * descriptions, reasoning that quotes the document, scores, consensus and edge cases.
 */
import { describe, expect, it } from 'vitest';
import type { Doc } from '../../../functions/documents/doc.ts';
import type { Category, ClassifyRequest } from '../../../functions/models/engine.ts';
import { localEngine } from '../../../functions/models/local/index.ts';
import { classify, CLASSIFY_FEATURES } from '../../../functions/models/local/classify.ts';
import { layoutCues } from '../../../functions/models/local/cues.ts';
import { docPages, pageLines } from '../../../functions/models/local/text.ts';
import { probabilityOf } from '../../../functions/models/local/logistic-model.ts';
import { CLASSIFY_MODEL } from '../../../functions/models/local/weights/classify-likelihood.ts';
import { classificationCorpus, fixtureDoc, type FixtureKind, invoice, payslip, receipt } from '../../support/bundle-fixtures.ts';

export const CATEGORIES: Category[] = [
  { name: 'invoice', description: 'A bill from a supplier requesting payment for goods or services' },
  { name: 'receipt', description: 'Proof of a completed purchase or payment, issued by a shop or merchant' },
  { name: 'contract', description: 'A legal agreement between parties that sets out terms and obligations' },
  { name: 'bank statement', description: 'A periodic summary of transactions and balances on a bank account' },
  { name: 'payslip', description: 'A document given to an employee showing salary, deductions and net pay for a period' },
];
const CATEGORY_OF: Record<FixtureKind, string> = {
  invoice: 'invoice',
  receipt: 'receipt',
  contract: 'contract',
  bank_statement: 'bank statement',
  payslip: 'payslip',
  packing_list: 'other',
};

const request = (doc: Doc, over: Partial<ClassifyRequest> = {}): ClassifyRequest => ({
  doc,
  categories: CATEGORIES,
  instructions: null,
  firstNPages: undefined,
  nConsensus: 1,
  seed: 'seed-1',
  ...over,
});

const sum = (scores: Record<string, number>) => Object.values(scores).reduce((a, b) => a + b, 0);

describe('classification accuracy', () => {
  it('classifies 80 generated documents of 5 kinds with at least 90% accuracy', async () => {
    const docs = [...classificationCorpus(1), ...classificationCorpus(2)];
    expect(docs.length).toBeGreaterThanOrEqual(30);
    let correct = 0;
    const misses: string[] = [];
    for (const fixture of docs) {
      const result = await localEngine.classify(request(fixtureDoc(fixture.pages)));
      if (result.output.category === CATEGORY_OF[fixture.kind]) correct++;
      else misses.push(`${fixture.kind} → ${result.output.category}: ${result.output.reasoning}`);
    }
    const accuracy = correct / docs.length;
    console.log(`classification accuracy: ${correct}/${docs.length} = ${(100 * accuracy).toFixed(1)}%${misses.length ? `\n  ${misses.join('\n  ')}` : ''}`);
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('holds with other wordings of the categories, and with names alone', async () => {
    const wordings: Category[][] = [
      [
        { name: 'Invoice', description: 'Itemized statement of money owed for goods shipped or services rendered' },
        { name: 'Receipt', description: 'Written acknowledgment that a payment has been received' },
        { name: 'Contract', description: 'Binding agreement signed by two or more parties' },
        { name: 'Bank_Statement', description: 'Record of account activity provided by a financial institution' },
        { name: 'Payslip', description: 'Summary of wages paid to a worker' },
      ],
      CATEGORIES.map((c) => ({ name: c.name, description: '' })),
    ];
    const docs = classificationCorpus(3);
    for (const categories of wordings) {
      let correct = 0;
      for (const fixture of docs) {
        const result = await localEngine.classify(request(fixtureDoc(fixture.pages), { categories }));
        const expected = categories[CATEGORIES.findIndex((c) => c.name === CATEGORY_OF[fixture.kind])]!.name;
        if (result.output.category === expected) correct++;
      }
      console.log(`accuracy with ${categories[0]!.description ? 'other descriptions' : 'names only'}: ${correct}/${docs.length}`);
      expect(correct / docs.length).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('classifies short hand-written documents in wording the generator never uses', async () => {
    const docs: Array<[string, string[]]> = [
      ['receipt', ['Order Summary', 'Order #112-4432112-551', 'Items: $25.99', 'Shipping & handling: $5.99', 'Grand Total: $31.98', 'Payment Method: Visa ending in 1234', 'Your order has shipped. Thanks for shopping with us.']],
      ['contract', ['RESIDENTIAL LEASE', 'This lease is entered into between John Doe ("Landlord") and Jane Roe ("Tenant").', 'Tenant agrees to pay monthly rent of $1,500 due on the first day of each month.', 'The security deposit shall be returned within 30 days after the lease ends.']],
      ['payslip', ['Direct Deposit Advice', 'ACME Corp', 'Employee: J. Smith ID 4432', 'Regular Earnings 80.00 hrs 25.00 2,000.00', 'FICA 153.00', 'Federal Withholding 210.00', 'Net Check 1,637.00', 'Pay period 01/01/2024 - 01/15/2024']],
      ['bank statement', ['Chase Total Checking', 'January 1, 2024 through January 31, 2024', 'Beginning Balance $2,310.22', 'Deposits and Additions 3,400.00', 'ATM & Debit Card Withdrawals -820.15', 'Ending Balance $3,690.07']],
      ['invoice', ['Statement of fees', 'For professional services rendered in March 2024', 'Consultation (4 hours) $800.00', 'Balance: $1,200.00', 'Please remit within 30 days to the address above.']],
      ['receipt', ['Uber', 'Thanks for riding, Maria', 'Trip fare $14.20', 'Booking fee $2.35', 'Total $16.55', 'Charged to Mastercard 5521']],
      ['invoice', ['Acme Plumbing', 'Job #4471', 'Labour 3h @ $90 = $270', 'Parts: valve, fittings $64.50', 'Total owing: $334.50', 'Payment due within 14 days. Bank transfer or cheque.']],
    ];
    let correct = 0;
    for (const [expected, lines] of docs) {
      const result = await localEngine.classify(request(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines }] }])));
      if (result.output.category === expected) correct++;
    }
    console.log(`hand-written documents: ${correct}/${docs.length}`);
    expect(correct).toBeGreaterThanOrEqual(docs.length - 1);
  });
});

describe('layout cues', () => {
  it("a CV's periods from a month to another (or to now) are its layout; a statement's columns of years are not", async () => {
    const cuesOf = (lines: string[]) => {
      const pages = docPages(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines }] }]), undefined);
      return layoutCues(pages, pages.map((p) => pageLines(p))).map((c) => c.cue);
    };
    const jobs = [
      'Dunamu Inc. Seoul DevOps Engineer Sep. 2023 Mar. 2024',
      'Led the service mesh research across clusters.',
      'Kasa Director of Infrastructure Jun 2018 – Jan 2021',
      'Migrated the orchestration system to Kubernetes.',
      'Fabrikam Ingénieur système mars 2015 – aujourd’hui',
    ];
    expect(cuesOf(jobs)).toContain('periods');
    expect(cuesOf(['Revenue 2022 2023', 'Cost of sales 2022 2023', 'Gross profit 2022 2023', 'Dec 2023 closing balance'])).not.toContain('periods');
    // The second page of a CV, its jobs alone, among a report and a letter: the periods say CV.
    const categories = [
      { name: 'report', description: 'A report or memo presenting findings, with sections and figures' },
      { name: 'resume', description: "Résumé or CV: a person's experience, education and skills" },
    ];
    const result = await localEngine.classify(request(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: jobs }] }]), { categories }));
    expect(result.output.category).toBe('resume');
  });

  it("a letter's salutation far down the page counts with its closing, in the corpus languages (\"Beste Grüße\", \"Bien à vous\", \"Saludos cordiales\")", () => {
    const cuesOf = (closing: string) => {
      const lines = [...Array.from({ length: 30 }, (_, i) => `Zeile ${i + 1} des Berichts über die Anlage.`), 'Sehr geehrte Frau Weber,', 'die Prüfung ist abgeschlossen.', closing, 'Jonas Becker'];
      const pages = docPages(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines }] }]), undefined);
      return layoutCues(pages, pages.map((p) => pageLines(p))).map((c) => c.cue);
    };
    for (const closing of ['Mit freundlichen Grüßen', 'Beste Grüße', 'Hochachtungsvoll', 'Bien à vous', 'Saludos cordiales', 'Met hartelijke groet']) expect(cuesOf(closing), closing).toContain('letter');
    expect(cuesOf('Anlage: Messprotokoll')).not.toContain('letter');
  });

  it('numbered articles and clauses are seen in the corpus languages: "Artículo 1", "Artikel 2", "Cláusula 3" as "Article 4"', () => {
    const cuesOf = (word: string) => {
      const lines = Array.from({ length: 6 }, (_, i) => [`${word} ${i + 1}`, 'Die Parteien vereinbaren Folgendes über die Nutzung der Räume.']).flat();
      const pages = docPages(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines }] }]), undefined);
      return layoutCues(pages, pages.map((p) => pageLines(p))).map((c) => c.cue);
    };
    for (const word of ['Article', 'Artículo', 'Artikel', 'Articolo', 'Artigo', 'Cláusula', 'Klausel']) expect(cuesOf(word)).toEqual(['clauses']);
    // Six lines starting with a word and a number are no clauses.
    expect(cuesOf('Seite')).toEqual([]);
  });

  it('a till slip headed "TAX INVOICE" that takes cash and gives change is a receipt', async () => {
    const lines = ['FUYI MINI MARKET', 'GST No: 001604310720', 'TAX INVOICE', 'TRN: 1CR0576494', 'Counter 1 Cashier: HOCK', 'Qty UOM U.Price Amt Tax Code',
      'SUMMER CUP 48X230ML', '1 BOX 8.49 8.49 SR', 'GST 6% 0.51', 'Total Includes GST 6% 9.00', 'Cash 50.00', 'Change 41.00', 'Goods sold are not returnable'];
    const result = await localEngine.classify(request(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines }] }])));
    expect(result.output.category).toBe('receipt');
    // Without the till (a bill asking to be paid), the same heading makes it an invoice.
    const bill = lines.slice(0, 10).concat(['Payment due within 30 days by bank transfer']);
    expect((await localEngine.classify(request(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: bill }] }])))).output.category).toBe('invoice');
  });

  it('a category whose description denies a layout ("no fillable fields") loses, not gains, a document that has it', async () => {
    const categories: Category[] = [
      { name: 'flat_form', description: 'A printed or scanned form filled in on paper (no fillable fields)' },
      { name: 'form', description: 'A blank or filled form with fields to complete' },
    ];
    const doc = fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: ['APPLICATION FOR MEMBERSHIP', 'Last name', 'First name', 'Address', 'Date of birth', 'Signature'] }] }]);
    doc.pages[0]!.formFields = 14;
    const result = await localEngine.classify(request(doc, { categories }));
    expect(result.output.category).toBe('form');
    // Described the other way round, the same fields make it the first.
    const denied: Category[] = [
      { name: 'flat_form', description: 'A form with fillable fields' },
      { name: 'form', description: 'A form printed on paper, without fillable fields' },
    ];
    expect((await localEngine.classify(request(doc, { categories: denied }))).output.category).toBe('flat_form');
  });

  it('what "no fillable fields" denies is fields to fill on screen, not blanks printed to fill on paper', async () => {
    const categories: Category[] = [
      { name: 'flat_form', description: 'A printed or scanned form filled in on paper (no fillable fields)' },
      { name: 'invoice', description: 'An invoice' },
    ];
    const captions = ['MEMBERSHIP', 'Last name', 'First name', 'Address', 'Date of birth', 'Signature'];
    const page = (blank: string) => fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: captions.map((c, i) => (i === 0 ? c : `${c} ${blank}`)) }] }]);
    const likelihood = async (doc: Doc) => {
      const result = await localEngine.classify(request(doc, { categories }));
      expect(result.output.category).toBe('flat_form');
      return result.consensus.likelihoods;
    };
    const blanks = page('____________');
    expect(layoutCues(docPages(blanks), [pageLines(blanks.pages[0]!)]).map((c) => c.cue)).toContain('form');
    const bare = await likelihood(page(''));
    // Printed blanks are a form's layout: the form is likelier with them …
    expect(await likelihood(blanks)).toBeGreaterThan(bare);
    // … and fillable fields, which the description denies, make it less likely.
    blanks.pages[0]!.formFields = 6;
    expect(await likelihood(blanks)).toBeLessThan(bare);
  });

  it('a category named "book" calls on the book kind (its chapters, its EPUB format), though "book" printed in a document is no sign of one', async () => {
    const categories: Category[] = [
      { name: 'book', description: 'A book' },
      { name: 'booking_confirmation', description: 'A booking confirmation' },
      { name: 'report', description: 'A report' },
    ];
    const lines = ['PREFACE', 'These chapters were first written as letters from the mountains.', 'CHAPTER I', 'The sun-seeker goes up the valley in December.', 'CHAPTER II', 'Of rinks, skaters and the frost.'];
    const doc = { ...fixtureDoc([{ blocks: [{ kind: 'paragraph', lines }] }]), kind: 'epub' as const };
    const read = await localEngine.classify(request(doc, { categories }));
    expect(read.output.category).toBe('book');
    expect(read.output.reasoning).toContain('an EPUB file');
  });

  it('a file\'s own format is evidence: sales figures in a workbook are a spreadsheet, in a saved HTML page a web page, in a PDF neither', async () => {
    const categories: Category[] = [
      { name: 'financial_statement', description: 'Financial statements: income statement, balance sheet, cash flows' },
      { name: 'spreadsheet', description: 'Spreadsheet of rows and columns of data' },
      { name: 'web_page', description: 'A saved web page: an article or page of a website' },
      { name: 'report', description: 'A report' },
    ];
    const lines = ['Sales by region', 'Region Q1 Q2', 'North 1,200 1,350', 'South 900 950', 'West 640 700', 'Total 2,740 3,000'];
    const as = (kind: Doc['kind']) => ({ ...fixtureDoc([{ blocks: [{ kind: 'paragraph', lines }] }]), kind });
    expect(['spreadsheet', 'web_page']).not.toContain((await localEngine.classify(request(as('pdf'), { categories }))).output.category);
    const workbook = await localEngine.classify(request(as('xlsx'), { categories }));
    expect(workbook.output.category).toBe('spreadsheet');
    expect(workbook.output.reasoning).toContain('an XLSX file');
    expect((await localEngine.classify(request(as('html'), { categories }))).output.category).toBe('web_page');
  });

  it('a till slip titled "CREDIT NOTE" under seven lines of letterhead is a credit note', async () => {
    const categories: Category[] = [CATEGORIES[0]!, CATEGORIES[1]!, { name: 'credit note', description: 'A credit note' }];
    const letterhead = ['LIGHTROOM GALLERY SDN BHD', 'No: 28, JALAN ASTANA 1C,', 'BANDAR BUKIT RAJA, 41050', 'KLANG SELANGOR D.E, MALAYSIA', 'ROC No. : (1072825-A)', 'GST No. : 000584089600', 'Tel: 03-3360 4305 Fax: 03-3362 4395'];
    const till = ['Station: CASHIER C/N No: LCN00211', 'Cashier: ANGELA', 'Bill Date : 20/11/2017', 'REFER CS03158', 'SQUARE BLACK FRAME 2 x 18.77 37.55', 'Sub Total RM 37.55', 'GST 6% RM 2.25', 'TOTAL RM 39.80', 'CASH RM 39.80', 'CHANGE RM 0.00', 'Item Count: 2', 'Goods Sold are not returnable'];
    const classify = async (title: string) => (await localEngine.classify(request(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: [...letterhead, title, ...till] }] }]), { categories }))).output.category;
    expect(await classify('CREDIT NOTE')).toBe('credit note');
    // A title receipts share with invoices ("TAX INVOICE") that far down does not outweigh the till.
    expect(await classify('TAX INVOICE')).toBe('receipt');
  });

  it('an aside in brackets qualifies a title and names no document: "Gutschrift (Selbst ausgestellte Rechnung)" is a credit note', async () => {
    const categories: Category[] = [CATEGORIES[0]!, { name: 'credit note', description: 'A credit note' }];
    const lines = (title: string) => ['Lieferant GmbH', 'Lieferantenstraße 20, 80333 München', title, 'Nr. 471102 vom 05.03.2018', 'Kunden AG Mitte', 'Rechnungsbetrag und Umsatzsteuer', 'Artikel 1 Trennblätter 20,00 EUR', 'Gesamtbetrag 529,87 EUR', 'Zahlungsbedingungen: sofort'];
    const classify = async (title: string) => (await localEngine.classify(request(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: lines(title) }] }]), { categories }))).output.category;
    expect(await classify('Gutschrift (Selbst ausgestellte Rechnung) (Rechnung)')).toBe('credit note');
    expect(await classify('Rechnung (Gutschrift)')).toBe('invoice');
  });

  it('joining words of other languages make no phrase: "FACTURA DE CRÉDITO" shares nothing with a utility bill\'s "factura de luz"', async () => {
    const categories: Category[] = [{ name: 'invoice', description: '' }, { name: 'utility_bill', description: '' }, { name: 'receipt', description: '' }];
    const lines = ['Repuestos & Logistica Express', 'FACTURA DE CRÉDITO ELECTRÓNICA MiPyMEs (FCE)', 'Punto de Venta: 00001   Comp. Nro: 00000125', 'Fecha de Emisión: 13/02/2023', 'Fecha de Vto. para el pago: 13/03/2023', 'Apellido y Nombre / Razón Social: LA SEGUNDA COOPERATIVA', 'Condición de venta: Cuenta Corriente', 'Código  Producto / Servicio  Cantidad  Precio Unit.  Subtotal', 'Tapizado de asiento  1,00  1000,00  1000,00', 'Subtotal: $ 1000,00', 'IVA 21%: $ 210,00', 'Importe Total: $ 1210,00'];
    const result = await localEngine.classify(request(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines }] }]), { categories }));
    expect(result.output.category).toBe('invoice');
  });
});

describe('classification output', () => {
  it('quotes the decisive phrases of the document; scores are 0..1 and sum to 1', async () => {
    const doc = fixtureDoc(invoice({ seed: 4, pages: 1, number: 'INV-77' }).pages);
    const result = await localEngine.classify(request(doc));
    expect(result.output.category).toBe('invoice');
    expect(result.output.reasoning).toMatch(/^Classified as "invoice" \(score 0\.\d\d\) on the document's words ".+"/);
    // Each quote is text of the document.
    const text = doc.pages.flatMap((p) => p.lines.map((l) => l.text)).join('\n');
    for (const [, quote] of result.output.reasoning.matchAll(/"([^"]+)"/g)) {
      if (!CATEGORIES.some((c) => c.name === quote)) expect(text).toContain(quote);
    }
    expect(sum(result.scores)).toBeCloseTo(1, 9);
    for (const score of Object.values(result.scores)) expect(score).toBeGreaterThanOrEqual(0);
    expect(result.consensus.choices).toEqual([result.output]);
    // One vote's likelihood is the learned model's (npm run train -- classify), not the share of the evidence.
    let features: number[] = [];
    classify(request(doc), { model: CLASSIFY_MODEL, trace: (x) => (features = x) });
    expect(CLASSIFY_MODEL?.features).toEqual([...CLASSIFY_FEATURES]);
    expect(features).toHaveLength(CLASSIFY_FEATURES.length);
    expect(result.consensus.likelihoods).toBeCloseTo(probabilityOf(CLASSIFY_MODEL!, features), 12);
    expect((await localEngine.classify(request(doc, { nConsensus: 1 }))).consensus.likelihoods).toBeGreaterThan(0.9);
  });

  it('knows statutes, minutes, bills of lading and e-mails in the corpus languages (knowledge/document-types.ts), whatever the category says', async () => {
    const categories = [
      { name: 'invoice', description: 'A bill for goods or services' },
      { name: 'statute', description: 'A statute or decree' },
      { name: 'minutes', description: 'Meeting minutes' },
      { name: 'shipping', description: 'A bill of lading' },
      { name: 'mail', description: 'An e-mail message' },
    ];
    const doc = (lines: string[]) => fixtureDoc([{ blocks: [{ kind: 'paragraph', lines }] }]);
    const categoryOf = async (lines: string[]) => (await localEngine.classify(request(doc(lines), { categories }))).output.category;
    expect(await categoryOf(['Artículo 1. Objeto.', 'El presente real decreto regula las condiciones de acceso.', 'Disposición adicional primera.', 'Disposición final única. Entrada en vigor.'])).toBe('statute');
    expect(await categoryOf(['Notulen van de vergadering van 12 maart', 'Aanwezig: J. de Vries, A. Bakker', 'Afwezig: P. Jansen', 'Rondvraag: geen punten.', 'Actiepunten: begroting voorbereiden.'])).toBe('minutes');
    expect(await categoryOf(['Shipper: Acme Exports Ltd', 'Consignee: To order', 'Notify party: Blue Imports', 'Vessel / Voyage: MSC Anna 123W', 'Port of loading: Rotterdam', 'Port of discharge: Santos', 'Freight prepaid'])).toBe('shipping');
    expect(await categoryOf(['Betreff: Lieferung verspätet', 'Gesendet: Montag, 3. Juni 2024 09:12', 'Hallo Frau Weber,', 'die Lieferung kommt erst am Freitag.', 'Anhang: lieferschein.pdf'])).toBe('mail');
    // A Brazilian road consignment note (CT-e): its own name and the carriage's parties, no "bill of lading".
    const cte = ['DACTE', 'Documento auxiliar do conhecimento de transporte eletrônico', 'Modal rodoviário', 'Data e hora de emissão 27/03/2024', 'Expedidor', 'Recebedor', 'Valor total da carga R$ 3.016,92', 'Cubagem (m³)'];
    // ("Data", a date in Portuguese, is also a spreadsheet's word.)
    const sheet = [...categories, { name: 'spreadsheet', description: 'A spreadsheet: a workbook of rows of data' }];
    expect((await localEngine.classify(request(doc(cte), { categories: sheet }))).output.category).toBe('shipping');
  });

  it('a user documentation about invoices names itself a manual: "Nutzerdokumentation" over pages of invoice words', async () => {
    const categories = [
      { name: 'invoice', description: 'Invoice requesting payment for goods or services' },
      { name: 'manual', description: 'User manual or guide explaining how to use something' },
    ];
    const page = (lines: string[]) => ({ blocks: [{ kind: 'paragraph' as const, lines }] });
    const docOf = (title: string) =>
      fixtureDoc([
        page([title, 'zu Version 1.5.1, 13.01.2018', 'Inhaltsverzeichnis', 'Eine Rechnung erzeugen ........ 2', 'Rechnungen prüfen ........ 4']),
        page(['Installation', 'Laden Sie die Bibliothek herunter und binden Sie sie in Ihr Projekt ein.', 'Eine Rechnung erzeugen', 'Die Testrechnung wird mit wenigen Zeilen Code erzeugt: Rechnungsnummer, Rechnungsdatum, Gesamtbetrag.', 'Anschließend kann die Rechnung geprüft werden.']),
      ]);
    const categoryOf = async (title: string) => (await localEngine.classify(request(docOf(title), { categories }))).output.category;
    expect(await categoryOf('Mustang Project Nutzerdokumentation')).toBe('manual');
    expect(await categoryOf('Mustang Project Benutzerdokumentation')).toBe('manual');
  });

  it("tells a body shop's repair estimate from a quote for goods: both are estimates, only one prints R&I, refinish and panels", async () => {
    const categories = [
      { name: 'quote', description: 'Quotation or estimate of prices offered to a customer' },
      { name: 'repair_estimate', description: 'Estimate of vehicle repair costs' },
    ];
    const doc = (lines: string[]) => fixtureDoc([{ blocks: [{ kind: 'paragraph', lines }] }]);
    const categoryOf = async (lines: string[]) => (await localEngine.classify(request(doc(lines), { categories }))).output.category;
    const repair = ['ESTIMATE', 'Customer: Dana Lee', 'Vehicle: 2017 Honda Civic  VIN 2HGFC2F59HH512345', 'Odometer 48,210', 'Line  Oper  Description  Labor  Paint',
      '1  R&I  Front bumper cover  1.2', '2  Repl  LT Fender  2.0  1.8', '3  Rfn  LT Quarter panel  2.6', 'Paint labor 4.4 hrs', 'Parts total 812.40', 'TOTALS 1,402.77'];
    const goods = ['QUOTATION', 'Quote number Q-2024-118', 'Customer: Northwind Traders', 'Valid until 30 June 2024', 'Item  Qty  Unit price  Amount',
      'Office chair, ergonomic  12  189.00  2,268.00', 'Standing desk 160 cm  6  415.00  2,490.00', 'Subtotal 4,758.00', 'Total 4,758.00', 'Accept this quote by signing below'];
    expect(await categoryOf(repair)).toBe('repair_estimate');
    expect(await categoryOf(goods)).toBe('quote');
  });

  it("tells a pitch deck from other slides: both are slides, only one pitches a problem, a market, traction and an ask", async () => {
    const categories = [
      { name: 'pitch_deck', description: 'Startup pitch deck' },
      { name: 'slides', description: 'Presentation slides' },
    ];
    const slide = (title: string, ...lines: string[]) => ({ blocks: [{ kind: 'heading' as const, lines: [title] }, { kind: 'paragraph' as const, lines }] });
    const landscape = (pages: ReturnType<typeof slide>[]) => {
      const doc = fixtureDoc(pages);
      for (const page of doc.pages) Object.assign(page, { width: 792, height: 612, unit: 'pt' });
      return doc;
    };
    const categoryOf = async (pages: ReturnType<typeof slide>[]) => (await localEngine.classify(request(landscape(pages), { categories }))).output.category;
    const pitch = [
      slide('Roomly', 'Book rooms with local hosts'),
      slide('Problem', 'Hotels are expensive and far from where people want to be.'),
      slide('Solution', 'A web platform where hosts rent out their spare rooms.'),
      slide('Market size', '2 billion trips a year; 560 million booked online.'),
      slide('Business model', 'We take a 10% commission on each booking.'),
      slide('Traction', '40,000 nights booked; 20% growth a month.'),
      slide('Competition', 'Hotels, hostels and classifieds, and our competitive advantage.'),
      slide('The ask', 'Raising 500,000 in seed funding for 12 months of milestones.'),
    ];
    const talk = [
      slide('Quarterly operations review', 'Facilities team'),
      slide('Agenda', 'Overview, building works, energy use, next steps'),
      slide('Overview', 'Three sites, 42 staff, 11 open work orders.'),
      slide('Building works', 'Roof repairs finished in May; lifts serviced in June.'),
      slide('Energy use', 'Down 8% on last year after the lighting upgrade.'),
      slide('Next steps', 'Heating controls in the autumn; a new cleaning contract.'),
      slide('Questions?', 'Thank you'),
    ];
    expect(await categoryOf(pitch)).toBe('pitch_deck');
    expect(await categoryOf(talk)).toBe('slides');
  });

  it('"information" is no report: the Spanish "informe" names a report only in its phrases ("informe anual"), as alone it stems as "information"', async () => {
    const categories = [
      { name: 'report', description: 'A report or memo presenting findings, with sections and figures' },
      { name: 'manual', description: 'User manual or guide explaining how to use something' },
    ];
    const page = (lines: string[]) => ({ blocks: [{ kind: 'heading' as const, lines: [lines[0]!] }, { kind: 'paragraph' as const, lines: lines.slice(1) }] });
    const leaflet = fixtureDoc([
      page(['Patient information', 'Information about your inhaler', 'How to use the inhaler: shake it, breathe out, press once.', 'More information: ask your pharmacist.']),
      page(['Patient information', 'Cleaning the inhaler', 'Information on cleaning: rinse the cap weekly.', 'Information for carers.']),
    ]);
    expect((await localEngine.classify(request(leaflet, { categories }))).output.category).toBe('manual');
    const informe = fixtureDoc([page(['Informe anual 2023', 'Resultados del ejercicio y conclusiones del consejo.'])]);
    expect((await localEngine.classify(request(informe, { categories }))).output.category).toBe('report');
  });

  it('with no evidence for any category, the first is only a default, and its likelihood says so', async () => {
    const doc = fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: ['Zorblat quixen fummery.'] }] }]);
    const result = await localEngine.classify(request(doc));
    expect(result.output.category).toBe(CATEGORIES[0]!.name);
    expect(result.output.reasoning).toContain('is only a default');
    for (const score of Object.values(result.scores)) expect(score).toBeCloseTo(1 / CATEGORIES.length, 9);
    // No more than a guess among the categories would be worth.
    expect(result.consensus.likelihoods).toBeLessThanOrEqual(1 / CATEGORIES.length);
  });

  it('reads only the first N pages', async () => {
    const doc = fixtureDoc([...payslip(3).pages, ...invoice({ seed: 5, pages: 2 }).pages]);
    expect((await localEngine.classify(request(doc, { firstNPages: 1 }))).output.category).toBe('payslip');
    expect((await localEngine.classify(request(doc, { firstNPages: 3, categories: CATEGORIES.filter((c) => c.name !== 'payslip') }))).output.category).toBe('invoice');
  });

  it("a long document's title is not drowned by its many pages: a handbook of expense and loss reports is a manual", () => {
    const categories = [
      { name: 'manual', description: 'A handbook or user guide' },
      { name: 'loss run', description: 'An insurance loss history report listing claims' },
      { name: 'receipt', description: 'Proof of a payment' },
    ];
    const body = (n: number) => ({
      blocks: [
        { kind: 'heading' as const, lines: [`CHAPTER ${n} - EXPENSE AND LOSS REPORTS`] },
        { kind: 'paragraph' as const, lines: ['The trustee reports each expense and each loss under the policies.', 'Claims and losses are reviewed every quarter.'] },
      ],
    });
    const title = { blocks: [{ kind: 'heading' as const, lines: ['U.S. Department of Justice', 'Handbook for', 'Standing Trustees', 'October 1, 2012'] }] };
    const long = fixtureDoc([title, ...Array.from({ length: 40 }, (_, i) => body(i + 1))]);
    expect(classify(request(long, { categories })).output.category).toBe('manual');
    // Without the title, the same pages are a loss run.
    expect(classify(request(fixtureDoc(Array.from({ length: 41 }, (_, i) => body(i + 1))), { categories })).output.category).toBe('loss run');
  });

  it('of two categories whose kinds share a layout and nothing else tells apart, the one named for the layout wins: a PPTX of a scorecard is slides, not a pitch deck', () => {
    const doc: Doc = { ...fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: ['Sciences Directorate', 'Virtual Machine Environment Scorecard', 'Code 610: Earth Sciences Division'] }] }]), kind: 'pptx' };
    for (const categories of [
      [{ name: 'pitch deck', description: '' }, { name: 'slides', description: '' }],
      [{ name: 'slides', description: '' }, { name: 'pitch deck', description: '' }],
    ]) {
      const result = classify(request(doc, { categories }));
      expect(result.output.category).toBe('slides');
      expect(result.output.reasoning).toContain('a PPTX file');
    }
  });

  it('instructions can add terms to a category', async () => {
    const doc = fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: ['FINAL NOTICE', 'Your account is overdue. Pay now to avoid collection.'] }] }]);
    const categories = [
      { name: 'routine', description: 'Normal correspondence' },
      { name: 'urgent', description: 'Needs action today' },
    ];
    const plain = await localEngine.classify(request(doc, { categories }));
    const instructed = await localEngine.classify(request(doc, { categories, instructions: 'Documents that say "final notice" or mention collection are urgent.' }));
    expect(plain.scores.urgent).toBeLessThan(0.6);
    expect(instructed.output.category).toBe('urgent');
    expect(instructed.output.reasoning).toContain('FINAL NOTICE');
  });
});

describe('classification consensus and determinism', () => {
  it('the same request gives the same answer', async () => {
    const doc = fixtureDoc(receipt(8).pages);
    for (const n of [1, 5]) {
      const a = await localEngine.classify(request(doc, { nConsensus: n, seed: 'x' }));
      const b = await localEngine.classify(request(doc, { nConsensus: n, seed: 'x' }));
      expect(b).toEqual(a);
    }
  });

  it('n votes give n choices, a likelihood no higher than the winner\'s share of votes, and a stable answer on clear documents', async () => {
    const docs = classificationCorpus(4);
    let differingChoices = 0;
    for (const fixture of docs) {
      const doc = fixtureDoc(fixture.pages);
      const single = await localEngine.classify(request(doc));
      const clear = single.consensus.likelihoods >= 0.8;
      for (const n of [3, 5]) {
        const a = await localEngine.classify(request(doc, { nConsensus: n, seed: 'alpha' }));
        const b = await localEngine.classify(request(doc, { nConsensus: n, seed: 'beta' }));
        for (const result of [a, b]) {
          expect(result.consensus.choices).toHaveLength(n);
          // Each of the winner's votes counts by its own likelihood (shared/consensus.ts): never more than its share.
          const share = result.consensus.choices.filter((c) => c.category === result.output.category).length / n;
          expect(result.consensus.likelihoods).toBeLessThanOrEqual(share + 1e-9);
          expect(result.consensus.likelihoods).toBeGreaterThan(0);
          expect(sum(result.scores)).toBeCloseTo(1, 9);
        }
        // A vote's choice is its category and its reasoning (which quotes its scores): seeds that weigh
        // the evidence differently give different choices even where every vote lands on one category.
        if (JSON.stringify(a.consensus.choices) !== JSON.stringify(b.consensus.choices)) differingChoices++;
        if (clear) {
          expect(a.output.category).toBe(single.output.category);
          expect(b.output.category).toBe(single.output.category);
        }
      }
    }
    // Votes are genuinely different views: some seeds disagree somewhere.
    console.log(`classification: ${differingChoices} of ${2 * docs.length} vote sets differ between seeds`);
    expect(differingChoices).toBeGreaterThan(0);
  });
});

describe('classification edge cases', () => {
  it('a document without pages or text still answers a category, with low confidence, and says so', async () => {
    for (const doc of [{ kind: 'pdf', pages: [] } as Doc, fixtureDoc([{ blocks: [] }, { blocks: [] }])]) {
      const result = await localEngine.classify(request(doc, { nConsensus: 3 }));
      expect(CATEGORIES.map((c) => c.name)).toContain(result.output.category);
      expect(result.output.reasoning).toMatch(/no readable text.*low confidence/);
      expect(result.scores[result.output.category]).toBeCloseTo(1 / CATEGORIES.length, 9);
      expect(result.consensus.choices).toHaveLength(3);
    }
  });

  it("says its confidence is low by the likelihood it returns, not by the evidence's share (small among many categories even when right)", async () => {
    const more = ['letter', 'report', 'form', 'manual', 'brochure', 'resume', 'quote', 'purchase order', 'delivery note', 'credit note', 'utility bill', 'medical bill', 'tax form', 'certificate', 'agenda', 'memo', 'press release', 'policy document', 'spreadsheet', 'slides'];
    const many = [...CATEGORIES, ...more.map((name) => ({ name, description: `A ${name}` }))];
    const sure = await localEngine.classify(request(fixtureDoc(invoice({ seed: 4 }).pages), { categories: many }));
    expect(sure.output.category).toBe('invoice');
    expect(sure.scores.invoice).toBeLessThan(0.5);
    expect(sure.consensus.likelihoods).toBeGreaterThan(0.7);
    expect(sure.output.reasoning).not.toMatch(/Low confidence/);
    // "Account" and "Salary" alone: as much for a bank statement as for a payslip.
    const torn = await localEngine.classify(request(fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: ['Account', 'Salary'] }] }])));
    expect(torn.consensus.likelihoods).toBeLessThan(0.7);
    expect(torn.output.reasoning).toContain(`Low confidence (${torn.consensus.likelihoods.toFixed(2)})`);
  });

  it('text that matches no category says there is no evidence', async () => {
    const doc = fixtureDoc([{ blocks: [{ kind: 'paragraph', lines: ['The quick brown fox jumps over the lazy dog.'] }] }]);
    const result = await localEngine.classify(request(doc));
    expect(result.output.reasoning).toMatch(/None of the categories' words or phrases appear in the document.*low confidence \(0\.20\)/);
  });
});
