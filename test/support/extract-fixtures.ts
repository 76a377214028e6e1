/**
 * Extraction test documents with known values AND known places: each fixture is a real file (PDF via
 * pdf-lib, a rendered scan, CSV, XLSX via exceljs, DOCX via jszip, TXT), a realistic JSON Schema, the
 * output a careful reader would give, and for every leaf where its value is printed — a box in page
 * units (top-left origin) for PDFs, the exact cell for CSV/XLSX, the exact code-point span for
 * DOCX/TXT. Files are read with the real readers (`readDocument`), so the engine sees real Docs.
 */
import { createCanvas } from '@napi-rs/canvas';
import ExcelJS from 'exceljs';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { Box, GreyImage, Origin } from '../../functions/documents/doc.ts';
import type { DocumentKind } from '../../functions/documents/sniff.ts';
import type { JsonSchema } from '../../functions/models/engine.ts';
import { buildDocx, para, tbl, tc, tr } from './office-fixtures.ts';
import { scanToPdf } from './scan-fixtures.ts';

export interface ExtractFixture {
  name: string;
  kind: DocumentKind;
  bytes: Uint8Array;
  schema: JsonSchema;
  /** The right output (every leaf of the schema; null where the document does not say). */
  expected: Record<string, unknown>;
  /** Leaf path ("total", "line_items.2.amount") → where its value is printed. */
  truth: Record<string, Origin>;
  /** Whether the document is read by OCR (slow: tests give it more time). */
  ocr?: boolean;
}

// =============================================================================================
// Schemas

const money = (description: string) => ({ type: 'number', description });
const nullableString = (description: string) => ({ type: ['string', 'null'], description });

/** A realistic invoice schema: header fields, parties as nested objects, line items through $defs. */
export const INVOICE_SCHEMA: JsonSchema = {
  title: 'Invoice',
  type: 'object',
  $defs: {
    LineItem: {
      type: 'object',
      properties: {
        description: { type: 'string', description: 'What was sold' },
        quantity: { type: 'number', description: 'Units' },
        unit_price: money('Price per unit'),
        amount: money('Line total'),
      },
      required: ['description', 'quantity', 'unit_price', 'amount'],
      additionalProperties: false,
    },
    Party: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        address: nullableString('Street address'),
      },
      required: ['name', 'address'],
    },
  },
  properties: {
    invoice_number: { type: 'string', description: 'The invoice identifier' },
    invoice_date: { type: 'string', format: 'date', description: 'Date the invoice was issued' },
    due_date: { type: ['string', 'null'], format: 'date' },
    vendor: { $ref: '#/$defs/Party', description: 'The seller issuing the invoice' },
    customer: { $ref: '#/$defs/Party', description: 'The buyer (bill to)' },
    purchase_order: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Customer PO number' },
    currency: { type: 'string', enum: ['USD', 'EUR', 'GBP'], description: 'ISO currency code' },
    payment_terms: { type: ['string', 'null'] },
    subtotal: money('Sum of line amounts before tax'),
    tax: money('Tax amount'),
    total: money('Total amount due'),
    paid: { type: 'boolean', description: 'Whether the invoice is already paid' },
    line_items: { type: 'array', items: { $ref: '#/$defs/LineItem' } },
    notes: nullableString('Free-text remarks'),
  },
  required: ['invoice_number', 'invoice_date', 'due_date', 'vendor', 'customer', 'purchase_order', 'currency', 'payment_terms', 'subtotal', 'tax', 'total', 'paid', 'line_items', 'notes'],
  additionalProperties: false,
};

/** Header leaves of the invoice (the 100% bar): everything but the line items. */
export const INVOICE_HEADER_PATHS = [
  'invoice_number', 'invoice_date', 'due_date', 'vendor.name', 'vendor.address', 'customer.name', 'customer.address',
  'purchase_order', 'currency', 'payment_terms', 'subtotal', 'tax', 'total', 'paid',
];

interface InvoiceData {
  number: string;
  date: { printed: string; iso: string };
  due: { printed: string; iso: string };
  vendor: { name: string; address: string };
  customer: { name: string; address: string };
  po: string;
  currency: 'USD' | 'EUR' | 'GBP';
  terms: string;
  items: Array<{ description: string; quantity: number; unitPrice: number }>;
  taxRate: number;
}

const INVOICE: InvoiceData = {
  number: 'INV-2024-0042',
  date: { printed: 'March 5, 2024', iso: '2024-03-05' },
  due: { printed: 'April 4, 2024', iso: '2024-04-04' },
  vendor: { name: 'Northwind Traders Ltd', address: '42 Harbour Street, Bristol BS1 4QA' },
  customer: { name: 'Contoso Engineering Inc', address: '500 Market Street, Riverside CA 92501' },
  po: 'PO-88213',
  currency: 'USD',
  terms: 'Net 30',
  items: [
    { description: 'Hydraulic pump HP-220', quantity: 12, unitPrice: 1250 },
    { description: 'Spare seal kit', quantity: 24, unitPrice: 38.5 },
    { description: 'Installation manual', quantity: 2, unitPrice: 15 },
    { description: 'On-site commissioning', quantity: 6, unitPrice: 180 },
    { description: 'Freight and handling', quantity: 1, unitPrice: 420 },
  ],
  taxRate: 0.08,
};

const cents = (x: number) => Math.round(x * 100) / 100;
/** 1250 → "1,250.00". */
export const formatMoney = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function invoiceTotals(data: InvoiceData) {
  const amounts = data.items.map((i) => cents(i.quantity * i.unitPrice));
  const subtotal = cents(amounts.reduce((a, b) => a + b, 0));
  const tax = cents(subtotal * data.taxRate);
  return { amounts, subtotal, tax, total: cents(subtotal + tax) };
}

function invoiceExpected(data: InvoiceData): Record<string, unknown> {
  const { amounts, subtotal, tax, total } = invoiceTotals(data);
  return {
    invoice_number: data.number,
    invoice_date: data.date.iso,
    due_date: data.due.iso,
    vendor: { ...data.vendor },
    customer: { ...data.customer },
    purchase_order: data.po,
    currency: data.currency,
    payment_terms: data.terms,
    subtotal,
    tax,
    total,
    paid: false,
    line_items: data.items.map((item, i) => ({ description: item.description, quantity: item.quantity, unit_price: item.unitPrice, amount: amounts[i] })),
    notes: null,
  };
}

// =============================================================================================
// Drawing with ground truth

