/**
 * Reading business fields (functions/models/local/business.ts) on short documents written here as a
 * person would print them: labels in several languages, a label of another field next to the one
 * asked for, totals that must add up, the issuer at the top and the customer under "Bill to", the
 * currency from a mark and the country, numbers grouped with dots. (The real-document figures are in
 * corpus-accuracy.test.ts and `npm run bench -- accuracy`.)
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { Doc } from '../../../functions/documents/doc.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import type { JsonSchema } from '../../../functions/models/engine.ts';
import { extract as extractWith, localExtractor } from '../../../functions/models/local/extract.ts';
import { corpusAvailable, corpusDoc } from '../../support/corpus.ts';

async function txt(lines: string[]): Promise<Doc> {
  return readDocument(new TextEncoder().encode(lines.join('\n')), { kind: 'txt', dpi: 72, deadline: Date.now() + 10_000 });
}

const SCHEMA: JsonSchema = {
  type: 'object',
  required: ['vendor_name', 'invoice_number', 'invoice_date', 'due_date', 'customer_name', 'currency', 'subtotal', 'tax', 'total'],
  properties: {
    vendor_name: { type: 'string' },
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    due_date: { type: 'string', format: 'date' },
    customer_name: { type: 'string' },
    currency: { type: 'string' },
    subtotal: { type: 'number' },
    tax: { type: 'number' },
    total: { type: 'number' },
  },
};

async function extract(lines: string[], schema = SCHEMA): Promise<Record<string, unknown>> {
  return (await localExtractor.extract({ doc: await txt(lines), schema, instructions: null, nConsensus: 1, seed: 's' })).output;
}

/** Line items as a schema asks for them: a description, a count and an amount. */
const ITEMS: JsonSchema = {
  type: 'object',
  properties: { line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } } } } },
};

type Ruled = { columns: number[]; rows: number[] };

/** A PDF of pages of texts ([x, y from the top, text], 10 pt) and ruled tables (the x of their column rules, the y of their row rules). */
async function pagesOf(pages: Array<{ texts: Array<[number, number, string]>; tables?: Ruled[] }>): Promise<Doc> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const { texts, tables = [] } of pages) {
    const page = pdf.addPage([612, 792]);
    for (const [x, y, text] of texts) page.drawText(text, { x, y: 792 - y, size: 10, font });
    for (const { columns, rows } of tables) {
      for (const y of rows) page.drawLine({ start: { x: columns[0]!, y: 792 - y }, end: { x: columns[columns.length - 1]!, y: 792 - y }, thickness: 0.75 });
      for (const x of columns) page.drawLine({ start: { x, y: 792 - rows[0]! }, end: { x, y: 792 - rows[rows.length - 1]! }, thickness: 0.75 });
    }
  }
  return readDocument(await pdf.save(), { kind: 'pdf', dpi: 72, deadline: Date.now() + 20_000 });
}

/** One such page. */
const ruledPage = (texts: Array<[number, number, string]>, tables: Ruled[]): Promise<Doc> => pagesOf([{ texts, tables }]);