interface DrawnWord {
  text: string;
  box: Box;
}

interface TextOptions {
  size?: number;
  bold?: boolean;
  align?: 'left' | 'right';
}

/** Somewhere to draw text (in points, top-left origin) that says where each drawn word's box is. */
interface Sheet {
  text(text: string, x: number, top: number, options?: TextOptions): DrawnWord[];
  rule(x1: number, y1: number, x2: number, y2: number): void;
}

/** A pdf-lib page: word boxes from the font's advance widths, ascender to descender (≈ the font size). */
class PdfSheet implements Sheet {
  constructor(
    readonly page: PDFPage,
    readonly font: PDFFont,
    readonly bold: PDFFont,
  ) {}

  text(text: string, x: number, top: number, options: TextOptions = {}): DrawnWord[] {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.font;
    const width = font.widthOfTextAtSize(text, size);
    const left = options.align === 'right' ? x - width : x;
    const ascent = font.heightAtSize(size, { descender: false });
    const height = font.heightAtSize(size);
    this.page.drawText(text, { x: left, y: this.page.getHeight() - top - ascent, size, font });
    return [...text.matchAll(/\S+/g)].map((match) => ({
      text: match[0],
      box: { left: left + font.widthOfTextAtSize(text.slice(0, match.index), size), top, width: font.widthOfTextAtSize(match[0], size), height },
    }));
  }

  rule(x1: number, y1: number, x2: number, y2: number): void {
    const h = this.page.getHeight();
    this.page.drawLine({ start: { x: x1, y: h - y1 }, end: { x: x2, y: h - y2 }, thickness: 0.6, color: rgb(0, 0, 0) });
  }
}

/**
 * A canvas page at `dpi` (what a scanner sees), coordinates in points: word boxes are the glyphs' ink
 * (as OCR reports words), converted back to points.
 */
class ScanSheet implements Sheet {
  readonly canvas;
  readonly context;
  readonly scale: number;
  constructor(readonly dpi: number) {
    this.scale = dpi / 72;
    this.canvas = createCanvas(Math.round(8.5 * dpi), Math.round(11 * dpi));
    this.context = this.canvas.getContext('2d');
    this.context.fillStyle = '#ffffff';
    this.context.fillRect(0, 0, this.canvas.width, this.canvas.height);
    this.context.fillStyle = '#000000';
    this.context.strokeStyle = '#000000';
  }

  text(text: string, x: number, top: number, options: TextOptions = {}): DrawnWord[] {
    const k = this.scale;
    const size = (options.size ?? 10) * k;
    const c = this.context;
    c.font = `${options.bold ? 'bold ' : ''}${size}px sans-serif`;
    const width = c.measureText(text).width;
    const left = (options.align === 'right' ? x * k - width : x * k);
    const baseline = top * k + size * 0.8;
    c.fillText(text, left, baseline);
    return [...text.matchAll(/\S+/g)].map((match) => {
      const start = left + c.measureText(text.slice(0, match.index)).width;
      const m = c.measureText(match[0]);
      const box = { left: start - m.actualBoundingBoxLeft, top: baseline - m.actualBoundingBoxAscent, width: m.actualBoundingBoxLeft + m.actualBoundingBoxRight, height: m.actualBoundingBoxAscent + m.actualBoundingBoxDescent };
      return { text: match[0], box: { left: box.left / k, top: box.top / k, width: box.width / k, height: box.height / k } };
    });
  }

  rule(x1: number, y1: number, x2: number, y2: number): void {
    const k = this.scale;
    this.context.lineWidth = Math.max(1, 0.6 * k);
    this.context.beginPath();
    this.context.moveTo(x1 * k, y1 * k);
    this.context.lineTo(x2 * k, y2 * k);
    this.context.stroke();
  }

  grey(): GreyImage {
    const rgba = this.context.getImageData(0, 0, this.canvas.width, this.canvas.height).data;
    const data = new Uint8Array(this.canvas.width * this.canvas.height);
    for (let i = 0; i < data.length; i++) data[i] = rgba[i * 4]!;
    return { width: this.canvas.width, height: this.canvas.height, data, dpi: this.dpi };
  }
}

function union(boxes: Box[]): Box {
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  return { left, top, width: right - left, height: bottom - top };
}

/** The box of drawn words whose text is `content` (consecutive words of one draw call; all by default). */
function boxOf(drawn: DrawnWord[], content?: string): Box {
  if (content === undefined) return union(drawn.map((d) => d.box));
  const wanted = content.split(/\s+/);
  for (let i = 0; i + wanted.length <= drawn.length; i++) {
    if (wanted.every((w, k) => drawn[i + k]!.text === w)) return union(drawn.slice(i, i + wanted.length).map((d) => d.box));
  }
  throw new Error(`"${content}" was not drawn in "${drawn.map((d) => d.text).join(' ')}"`);
}

const onPage = (box: Box, page = 1): Origin => ({ kind: 'box', page, box });

async function newPdf(): Promise<{ pdf: PDFDocument; sheet: () => PdfSheet }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  return { pdf, sheet: () => new PdfSheet(pdf.addPage([612, 792]), font, bold) };
}

// =============================================================================================
// Invoice (text PDF and scan)

/**
 * A one-page US Letter invoice as accounting packages print them: the seller's letterhead (no label),
 * a right-hand block of "Label: value" header fields, "Bill To" with the customer under it, a ruled
 * line-item table, right-aligned totals. Returns where every leaf's value was drawn.
 */
function drawInvoice(s: Sheet, data: InvoiceData): Record<string, Origin> {
  const truth: Record<string, Origin> = {};
  const { amounts, subtotal, tax, total } = invoiceTotals(data);
  truth['vendor.name'] = onPage(boxOf(s.text(data.vendor.name, 54, 54, { size: 16, bold: true })));
  truth['vendor.address'] = onPage(boxOf(s.text(data.vendor.address, 54, 76)));
  s.text('Phone +44 117 496 0123', 54, 90);
  s.text('INVOICE', 558, 54, { size: 22, bold: true, align: 'right' });

  // Header fields: labels right-aligned to x=440, values left-aligned at x=448.
  const header: Array<[string, string, string]> = [
    ['Invoice Number:', data.number, 'invoice_number'],
    ['Invoice Date:', data.date.printed, 'invoice_date'],
    ['Due Date:', data.due.printed, 'due_date'],
    ['PO Number:', data.po, 'purchase_order'],
    ['Payment Terms:', data.terms, 'payment_terms'],
    ['Currency:', data.currency, 'currency'],
  ];
  header.forEach(([label, value, path], i) => {
    const top = 120 + i * 16;
    s.text(label, 440, top, { bold: true, align: 'right' });
    truth[path] = onPage(boxOf(s.text(value, 448, top)));
  });

  s.text('Bill To:', 54, 120, { bold: true });
  truth['customer.name'] = onPage(boxOf(s.text(data.customer.name, 54, 136)));
  truth['customer.address'] = onPage(boxOf(s.text(data.customer.address, 54, 152)));

  // Line items: a grid-ruled table.
  const xs = [54, 300, 370, 460, 558];
  const headerTop = 240;
  const rowHeight = 20;
  const rows = data.items.length + 1;
  for (let r = 0; r <= rows; r++) s.rule(xs[0]!, headerTop - 5 + r * rowHeight, xs[4]!, headerTop - 5 + r * rowHeight);
  for (const x of xs) s.rule(x, headerTop - 5, x, headerTop - 5 + rows * rowHeight);
  ['Description', 'Qty', 'Unit Price', 'Amount'].forEach((title, c) =>
    c === 0 ? s.text(title, xs[0]! + 5, headerTop, { bold: true }) : s.text(title, xs[c + 1]! - 5, headerTop, { bold: true, align: 'right' }),
  );
  data.items.forEach((item, i) => {
    const top = headerTop + (i + 1) * rowHeight;
    truth[`line_items.${i}.description`] = onPage(boxOf(s.text(item.description, xs[0]! + 5, top)));
    truth[`line_items.${i}.quantity`] = onPage(boxOf(s.text(String(item.quantity), xs[2]! - 5, top, { align: 'right' })));
    truth[`line_items.${i}.unit_price`] = onPage(boxOf(s.text(formatMoney(item.unitPrice), xs[3]! - 5, top, { align: 'right' })));
    truth[`line_items.${i}.amount`] = onPage(boxOf(s.text(formatMoney(amounts[i]!), xs[4]! - 5, top, { align: 'right' })));
  });

  // Totals, right-aligned under the table; the payment status at the left.
  const totalsTop = headerTop + rows * rowHeight + 20;
  const totals: Array<[string, string, string]> = [
    ['Subtotal:', formatMoney(subtotal), 'subtotal'],
    [`Tax (${Math.round(data.taxRate * 100)}%):`, formatMoney(tax), 'tax'],
    ['Total Due:', `${CURRENCY_SIGN[data.currency]}${formatMoney(total)}`, 'total'],
  ];
  totals.forEach(([label, value, path], i) => {
    const top = totalsTop + i * 16;
    s.text(label, 460, top, { bold: path === 'total', align: 'right' });
    truth[path] = onPage(boxOf(s.text(value, 558, top, { bold: path === 'total', align: 'right' })));
  });
  s.text('Paid:', 54, totalsTop, { bold: true });
  truth.paid = onPage(boxOf(s.text('No', 84, totalsTop)));
  s.text('Please make payment by bank transfer quoting the invoice number. Thank you for your business.', 54, totalsTop + 70, { size: 9 });
  return truth;
}

const CURRENCY_SIGN = { USD: '$', EUR: '€', GBP: '£' } as const;

export async function invoicePdf(data: InvoiceData = INVOICE): Promise<ExtractFixture> {
  const { pdf, sheet } = await newPdf();
  const truth = drawInvoice(sheet(), data);
  return { name: 'invoice.pdf', kind: 'pdf', bytes: await pdf.save(), schema: INVOICE_SCHEMA, expected: invoiceExpected(data), truth };
}

/** A second invoice, for the scan. */
const SCANNED_INVOICE: InvoiceData = {
  number: 'BW-50219',
  date: { printed: '2024-02-12', iso: '2024-02-12' },
  due: { printed: '2024-03-13', iso: '2024-03-13' },
  vendor: { name: 'Bluewater Supply Co', address: '77 Dock Road, Portsmouth PO1 3AX' },
  customer: { name: 'Harborline Marine Ltd', address: '9 Quay Street, Falmouth TR11 3HH' },
  po: 'HM-4471',
  currency: 'GBP',
  terms: 'Net 30',
  items: [
    { description: 'Mooring rope 20m', quantity: 8, unitPrice: 95 },
    { description: 'Stainless shackle', quantity: 40, unitPrice: 6.25 },
    { description: 'Marine grease tub', quantity: 12, unitPrice: 18.4 },
    { description: 'Deck cleat pair', quantity: 10, unitPrice: 32 },
  ],
  taxRate: 0.2,
};

/**
 * The same layout rendered as a 200 dpi greyscale scan and wrapped in a PDF with no text layer: the
 * reader OCRs it. "£" is printed as "GBP" in the total (OCR reads the pound sign unreliably).
 */
export async function scannedInvoicePdf(dpi = 200): Promise<ExtractFixture> {
  const sheet = new ScanSheet(dpi);
  const truth = drawInvoice(sheet, SCANNED_INVOICE);
  return { name: 'scanned-invoice.pdf', kind: 'pdf', bytes: await scanToPdf(sheet.grey()), schema: INVOICE_SCHEMA, expected: invoiceExpected(SCANNED_INVOICE), truth, ocr: true };
}

// =============================================================================================
// Bank statement (text PDF)

export const STATEMENT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    bank_name: { type: 'string' },
    account_holder: { type: 'string' },
    account_number: { type: 'string' },
    statement_period: {
      type: 'object',
      properties: { start_date: { type: 'string', format: 'date' }, end_date: { type: 'string', format: 'date' } },
      required: ['start_date', 'end_date'],
    },
    opening_balance: { type: 'number' },
    closing_balance: { type: 'number' },
    transactions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          date: { type: 'string', format: 'date' },
          description: { type: 'string' },
          amount: { type: 'number', description: 'Negative for debits' },
          balance: { type: 'number' },
        },
        required: ['date', 'description', 'amount', 'balance'],
      },
    },
  },
  required: ['bank_name', 'account_holder', 'account_number', 'statement_period', 'opening_balance', 'closing_balance', 'transactions'],
};