/** The fields SCHEMA asks for, read from a PDF page of texts placed at [x, y from the top, text]. */
async function placed(texts: Array<[number, number, string]>): Promise<Record<string, unknown>> {
  return (await localExtractor.extract({ doc: await ruledPage(texts, []), schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
}

/** The texts of a ruled table's cells, row by row (an empty string leaves a cell empty). */
function inCells(table: { columns: number[]; rows: number[] }, cells: string[][]): Array<[number, number, string]> {
  return cells.flatMap((row, r) => row.flatMap((text, c): Array<[number, number, string]> => (text ? [[table.columns[c]! + 4, table.rows[r]! + 14, text]] : [])));
}

/** The same lines as OCR would give them off a scan, every word read at 90. */
async function scanned(lines: string[]): Promise<Record<string, unknown>> {
  const doc = await txt(lines);
  for (const page of doc.pages) {
    page.ocr = true;
    for (const word of page.words) word.confidence = 90;
  }
  return (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
}

describe('business fields', () => {
  it('reads an amount whose label ends with a currency mark printed apart ("Importe Total: $" beside its amount)', async () => {
    const out = await extract(['Repuestos del Sur SRL', 'Importe Neto Gravado: $        491435,54', 'IVA 21%: $        103201,45', 'Importe Total: $        594636,99']);
    expect(out).toMatchObject({ subtotal: 491435.54, tax: 103201.45, total: 594636.99 });
    // The mark says nothing of what the amount is: a subtotal so labelled is as sure as "Subtotal: 44000,00".
    const untaxed = await extract(['Repuestos del Sur SRL', 'Subtotal: $        44000,00', 'Importe Otros Tributos: $        0,00', 'Importe Total: $        44000,00']);
    expect(untaxed).toMatchObject({ subtotal: 44000, total: 44000 });
  });

  it("takes the subtotal of the total's page, not a page's running subtotal carried to the next page", async () => {
    // Page 1 ends with the items' running "Subtotal", carried to page 2 ("TRANSPORTE"), whose block
    // prints the net amount, the tax by rate (21% of 491,435.54 is 103,201.46: the tax was summed
    // from rounded line taxes) and the total.
    const doc = await pagesOf([
      { texts: [[40, 60, 'Repuestos del Sur SRL'], [40, 200, 'Paragolpes delantero'], [450, 200, '491435,54'], [380, 700, 'Subtotal:'], [450, 700, '594636,99']] },
      {
        texts: [
        [40, 60, 'Repuestos del Sur SRL'],
        [380, 200, 'TRANSPORTE:'],
        [450, 200, '594636,99'],
        [300, 500, 'Importe Neto Gravado: $'],
        [450, 500, '491435,54'],
        ...(['27%', '21%', '10.5%', '5%', '2.5%', '0%'].map((rate, i) => [340, 515 + 15 * i, `IVA ${rate}: $`]) as Array<[number, number, string]>),
        ...(['0,00', '103201,45', '0,00', '0,00', '0,00', '0,00'].map((tax, i) => [450, 515 + 15 * i, tax]) as Array<[number, number, string]>),
        [320, 620, 'Importe Total: $'],
        [450, 620, '594636,99'],
        ],
      },
    ]);
    const out = (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(out).toMatchObject({ subtotal: 491435.54, tax: 103201.45, total: 594636.99 });
  });

  it('reads French, German and Dutch labels, amounts and dates', async () => {
    expect(
      await extract(['Boulangerie Martin SARL', '12 rue des Lilas, 75011 Paris', 'Facture N° F-2024-118', 'Date de facture : 02/07/2024', "Date d'échéance : 02/08/2024", 'Total HT : 1 250,00 €', 'TVA 20 % : 250,00 €', 'Total TTC : 1 500,00 €']),
    ).toEqual({ vendor_name: 'Boulangerie Martin SARL', invoice_number: 'F-2024-118', invoice_date: '2024-07-02', due_date: '2024-08-02', customer_name: null, currency: 'EUR', subtotal: 1250, tax: 250, total: 1500 });
    const german = await extract(['Müller Werkzeuge GmbH', 'Rechnungsnr.: 2024-0077', 'Rechnungsdatum: 7. Mai 2014', 'Nettobetrag: 100,00 EUR', 'MwSt 19%: 19,00 EUR', 'Gesamtbetrag: 119,00 EUR']);
    expect(german).toMatchObject({ vendor_name: 'Müller Werkzeuge GmbH', invoice_number: '2024-0077', invoice_date: '2014-05-07', currency: 'EUR', subtotal: 100, tax: 19, total: 119 });
    const dutch = await extract(['Bakkerij de Vries B.V.', 'Factuurnummer: 5521', 'Factuurdatum: 29 maart 2014', 'Totaal excl. BTW: 80,00', 'BTW 21%: 16,80', 'Te betalen: 96,80 EUR']);
    expect(dutch).toMatchObject({ invoice_number: '5521', invoice_date: '2014-03-29', subtotal: 80, tax: 16.8, total: 96.8 });
  });

  it('never takes another field’s label: customer number, order number, due date, VAT id', async () => {
    const out = await extract(['Acme Supplies Ltd', 'VAT No: GB123456789', 'Customer No: C-8812', 'PO Number: PO-4471', 'Due Date: 2024-04-30', 'Invoice No: INV-3001', 'Invoice Date: 2024-03-31', 'Total: 42.00']);
    expect(out.invoice_number).toBe('INV-3001');
    expect(out.invoice_date).toBe('2024-03-31');
    expect(out.due_date).toBe('2024-04-30');
    expect(out.tax).toBeNull();
    // A document without a number of its own gives none rather than the customer's.
    expect((await extract(['Acme Supplies Ltd', 'Customer No: C-8812', 'Total: 42.00'])).invoice_number).toBeNull();
  });

  it('chooses totals that add up, and tells "Total GST" and "Total Qty" from the total', async () => {
    const out = await extract(['Kedai Runcit Sdn Bhd', 'Total Qty: 3', 'Total Sales (Excluding GST): 31.03', 'Total GST: 1.65', 'Rounding: 0.02', 'Total Sales (Inclusive of GST): 32.70', 'Cash: 50.00', 'Change: 17.30']);
    expect(out).toMatchObject({ subtotal: 31.03, tax: 1.65, total: 32.7, currency: null });
  });

  it('reads labels as printed on real receipts: a word before or after the label, a rate, OCR debris', async () => {
    // "GST @ 6% :" is the tax's label with its rate; "Total Sales (Inclusive GST) RM" is one label,
    // its amount beside it.
    expect(await extract(['Khoo Hardware Sdn Bhd', 'GST @ 6% :        1.20', 'Total Sales (Inclusive GST) RM        21.20'])).toMatchObject({ tax: 1.2, total: 21.2 });
    // "Total Items" is a count, and "Sub: Total" (OCR's colon) a subtotal: neither is the total.
    expect((await extract(['Khoo Hardware Sdn Bhd', 'Total Items = 2'])).total).toBeNull();
    expect((await extract(['Khoo Hardware Sdn Bhd', 'Sub: Total (RM)        20.00'])).total).toBeNull();
    // More words of the label printed apart are stepped over too, and say whose label it is.
    expect((await extract(['Mr DIY Sdn Bhd', 'TOTAL        ROUNDED        RM 30.90'])).total).toBe(30.9);
    expect((await extract(['Bar Sdn Bhd', 'Total        (Excluding GST):        119.25'])).total).toBeNull();
    // A rate printed before the label qualifies it ("6.00% GST"); a tax code ("A") and "RM" between it
    // and its amount are stepped over.
    expect(await extract(['Isni Petro Trading', 'Total        RM 86.00', '6.00% GST        A        RM        4.87'])).toMatchObject({ tax: 4.87, total: 86 });
    expect(await extract(['Isni Petro Trading', 'Total        RM 86.00', '6.00% GST A RN 4.87'])).toMatchObject({ tax: 4.87 });
    expect(await extract(['Isni Petro Trading', 'Total        RM 86.00', '6.00% GST        A RN        4.87'])).toMatchObject({ tax: 4.87 });
    // A faint "RM" read as "Ri" between the label and its amount is stepped over.
    expect((await extract(['Isni Petro Trading', 'Total        Ri        86.00'])).total).toBe(86);
    // A tax summary's row gives the base and the tax; what was paid in cash is never the total.
    const summary = await extract(['Mr D.I.Y. (M) Sdn Bhd', 'Total Incl. GST        RM 37.10', 'CASH        RM 50.00', 'GST Summary        Amt(RM)        Tax(RM)', 'SR @ 6%        35.00        2.10']);
    expect(summary).toMatchObject({ subtotal: 35, tax: 2.1, total: 37.1 });
    // A tax line printing the taxable base and the rate before the tax: the tax is the amount after them.
    const estimate = await extract(['Green Township Collision', 'Subtotal        13,200.53', 'Sales Tax        $ 9,309.03        @        8.9000 %        828.50', 'Net Cost of Repairs        14,029.03']);
    expect(estimate).toMatchObject({ subtotal: 13200.53, tax: 828.5, total: 14029.03 });
    // Another label printed beside a label is not its value; a letter in brackets is not a currency.
    const form = await extract(['Green Township Collision', 'Owner:        Inspection Location:', 'Smith, Joe        Drive-in', '12 Front Center (P)        Total: 42.00']);
    expect(form).toMatchObject({ customer_name: 'Smith, Joe', currency: null });
    // With no date labelled, the first date printed, but not one inside a sentence: that dates what the sentence speaks of.
    const prose = await extract(['Body Shop Inc', 'Unless otherwise noted, all items are derived from the guide of the maker, data date 01/17/2024, and may change.', '01/27/2024 3:45 PM', 'Total: 42.00']);
    expect(prose.invoice_date).toBe('2024-01-27');
    // Under a currency label, a number (a form's box number, "35") or the next line is no currency; a currency named in words is its code.
    expect((await extract(['Richmond Clinic PLC', 'CURR        35        STATE', 'Total: 990.00'])).currency).toBeNull();
    expect((await extract(['Richmond Clinic PLC', 'Currency: Ringgit Malaysia', 'Total: 990.00'])).currency).toBe('MYR');
    expect((await extract(['Richmond Clinic PLC', 'Currency: US Dollars', 'Total: 990.00'])).currency).toBe('USD');
    // An amount of money is never a document number, whatever label precedes it.
    expect((await extract(['Body Shop Inc', 'NO PERSONAL CHECKS OVER $500.00', 'Total: 42.00'])).invoice_number).toBeNull();
  });

  it('takes the issuer from the letterhead, never the customer under "Bill to"', async () => {
    const out = await extract(['Northwind Traders Inc.', '500 Market Street, Springfield', 'INVOICE', 'Bill To:', 'Contoso Engineering Ltd', '12 Main Street', 'Invoice #: 7781', 'Total: $120.00']);
    expect(out.vendor_name).toBe('Northwind Traders Inc');
    expect(out.customer_name).toBe('Contoso Engineering Ltd');
  });

  it('ends a letterhead name at a registration number run into it, and joins no line printed in another style', async () => {
    const glued = await extract(['MYNEWS RETAIL SDN BHD(306295-X) FKA BISON STORES SB', 'LOT R1, KWS REHAT & RAWAT PAGOH', 'Total: 10.00']);
    expect(glued.vendor_name).toBe('MYNEWS RETAIL SDN BHD');
    // A name in capitals is not continued by a line in small letters, nor by one holding a date.
    const owner = await extract(['BREWERY TAP', 'Owner by Castle Blue S/B', '(1035683-T)', 'Avtivo Plaza, Lot B-F-11, Block B', 'Total: 189.75']);
    expect(owner.vendor_name).not.toBe('BREWERY TAP Owner by Castle Blue S/B');
    const dated = await extract(['HOME HEALTH CARE SERVICES', 'HH SERVICES 126 2/3/2020', 'Total: 307.00']);
    expect(dated.vendor_name).not.toContain('2/3/2020');
  });

  it('reads the letterhead under a note written above it in lower case', async () => {
    const out = await extract(['tan chay yee', 'ABC HO TRADING', 'No.2&4, JALAN HARMONI 3/2,', 'TAMAN DESA HARMONI', '81100 JOHOR BAHRU', 'Total: 31.00']);
    expect(out.vendor_name).toBe('ABC HO TRADING');
  });

  it('reads "$" as the dollar of the document’s country, and thousands grouped with dots', async () => {
    expect((await extract(['Koala Painting Pty Ltd', 'ABN 12 345 678 901', 'Sydney NSW 2000', 'Total: $1,155.00'])).currency).toBe('AUD');
    expect((await extract(['Blue Door Cafe', 'Portland, OR 97201', 'Total: $45.00'])).currency).toBe('USD');
    // Set apart from its amount, as a price column prints it, or heading a column of amounts; alone, it says nothing.
    expect((await extract(['Blue Door Cafe', 'Labor   2.0 hrs @ $   60.00', 'Total:   120.00'])).currency).toBe('USD');
    expect((await extract(['Blue Door Cafe', 'Price $   Qty', 'Total:   120.00'])).currency).toBe('USD');
    expect((await extract(['Blue Door Cafe', 'Qty   $   Item', 'Total:   120.00'])).currency).toBeNull();
    expect(await extract(['Lars Peeters Contractor', 'INVOICE 1234', 'SUBTOTAL $12.700', 'TAX $2.250', 'TOTAL $14.950'])).toMatchObject({ subtotal: 12700, tax: 2250, total: 14950 });
    // An Argentine invoice's "$" (CUIT, its tax id; Ingresos Brutos, its provincial tax) is a peso.
    expect((await extract(['FACTURA', 'CUIT: 30-71556647-4', 'Ingresos Brutos: 021-604900-8', 'Importe Total: $ 44000,00'])).currency).toBe('ARS');
  });

  it('reads no currency from "peso" alone: eight currencies are pesos, and in Portuguese and Spanish it is a weight', async () => {
    const danfe = await extract(['DANFE', 'NOTA FISCAL', 'PESO BRUTO      PESO LÍQUIDO', '12,500          11,800', 'VALOR TOTAL DA NOTA 1.250,00']);
    expect(danfe.currency).toBeNull();
    expect((await extract(['Sari-Sari Store', 'Total: 250.00 Philippine pesos'])).currency).toBe('PHP');
    expect((await extract(['Tienda', 'Total: 250.00 pesos mexicanos'])).currency).toBe('MXN');
  });

  it('reads a "$" after a column header naming money ("Cost $"), or a mark over one ("RM(TOTAL)"), as the currency of its amounts; not after another word', async () => {
    const estimate = (header: string) => extract(['GREEN TOWNSHIP COLLISION', '5191 Crookshank, Cincinnati, OH 45238', header, 'Body Labor        14.3 hrs        46.00/hr        657.80', 'Total: 1,020.00']);
    expect((await estimate('Category        Basis        Rate        Cost $')).currency).toBe('USD');
    expect((await estimate('Category        Basis        Rate        Cost')).currency).toBeNull();
    expect((await estimate('Category        Basis        Rate        Notes $')).currency).toBeNull();
    // A mark over a column naming money in brackets: "RM(TOTAL)".
    const slip = (header: string) => extract(['S.H.H. MOTOR (SUNGAI RENGIT) SDN. BHD.', header, 'CROCS 300X17 TUBES 1 20.00 20.00', 'TOTAL 20.00']);
    expect((await slip('ITEM/DESC.        QTY        U.PRICE        RM(TOTAL)')).currency).toBe('MYR');
    expect((await slip('ITEM/DESC.        QTY        U.PRICE        RM(NOTE)')).currency).toBeNull();
  });

  it('reads the currency a column or the document is stated in: "Einzel/€", "Netto EUR", "Beträge in EUR"; not a letter after a code ("Param4 R")', async () => {
    const rechnung = (header: string, ...more: string[]) => extract(['Papierflieger GmbH', 'Rechnung 4711', header, '1   Papierflieger   10   8,45   84,50', 'Rechnungssumme netto   84,50', ...more]);
    // A code or mark printed apart from any amount, alone, is too little.
    expect((await rechnung('Pos.   Artikel   Menge   Preis   Gesamt', 'Lieferung EUR')).currency).toBeNull();
    expect((await rechnung('Pos.   Artikel   Menge   Einzel/€   Gesamt/€')).currency).toBe('EUR');
    expect((await rechnung('Beträge in EUR')).currency).toBe('EUR');
    expect((await rechnung('Pos.   Artikel   Menge   Netto EUR')).currency).toBe('EUR');
    expect((await extract(['Acme Ltd', 'Invoice 12', 'Subtotal   573.00', 'Total € Incl. VAT   681.87'])).currency).toBe('EUR');
    // A weak mark ("R", the rand) after a word ending in a digit is no mark beside an amount.
    expect((await rechnung('Pos.   Artikel   Menge   Preis', 'Alpha_Param4 R')).currency).toBeNull();
  });

  it('takes no currency from signs OCR read unsurely (a "9" read as "$"), but from signs it read surely', async () => {
    const scanned = async (signConfidence: number) => {
      // As Tesseract read a scanned invoice that prints no currency sign at all.
      const doc = await txt(['Home Partners', 'Invoice # 986', '400.00', '$2.00 $200', '9200 200', '92.00 $2.00', 'Balance Due 500.00']);
      const read = [signConfidence, signConfidence - 5, signConfidence + 4];
      for (const page of doc.pages) {
        page.ocr = true;
        for (const word of page.words) word.confidence = /\$/.test(word.text) ? read.shift() : 91;
      }
      return (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
    };
    expect((await scanned(47)).currency).toBeNull();
    expect((await scanned(93)).currency).toBe('USD');
  });

  it('trusts a date OCR read surely, whatever it made of the time printed after it', async () => {
    const doc = await txt(['Fuyi Mini Market', 'GST No. : 001604310720', '25/01/2018 1:22:56PM', 'TAX INVOICE', 'Total 9.00']);
    for (const page of doc.pages) {
      page.ocr = true;
      for (const word of page.words) word.confidence = word.text === '1:22:56PM' ? 22 : word.text === '25/01/2018' ? 83 : 91;
    }
    const output = (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(output.invoice_date).toBe('2018-01-25');
  });

  it('takes a currency mark OCR read unsurely when the country the document is from agrees with it', async () => {
    const scanned = async (address: string) => {
      // A till slip whose column header "Amt(RM)" Tesseract read at 40.
      const doc = await txt(['Kedai Runcit Maju', address, 'Desc Qty Amt(RM)', 'Plastic bag 2 31.00', 'Total 31.00']);
      for (const page of doc.pages) {
        page.ocr = true;
        for (const word of page.words) word.confidence = word.text.includes('(RM)') ? 40 : 91;
      }
      return (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
    };
    expect((await scanned('12 Jalan Harmoni, 81100 Johor Bahru')).currency).toBe('MYR');
    // With no country to agree, one unsure mark stays too thin to say.
    expect((await scanned('12 Harmoni Road')).currency).toBeNull();
  });

  it('reads a faint "RM" OCR read one letter off ("RH 86.00", "RN 4.87") as the currency of a Malaysian document, when it recurs', async () => {
    const scanned = async (lines: string[]) => {
      const doc = await txt(lines);
      for (const page of doc.pages) {
        page.ocr = true;
        for (const word of page.words) word.confidence = 90;
      }
      return (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output.currency;
    };
    const slip = ['Isni Petro Trading', 'Lot 2685 Jln Genting Klang', 'V-Power 97        RI 86.00', 'Visa        RH 86.00', 'Total        RN 86.00'];
    expect(await scanned(slip)).toBe('MYR');
    // No country to say which mark they miss, or one such word alone: no currency.
    expect(await scanned(slip.map((l) => l.replace('Jln Genting Klang', 'Harbour Road')))).toBeNull();
    expect(await scanned(slip.slice(0, 3))).toBeNull();
  });

  it('reads amounts OCR split or set apart ("RM 39. 80", a speck and "RM" before the tax), and a subtotal the others imply', async () => {
    // As Tesseract read a credit note from a Malaysian shop: a space after two decimal points, a
    // speck ("g") and a lone "RM" between the tax's label and its amount.
    const doc = await txt(['Lightroom Gallery Sdn Bhd', 'Item 1059 Square Black Frame        37.55', 'Sub 1 tal        RM 37.55', 'GST/TAX 6%        g        RM        2.25', 'TOTAL :        RM 39. 80', 'CASH        RM 39. 80']);
    for (const page of doc.pages) {
      page.ocr = true;
      for (const word of page.words) word.confidence = 90;
    }
    const output = (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
    // "Sub 1 tal" is no label OCR left readable: the subtotal is the printed 37.55 that total − tax implies.
    expect(output).toMatchObject({ total: 39.8, tax: 2.25, subtotal: 37.55 });
    // Typed text with a space after the point is no amount split by OCR.
    expect((await extract(['Acme Ltd', 'Total: 39. 80'])).total).toBe(39);
  });

  it('takes a subtotal and a tax whose total is unreadable when the tax is a standard rate of the subtotal, and not otherwise', async () => {
    // A tax summary's row, no rate printed: "SR  106.10  6.37".
    const slip = (tax: string) => scanned(['Kedai Runcit Ah Seng', 'GST Summary   Amount (RM)   Tax (RM)', `SR            106.10        ${tax}`, 'Total Incl GST: 1l2.4T', 'Thank you']);
    // 106.10 × 6% = 6.37: the two confirm each other.
    expect(await slip('6.37')).toMatchObject({ subtotal: 106.1, tax: 6.37, total: null });
    // 5.93 is no rate of 106.10: a summary's amount alone is too often another amount.
    expect((await slip('5.93')).subtotal).toBeNull();
    // A rate no country charges as standard counts where the document prints it: 200.00 × 8.25% = 16.50.
    const taxed = (rate: string) => scanned(['Kedai Runcit Ah Seng', 'Tax Summary   Amount   Tax', `SR @ ${rate}        200.00        16.50`, 'Total: 2l6.5O']);
    expect(await taxed('8.25%')).toMatchObject({ subtotal: 200, tax: 16.5 });
    expect((await taxed('8.5%')).subtotal).toBeNull();
  });

  it('takes the rounded total printed under a rounding adjustment, not the total before it', async () => {
    const receipt = (rounded: string) => ['Indah Gift & Home Deco', 'TOTAL        RM 60.31', 'ROUNDING ADJ.        -0.01', `RM ${rounded}`, 'CASH        RM 70.30', 'CHANGE        RM 10.00'];
    expect((await extract(receipt('60.30'))).total).toBe(60.3);
    // An amount under it that is not the total less its rounding (nor a whole number of 5 cents) is not it.
    expect((await extract(receipt('60.33'))).total).toBe(60.31);
  });

  it('reads no total from amounts whose dot before three digits may group thousands ("$12.700")', async () => {
    const invoice = (amounts: string[]) => extract(['Lars Peeters Contractor', 'INVOICE 1234', 'Initial Consultation  $900.00', ...amounts.map((a, i) => `Item ${i + 1}  ${a}`), 'SUBTOTAL  $12.700', 'TAX  $2.250', 'TOTAL  $14.950']);
    expect(await invoice(['$2.000', '$8.000', '$1.800'])).toMatchObject({ total: null, subtotal: null, tax: null });
    // One such amount alone in a document of cents is a decimal, as English prints it.
    expect((await extract(['Lars Peeters Contractor', 'INVOICE 1234', 'Consultation  $12.70', 'SUBTOTAL  $12.70', 'TAX  $2.25', 'TOTAL  $14.950'])).total).toBe(14.95);
  });

  it('adds a charge between subtotal, tax and total', async () => {
    // 150.00 + 15.00 + 9.90 = 174.90: the service charge is no tax, though charged at a rate too.
    expect(await scanned(['Restoran Makan Sedap', 'SUB TOTAL 150.00', 'SERVICE CHARGE 10% 15.00', 'GST 6% 9.90', 'NET TOTAL 174.90'])).toMatchObject({ subtotal: 150, tax: 9.9, total: 174.9 });
  });

  it('keeps amounts OCR read unsurely when they add up or the tax is at its rate, and leaves them null when nothing agrees', async () => {
    const scanned = async (total: string, tax = '3.63') => {
      const doc = await txt(['Geoventure Taste Of The World Sdn Bhd', 'Total Sales (Excluding GST)        RM 60.50', `GST 6%        RM ${tax}`, `TOTAL        RM ${total}`]);
      for (const page of doc.pages) {
        page.ocr = true;
        // Tesseract unsure of every amount (a thermal slip), sure of the labels.
        for (const word of page.words) word.confidence = /\d\.\d\d/.test(word.text) ? 50 : 90;
      }
      return (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
    };
    expect(await scanned('64.15')).toMatchObject({ subtotal: 60.5, tax: 3.63, total: 64.15 });
    // The total misread: the tax is still 6% of the subtotal, which confirms those two.
    expect(await scanned('69.15')).toMatchObject({ subtotal: 60.5, tax: 3.63, total: null });
    // Nothing agrees: all three left null.
    expect(await scanned('69.15', '3.71')).toMatchObject({ subtotal: null, tax: null, total: null });
  });

  it('reasons across amounts: no tax above its base, a tax summary\'s tax row and not its total, no house number for a document number', async () => {
    // "TAX AMT (S) 6%" prints the base taxed at 6%, under a tax's label: no tax is more than its base,
    // so 13.30 is no tax with 0.80 its base (those two add up to the total the wrong way round).
    const swapped = await extract(['Sam Sam Trading Co', 'TAX AMT (S) 6%        RM 13.30', 'GST 6%        RM 0.80', 'TOTAL        RM 14.10']);
    expect(swapped.total).toBe(14.1);
    expect([swapped.subtotal, swapped.tax]).not.toEqual([0.8, 13.3]);
    expect(swapped.subtotal).not.toBe(0.8);
    // A service charge's row of a tax summary is no tax; its "Total" row sums the summary, not the bill.
    const bistro = await extract(['Three Stooges Bistro', 'SUB TOTAL        150.00', 'NET TOTAL        174.90', 'Tax Summary        Amount        Tax', 'SVC SERVICE CHARGE 10        150.00        15.00', 'SR GST 6%        166.00        9.90', 'Total        316.00        24.90']);
    expect(bistro).toMatchObject({ tax: 9.9, total: 174.9 });
    // "No: 28, Jalan Astana 1C" numbers a house.
    expect((await extract(['Lightroom Gallery Sdn Bhd', 'No: 28, Jalan Astana 1C,', 'Total: 39.80'])).invoice_number).toBeNull();
    expect((await extract(['Lightroom Gallery Sdn Bhd', 'No: 28', 'Total: 39.80'])).invoice_number).toBe('28');
  });

  it('takes no issuer from under the title when a name is printed above it, nor a name left with an open bracket', async () => {
    // An unlabelled bill-to block under "Tax Invoice": the company with a legal form there is the customer.
    const painter = await extract(['ABC Painting & Renovators', '1/131 Springvale Road, Glen Waverley', 'Tax Invoice', 'As Interior Design Co        Invoice No# IN1008', 'Total Before Tax $1,050.00']);
    expect(painter.vendor_name).not.toBe('As Interior Design Co');
    // With nothing above the title, the name under it is the issuer's.
    expect((await extract(['Tax Invoice', 'Contoso Engineering Ltd', 'Total: 42.00'])).vendor_name).toBe('Contoso Engineering Ltd');
    expect((await extract(['ISE (SETIA SDN BHD', 'No. 17-G, Jalan Setia Indah', 'Total: 5.00'])).vendor_name).toBeNull();
    expect((await extract(['ISE (SETIA) SDN BHD', 'No. 17-G, Jalan Setia Indah', 'Total: 5.00'])).vendor_name).toBe('ISE (SETIA) SDN BHD');
  });

  it('reads the letterhead under a logo OCR read as noise', async () => {
    const doc = await txt(['Aap dick', 'PERNIAGAAN ZHENG HUI', 'NO.59 JALAN PERMAS 9/5', 'Total: 112.45']);
    for (const page of doc.pages) {
      page.ocr = true;
      for (const word of page.words) word.confidence = word.text === 'Aap' ? 12 : word.text === 'dick' ? 53 : 92;
    }
    const output = (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(output.vendor_name).toBe('PERNIAGAAN ZHENG HUI');
  });

  it.skipIf(!corpusAvailable())('joins no name read in a picture to the heading printed as text beside it', async () => {
    // documents/invoice/factura5.pdf: the seller's name is in the picture of a printed form (read by
    // OCR: ../../documents/pictures.ts); the invoice's type letter "A" and its title "FACTURA" are
    // printed as text at the same height. "FORTIN FIERROS A" is no name, nor anything with "FACTURA".
    // (How the page's lines group these words is the layout's business: it changed when the picture's
    // words' boxes moved by a tenth of a point, so it is not asserted here.)
    const doc = await corpusDoc('documents/invoice/factura5.pdf');
    const word = (text: string) => doc.pages[0]!.words.find((w) => w.text === text && w.box!.top < 90)!;
    expect(['FORTIN', 'FIERROS', 'A', 'FACTURA'].map((text) => word(text).confidence !== undefined)).toEqual([true, true, false, false]);
    // The name and the heading overlap in height: one line of the page to the eye.
    const [name, heading] = [word('FORTIN').box!, word('FACTURA').box!];
    expect(name.top).toBeLessThan(heading.top + heading.height);
    expect(heading.top).toBeLessThan(name.top + name.height);
    const output = (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(output.vendor_name ?? '').not.toMatch(/\bA$|FACTURA/);
  }, 120_000);

  it('reads a faded "No" OCR read as "ND" after a label word as the number\'s label, and "to" never', async () => {
    const receipt = (label: string) => scanned(['99 Speed Mart Sdn Bhd', `${label} :        18287/102/T0049`, 'Total Sales (Inclusive GST) RM 2.50']);
    expect((await receipt('INVOICE ND')).invoice_number).toBe('18287/102/T0049');
    expect((await receipt('INVOICE TO')).invoice_number).toBeNull();
  });

  it('reads "Do: No" on a scan as "Doc No" (a letter lost), and "RO Number" as it is printed', async () => {
    expect((await scanned(['ASIA MART', 'Do: No     CS02070163     Date: 21/12/2017', 'Total: 9.90'])).invoice_number).toBe('CS02070163');
    // "RO" is a label word of its own ("Repair Order Number"), not a misread "ROC" (a company's registration).
    expect((await scanned(['Estimate of Record', 'RO Number: 24540', 'Total: 9.90'])).invoice_number).toBe('24540');
  });

  it('takes the number under a weak label naming a number ("Claim #") when no strong label is printed, and not otherwise', async () => {
    // (Scanned, as such estimates come: what OCR read at 90 is a little less sure.)
    const estimate = ['GREEN TOWNSHIP COLLISION', '5191 Crookshank, Cincinnati, OH 45238', 'Preliminary Estimate', 'Claim #:     111112222', 'Total: 1,020.00'];
    expect((await scanned(estimate)).invoice_number).toBe('111112222');
    expect((await scanned([...estimate.slice(0, 3), 'Estimate No:     E-4471', ...estimate.slice(3)])).invoice_number).toBe('E-4471');
    // A legend's word ("EST=ESTIMATE") labels nothing; a weak label without a number word ("BILL 18550") is not promoted.
    expect((await scanned([...estimate, 'Legend: EST=ESTIMATE, REPL=REPLACE'])).invoice_number).toBe('111112222');
    expect((await scanned(['GREEN TOWNSHIP COLLISION', 'BILL 18550', 'Total: 1,020.00'])).invoice_number).toBeNull();
  });

  it('takes the first name of the page over its address as the issuer (a letterhead block), but not a name with more on its line', async () => {
    // Lines printed one under the other, each [text, font size].
    const printed = async (lines: Array<[string, number]>) => {
      const pdf = await PDFDocument.create();
      const font = await pdf.embedFont(StandardFonts.Helvetica);
      const page = pdf.addPage([612, 792]);
      let y = 60;
      for (const [text, size] of lines) page.drawText(text, { x: 72, y: 792 - (y += size * 1.8), size, font });
      const doc = await readDocument(await pdf.save(), { kind: 'pdf', dpi: 72, deadline: Date.now() + 20_000 });
      // The reading's choice (the learned likelihood may leave a name without a legal form null).
      return extractWith({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' }, { model: null }).output;
    };
    // A plain name a little larger than the text, over its street, the title further down: the issuer, though it has no legal form.
    const estimate: Array<[string, number]> = [['5191 Crookshank, Cincinnati, OH 45238', 9], ['Phone: (513) 347-7800', 9], ['Preliminary Estimate', 10], ['Customer: Smith, Joe', 9], ['Total: 1,020.00', 9]];
    expect((await printed([['GREEN TOWNSHIP COLLISION', 11], ...estimate])).vendor_name).toBe('GREEN TOWNSHIP COLLISION');
    // The same name over a line that is no address is not sure enough.
    expect((await printed([['GREEN TOWNSHIP COLLISION', 11], ['Collision repair and paint since 1982', 9], ...estimate.slice(2)])).vendor_name).toBeNull();
    // A German street ("Allee") is an address: the name is the line above it alone.
    expect((await extract(['INVOICE', 'Elite auto care', 'Prenzlaur Allee 22', '04347 Leipzig', 'Total: 42.00'])).vendor_name).toBe('Elite auto care');
    // The name shares its line with an address: no block of its own.
    expect((await extract(['TED HEN   NO. 63, JALAN STATVERY', 'TEL : 03-3271 9872', 'Total: 9.90'])).vendor_name).toBeNull();
  });

  it('reads the number printed after the document\'s title, but not after an order\'s or a bill\'s, nor an amount', async () => {
    const number = async (lines: string[]) => (await extractWith({ doc: await txt(lines), schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' }, { model: null })).output.invoice_number;
    expect(await number(['Au bon moulin SARL', 'Facture FA-2017-0009', 'Total TTC 120,00 €'])).toBe('FA-2017-0009');
    expect(await number(['Lieferant GmbH', 'Gutschrift (Selbst ausgestellte Rechnung) Nr. 471102', 'Gesamtbetrag 42,00'])).toBe('471102');
    expect(await number(['Acme Ltd', 'Receipt 18550 - 389 - 4768', 'Total 9.00'])).toBe('18550 - 389 - 4768');
    // An order's number on an invoice is the order's; a bill's is often another number; an amount is none.
    expect(await number(['Acme Ltd', 'Order 4711', 'Total 9.00'])).toBeNull();
    expect(await number(['Acme Ltd', 'BILL 18550', 'Total 9.00'])).toBeNull();
    expect(await number(['FATTURA 0,00TOTALE', 'Totale 9,00'])).toBeNull();
    // A short number needs a number word: "Invoice 12" may count pages or copies.
    expect(await number(['Acme Ltd', 'Invoice 12', 'Total 9.00'])).toBeNull();
    expect(await number(['Acme Ltd', 'Rechnung Nr. 42', 'Total 9.00'])).toBe('42');
  });

  it('takes the issuer from the sender\'s line over the address window, and the recipient from under it', async () => {
    const letter = (sender: string) => extract([sender, 'Herr', 'Karl E. Coyote', 'Uferstraße 113', '88045 Friedrichshafen', 'Rechnungsdatum: 31.01.2014', 'Gesamtbetrag: 119,00 EUR']);
    const out = await letter('Hetzner Online GmbH • Industriestr. 25 • 91710 Gunzenhausen');
    expect(out.vendor_name).toBe('Hetzner Online GmbH');
    expect(out.customer_name).toBe('Karl E. Coyote');
    // The recipient is never the issuer, though its name has a legal form.
    const window = await extract(['weclapp.com | Somestreet 42 | 08155 Some city', 'Beispiel AG', 'Feldstraße 34', '54321 Hithausen', 'Rechnung RE1001', 'Endsumme 963,12 €']);
    expect(window.customer_name).toBe('Beispiel AG');
    expect(window.vendor_name).not.toBe('Beispiel AG');
    // A receipt's address line (parts between commas, no smaller print) heads no recipient.
    const receipt = await extract(['SYL ROASTED DELIGHTS SDN BHD', 'No. 12, Jalan Astana, 41000 Klang', 'Taman Daya', 'Total: 9.90']);
    expect(receipt.customer_name).toBeNull();
  });

  it('finds the recipient under the sender\'s line past the letterhead\'s column read in between, and an address block printed with no label', async () => {
    // The letterhead's address at the right is read between the sender's line and the window's block.
    const letterhead: Array<[number, number, string]> = [
      [270, 30, 'Kraxi GmbH'],
      [55, 142, 'Kraxi GmbH · Flugzeugallee 17 · 12345 Papierfeld'],
      [455, 152, 'Flugzeugallee 17'],
      [455, 164, '12345 Papierfeld'],
      [455, 176, 'Tel. (0123) 4567'],
      [455, 188, 'info@kraxi.com'],
    ];
    const window: Array<[number, number, string]> = [
      [55, 200, 'Papierflieger-Vertriebs-GmbH'],
      [55, 213, 'Rabattstr. 25'],
      [55, 226, '34567 Osterhausen'],
    ];
    const totals: Array<[number, number, string]> = [[55, 260, 'Rechnungsnummer: 2014-03'], [55, 500, 'Gesamtbetrag: 119,00 EUR']];
    expect((await placed([...letterhead, ...window, ...totals])).customer_name).toBe('Papierflieger-Vertriebs-GmbH');
    // A line far below the sender's line is no recipient of it (close under it, the same line is).
    const attention = (y: number): Array<[number, number, string]> => [[55, y, 'Papierflieger-Vertriebs-GmbH'], [55, y + 13, 'Abteilung Einkauf']];
    expect((await placed([...letterhead, ...attention(200), ...totals])).customer_name).toBe('Papierflieger-Vertriebs-GmbH');
    expect((await placed([...letterhead, ...attention(360), ...totals])).customer_name).toBeNull();

    // No label: the block under the title, a name over a street and a postcode. The block under
    // "Delivery Address" is that label's; the issuer's own block is on the page's first lines.
    const issuer: Array<[number, number, string]> = [
      [40, 30, 'Au bon moulin SARL'],
      [40, 42, "1242 chemin de l'olive"],
      [40, 54, '84340 Malaucène'],
      [40, 92, 'Invoice FA-2017-0008'],
    ];
    const delivery: Array<[number, number, string]> = [
      [40, 123, 'Delivery Address'],
      [40, 137, 'Me gusta olive'],
      [40, 149, '87 camino de la calor'],
      [40, 161, '41700 Dos Hermanas'],
    ];
    const billed: Array<[number, number, string]> = [
      [330, 133, 'Me gusta olive'],
      [330, 145, 'Pedro Sanchez'],
      [330, 157, '87 camino de la calor'],
      [330, 169, '41700 Dos Hermanas'],
    ];
    const invoiceTotals: Array<[number, number, string]> = [[40, 500, 'Total 120.00 EUR']];
    const out = await placed([...issuer, ...delivery, ...billed, ...invoiceTotals]);
    expect(out.customer_name).toBe('Me gusta olive');
    expect(out.vendor_name).toBe('Au bon moulin SARL');
    // An accented letter is a letter: "Hôtel" holds no contact word "tel".
    const hotel = billed.map(([x, y, text]): [number, number, string] => [x, y, text === 'Me gusta olive' ? 'Hôtel Saint Denis' : text]);
    expect((await placed([...issuer, ...hotel, ...invoiceTotals])).customer_name).toBe('Hôtel Saint Denis');
    // Two blocks with no label, neither the issuer's: which is the recipient is not told.
    const other: Array<[number, number, string]> = [
      [40, 133, 'Olivar del Sur SL'],
      [40, 145, 'Calle Mayor 3'],
      [40, 157, '41001 Sevilla'],
    ];
    expect((await placed([...issuer, ...other, ...billed, ...invoiceTotals])).customer_name).toBeNull();

    // The window's block printed first, under the title and no address, the issuer's own name over its
    // address at the right (the name its e-mail spells): the block on the left is the recipient.
    // Without the issuer's block beside it, a name over an address at the top is the issuer's own (a
    // receipt's store), no recipient.
    const titled: Array<[number, number, string]> = [[57, 32, 'Invoice 103767'], [57, 59, 'February 17, 2026']];
    const recipient: Array<[number, number, string]> = [[57, 112, 'Adatum Corporation'], [57, 127, 'Station Road, 21'], [57, 141, '48436 Düsseldorf']];
    const company: Array<[number, number, string]> = [[470, 112, 'CRONUS DE'], [470, 127, 'Hofstraße 12'], [470, 141, '20097 Hamburg'], [439, 747, 'info@cronus.com']];
    const side = await placed([...titled, ...recipient, ...company, [348, 489, 'Total € Incl. VAT 681.87']]);
    expect(side.customer_name).toBe('Adatum Corporation');
    expect(side.vendor_name).not.toBe('Adatum Corporation');
    expect((await placed([...titled, ...recipient, [348, 489, 'Total € Incl. VAT 681.87']])).customer_name).toBeNull();
    // Nor when the issuer's name heads no address of its own (a name beside the title): the block on
    // the left may then be the issuer's own address, and which party it is is not told.
    const named = await placed([...titled, [470, 32, 'CRONUS DE'], ...recipient, [439, 747, 'info@cronus.com'], [348, 489, 'Total € Incl. VAT 681.87']]);
    expect(named.customer_name).toBeNull();
  });

  it('reads a label printed as alternatives split by a slash as either one ("Käufer/Leistungsempfänger:")', async () => {
    const buyer = (heading: string) => extract(['Gutschrift Nr. 471102', 'Verkäufer:', 'Lieferant GmbH', 'Lieferantenstraße 20', heading, 'Nummer : GE2020211', 'Kunden AG Mitte', 'Kundenstraße 15', 'Gesamtbetrag: 42,00 EUR']);
    expect((await buyer('Käufer/Leistungsempfänger:')).customer_name).toBe('Kunden AG Mitte');
    expect((await buyer('Leistungsempfänger:')).customer_name).toBe('Kunden AG Mitte');
  });

  it('reads the name under a party block\'s first line when that line is an identifier ("Käufer" over "GLN 4304171000002" over the name)', async () => {
    const parties = (buyer: Array<[number, number, string]>) =>
      placed([[40, 63, 'Lieferant'], [40, 72, 'GLN 4333741000005'], [40, 81, 'MUSTERLIEFERANT GMBH'], [40, 102, 'BAHNHOFSTRASSE 99'], [40, 111, '99199 MUSTERHAUSEN'], ...buyer, [366, 63, 'WARENRECHNUNG'], [366, 84, 'Beleg-Nr : R87654321012345'], [366, 500, 'Gesamtbetrag 119,00']]);
    const block: Array<[number, number, string]> = [[210, 63, 'Käufer'], [210, 72, 'GLN 4304171000002'], [210, 81, 'MUSTER-KUNDE GMBH'], [210, 102, 'KUNDENWEG 88'], [210, 111, '40235 DUESSELDORF']];
    expect((await parties(block)).customer_name).toBe('MUSTER-KUNDE GMBH');
    // Only one line is passed over: two identifier lines, and the name is too far from its label.
    const twice: Array<[number, number, string]> = [[210, 63, 'Käufer'], [210, 72, 'GLN 4304171000002'], [210, 81, 'ILN 4304171000099'], [210, 90, 'MUSTER-KUNDE GMBH'], [210, 102, 'KUNDENWEG 88']];
    expect((await parties(twice)).customer_name).not.toBe('MUSTER-KUNDE GMBH');
  });

  it('reads German totals ("Rechnungssumme netto/brutto", "zuzüglich MwSt."), an Argentine "Comp. Nro", a street written as one word, and a name with a small title word in it', async () => {
    const kraxi = await extract(['Kraxi GmbH', 'Rechnung 2014-03', 'Rechnungssumme netto 845,00', 'zuzüglich 19% MwSt. 160,55', 'Rechnungssumme brutto 1.005,55']);
    expect(kraxi).toMatchObject({ subtotal: 845, tax: 160.55, total: 1005.55 });
    expect((await extract(['Acme Ltd', 'Rechnungssumme ohne USt. 858,75', 'Steuerbetrag 163,16', 'Bruttosumme 1.021,91'])).subtotal).toBe(858.75);
    // "Summe gesamt": the sum, in total.
    expect((await extract(['Acme GmbH', 'Rechnung 17', 'Gesamtbeträge Netto EUR MwSt. EUR Brutto EUR', '19,00% MwSt.: 376,37 71,51 447,88', 'Summe gesamt 447,88'])).total).toBe(447.88);
    expect((await extract(['MARCIO Y AGUSTIN ADDAMO', 'FACTURA', 'Punto de Venta: 00003 Comp. Nro: 00001475', 'Total: 44000,00'])).invoice_number).toBe('00001475');
    // "Waldstrasse 86" is an address: the line is a sender's, its name the issuer.
    expect((await extract(['Acme Werkzeuge GmbH · Waldstrasse 86 · Berlin', 'Herr', 'Karl Coyote', 'Rechnung R-1', 'Gesamtbetrag: 42,00 EUR'])).vendor_name).toBe('Acme Werkzeuge GmbH');
    // "bon" in lower case inside a name is no title ("Bon de commande") ending it.
    expect((await extract(['Au bon moulin SARL - 1242 chemin de l\'olive - 84340 Malaucène - France', 'Facture FA-2017-0009', 'Total TTC 120,00 €'])).vendor_name).toBe('Au bon moulin SARL');
  });

  it('reads a letter\'s dateline ("München, den 01.11.2024") as the document\'s date, not a date after a word alone', async () => {
    expect((await extract(['Muster GmbH', 'Rechnung R-17', 'München, den 01.11.2024', 'Finanzrate vom 01.11.2024 bis 30.11.2024', 'Datum: 30.10.2024 Zeit: 04:59:13', 'Gesamtbetrag: 119,00 EUR'])).invoice_date).toBe('2024-11-01');
    expect((await extract(['Au bon moulin SARL', 'Facture FA-17', 'Paris, le 05/11/2017', 'Total TTC 120,00 €'])).invoice_date).toBe('2017-11-05');
    // "den" after no place and comma is an article.
    expect((await extract(['Muster GmbH', 'Rechnung R-17', 'Bitte überweisen Sie den 01.11.2024 fälligen Betrag', 'Rechnungsdatum: 30.10.2024', 'Gesamtbetrag: 119,00 EUR'])).invoice_date).toBe('2024-10-30');
  });

  it('reads a party\'s name under a name label in the block its heading opens', async () => {
    const out = await extract(['Handelsrechnung', 'Verkäufer', 'Nummer: 12345676', 'Name: Rohstoff AG Salzgitter', 'Anschrift: Marktstr. 153', 'Käufer', 'Nummer: 75969813', 'Name: Metallbau Leipzig GmbH & Co. KG', 'Gesamtbetrag: 119,00 EUR']);
    expect(out.vendor_name).toBe('Rohstoff AG Salzgitter');
    expect(out.customer_name).toBe('Metallbau Leipzig GmbH & Co. KG');
    // A heading that speaks of the party ("Informations sur l'acheteur") opens its block too, its
    // name label's value on the next line.
    const french = await extract(['Aperçu de la facture', "Informations sur l'acheteur", 'Nom:', 'Theodor Est', 'Code postal:', '88802', 'Contact', 'Nom:', 'Téléphone:', 'Informations sur le vendeur', 'Nom de la société:', 'Bei Spiel GmbH', 'Total de toutes les lignes', '119,00']);
    expect(french).toMatchObject({ vendor_name: 'Bei Spiel GmbH', customer_name: 'Theodor Est' });
    // A line of "label: value" under a party's label names no one ("Globale Nummer: …" is no name "Globale").
    const gtin = await extractWith({ doc: await txt(['Gutschrift Nr. 471102', 'Verkäufer:', 'Globale Nummer: 4000001123452 (GTIN)', 'Gesamtbetrag: 529,87 EUR']), schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' }, { model: null });
    expect(gtin.output.vendor_name).not.toBe('Globale');
    // Without a name label, the block's first line past its "label: value" lines, where it reads as a
    // name ("Lieferant GmbH" holds a supplier's label but is a name, no heading) …
    const block = async (lines: string[]) => {
      // (As a ZUGFeRD viewer prints it: the title on top, the seller's block further down.)
      const texts = ['Verkäufer:', 'Globale Nummer: 4000001123452 (GTIN)', ...lines].map((text, i): [number, number, string] => [50, 300 + 12 * i, text]);
      return placed([[50, 100, 'Gutschrift Nr. 471102'], [50, 116, 'vom 05.03.2018'], ...texts, [50, 600, 'Gesamtbetrag: 529,87 EUR']]);
    };
    expect((await block(['Lieferant GmbH', 'Lieferantenstraße 20', 'DE 80333 München'])).vendor_name).toBe('Lieferant GmbH');
    // … and not a line further down when the first reads as none (an address, a sentence, a placeholder).
    expect((await block(['Lieferantenstraße 20', 'Deutschland'])).vendor_name).toBeNull();
    expect((await block(['ou des n° courts, appels ou SMS de vote ou', 'Deutschland'])).vendor_name).toBeNull();
    expect((await block(['SELLER_ADDR_1', 'Deutschland'])).vendor_name).toBeNull();
    expect((await block(['MON ADRESSE LIGNE 1', 'Deutschland'])).vendor_name).toBeNull();
  });

  it('reads the date after the title\'s number ("Handelsrechnung Nr. 47110815 vom 01.12.2025", or "vom …" under it), not an order\'s date in a sentence', async () => {
    const out = await extract(['Stylesheet-Version: 2.6 vom 10.11.2025', 'Handelsrechnung (380) Nr. 47110815 vom 01.12.2025 - RECHNUNG', 'Gesamtbetrag: 119,00 EUR']);
    expect(out.invoice_date).toBe('2025-12-01');
    expect(out.invoice_number).toBe('47110815');
    const under = await extract(['Gutschrift (Selbst ausgestellte Rechnung) Nr. 471102', 'vom 05.03.2018', 'Gesamtbetrag: 119,00 EUR', 'Rechnung gemäß Bestellung vom 01.03.2018.']);
    expect(under.invoice_date).toBe('2018-03-05');
    // A date alone on the line under the title dates the document; a line that only begins with one does not.
    // (An item's shipment date under its column's "Date" is no date of the document.)
    const items = { columns: [40, 110, 290, 410, 500], rows: [290, 306, 322] };
    const page = await ruledPage(
      [[50, 40, 'Invoice 103767'], [50, 56, 'February 17, 2026'], [50, 72, 'Page 1 / 1'], ...inCells(items, [['No.', 'Description', 'Date', 'Quantity'], ['1908-S', 'Chair, blue', '02/18/26', '3']]), [380, 400, 'Total Incl. VAT'], [520, 400, '681.87']],
      [items],
    );
    const alone = (await localExtractor.extract({ doc: page, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(alone.invoice_date).toBe('2026-02-17');
    const inSentence = await extract(['Invoice 103767', 'February 17, 2026 is the day we shipped your order', 'Total € Incl. VAT  681.87']);
    expect(inSentence.invoice_date).not.toBe('2026-02-17');
  });

  it('reads a party\'s heading over its name ("Leverancier" over "Lev Erancier Inc") as no part of the name', async () => {
    expect((await extract(['Factuur', 'Factuurnummer: INV12345', 'Leverancier', 'Lev Erancier Inc', 'Totaal: 663,00 EUR'])).vendor_name).toBe('Lev Erancier Inc');
  });

  it('reads the due date a payment term\'s sentence gives after an "until" word, not a discount\'s deadline', async () => {
    const due = async (term: string[]) => (await extract(['Muster GmbH', 'Rechnung R-17', 'Rechnungsdatum: 01.03.2018', ...term, 'Gesamtbetrag: 119,00 EUR'])).due_date;
    expect(await due(['Zahlbar innerhalb 30 Tagen netto bis 04.04.2018, 3%'])).toBe('2018-04-04');
    expect(await due(['Zahlbar mit 2% Skonto bis 14.03.2018', 'Zahlbar ohne Abschlag bis 31.03.2018'])).toBe('2018-03-31');
    expect(await due(['Zahlbar mit 2% Skonto bis 14.03.2018'])).toBeNull();
    expect(await due(['Payable within 30 days, by 04/04/2018'])).toBe('2018-04-04');
    expect(await due(['Zahlbar bis zum 04.04.2018 ohne Abzug'])).toBe('2018-04-04');
    // A date after "bis" in a line that pays nothing is no due date ("Leistungszeitraum 01.03. bis 31.03.2018").
    expect(await due(['Leistungszeitraum 01.03.2018 bis 31.03.2018'])).toBeNull();
  });

  it('reads a tax table\'s amounts from the row that sums its rates\' rows, never a totals block\'s next row', async () => {
    const row = (y: number, cells: string[]): Array<[number, number, string]> => cells.map((text, i) => [60 + 110 * i, y, text]);
    const table = [
      ...row(400, ['Nettobetrag', 'MwSt-Betrag', 'MwSt-%', 'Endbetrag']),
      ...row(414, ['321,40', '61,07', '19,0', '382,47']),
      ...row(426, ['127,59', '8,93', '7,0', '136,52']),
      ...row(446, ['448,99', '70,00', 'EUR', '518,99']),
    ];
    const out = await placed([[60, 60, 'Musterlieferant GmbH'], [60, 100, 'Rechnung R-17'], ...table]);
    expect(out).toMatchObject({ subtotal: 448.99, tax: 70, total: 518.99 });
    // In a block of totals every row has its label: the subtotal's next rows are no rows of its column.
    const block = [...row(400, ['Subtotal', '100.00']), ...row(414, ['Tax', '19.00']), ...row(428, ['Total', '119.00'])];
    expect(await placed([[60, 60, 'Acme Ltd'], [60, 100, 'Invoice 17'], ...block])).toMatchObject({ subtotal: 100, tax: 19, total: 119 });
  });

  it('reads the customer after an accounting label ("Debiteur", the debtor billed), and the issuer after its counterpart ("Crediteur", the creditor paid)', async () => {
    expect((await extract(['Factuur', 'Factuurnummer: INV12345', 'Debiteur: Cust Omer BV', 'Totaal: 663,00 EUR'])).customer_name).toBe('Cust Omer BV');
    const both = await extract(['Factuur', 'Factuurnummer: INV12345', 'Crediteur: Lev Erancier Inc', 'Debiteur: Cust Omer BV', 'Totaal: 663,00 EUR']);
    expect(both).toMatchObject({ vendor_name: 'Lev Erancier Inc', customer_name: 'Cust Omer BV' });
  });

  it('reads the total from what was paid less the change, where it is printed and the total\'s own amount is not', async () => {
    const bar = ['BREWERY BAR', 'Description   Qty   U. price   Total', '2 x 95.00   190.00', 'TOTAL:', 'CASH   200.00', 'CHANGE :   10.00'];
    expect((await scanned(bar)).total).toBe(190);
    // Nothing printed equals it: no total.
    expect((await scanned(bar.map((l) => l.replace('190.00', '')))).total).toBeNull();
  });

  it('takes the rounded amount paid as the total a rounding away, where it is printed', async () => {
    // "32.69" under "Total" (the amount before rounding), the rounded total 32.70 under a label OCR
    // garbled, paid in cash.
    const rounded = ['ASIA MART', 'Total : 32.69', 'Tutal S als (nlusiv ofS) : 32.70', 'CASH : 40.00', 'Change : 7.30'];
    expect((await scanned(rounded)).total).toBe(32.7);
    // The rounded amount is not printed: the total as labelled.
    expect((await scanned(rounded.filter((l) => !l.includes('32.70')))).total).toBe(32.69);
  });

  it('reads a misread number word ("nunber") as one, and no number of one character under a weak label, or run into a street, as the document\'s', async () => {
    expect((await scanned(['SHELL STATION', 'Invoice nunber 60000053668', 'Total 99.00'])).invoice_number).toBe('60000053668');
    expect((await scanned(['GEOVENTURE SDN BHD', 'POS No: 1   Pax: 0', 'Total 64.15'])).invoice_number).toBeNull();
    expect((await scanned(['GEOVENTURE SDN BHD', 'Invoice No: 7', 'Total 64.15'])).invoice_number).toBe('7');
    expect((await scanned(['LIGHTROOM GALLERY', 'No: 28,JALAN ASTANA 1C,', 'Total 39.80'])).invoice_number).toBeNull();
  });

  it('takes no tax of half its base or more: a total OCR read under a tax\'s label is none', async () => {
    const receipt = (tax: string) => extract(['YONGFATT ENTERPRISE', 'Total Sales (Excluding GST) 80.91', `Total Salss (Inclusiv of GST) : ${tax}`]);
    expect((await receipt('80.90')).tax).toBeNull();
    expect((await receipt('4.85')).tax).toBe(4.85);
  });

  it('takes a tax included in the total at the rate printed on its line, and not one the rate does not make', async () => {
    const receipt = (taxLine: string) => extract(["McDonald's Taman Melawati", 'QTY ITEM TOTAL', '2 ChicMcMuffin 11.00', '1 M Porridge 5.60', '1 BM 2HotCakes 10.00', 'TakeOut Total (incl GST) 26.60', 'Cash Tendered 100.00', 'Change 73.40', taxLine]);
    expect((await receipt('TOTAL INCLUDES 6% GST 1.51')).tax).toBe(1.51);
    // 1.51 is no 10% of 25.09: read only as surely as its label says.
    expect((await receipt('TOTAL INCLUDES 10% GST 1.51')).tax).toBeNull();
  });

  it('reads the customer under "Patient details", and a business named by its first word ("Perniagaan …", "Restoran …")', async () => {
    const bill = await extract(['Apollo Hospitals', 'INPATIENT BILL', 'PATIENT DETAILS', 'Saravana kumar V', 'A2 Nagesan nagar', 'Bill No. : ICR33504', 'Bill Amount 15,143.54']);
    expect(bill.customer_name).toBe('Saravana kumar V');
    const receipt = await extract(['PERNIAGAAN ZHENG HUI', 'NO.59 JALAN PERMAS 9/5', '81760 JOHOR BAHRU', 'Total: 112.46']);
    expect(receipt.vendor_name).toBe('PERNIAGAAN ZHENG HUI');
    // A customer's phone number printed after the name is no part of it.
    expect((await extract(['Lightroom Gallery Sdn Bhd', 'Name : ESWARAN 012-6369400', 'Total RM 39.80'])).customer_name).toBe('ESWARAN');
  });

  it('takes no document date from under an item table\'s "Date" column, but from under a header block\'s', async () => {
    // Text placed in columns, as a statement prints it: [x, y, text] from the top left.
    const laidOut = async (items: Array<[number, number, string]>) => {
      const pdf = await PDFDocument.create();
      const font = await pdf.embedFont(StandardFonts.Helvetica);
      const page = pdf.addPage([612, 792]);
      for (const [x, y, text] of items) page.drawText(text, { x, y: 792 - y, size: 10, font });
      const doc = await readDocument(await pdf.save(), { kind: 'pdf', dpi: 72, deadline: Date.now() + 20_000 });
      return (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output;
    };
    const statement = await laidOut([
      [72, 72, 'Acme Hospital'], [72, 100, 'Statement Date:'], [72, 114, 'Patient: John Doe'],
      [72, 160, 'Date'], [150, 160, 'Description'], [450, 160, 'Amount'],
      [72, 174, '03/30/22'], [150, 174, 'Blue Cross insurance payment'], [450, 174, '-1,571.91'],
      [72, 200, 'Patient balance'], [450, 200, '961.09'],
    ]);
    expect(statement.invoice_date).toBeNull();
    const invoice = await laidOut([
      [72, 72, 'Acme Hospital'], [300, 100, 'Invoice No'], [400, 100, 'Date'], [300, 114, '1234'], [400, 114, '03/30/22'],
      [72, 160, 'Description'], [450, 160, 'Amount'], [72, 174, 'Lab work'], [450, 174, '961.09'],
    ]);
    expect(invoice.invoice_date).toBe('2022-03-30');
  });

  it('reads an item table whose header OCR read with a rule as "|", and counts printed close to their descriptions', async () => {
    const ITEMS: JsonSchema = {
      type: 'object',
      properties: {
        line_items: {
          type: 'array',
          items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, unit_price: { type: 'number' }, amount: { type: 'number' } } },
        },
      },
    };
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([612, 792]);
    // [x, y from the top, text]: a description printed a space after its count falls mostly under the count's header.
    const printed: Array<[number, number, string]> = [
      [72, 72, 'Amnosh Suppliers'],
      [72, 160, 'Quantity'], [200, 160, 'Description'], [380, 160, 'Price Each'], [436, 160, '|'], [444, 160, 'Amount'],
      [72, 174, '3'], [120, 174, 'Drag Series Transmission Build'], [380, 174, '1,129.03'], [444, 174, '3,387.09'],
      [72, 188, '2 Drive Shaft Automatic Right'], [380, 188, '243.01'], [444, 188, '486.02'],
      [72, 214, 'Subtotal'], [444, 214, '3,873.11'],
    ];
    for (const [x, y, text] of printed) page.drawText(text, { x, y: 792 - y, size: 10, font });
    const doc = await readDocument(await pdf.save(), { kind: 'pdf', dpi: 72, deadline: Date.now() + 20_000 });
    const output = (await localExtractor.extract({ doc, schema: ITEMS, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(output.line_items).toEqual([
      { description: 'Drag Series Transmission Build', quantity: 3, unit_price: 1129.03, amount: 3387.09 },
      { description: 'Drive Shaft Automatic Right', quantity: 2, unit_price: 243.01, amount: 486.02 },
    ]);
  });

  it('reads descriptions from under a header naming the count and the item together ("QTY ITEM")', async () => {
    const ITEMS: JsonSchema = {
      type: 'object',
      properties: { line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } } } } },
    };
    // As a fast-food till prints it: the count and the item's name in one column, the total far right.
    const output = await extract(['Gerbang Alaf Restaurants Sdn Bhd', 'QTY ITEM                                TOTAL', '2 ChicMcMuffin                          11.00', '1 M Porridge                             5.60', 'Total (incl GST)                        16.60'], ITEMS);
    expect(output.line_items).toEqual([
      { description: 'ChicMcMuffin', quantity: 2, amount: 11 },
      { description: 'M Porridge', quantity: 1, amount: 5.6 },
    ]);
  });

  it('reads each item\'s name printed under its code and figures across the columns, and no "TotalQty" line as an item', async () => {
    // The names start under the code and run under the count and the prices (a hardware shop's till).
    const output = await extract(
      ['Soon Huat Machinery', 'Item      Qty      S/Price      Amount', '1072      1        80.00        80.00', 'REPAIR ENGINE POWER SPRAYER (1UNIT)', '70561     2        18.00        36.00', '          HD40 1L COTIN', 'TotalQty 3 : 116.00', 'Total Sales : 116.00'],
      ITEMS,
    );
    expect(output.line_items).toEqual([
      { description: 'REPAIR ENGINE POWER SPRAYER (1UNIT)', quantity: 1, amount: 80 },
      { description: 'HD40 1L COTIN', quantity: 2, amount: 36 },
    ]);
  });

  it('reads a date spread out by its slashes ("FECHA   08  /  02  /  23"), and no name from an identifier\'s label ("GLN 4304171000002")', async () => {
    const factura = await extract(['A FACTURA', 'C001 NRO.: 00004-00017649', 'FECHA        08     /     02     /     23', 'Total   17.000,00', 'VTO. C.A.E: 18/02/2023']);
    expect(factura.invoice_date).toBe('2023-02-08');
    // The expiry of the invoice's authorization code (C.A.E.) is no due date; a due date's label alone is.
    const vencimiento = (above: string) => extract(['FACTURA', 'Fecha: 14/02/2023', 'Total   77.300,00', above, 'Fecha de Vencimiento: 24/02/2023']);
    expect((await vencimiento('C.A.E. Nº 73071582456715')).due_date).toBeNull();
    expect((await vencimiento('Condiciones de pago')).due_date).toBe('2023-02-24');
    // "Vto." is how Spanish invoices abbreviate "vencimiento": the payment's is a due date, the authorization's is not.
    const abbreviated = await extract(['FACTURA', 'Fecha de Emisión: 13/02/2023', 'Fecha de Vto. para el pago: 13/03/2023', 'Importe Total: $        594636,99', 'CAE N°: 73077498062672', 'Fecha de Vto. de CAE: 13/02/2023']);
    expect(abbreviated).toMatchObject({ invoice_date: '2023-02-13', due_date: '2023-03-13' });
    const rechnung = await extract(['Warenrechnung 4711', 'Käufer', 'GLN 4304171000002', 'Summe   100,00']);
    expect(rechnung.customer_name).not.toBe('GLN');
  });

  it('reads the name under a party heading with no colon ("Leverancier", "Afnemer"), a label of the next column beside it', async () => {
    const page = (heading: string, x: number) =>
      ruledPage(
        [
          [22, 64, heading], [306, 64, 'Debiteurennummer:'], [500, 64, 'Factuur'],
          [x, 78, 'Inleenlev BV'], [306, 78, 'Factuurnummer: H5/09876DBF'],
          [22, 90, 'Wegweg 1 III'], [306, 90, 'Factuurdatum: 22-01-2012'],
          [22, 196, 'Afnemer'],
          [22, 208, 'Klant Twee BV'],
          [22, 220, 'Afleverweg 2'],
          [306, 382, 'Totaal te betalen: 1.974,00'],
        ],
        [],
      );
    const read = async (doc: Doc) => (await extractWith({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' }, { model: null })).output;
    expect(await read(await page('Leverancier', 22))).toMatchObject({ vendor_name: 'Inleenlev BV', customer_name: 'Klant Twee BV' });
  });

  it('reads a ruled table\'s items under the header line printed over its rules, not another table\'s that names its own', async () => {
    const charges = { columns: [72, 160, 400, 460, 540], rows: [200, 220, 240, 260] };
    // Then the payments, a ruled table with its header row inside: a table that names its columns, but not the items'.
    const payments = { columns: [72, 160, 400, 540], rows: [320, 340, 360] };
    const doc = await ruledPage(
      [
        [72, 60, 'Acme Hospital'],
        // The header, unruled, over the ruled rows.
        [76, 190, 'Service Date'], [164, 190, 'Description'], [404, 190, 'Quantity'], [464, 190, 'Amount'],
        ...inCells(charges, [['03/24/2022', 'HB VENIPUNCTURE', '1', '49.00'], ['03/24/2022', 'HB VITAMIN D 25-HYDROXY', '1', '229.00'], ['03/24/2022', 'HB CBC WITH DIFFERENTIAL', '2', '288.00']]),
        [72, 290, 'Total hospital charges: 566.00'],
        ...inCells(payments, [['Date', 'Description', 'Amount'], ['03/30/22', 'Blue Cross payment', '-400.00']]),
      ],
      [charges, payments],
    );
    const output = (await localExtractor.extract({ doc, schema: ITEMS, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(output.line_items).toEqual([
      { description: 'HB VENIPUNCTURE', quantity: 1, amount: 49 },
      { description: 'HB VITAMIN D 25-HYDROXY', quantity: 1, amount: 229 },
      { description: 'HB CBC WITH DIFFERENTIAL', quantity: 2, amount: 288 },
    ]);
  });

  it('reads the charges of a claim form printing money in split dollars | cents boxes (UB-04) with their cents, and of other documents as printed', async () => {
    const table = { columns: [72, 120, 320, 380, 480], rows: [200, 220, 240, 260] };
    const page = (mark: string) =>
      ruledPage(
        [
          [72, 60, 'Kishwaukee Community Hospital'],
          // OCR read "41 | 40" without its divider, "207 | 00" with it as a gap.
          ...inCells(table, [['Rev. Cd.', 'Description', 'Serv. Units', 'Total Charges'], ['0300', 'LABORATORY GENERAL', '2', '4140'], ['0301', 'LAB CHEMISTRY', '1', '207 00']]),
          [72, 300, 'Total charges: 24840'],
          [72, 700, mark],
        ],
        [table],
      );
    const schema = { type: 'object', properties: { ...(ITEMS.properties as Record<string, JsonSchema>), total: { type: 'number' } } } as JsonSchema;
    const claim = (await localExtractor.extract({ doc: await page('UB-04 CMS-1450 APPROVED OMB NO. 0938-0997'), schema, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(claim.line_items).toEqual([
      { description: 'LABORATORY GENERAL', quantity: 2, amount: 41.4 },
      { description: 'LAB CHEMISTRY', quantity: 1, amount: 207 },
    ]);
    expect(claim.total).toBe(248.4);
    const other = (await localExtractor.extract({ doc: await page('Thank you for choosing us'), schema, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect((other.line_items as Array<{ amount: number }>).map((i) => i.amount)).toEqual([4140, 207]);
    expect(other.total).toBe(24840);
  });

  it('reads no issuer from a payment slip\'s "From:", which names the payer', async () => {
    const output = await extract([
      'Invoice No: IN1008',
      'Date: 30/04/2013',
      'Bill To: Harbour Interiors Pty',
      'Total Due $1,155.00',
      '',
      'PAYMENT ADVICE',
      'Please detach and send with your payment',
      'From: Harbour Interiors Pty',
      'Amount Paid',
    ]);
    expect(output).toMatchObject({ vendor_name: null, customer_name: 'Harbour Interiors Pty', total: 1155 });
    // Above no slip heading, "From:" names the issuer.
    expect(await extract(['From: Harbour Interiors Pty', 'Invoice No: IN1008', 'Total Due $1,155.00'])).toMatchObject({ vendor_name: 'Harbour Interiors Pty' });
  });

  it('reads an estimate\'s lines under a header line: numbered lines, not its section headings, a header on two lines, on past a page break, none with a lost decimal point', async () => {
    const output = await extract(
      [
        'Green Township Collision',
        'Line  Operation  Description            Qty   Extended   Labor   Paint',
        '                                              Price $',
        '1                FRONT BUMPER',
        '2     Repl       Bumper cover           1     327.87     1.7     2.8',
        '3                Add for Clear Coat                              1.1',
        '4     Repl       Grille                 1     90.23      0.6',
        '9/13/2017 8:19:17 AM                                             Page 1',
        'Estimate of Record      Workfile ID: 423e55h2',
        '5     Repl       RT Headlamp assy       1     145.00     Incl.',
        '6     Repl       Radiator assy          1     34675      2.0',
        '7     Repl       Upper hose             1     21.05      0.5',
        'SUBTOTALS                                     588.10',
        'NOTES',
      ],
      ITEMS,
    );
    // ("FRONT BUMPER", a numbered heading in capitals over parts named in lower case, is no item.)
    expect(output.line_items).toEqual([
      { description: 'Bumper cover', quantity: 1, amount: 327.87 },
      { description: 'Add for Clear Coat' },
      { description: 'Grille', quantity: 1, amount: 90.23 },
      { description: 'RT Headlamp assy', quantity: 1, amount: 145 },
      // "34675" among prices printed with cents: its decimal point was lost, so no amount.
      { description: 'Radiator assy', quantity: 1 },
      { description: 'Upper hose', quantity: 1, amount: 21.05 },
    ]);
  });

  it('reads a description under a header cell naming two columns ("Oper   Description") without the other column\'s words', async () => {
    const table = { columns: [72, 100, 300, 340, 420], rows: [200, 220, 240, 260] };
    const doc = await ruledPage(
      [
        [72, 60, 'Diminished Value of Georgia'],
        [76, 214, 'Line'], [104, 214, 'Oper'], [180, 214, 'Description'], [304, 214, 'Qty'], [344, 214, 'Extended Price'],
        [76, 234, '1'], [104, 234, 'Repl'], [140, 234, 'Bumper cover'], [304, 234, '1'], [344, 234, '593.00'],
        [76, 254, '2'], [104, 254, 'R&I'], [140, 254, 'RT Fog lamp bezel'], [304, 254, '1'], [344, 254, '71.53'],
      ],
      [table],
    );
    const output = (await localExtractor.extract({ doc, schema: ITEMS, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(output.line_items).toEqual([
      { description: 'Bumper cover', quantity: 1, amount: 593 },
      { description: 'RT Fog lamp bezel', quantity: 1, amount: 71.53 },
    ]);
  });

  it('gives a name run from an unmapped column into the names\' one ("Repl RT Side bracket, LH" under "Oper" and "Description") to the names, without the other column\'s word', async () => {
    const output = await extract(
      [
        'Green Township Collision',
        'Line  Oper                Description   Qty   Extended',
        '16    Repl RT Side bracket, LH          1     33.57',
        '17    Repl Distance sensor, front       1     677.00',
        'SUBTOTALS                                     710.57',
      ],
      ITEMS,
    );
    expect(output.line_items).toEqual([
      { description: 'RT Side bracket, LH', quantity: 1, amount: 33.57 },
      { description: 'Distance sensor, front', quantity: 1, amount: 677 },
    ]);
  });

  it('takes an estimate\'s "Description" over its "Operation" for an item\'s name, however the schema names it', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'object', properties: { item: { type: 'string' }, qty: { type: 'number' }, line_total: { type: 'number' } } } } },
    };
    const output = await extract(
      [
        'Green Township Collision',
        'Line  Operation  Description            Qty   Extended',
        '1     Repl       Bumper cover           1     327.87',
        '2     R&I        Grille                 1     90.23',
        'SUBTOTALS                                     418.10',
      ],
      schema,
    );
    expect(output.items).toEqual([
      { item: 'Bumper cover', qty: 1, line_total: 327.87 },
      { item: 'Grille', qty: 1, line_total: 90.23 },
    ]);
  });

  it('keeps a note under an estimate\'s line ("Note: MASK"), and the line it wraps onto, out of the line\'s name', async () => {
    const output = await extract(
      [
        'Green Township Collision',
        'Line  Oper  Description                         Qty   Extended',
        '1     Repl  Windshield w/o defog                1     375.00',
        '2     Repl  Rear body panel                     1     312.97',
        'Note: FEATHER BLOCK AND PRIME AT 30% OF REPAIR TIME',
        'PER STATE FARM GUIDELINES',
        '3     R&I   Tool compartment w/17" wheel        1     12.00',
      ].map((line) => (line.startsWith('Note') || line.startsWith('PER') ? `            ${line}` : line)),
      ITEMS,
    );
    expect(output.line_items).toEqual([
      { description: 'Windshield w/o defog', quantity: 1, amount: 375 },
      { description: 'Rear body panel', quantity: 1, amount: 312.97 },
      { description: 'Tool compartment w/17" wheel', quantity: 1, amount: 12 },
    ]);
  });

  it('reads a row with its own line number as an item of its own, a row with text alone as the rest of the one above', async () => {
    // An estimate's lines: "3  Add for Clear Coat  1.0" prints no price but its own line number and paint hours.
    const table = { columns: [72, 100, 300, 340, 420, 480], rows: [200, 220, 240, 260, 280] };
    const doc = await ruledPage(
      [
        [72, 60, 'Green Township Collision'],
        ...inCells(table, [['Line', 'Description', 'Qty', 'Extended Price', 'Paint'], ['2', 'Bumper cover', '1', '481.12', '2.6'], ['3', 'Add for Clear Coat', '', '', '1.0'], ['', 'and edge blend', '', '', '']]),
      ],
      [table],
    );
    const output = (await localExtractor.extract({ doc, schema: ITEMS, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(output.line_items).toEqual([
      { description: 'Bumper cover', quantity: 1, amount: 481.12 },
      { description: 'Add for Clear Coat and edge blend' },
    ]);
  });

  it('reads no count or price set into the description\'s column as part of the description', async () => {
    const ITEMS: JsonSchema = {
      type: 'object',
      properties: { line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } } },
    };
    // As OCR set a restaurant slip's rows: the count and price under "Description", the name wrapped.
    const output = await extract(
      ['Syl Roasted Delights Sdn Bhd', 'Description                                Amount', '(V02) SOUR & SPICY 1.0 12.00              12.00', 'MUSTARD', '(B03) JASMINE GREEN 2 2.30                 4.60', 'TEA(HOT)', 'Cola 1.5 L                                 3.00', 'Total                                      19.60'],
      ITEMS,
    );
    expect((output.line_items as Array<{ description: string }>).map((i) => i.description)).toEqual(['(V02) SOUR & SPICY MUSTARD', '(B03) JASMINE GREEN TEA(HOT)', 'Cola 1.5 L']);
  });

  it('reads an item\'s description after a rule in its cell, not the code before it ("0301 | LAB CHEMISTRY")', async () => {
    const ITEMS: JsonSchema = {
      type: 'object',
      properties: { line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } } } } },
    };
    // A hospital claim's revenue code and description, two printed columns read as one cell.
    // (OCR reads the rule onto the code, "0301|" or "0300]", or loses it: the code is still no description.)
    const csv = ['REV.CD. DESCRIPTION,SERV. UNITS,TOTAL CHARGES', '0301 | LAB CHEMISTRY,1,207.00', '0305 | LAB HEMATOLOGY,2,69.30', '0301| LAB CHEMISTRY,1,88.20', '0300] LABORATORY GENERAL,1,66.60', '0300 LABORATORY GENERAL,2,41.40'].join('\n');
    const doc = await readDocument(new TextEncoder().encode(csv), { kind: 'csv', dpi: 72, deadline: Date.now() + 10_000 });
    const output = (await localExtractor.extract({ doc, schema: ITEMS, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(output.line_items).toEqual([
      { description: 'LAB CHEMISTRY', quantity: 1, amount: 207 },
      { description: 'LAB HEMATOLOGY', quantity: 2, amount: 69.3 },
      { description: 'LAB CHEMISTRY', quantity: 1, amount: 88.2 },
      { description: 'LABORATORY GENERAL', quantity: 1, amount: 66.6 },
      { description: 'LABORATORY GENERAL', quantity: 2, amount: 41.4 },
    ]);
  });

  it('reads the issue date under a "date and time of issue" label, not an earlier period\'s date ("Competência")', async () => {
    const out = await extract(['Serviços de Publicidade Ltda', 'NFS-e 999', 'Competência: 07/04/2026', 'Data e hora da emissão: 11/02/2026 10:00:00', 'Valor total: R$ 10.000,00']);
    expect(out.invoice_date).toBe('2026-02-11');
    expect((await extract(['Acme Ltd', 'Period: 03/01/2026', 'Date and time of issue: 03/15/2026 09:30', 'Total: 10.00'])).invoice_date).toBe('2026-03-15');
  });

  it('reads amounts under captions that end in an aside in brackets ("Total (EUR / gross)" over its figure)', async () => {
    const out = await placed([[40, 40, 'Acme Ltd'], [40, 60, 'Invoice 17'], [40, 300, 'Subtotal (EUR / net)'], [220, 300, 'VAT (19 %)'], [400, 300, 'Total (EUR / gross)'], [40, 312, '100.00'], [220, 312, '19.00'], [400, 312, '119.00']]);
    expect(out).toMatchObject({ subtotal: 100, tax: 19, total: 119 });
  });

  it('never takes an amount printed as withheld for the tax the others imply', async () => {
    // Total less subtotal is 150, and the document prints 150.00: but as a tax withheld, not charged.
    for (const lines of [
      ['Acme Consulting', 'Invoice 17', 'Net amount: 1,000.00', 'Withholding tax: 150.00', 'Total: 1,150.00'],
      ['Juan Pérez, diseñador gráfico', 'Factura 2024-17', 'Subtotal: 1.000,00', 'Retención IRPF: 150,00', 'Total: 1.150,00'],
    ]) {
      const out = await extract(lines);
      expect(out.tax, lines[3]).toBeNull();
      expect(out.total).toBe(1150);
    }
  });

  it('reads the customer under the labels Spanish and Brazilian invoices print for them ("Sr.(s):", "Apellido y Nombre / Razón Social:", "Tomador:")', async () => {
    const customer = async (lines: string[]) => (await extract(lines)).customer_name;
    expect(await customer(['Empresa de Prueba', 'Factura A 4000-12345678', 'Fecha: 27/03/2011', 'Sr.(s):  Joao Da Silva', 'Dirección: Rua 76 km 34.5', 'Total: 122,00'])).toBe('Joao Da Silva');
    expect(await customer(['MARCIO Y AGUSTIN ADDAMO', 'Factura B 00003-00001475', 'DNI: 14180271      Apellido y Nombre / Razón Social: FERNANDEZ ADRIANA', 'Total: 44000,00'])).toBe('FERNANDEZ ADRIANA');
    expect(await customer(['Serviços de Publicidade Ltda', 'NFS-e 999', 'Tomador: Bento e Silvana Doces e Salgados Ltda', 'Valor total: R$ 10.000,00'])).toBe('Bento e Silvana Doces e Salgados Ltda');
  });

  it('reads no name cut at the end of its line after a joining word ("Recipient: NF-E EMITIDA EM" / "AMBIENTE DE …")', async () => {
    const customer = async (first: string) => (await extract(['Acme Supplies Ltd', 'Invoice 17', first, 'Total: 12.00'])).customer_name;
    expect(await customer('Bill to: Bank of')).toBeNull();
    expect(await customer('Cliente: Banco do')).toBeNull();
    expect(await customer('Bill to: Bank of Scotland')).toBe('Bank of Scotland');
    // (A single letter ends a name as an initial.)
    expect(await customer('Bill to: John E')).toBe('John E');
  });

  it("reads no party's name off the name of a Brazilian invoice (\"NF-e\", \"Nota Fiscal\")", async () => {
    expect((await extract(['Empresa Lucro Presumido Ltda', 'Avenida Paulista, 1', 'Destinatário: NF-e', 'Valor total: 1.950,00'])).customer_name).toBeNull();
  });

  it('reads a date that reads both ways day first in a document written in a day-first language, whatever its currency', async () => {
    const date = async (lines: string[]) => (await extract(lines)).invoice_date;
    // No date says which way (no part above 12), no currency but "$": the language does.
    expect(await date(['Juan Pérez, diseñador gráfico', 'Factura 2024-17', 'Fecha: 05/03/2024', 'Cliente: Ana López', 'Importe total del pago: $ 1.060,00'])).toBe('2024-03-05');
    expect(await date(['Studio Rossi', 'Fattura n. 17', 'Data: 05/03/2024', 'Cliente: Bar Centrale', 'Totale della fattura: $ 1.060,00'])).toBe('2024-03-05');
    expect(await date(['Acme Consulting', 'Invoice 17', 'Date: 05/03/2024', 'Bill to: Jane Roe', 'Please pay the amount due: $1,060.00'])).toBe('2024-05-03');
  });

  it("reads no document number off a blank's placeholder of zeros (a sample's \"Invoice No: 0000000000\")", async () => {
    const out = await extract(['Acme Supplies Ltd', 'Invoice No: 0000000000', 'Date: 2024-03-05', 'Total: 12.00']);
    expect(out.invoice_number).toBeNull();
    expect(out.total).toBe(12);
    expect((await extract(['Acme Supplies Ltd', 'Invoice No: 00000-0000', 'Total: 12.00'])).invoice_number).toBeNull();
    expect((await extract(['Acme Supplies Ltd', 'Invoice No: 0000012', 'Total: 12.00'])).invoice_number).toBe('0000012');
  });

  it("reads a purchase order's own number as its number, not the quotation it cites; an invoice's order and quotation numbers are not the invoice's", async () => {
    const NUMBER: JsonSchema = { type: 'object', properties: { document_number: { type: 'string', description: 'The number of this document' } } };
    const order = ['PURCHASE ORDER: PO123456789', 'Date: 31/03/2020', 'Buyer: Acme Retail Ltd', 'Quotation No: QUOT_125487', 'Widgets  10  250.00', 'Total: 250.00'];
    expect((await extract(order, NUMBER)).document_number).toBe('PO123456789');
    const invoice = ['INVOICE', 'Bill to: Acme Retail Ltd', 'Purchase Order: PO123456789', 'Quotation No: QUOT_125487', 'Widgets  10  250.00', 'Total: 250.00'];
    expect((await extract(invoice, NUMBER)).document_number ?? null).toBeNull();
  });

  it('reads the letters of a number printed in a text layer as printed ("PO0123"), not as digits an OCR engine misread', async () => {
    expect((await extract(['Acme Supplies Ltd', 'Invoice No: PO0123', 'Total: 12.00'])).invoice_number).toBe('PO0123');
    expect((await extract(['Acme Supplies Ltd', 'Invoice No: 1O23', 'Total: 12.00'])).invoice_number).toBe('1O23');
  });

  it("reads the first company-name label's name (\"Razón Social:\") as the issuer's above any address, as the customer's under the issuer's address, never under a customer's label", async () => {
    const PARTIES: JsonSchema = { type: 'object', properties: { vendor_name: { type: 'string' }, customer_name: { type: 'string' } } };
    const issuerBox = ['ORIGINAL', 'FACTURA B', 'Razón Social: MARCIO Y AGUSTIN ADDAMO', 'Domicilio Comercial: Cordoba 1534 - Funes, Santa Fe', 'Fecha de Emisión: 11/02/2023', 'Apellido y Nombre / Razón Social: FERNANDEZ ADRIANA', 'Domicilio: Roldan', 'Importe Total: $ 44000,00'];
    expect(await extract(issuerBox, PARTIES)).toEqual({ vendor_name: 'MARCIO Y AGUSTIN ADDAMO', customer_name: 'FERNANDEZ ADRIANA' });
    // Under the issuer's address and phone, the label is the next block's: the customer's.
    const underAddress = ['FACTURA A', 'Av. Rivadavia 12994', '(1704) Ramos Mejia', 'Tel./Fax: 4488-5539', 'RAZON SOCIAL: LA SEGUNDA COOP LTDA DE SEGURO', 'DOMICILIO: 2000 - ROSARIO NORTE', 'Total: 17.000,00'];
    expect(await extract(underAddress, PARTIES)).toEqual({ customer_name: 'LA SEGUNDA COOP LTDA DE SEGURO' });
    // Under a customer's label, it is the customer's, even asked for the issuer alone; so is a name under "Name:", a customer's label.
    const VENDOR: JsonSchema = { type: 'object', properties: { vendor_name: { type: 'string' } } };
    expect((await extract(['FACTURA B', 'Cliente', 'Razón Social: FERNANDEZ ADRIANA SRL', 'Importe Total: $ 44000,00'], VENDOR)).vendor_name ?? null).toBeNull();
    expect((await extract(['INVOICE', 'Name: John Smith', 'Address: 12 Main Street', 'Total: 10.00'], VENDOR)).vendor_name ?? null).toBeNull();
    // "Company Name:" is any party's: under "Bill To:" it is the customer's.
    expect((await extract(['INVOICE', 'Invoice No: 17', 'Bill To:', 'Company Name: Globex Corporation', 'Total: 10.00'], VENDOR)).vendor_name ?? null).toBeNull();
  });

  it('reads the first company-name label on a page by its place: an address in another column does not make it the customer\'s, nor does it name the issuer low on the page', async () => {
    const VENDOR: JsonSchema = { type: 'object', properties: { vendor_name: { type: 'string' } } };
    const vendor = async (texts: Array<[number, number, string]>) => (await localExtractor.extract({ doc: await pagesOf([{ texts }]), schema: VENDOR, instructions: null, nConsensus: 1, seed: 's' })).output.vendor_name ?? null;
    // ("Punto de Venta: 00003" on the right reads as an address: a postal code's five digits.)
    expect(await vendor([[400, 50, 'FACTURA B'], [400, 70, 'Punto de Venta: 00003'], [40, 100, 'Razón Social: MARCIO Y AGUSTIN ADDAMO'], [40, 115, 'Domicilio Comercial: Cordoba 1534 - Funes'], [40, 400, 'Importe Total: $ 44000,00']])).toBe('MARCIO Y AGUSTIN ADDAMO');
    expect(await vendor([[400, 50, 'FACTURA B'], [40, 70, 'Av. Rivadavia 12994'], [40, 100, 'Razón Social: MARCIO Y AGUSTIN ADDAMO'], [40, 400, 'Importe Total: $ 44000,00']])).toBeNull();
    expect(await vendor([[400, 50, 'FACTURA B'], [40, 500, 'Razón Social: MARCIO Y AGUSTIN ADDAMO'], [40, 600, 'Importe Total: $ 44000,00']])).toBeNull();
  });

  it('reads no tax from a block of taxes, one per rate, whose amounts do not add up to the total', async () => {
    const lines = ['Acme Leverancier BV', 'Factuurnummer: INV12345', 'Totaal ex BTW:        533,06', 'BTW (20,00%):        102,00', 'BTW (20,00%):         18,75', 'BTW (10,00%):         51,00', 'BTW (50,00%):         37,50', 'Totaal te betalen:     716,88'];
    const out = await extract(lines);
    expect(out.tax).toBeNull();
    expect(out.total).toBe(716.88);
    // "ex BTW" is Dutch for "excluding VAT": the subtotal.
    expect(out.subtotal).toBe(533.06);
    // A block that prints the taxes' own total tells the tax, even where the total is off by one.
    const summed = await extract(['Acme Supplies BV', 'Invoice No: INV-17', 'Subtotal:          100.00', 'VAT 20%:            20.00', 'VAT 10%:             5.00', 'VAT total:          25.00', 'Total:             126.00']);
    expect(summed).toMatchObject({ subtotal: 100, tax: 25, total: 126 });
  });

  it("reads the customer as the name that opens a billing address (a \"Billing address\" label alone over a name over a street)", async () => {
    const out = await extract(['Acme Supplies Ltd', 'INVOICE 2024-17', 'Billing address', 'Globex Corporation', '12 Main Street', 'Springfield 12345', 'Total: 120.00']);
    expect(out.customer_name).toBe('Globex Corporation');
    // A street or a sentence under the label opens no name.
    expect((await extract(['Acme Supplies Ltd', 'INVOICE 2024-17', 'Billing address', '12 Main Street', 'Springfield 12345', 'Total: 120.00'])).customer_name).toBeNull();
    expect((await extract(['Acme Supplies Ltd', 'INVOICE 2024-17', 'Billing address', 'same as the delivery address', 'Total: 120.00'])).customer_name).toBeNull();
  });

  it('reads a currency the euro replaced where a code is sure to be one (in brackets, against a number), never the German word "DEM"', async () => {
    const CURRENCY: JsonSchema = { type: 'object', properties: { currency: { type: 'string' }, total: { type: 'number' } } };
    expect((await extract(['Lieferant GmbH', 'Rechnung 1997-17', 'Artikel        Menge        Betrag', 'Heizöl        10        37.763,70', 'Total Amount (DEM)        37.763,70'], CURRENCY)).currency).toBe('DEM');
    expect((await extract(['Lieferant GmbH', 'Rechnung 1997-17', 'Gesamtbetrag        DEM 37.763,70'], CURRENCY)).currency).toBe('DEM');
    expect((await extract(['Lieferant GmbH', 'Rechnung 1997-17', 'MIT DEM AUTO GELIEFERT', 'ZAHLBAR MIT DEM NAECHSTEN LAUF', 'IN DEM MONAT', 'Gesamtbetrag        37.763,70'], CURRENCY)).currency ?? null).toBeNull();
    // In brackets after no word of money, "(ESP)" names Spain.
    expect((await extract(['Proveedor SL', 'Factura 17', 'Calle Mayor 1, Madrid (ESP)', 'Pais (ESP)', 'Total        100,00'], CURRENCY)).currency ?? null).toBeNull();
  });

  it('leaves null what the document does not print, for every type the schema asks', async () => {
    const out = await extract(['Hello,', 'see you on Monday.']);
    expect(Object.values(out).every((v) => v === null)).toBe(true);
  });

  it("names the issuer whose name's main word the document's domain starts, behind an article ('Die Vordefinierte Firma', vordefiniert.de)", async () => {
    const VENDOR: JsonSchema = { type: 'object', properties: { vendor_name: { type: 'string' } } };
    const out = await extract(['Die Vordefinierte Firma', 'Waldstrasse 86-90', '13403 Berlin', 'email: info@vordefiniert.de', 'Rechnung', 'Summe: 10,00'], VENDOR);
    expect(out.vendor_name).toBe('Die Vordefinierte Firma');
  });

  describe('reads what Latin American fiscal documents print their own way', () => {
    const doc = async (texts: Array<[number, number, string]>, schema = SCHEMA) => (await localExtractor.extract({ doc: await pagesOf([{ texts }]), schema, instructions: null, nConsensus: 1, seed: 's' })).output;

    it('reads a tax under its rate in a row of totals ("I.V.A" over "21.00" over the tax, printed to a tenth)', async () => {
      const out = await doc([
        [40, 60, 'TALLER NORTE'],
        [400, 60, 'FACTURA'],
        [40, 600, 'Subtotal'],
        [200, 600, 'I.V.A'],
        [400, 600, 'Total'],
        [200, 614, '21.00'],
        [40, 628, '14,049.59'],
        [200, 628, '2,950.4'],
        [400, 628, '17,000.00'],
      ]);
      expect(out).toMatchObject({ subtotal: 14049.59, tax: 2950.4, total: 17000 });
    });

    it('names the issuer by its mailbox at a mail service, and counts no copy mark or page number as a name over it', async () => {
      const VENDOR: JsonSchema = { type: 'object', properties: { vendor_name: { type: 'string' } } };
      const vendor = async (texts: Array<[number, number, string]>) => (await doc(texts, VENDOR)).vendor_name ?? null;
      // "nortetaller@gmail.com": gmail names nobody; the mailbox names the shop.
      expect(await vendor([[40, 40, 'NORTE TALLER'], [40, 55, 'nortetaller@gmail.com'], [400, 40, 'FACTURA'], [40, 300, 'Total: 100,00']])).toBe('NORTE TALLER');
      // "ORIGINAL" and "Pagina 1 de 1" over the letterhead push it down no more than nothing does.
      expect(await vendor([[40, 30, 'ORIGINAL'], [40, 40, 'Pagina 1 de 1'], [40, 55, 'Empresa Gomez Hermanos'], [400, 40, 'FACTURA'], [40, 300, 'Total: 100,00']])).toBe('Empresa Gomez Hermanos');
    });

    it('reads "pesos" as the currency of the country the document is from', async () => {
      const CURRENCY: JsonSchema = { type: 'object', properties: { currency: { type: 'string' } } };
      expect((await extract(['FACTURA', 'CUIT: 30-50001770-4', 'SON PESOS: DIECISIETE MIL CON 00/100', 'Total 17.000,00'], CURRENCY)).currency).toBe('ARS');
      // Without the country, pesos are any of eight currencies.
      expect((await extract(['FACTURA', 'SON PESOS: DIECISIETE MIL CON 00/100', 'Total 17.000,00'], CURRENCY)).currency ?? null).toBeNull();
    });

    it("reads a Brazilian NFS-e's number under its caption, and no issuer from the issuer's role printed in its box", async () => {
      const out = await doc([
        [40, 40, 'DANFSe v2.0'],
        [40, 80, 'NÚMERO DA NFS-e'],
        [250, 80, 'COMPETÊNCIA DA NFS-e'],
        [40, 94, '999'],
        [250, 94, '07/04/2026'],
        [40, 120, 'EMITENTE DA NFS-e'],
        [250, 120, 'SITUAÇÃO DA NFS-e'],
        [40, 134, 'Prestador'],
        [250, 134, 'NFS-e Gerada'],
      ]);
      expect(out.invoice_number).toBe('999');
      expect(out.vendor_name ?? null).toBeNull();
      // A column beside the caption may print a line between it and its box (the DANFSe's QR note).
      const beside = await doc([
        [40, 40, 'DANFSe v2.0'],
        [40, 120, 'EMITENTE DA NFS-e'],
        [250, 120, 'SITUAÇÃO DA NFS-e'],
        [420, 127, 'pela leitura deste código QR'],
        [40, 134, 'Prestador'],
        [250, 134, 'NFS-e Gerada'],
      ]);
      expect(beside.vendor_name ?? null).toBeNull();
    });

    it("reads the taxes of Brazilian invoices by their labels: the state's ICMS on goods, the town's ISS on services", async () => {
      expect((await extract(['DANFE', 'VALOR TOTAL DOS PRODUTOS: 1.000,00', 'VALOR DO ICMS: 180,00', 'VALOR TOTAL DA NOTA: 1.180,00'])).tax).toBe(180);
      expect((await extract(['NFS-e', 'Valor do serviço: 1.000,00', 'ISSQN: 50,00', 'Valor total: 1.050,00'])).tax).toBe(50);
    });
  });
});