export async function bankStatementPdf(): Promise<ExtractFixture> {
  const { pdf, sheet } = await newPdf();
  const s = sheet();
  const truth: Record<string, Origin> = {};
  const opening = 5240.18;
  const moves: Array<[string, string, string, number]> = [
    ['03/02/2024', '2024-03-02', 'Grocery Mart #221', -84.12],
    ['03/05/2024', '2024-03-05', 'Payroll Deposit ACME', 2150],
    ['03/09/2024', '2024-03-09', 'City Water Utility', -61.4],
    ['03/14/2024', '2024-03-14', 'Rent Payment March', -1850],
    ['03/21/2024', '2024-03-21', 'Coffee House Downtown', -12.75],
    ['03/27/2024', '2024-03-27', 'Transfer to Savings', -500],
    ['03/30/2024', '2024-03-30', 'Interest Paid', 1.37],
  ];
  truth.bank_name = onPage(boxOf(s.text('First Harbor Bank', 54, 50, { size: 16, bold: true })));
  s.text('PO Box 1200, Portland OR 97201', 54, 72);
  s.text('ACCOUNT STATEMENT', 558, 50, { size: 14, bold: true, align: 'right' });

  s.text('Account Holder:', 54, 110, { bold: true });
  truth.account_holder = onPage(boxOf(s.text('Jordan Ellis', 140, 110)));
  s.text('Account Number:', 330, 110, { bold: true });
  truth.account_number = onPage(boxOf(s.text('4410-2287-9931', 420, 110)));
  s.text('Statement Period:', 54, 126, { bold: true });
  const period = s.text('03/01/2024 - 03/31/2024', 150, 126);
  truth['statement_period.start_date'] = onPage(boxOf(period, '03/01/2024'));
  truth['statement_period.end_date'] = onPage(boxOf(period, '03/31/2024'));
  s.text('Opening Balance:', 54, 142, { bold: true });
  truth.opening_balance = onPage(boxOf(s.text(`$${formatMoney(opening)}`, 150, 142)));

  // Transactions: booktabs rules (above, under the header, below).
  const xs = { date: 54, description: 130, amount: 440, balance: 558 };
  const top0 = 190;
  s.rule(54, top0 - 6, 558, top0 - 6);
  s.text('Date', xs.date, top0, { bold: true });
  s.text('Description', xs.description, top0, { bold: true });
  s.text('Amount', xs.amount, top0, { bold: true, align: 'right' });
  s.text('Balance', xs.balance, top0, { bold: true, align: 'right' });
  s.rule(54, top0 + 14, 558, top0 + 14);
  let balance = opening;
  const transactions = moves.map(([printed, iso, description, amount], i) => {
    balance = cents(balance + amount);
    const top = top0 + 22 + i * 16;
    truth[`transactions.${i}.date`] = onPage(boxOf(s.text(printed, xs.date, top)));
    truth[`transactions.${i}.description`] = onPage(boxOf(s.text(description, xs.description, top)));
    truth[`transactions.${i}.amount`] = onPage(boxOf(s.text(amount < 0 ? `-${formatMoney(-amount)}` : formatMoney(amount), xs.amount, top, { align: 'right' })));
    truth[`transactions.${i}.balance`] = onPage(boxOf(s.text(formatMoney(balance), xs.balance, top, { align: 'right' })));
    return { date: iso, description, amount, balance };
  });
  const bottom = top0 + 22 + moves.length * 16;
  s.rule(54, bottom, 558, bottom);
  s.text('Closing Balance:', 440, bottom + 12, { bold: true, align: 'right' });
  truth.closing_balance = onPage(boxOf(s.text(`$${formatMoney(balance)}`, 558, bottom + 12, { align: 'right' })));
  s.text('Questions? Call 1-800-555-0199 or visit your nearest branch.', 54, bottom + 60, { size: 9 });

  return {
    name: 'statement.pdf',
    kind: 'pdf',
    bytes: await pdf.save(),
    schema: STATEMENT_SCHEMA,
    expected: {
      bank_name: 'First Harbor Bank',
      account_holder: 'Jordan Ellis',
      account_number: '4410-2287-9931',
      statement_period: { start_date: '2024-03-01', end_date: '2024-03-31' },
      opening_balance: opening,
      closing_balance: balance,
      transactions,
    },
    truth,
  };
}

// =============================================================================================
// CSV

export const ORDERS_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    orders: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          order_id: { type: 'string' },
          customer: { type: 'string' },
          order_date: { type: 'string', format: 'date' },
          quantity: { type: 'integer' },
          total: { type: 'number' },
          status: { type: 'string', enum: ['Pending', 'Shipped', 'Delivered', 'Cancelled'] },
        },
        required: ['order_id', 'customer', 'order_date', 'quantity', 'total', 'status'],
      },
    },
  },
  required: ['orders'],
};

export function ordersCsv(): ExtractFixture {
  const rows: Array<[string, string, string, string, number, number, string]> = [
    ['A-1001', 'Acme Corp', '2024-01-15', '2024-01-15', 3, 19.99, 'Shipped'],
    ['A-1002', 'Globex, Inc.', '01/18/2024', '2024-01-18', 1, 249, 'Delivered'],
    ['A-1003', 'Initech', '2024-01-22', '2024-01-22', 12, 4.5, 'Pending'],
    ['A-1004', 'Umbrella Health', '2024-02-02', '2024-02-02', 2, 1200, 'cancelled'],
    ['A-1005', 'Stark Industries', '2024-02-09', '2024-02-09', 7, 15.25, 'Shipped'],
  ];
  const header = ['Order ID', 'Customer', 'Order Date', 'Qty', 'Unit Price', 'Total', 'Status'];
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [header.join(','), ...rows.map(([id, customer, printed, , qty, price, status]) => [id, quote(customer), printed, String(qty), price.toFixed(2), (qty * price).toFixed(2), status].join(','))];
  const truth: Record<string, Origin> = {};
  const columns = { order_id: 0, customer: 1, order_date: 2, quantity: 3, total: 5, status: 6 };
  rows.forEach((_, i) => {
    for (const [key, column] of Object.entries(columns)) truth[`orders.${i}.${key}`] = { kind: 'cell', row: i + 2, column };
  });
  return {
    name: 'orders.csv',
    kind: 'csv',
    bytes: new TextEncoder().encode(`${lines.join('\n')}\n`),
    schema: ORDERS_SCHEMA,
    expected: {
      orders: rows.map(([order_id, customer, , iso, quantity, price, status]) => ({
        order_id,
        customer,
        order_date: iso,
        quantity,
        total: cents(quantity * price),
        status: status[0]!.toUpperCase() + status.slice(1),
      })),
    },
    truth,
  };
}

// =============================================================================================
// XLSX (two sheets: a key-value summary and a staff table)

export const WORKBOOK_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    company: { type: 'string' },
    report_date: { type: 'string', format: 'date' },
    total_revenue: { type: 'number' },
    headcount: { type: 'integer', title: 'Employees' },
    staff: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          department: { type: 'string' },
          salary: { type: 'number' },
          start_date: { type: 'string', format: 'date' },
          full_time: { type: 'boolean' },
        },
        required: ['name', 'department', 'salary', 'start_date', 'full_time'],
      },
    },
  },
  required: ['company', 'report_date', 'total_revenue', 'headcount', 'staff'],
};

export async function workbookXlsx(): Promise<ExtractFixture> {
  const workbook = new ExcelJS.Workbook();
  const summary = workbook.addWorksheet('Summary');
  summary.addRow(['Quarterly Report']);
  summary.addRow([]);
  summary.addRow(['Company', 'Blue Ridge Analytics']);
  summary.addRow(['Report Date', new Date(Date.UTC(2024, 2, 31))]);
  summary.getCell('B4').numFmt = 'yyyy-mm-dd';
  summary.addRow(['Total Revenue', 1284500.5]);
  summary.getCell('B5').numFmt = '#,##0.00';
  summary.addRow(['Employees', 42]);
  const staff = workbook.addWorksheet('Staff');
  const people: Array<[string, string, number, Date, boolean]> = [
    ['Avery Chen', 'Engineering', 128000, new Date(Date.UTC(2019, 5, 3)), true],
    ['Blake Moreno', 'Sales', 86500, new Date(Date.UTC(2021, 0, 11)), true],
    ['Casey Ndiaye', 'Finance', 97250, new Date(Date.UTC(2018, 8, 24)), false],
    ['Devon Park', 'Engineering', 134000, new Date(Date.UTC(2022, 3, 18)), true],
    ['Emery Walsh', 'Support', 58900, new Date(Date.UTC(2023, 10, 6)), false],
  ];
  staff.addRow(['Name', 'Department', 'Salary', 'Start Date', 'Full Time']);
  for (const person of people) staff.addRow(person);
  for (let r = 2; r <= people.length + 1; r++) staff.getCell(`D${r}`).numFmt = 'yyyy-mm-dd';
  const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());

  const cell = (sheetIndex: number, sheetName: string, row: number, column: number): Origin => ({ kind: 'cell', sheetIndex, sheetName, row, column });
  const truth: Record<string, Origin> = {
    company: cell(0, 'Summary', 3, 1),
    report_date: cell(0, 'Summary', 4, 1),
    total_revenue: cell(0, 'Summary', 5, 1),
    headcount: cell(0, 'Summary', 6, 1),
  };
  people.forEach((_, i) => {
    ['name', 'department', 'salary', 'start_date', 'full_time'].forEach((key, column) => (truth[`staff.${i}.${key}`] = cell(1, 'Staff', i + 2, column)));
  });
  return {
    name: 'report.xlsx',
    kind: 'xlsx',
    bytes,
    schema: WORKBOOK_SCHEMA,
    expected: {
      company: 'Blue Ridge Analytics',
      report_date: '2024-03-31',
      total_revenue: 1284500.5,
      headcount: 42,
      staff: people.map(([name, department, salary, start, fullTime]) => ({ name, department, salary, start_date: start.toISOString().slice(0, 10), full_time: fullTime })),
    },
    truth,
  };
}

// =============================================================================================
// DOCX (paragraphs and a table)

export const PURCHASE_ORDER_SCHEMA: JsonSchema = {
  type: 'object',
  definitions: {
    Item: {
      type: 'object',
      properties: {
        item: { type: 'string' },
        quantity: { type: 'integer' },
        unit_cost: { type: 'number' },
        line_total: { type: 'number' },
      },
      required: ['item', 'quantity', 'unit_cost', 'line_total'],
    },
  },
  properties: {
    po_number: { type: 'string' },
    order_date: { type: 'string', format: 'date' },
    supplier_name: { type: 'string' },
    ship_to_address: { type: ['string', 'null'] },
    requested_by: { type: ['string', 'null'] },
    items: { type: 'array', items: { $ref: '#/definitions/Item' } },
    total: { type: 'number' },
    approved: { type: 'boolean' },
    contact_email: { type: ['string', 'null'], format: 'email' },
  },
  required: ['po_number', 'order_date', 'supplier_name', 'ship_to_address', 'requested_by', 'items', 'total', 'approved', 'contact_email'],
};

export async function purchaseOrderDocx(): Promise<ExtractFixture> {
  const truth: Record<string, Origin> = {};
  const paragraphs: string[] = [];
  /** A "Label: value" paragraph; the truth is the value's code-point span in it. */
  const field = (label: string, value: string, path?: string) => {
    const text = `${label}: ${value}`;
    if (path) {
      const start = [...text.slice(0, text.lastIndexOf(value))].length;
      truth[path] = { kind: 'docx_paragraph', paragraph: paragraphs.length, charStart: start, charEnd: start + [...value].length };
    }
    paragraphs.push(text);
  };
  paragraphs.push('Purchase Order');
  field('PO Number', 'PO-7781', 'po_number');
  field('Order Date', '10 February 2024', 'order_date');
  field('Supplier', 'Eastfield Components GmbH', 'supplier_name');
  field('Ship To', '18 Canal Road, Leeds LS1 2AB', 'ship_to_address');
  field('Requested By', 'María López', 'requested_by');
  const intro = paragraphs.length;
  paragraphs.push('Please supply the following items:');

  const items: Array<[string, number, number]> = [
    ['Servo motor SM-40', 4, 310],
    ['Controller board rev C', 4, 455.5],
    ['Shielded cable 5m', 10, 21],
    ['Mounting bracket', 8, 12.75],
  ];
  const rows = [tr([tc('Item'), tc('Qty'), tc('Unit Cost'), tc('Line Total')], true)];
  items.forEach(([name, qty, cost], i) => {
    const cells = [name, String(qty), formatMoney(cost), formatMoney(qty * cost)];
    rows.push(tr(cells.map((c) => tc(c))));
    ['item', 'quantity', 'unit_cost', 'line_total'].forEach((key, column) => {
      truth[`items.${i}.${key}`] = { kind: 'docx_cell', table: 0, row: i + 1, column, charStart: 0, charEnd: [...cells[column]!].length };
    });
  });
  const total = items.reduce((sum, [, qty, cost]) => sum + qty * cost, 0);
  const after: string[] = [];
  const fieldAfter = (label: string, value: string, path: string, valueText = value) => {
    const text = `${label}: ${value}`;
    const start = [...text.slice(0, text.indexOf(valueText))].length;
    truth[path] = { kind: 'docx_paragraph', paragraph: paragraphs.length + after.length, charStart: start, charEnd: start + [...valueText].length };
    after.push(text);
  };
  fieldAfter('Total', `EUR ${formatMoney(total)}`, 'total', formatMoney(total));
  fieldAfter('Approved', 'Yes', 'approved');
  fieldAfter('Questions', 'contact procurement@eastfield-demo.de', 'contact_email', 'procurement@eastfield-demo.de');

  const body = [
    para(paragraphs[0]!, '<w:pStyle w:val="Heading1"/>'),
    ...paragraphs.slice(1, intro + 1).map((p) => para(p)),
    tbl(4, rows),
    ...after.map((p) => para(p)),
  ].join('');
  return {
    name: 'purchase-order.docx',
    kind: 'docx',
    bytes: new Uint8Array(await buildDocx({ body })),
    schema: PURCHASE_ORDER_SCHEMA,
    expected: {
      po_number: 'PO-7781',
      order_date: '2024-02-10',
      supplier_name: 'Eastfield Components GmbH',
      ship_to_address: '18 Canal Road, Leeds LS1 2AB',
      requested_by: 'María López',
      items: items.map(([item, quantity, unit_cost]) => ({ item, quantity, unit_cost, line_total: cents(quantity * unit_cost) })),
      total: cents(total),
      approved: true,
      contact_email: 'procurement@eastfield-demo.de',
    },
    truth,
  };
}

// =============================================================================================
// TXT (a receipt with a space-aligned item list)

export const RECEIPT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    store_name: { type: 'string' },
    receipt_number: { type: 'string' },
    date: { type: 'string', format: 'date' },
    cashier: { type: ['string', 'null'] },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, quantity: { type: 'integer' }, price: { type: 'number', description: 'Unit price' } },
        required: ['name', 'quantity', 'price'],
      },
    },
    subtotal: { type: 'number' },
    tax: { type: 'number' },
    total: { type: 'number' },
    payment_method: { type: ['string', 'null'] },
    email: { type: ['string', 'null'], format: 'email' },
    loyalty_member: { type: ['boolean', 'null'] },
  },
  required: ['store_name', 'receipt_number', 'date', 'cashier', 'items', 'subtotal', 'tax', 'total', 'payment_method', 'email', 'loyalty_member'],
};

/** Builds a text file line by line and gives the `text` origin of a value printed on a line. */
class TextFile {
  readonly lines: string[] = [];
  add(line: string): number {
    this.lines.push(line);
    return this.lines.length;
  }
  /** The span of `value` on line `number` (1-based), the `occurrence`-th time it appears there. */
  span(number: number, value: string, from = 0): Origin {
    const line = this.lines[number - 1]!;
    const at = line.indexOf(value, from);
    if (at < 0) throw new Error(`"${value}" is not on line ${number}`);
    const before = this.lines.slice(0, number - 1).reduce((sum, l) => sum + [...l].length + 1, 0);
    const start = before + [...line.slice(0, at)].length;
    return { kind: 'text', lineStart: number, lineEnd: number, charStart: start, charEnd: start + [...value].length };
  }
  get text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

export function receiptTxt(): ExtractFixture {
  const f = new TextFile();
  const truth: Record<string, Origin> = {};
  const items: Array<[string, number, number]> = [
    ['House Blend 1lb', 2, 14.5],
    ['Oat Milk Latte', 1, 5.25],
    ['Almond Croissant', 3, 4.1],
  ];
  const subtotal = cents(items.reduce((s, [, q, p]) => s + q * p, 0));
  const tax = cents(subtotal * 0.1);
  const total = cents(subtotal + tax);
  f.add('RECEIPT');
  let n = f.add('Harbor Street Coffee Roasters');
  truth.store_name = f.span(n, 'Harbor Street Coffee Roasters');
  f.add('88 Harbor Street, Seattle WA 98101');
  f.add('');
  n = f.add('Receipt No: R-55317');
  truth.receipt_number = f.span(n, 'R-55317');
  n = f.add('Date: 01/15/2024    Time: 08:42');
  truth.date = f.span(n, '01/15/2024');
  n = f.add('Cashier: Dana');
  truth.cashier = f.span(n, 'Dana');
  f.add('');
  f.add('Item                    Qty     Price');
  items.forEach(([name, qty, price], i) => {
    const line = `${name.padEnd(24)}${String(qty).padStart(3)}${price.toFixed(2).padStart(10)}`;
    n = f.add(line);
    truth[`items.${i}.name`] = f.span(n, name);
    truth[`items.${i}.quantity`] = f.span(n, String(qty), 24);
    truth[`items.${i}.price`] = f.span(n, price.toFixed(2), 27);
  });
  f.add('');
  n = f.add(`Subtotal: ${subtotal.toFixed(2)}`);
  truth.subtotal = f.span(n, subtotal.toFixed(2));
  n = f.add(`Tax (10%): ${tax.toFixed(2)}`);
  truth.tax = f.span(n, tax.toFixed(2));
  n = f.add(`Total: $${total.toFixed(2)}`);
  truth.total = f.span(n, `$${total.toFixed(2)}`);
  n = f.add('Payment Method: Visa ending 4417');
  truth.payment_method = f.span(n, 'Visa ending 4417');
  n = f.add('Email: receipts@harborcoffee.example');
  truth.email = f.span(n, 'receipts@harborcoffee.example');
  f.add('Thank you for visiting!');
  return {
    name: 'receipt.txt',
    kind: 'txt',
    bytes: new TextEncoder().encode(f.text),
    schema: RECEIPT_SCHEMA,
    expected: {
      store_name: 'Harbor Street Coffee Roasters',
      receipt_number: 'R-55317',
      date: '2024-01-15',
      cashier: 'Dana',
      items: items.map(([name, quantity, price]) => ({ name, quantity, price })),
      subtotal,
      tax,
      total,
      payment_method: 'Visa ending 4417',
      email: 'receipts@harborcoffee.example',
      loyalty_member: null,
    },
    truth,
  };
}

/** Every fixture but the scan (fast to build and read). */
export async function textFixtures(): Promise<ExtractFixture[]> {
  return [await invoicePdf(), await bankStatementPdf(), ordersCsv(), await workbookXlsx(), await purchaseOrderDocx(), receiptTxt(), await euInvoicePdf(), shippingNoticeTxt()];
}

// =============================================================================================
// Scoring

/** Every leaf path of a value ("line_items.2.amount"); empty arrays and objects have none. */
export function leafPaths(value: unknown, prefix = ''): string[] {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => leafPaths(v, prefix ? `${prefix}.${key}` : key));
  }
  return [prefix];
}

export function at(tree: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), tree);
}

/** Values agree: numbers to the cent, strings with spaces normalized, the rest exactly. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 0.005;
  if (typeof a === 'string' && typeof b === 'string') return a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();
  return JSON.stringify(a) === JSON.stringify(b);
}

export function iou(a: Box, b: Box): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  const inter = w > 0 && h > 0 ? w * h : 0;
  const total = a.width * a.height + b.width * b.height - inter;
  return total > 0 ? inter / total : 0;
}

export interface Score {
  fixture: string;
  /** Leaves of the expected output, and how many the extraction got right. */
  leaves: number;
  right: number;
  wrong: string[];
  /** For leaves with a known place and a source: IoU (boxes) or 1/0 (cells and spans exact). */
  provenance: Array<{ path: string; score: number; kind: 'box' | 'exact' }>;
}

/** Compares an extraction with the fixture's expected output and known places. */
export function score(fixture: ExtractFixture, output: unknown, sources: unknown, paths = leafPaths(fixture.expected)): Score {
  const result: Score = { fixture: fixture.name, leaves: 0, right: 0, wrong: [], provenance: [] };
  for (const path of paths) {
    result.leaves++;
    const want = at(fixture.expected, path);
    const got = at(output, path);
    if (sameValue(want, got)) result.right++;
    else result.wrong.push(`${path}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
    const truth = fixture.truth[path];
    const source = at(sources, path) as { origin: Origin } | null | undefined;
    if (!truth || !source) continue;
    if (truth.kind === 'box') {
      const box = source.origin.kind === 'box' && source.origin.page === truth.page ? source.origin.box : undefined;
      result.provenance.push({ path, score: box ? iou(box, truth.box) : 0, kind: 'box' });
    } else {
      result.provenance.push({ path, score: JSON.stringify(source.origin) === JSON.stringify(truth) ? 1 : 0, kind: 'exact' });
    }
  }
  return result;
}

// =============================================================================================
// Variants: other layouts and other schema styles (camelCase keys, titles, descriptions)

export const EU_INVOICE_SCHEMA: JsonSchema = {
  type: 'object',
  $defs: {
    Company: {
      type: 'object',
      properties: { companyName: { type: 'string' }, address: { type: ['string', 'null'] } },
      required: ['companyName', 'address'],
    },
  },
  properties: {
    invoiceNo: { type: 'string' },
    issueDate: { type: 'string', format: 'date' },
    dueDate: { type: ['string', 'null'], format: 'date' },
    seller: { $ref: '#/$defs/Company' },
    buyer: { $ref: '#/$defs/Company' },
    orderReference: { type: ['string', 'null'] },
    currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] },
    terms: { type: ['string', 'null'] },
    netAmount: { type: 'number', description: 'Total before VAT' },
    vatAmount: { type: 'number' },
    grossAmount: { type: 'number', description: 'Total amount payable including VAT' },
    isPaid: { type: 'boolean' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { itemName: { type: 'string' }, qty: { type: 'integer' }, rate: { type: 'number' }, lineTotal: { type: 'number' } },
        required: ['itemName', 'qty', 'rate', 'lineTotal'],
      },
    },
  },
  required: ['invoiceNo', 'issueDate', 'dueDate', 'seller', 'buyer', 'orderReference', 'currency', 'terms', 'netAmount', 'vatAmount', 'grossAmount', 'isPaid', 'items'],
};

/** "1.234,56": continental European number format. */
const euro = (x: number) => x.toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * A continental invoice: labelled FROM / INVOICE TO blocks (capitals, no colons), the header fields as
 * a two-column list without colons, day-first dates, comma decimals, an unruled item table with one
 * rule under its header, the currency only as the € of the total, the payment status as "Status: Paid".
 */
export async function euInvoicePdf(): Promise<ExtractFixture> {
  const { pdf, sheet } = await newPdf();
  const s = sheet();
  const truth: Record<string, Origin> = {};
  s.text('FROM', 54, 50, { size: 8, bold: true });
  truth['seller.companyName'] = onPage(boxOf(s.text('Atelier Lumiere SARL', 54, 62, { size: 11, bold: true })));
  truth['seller.address'] = onPage(boxOf(s.text('14 Rue des Artisans, 69002 Lyon', 54, 76)));
  s.text('TAX INVOICE', 558, 50, { size: 20, bold: true, align: 'right' });
  s.text('INVOICE TO', 54, 110, { size: 8, bold: true });
  truth['buyer.companyName'] = onPage(boxOf(s.text('Kestrel Outdoor GmbH', 54, 122, { size: 11, bold: true })));
  truth['buyer.address'] = onPage(boxOf(s.text('Hauptstrasse 5, 10115 Berlin', 54, 136)));

  const header: Array<[string, string, string]> = [
    ['Invoice #', 'F-2024-118', 'invoiceNo'],
    ['Issue Date', '15/03/2024', 'issueDate'],
    ['Due', '14/04/2024', 'dueDate'],
    ['Order Ref', 'KO-5520', 'orderReference'],
    ['Terms', '30 days', 'terms'],
  ];
  header.forEach(([label, value, path], i) => {
    const top = 110 + i * 15;
    s.text(label, 370, top, { bold: true });
    truth[path] = onPage(boxOf(s.text(value, 470, top)));
  });

  const items: Array<[string, number, number]> = [
    ['Linen tablecloth 180x120', 6, 48],
    ['Ceramic serving bowl', 10, 22.5],
    ['Oak cheese board', 4, 35.9],
    ['Hand-dyed napkin set', 12, 14.75],
  ];
  const top0 = 220;
  s.text('Item', 54, top0, { bold: true });
  s.text('Quantity', 340, top0, { bold: true, align: 'right' });
  s.text('Rate', 430, top0, { bold: true, align: 'right' });
  s.text('Line Total', 558, top0, { bold: true, align: 'right' });
  s.rule(54, top0 + 14, 558, top0 + 14);
  items.forEach(([name, qty, rate], i) => {
    const top = top0 + 22 + i * 17;
    truth[`items.${i}.itemName`] = onPage(boxOf(s.text(name, 54, top)));
    truth[`items.${i}.qty`] = onPage(boxOf(s.text(String(qty), 340, top, { align: 'right' })));
    truth[`items.${i}.rate`] = onPage(boxOf(s.text(euro(rate), 430, top, { align: 'right' })));
    truth[`items.${i}.lineTotal`] = onPage(boxOf(s.text(euro(cents(qty * rate)), 558, top, { align: 'right' })));
  });
  const net = cents(items.reduce((sum, [, q, r]) => sum + q * r, 0));
  const vat = cents(net * 0.2);
  const gross = cents(net + vat);
  const totalsTop = top0 + 22 + items.length * 17 + 24;
  const totals: Array<[string, string, string]> = [
    ['Sub-total', euro(net), 'netAmount'],
    ['VAT 20%', euro(vat), 'vatAmount'],
    ['Amount Due', `€${euro(gross)}`, 'grossAmount'],
  ];
  totals.forEach(([label, value, path], i) => {
    const top = totalsTop + i * 16;
    s.text(label, 400, top, { bold: true });
    truth[path] = onPage(boxOf(s.text(value, 558, top, { align: 'right' })));
  });
  s.text('Status:', 54, totalsTop, { bold: true });
  truth.isPaid = onPage(boxOf(s.text('Paid', 92, totalsTop)));
  s.text('IBAN FR76 3000 6000 0112 3456 7890 189 - BIC AGRIFRPP', 54, totalsTop + 80, { size: 8 });

  return {
    name: 'eu-invoice.pdf',
    kind: 'pdf',
    bytes: await pdf.save(),
    schema: EU_INVOICE_SCHEMA,
    expected: {
      invoiceNo: 'F-2024-118',
      issueDate: '2024-03-15',
      dueDate: '2024-04-14',
      seller: { companyName: 'Atelier Lumiere SARL', address: '14 Rue des Artisans, 69002 Lyon' },
      buyer: { companyName: 'Kestrel Outdoor GmbH', address: 'Hauptstrasse 5, 10115 Berlin' },
      orderReference: 'KO-5520',
      currency: 'EUR',
      terms: '30 days',
      netAmount: net,
      vatAmount: vat,
      grossAmount: gross,
      isPaid: true,
      items: items.map(([itemName, qty, rate]) => ({ itemName, qty, rate, lineTotal: cents(qty * rate) })),
    },
    truth,
  };
}

export const SHIPPING_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    shipment_id: { type: 'string' },
    ship_date: { type: 'string', format: 'date' },
    carrier: { type: 'string' },
    consignee: { type: 'object', properties: { name: { type: 'string' }, address: { type: 'string' } }, required: ['name', 'address'] },
    weight_kg: { type: 'number' },
    pieces: { type: 'integer' },
    insured: { type: 'boolean' },
    tracking_number: { type: ['string', 'null'] },
    notes: { type: ['string', 'null'] },
    packages: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string' }, description: { type: 'string' }, quantity: { type: 'integer' } },
        required: ['sku', 'description', 'quantity'],
      },
    },
  },
  required: ['shipment_id', 'ship_date', 'carrier', 'consignee', 'weight_kg', 'pieces', 'insured', 'tracking_number', 'notes', 'packages'],
};

/** A text form with its first fields as a row of capitalized labels over a row of values. */
export function shippingNoticeTxt(): ExtractFixture {
  const f = new TextFile();
  const truth: Record<string, Origin> = {};
  f.add('SHIPPING NOTICE');
  f.add('');
  f.add('SHIPMENT ID        SHIP DATE        CARRIER');
  let n = f.add('SN-40918           2024-05-02       Northline Freight');
  truth.shipment_id = f.span(n, 'SN-40918');
  truth.ship_date = f.span(n, '2024-05-02');
  truth.carrier = f.span(n, 'Northline Freight');
  f.add('');
  f.add('Consignee:');
  n = f.add('Riverbend Hardware');
  truth['consignee.name'] = f.span(n, 'Riverbend Hardware');
  n = f.add('220 Mill Lane, Dayton OH 45402');
  truth['consignee.address'] = f.span(n, '220 Mill Lane, Dayton OH 45402');
  f.add('');
  n = f.add('Weight (kg): 412.5');
  truth.weight_kg = f.span(n, '412.5');
  n = f.add('Pieces: 18');
  truth.pieces = f.span(n, '18');
  n = f.add('Insured: yes');
  truth.insured = f.span(n, 'yes');
  n = f.add('Tracking: NLF 7733 9120 44');
  truth.tracking_number = f.span(n, 'NLF 7733 9120 44');
  n = f.add('Notes: Deliver to loading dock B before noon.');
  truth.notes = f.span(n, 'Deliver to loading dock B before noon.');
  f.add('');
  f.add('PACKAGES');
  f.add('SKU        Description              Qty');
  const packages: Array<[string, string, number]> = [
    ['HW-1001', 'Galvanized nails 5kg', 10],
    ['HW-2040', 'Door hinge set', 5],
    ['HW-3310', 'Drywall screws box', 3],
  ];
  packages.forEach(([sku, description, quantity], i) => {
    n = f.add(`${sku.padEnd(11)}${description.padEnd(25)}${String(quantity).padStart(3)}`);
    truth[`packages.${i}.sku`] = f.span(n, sku);
    truth[`packages.${i}.description`] = f.span(n, description);
    truth[`packages.${i}.quantity`] = f.span(n, String(quantity), 30);
  });
  return {
    name: 'shipping-notice.txt',
    kind: 'txt',
    bytes: new TextEncoder().encode(f.text),
    schema: SHIPPING_SCHEMA,
    expected: {
      shipment_id: 'SN-40918',
      ship_date: '2024-05-02',
      carrier: 'Northline Freight',
      consignee: { name: 'Riverbend Hardware', address: '220 Mill Lane, Dayton OH 45402' },
      weight_kg: 412.5,
      pieces: 18,
      insured: true,
      tracking_number: 'NLF 7733 9120 44',
      notes: 'Deliver to loading dock B before noon.',
      packages: packages.map(([sku, description, quantity]) => ({ sku, description, quantity })),
    },
    truth,
  };
}
