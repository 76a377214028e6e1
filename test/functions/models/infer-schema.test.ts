/**
 * Schema generation by the local engine (API §7): real files read by the real readers, the schema
 * compiled by ajv in strict mode, and round-tripped through the local extractor.
 */
import { withNullableValues } from '../../../functions/models/nullable-schema.ts';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Doc } from '../../../functions/documents/doc.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import type { DocumentKind } from '../../../functions/documents/sniff.ts';
import { localExtractor } from '../../../functions/models/local/extract.ts';
import { inferSchema, inferSchemaWithValues } from '../../../functions/models/local/infer-schema.ts';
import { bankStatementPdf, invoicePdf, leafPaths, at, ordersCsv, workbookXlsx } from '../../support/extract-fixtures.ts';
import { textPdf } from '../../support/text-pdf.ts';

type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as unknown as FormatsPlugin;

function strictAjv(): Ajv {
  const ajv = new Ajv({ strict: true });
  addFormats(ajv);
  return ajv;
}

const read = (bytes: Uint8Array, kind: DocumentKind): Promise<Doc> => readDocument(bytes, { kind, dpi: 150, deadline: Date.now() + 60_000 });

type Props = Record<string, Record<string, unknown>>;
const propsOf = (schema: Record<string, unknown>) => schema.properties as Props;

/** Every object level: all properties required, no additional properties, every property described. */
function expectStrictLevels(node: Record<string, unknown>): void {
  const props = node.properties as Props;
  expect(node.type).toBe('object');
  expect(node.additionalProperties).toBe(false);
  expect([...(node.required as string[])].sort()).toEqual(Object.keys(props).sort());
  for (const [name, prop] of Object.entries(props)) {
    expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(typeof prop.description, name).toBe('string');
  }
}

const same = (a: unknown, b: unknown) =>
  typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < 0.005 : typeof a === 'string' && typeof b === 'string' ? a.trim().toLowerCase() === b.trim().toLowerCase() : a === b;

/** Extracts each example with the generated schema; the share of inferred values read back. */
async function roundTrip(docs: Doc[], name: string, instructions: string | null = null): Promise<{ accuracy: number; misses: string[] }> {
  const { schema, values } = inferSchemaWithValues(docs, { instructions });
  const ajv = strictAjv();
  const validate = ajv.compile(withNullableValues(schema));
  let total = 0;
  let hits = 0;
  const misses: string[] = [];
  for (const [d, doc] of docs.entries()) {
    const { output } = await localExtractor.extract({ doc, schema, instructions: null, nConsensus: 1, seed: 'roundtrip' });
    expect(validate(output), JSON.stringify(validate.errors)).toBe(true);
    for (const path of leafPaths(values[d])) {
      const want = at(values[d], path);
      if (want === null) continue;
      total++;
      if (same(at(output, path), want)) hits++;
      else misses.push(`${d}:${path} want ${JSON.stringify(want)} got ${JSON.stringify(at(output, path))}`);
    }
  }
  const accuracy = total === 0 ? 1 : hits / total;
  console.log(`[infer-schema] ${name}: round-trip ${hits}/${total} = ${(accuracy * 100).toFixed(1)}%${misses.length ? `; misses: ${misses.slice(0, 8).join('; ')}` : ''}`);
  return { accuracy, misses };
}

const INVOICES = [
  {
    number: 'INV-2024-0042', date: { printed: 'March 5, 2024', iso: '2024-03-05' }, due: { printed: 'April 4, 2024', iso: '2024-04-04' },
    vendor: { name: 'Northwind Traders Ltd', address: '42 Harbour Street, Bristol BS1 4QA' }, customer: { name: 'Contoso Engineering Inc', address: '500 Market Street, Riverside CA 92501' },
    po: 'PO-88213', currency: 'USD' as const, terms: 'Net 30',
    items: [{ description: 'Hydraulic pump HP-220', quantity: 12, unitPrice: 1250 }, { description: 'Spare seal kit', quantity: 24, unitPrice: 38.5 }, { description: 'Freight and handling', quantity: 1, unitPrice: 420 }],
    taxRate: 0.08,
  },
  {
    number: 'INV-2024-0057', date: { printed: 'May 17, 2024', iso: '2024-05-17' }, due: { printed: 'June 16, 2024', iso: '2024-06-16' },
    vendor: { name: 'Northwind Traders Ltd', address: '42 Harbour Street, Bristol BS1 4QA' }, customer: { name: 'Fabrikam Logistics', address: '18 Canal Way, Leeds LS1 4AP' },
    po: 'PO-90110', currency: 'USD' as const, terms: 'Net 15',
    items: [{ description: 'Conveyor belt 12m', quantity: 2, unitPrice: 3400 }, { description: 'Belt tensioner', quantity: 4, unitPrice: 125.75 }],
    taxRate: 0.08,
  },
  {
    number: 'INV-2024-0061', date: { printed: 'June 2, 2024', iso: '2024-06-02' }, due: { printed: 'July 2, 2024', iso: '2024-07-02' },
    vendor: { name: 'Northwind Traders Ltd', address: '42 Harbour Street, Bristol BS1 4QA' }, customer: { name: 'Tailspin Toys Ltd', address: '7 Mill Lane, York YO1 7HB' },
    po: 'PO-90377', currency: 'USD' as const, terms: 'Net 30',
    items: [{ description: 'Safety goggles', quantity: 50, unitPrice: 8.9 }, { description: 'Work gloves', quantity: 100, unitPrice: 4.25 }, { description: 'First aid kit', quantity: 5, unitPrice: 64 }, { description: 'Delivery', quantity: 1, unitPrice: 35 }],
    taxRate: 0.08,
  },
];

describe('inferSchema: invoices of one layout', () => {
  it('finds the header fields and a $defs line item, compiles strictly, and round-trips through the extractor', async () => {
    const docs = await Promise.all(INVOICES.map(async (data) => read((await invoicePdf(data)).bytes, 'pdf')));
    const result = inferSchema(docs, { instructions: null });
    expect(result.schemaType).toBe('invoice');
    expect(result.title).toBe('Invoice');
    const { schema } = result;
    expect(schema.title).toBe('Invoice');
    expect(typeof schema.description).toBe('string');
    expect(schema).not.toHaveProperty('$schema');
    expect(() => strictAjv().compile(schema)).not.toThrow();
    expectStrictLevels(schema);
    const p = propsOf(schema);
    expect(p.invoice_number).toMatchObject({ type: 'string' });
    expect(p.invoice_number!.description).toContain("labelled 'Invoice Number'");
    expect(p.invoice_date).toMatchObject({ type: 'string', format: 'date' });
    expect(p.due_date).toMatchObject({ type: 'string', format: 'date' });
    expect(p.po_number).toMatchObject({ type: 'string' });
    expect(p.payment_terms).toMatchObject({ type: 'string' });
    expect(p.bill_to).toMatchObject({ type: 'string' });
    expect(p.subtotal).toMatchObject({ type: 'number' });
    expect(p.tax).toMatchObject({ type: 'number' });
    expect(p.total_due).toMatchObject({ type: 'number' });
    expect(p.paid).toMatchObject({ type: 'boolean' });
    expect(p.line_items).toMatchObject({ type: 'array', items: { $ref: '#/$defs/LineItem' } });
    const item = (schema.$defs as Record<string, Record<string, unknown>>).LineItem!;
    expectStrictLevels(item);
    expect(propsOf(item)).toMatchObject({
      description: { type: 'string' },
      qty: { type: 'integer' },
      unit_price: { type: 'number' },
      amount: { type: 'number' },
    });
    const { accuracy } = await roundTrip(docs, '3 invoices');
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
    // Deterministic.
    expect(JSON.stringify(inferSchema(docs, { instructions: null }))).toBe(JSON.stringify(result));
  }, 60_000);

  it('makes a field missing in some examples nullable and widens conflicting types', async () => {
    const a = await read(await textPdf([['PURCHASE ORDER', 'Order Number: PO-1', 'Quantity: 12', 'Contact: ann@example.com', 'Approved: Yes', 'Notes: urgent']]), 'pdf');
    const b = await read(await textPdf([['PURCHASE ORDER', 'Order Number: PO-2', 'Quantity: 12.5', 'Contact: bob@example.com', 'Approved: No']]), 'pdf');
    const c = await read(await textPdf([['PURCHASE ORDER', 'Order Number: PO-3', 'Quantity: 3', 'Contact: see attached', 'Approved: Yes']]), 'pdf');
    const { schema, schemaType } = inferSchema([a, b, c], { instructions: null });
    expect(schemaType).toBe('purchase_order');
    const p = propsOf(schema);
    expect(p.quantity).toMatchObject({ type: 'number' });
    expect(p.contact).toMatchObject({ type: 'string' });
    expect(p.contact).not.toHaveProperty('format');
    expect(p.approved).toMatchObject({ type: 'boolean' });
    expect(p.notes).toMatchObject({ type: ['string', 'null'] });
    expect(() => strictAjv().compile(schema)).not.toThrow();
  });
});

describe('inferSchema: other documents', () => {
  it('a payslip PDF', async () => {
    const lines = (name: string, id: string, date: string, gross: string, net: string) => [
      'ACME MANUFACTURING LTD',
      'PAYSLIP',
      `Employee Name: ${name}`,
      `Employee ID: ${id}`,
      `Pay Date: ${date}`,
      'Email: payroll@acme.example',
      'Phone: +44 20 7946 0958',
      `Gross Pay: ${gross}`,
      'Tax Code: 1257L',
      `Net Pay: ${net}`,
      'Hours Worked: 160',
    ];
    const docs = [
      await read(await textPdf([lines('Priya Shah', '10234', '31/03/2024', '£3,250.00', '£2,611.40')]), 'pdf'),
      await read(await textPdf([lines('Tom Baker', '10388', '30/04/2024', '£2,980.50', '£2,402.10')]), 'pdf'),
    ];
    const { schema, schemaType, title } = inferSchema(docs, { instructions: null });
    expect(schemaType).toBe('payslip');
    expect(title).toBe('Payslip');
    expectStrictLevels(schema);
    expect(() => strictAjv().compile(schema)).not.toThrow();
    const p = propsOf(schema);
    expect(p.employee_name).toMatchObject({ type: 'string' });
    expect(p.employee_id).toMatchObject({ type: 'string' });
    expect(p.pay_date).toMatchObject({ type: 'string', format: 'date' });
    expect(p.email).toMatchObject({ type: 'string', format: 'email' });
    expect(p.phone).toMatchObject({ type: 'string' });
    expect(String(p.phone!.description)).toMatch(/phone/i);
    expect(p.gross_pay).toMatchObject({ type: 'number' });
    expect(p.net_pay).toMatchObject({ type: 'number' });
    expect(p.tax_code).toMatchObject({ type: 'string' });
    expect(p.hours_worked).toMatchObject({ type: 'integer' });
    const { accuracy } = await roundTrip(docs, 'payslips');
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('a bank statement', async () => {
    const doc = await read((await bankStatementPdf()).bytes, 'pdf');
    const { schema, schemaType } = inferSchema([doc], { instructions: null });
    expect(schemaType).toBe('bank_statement');
    expectStrictLevels(schema);
    expect(() => strictAjv().compile(schema)).not.toThrow();
    const p = propsOf(schema);
    expect(p.account_holder).toMatchObject({ type: 'string' });
    expect(p.account_number).toMatchObject({ type: 'string' });
    expect(p.statement_period_start).toMatchObject({ type: 'string', format: 'date' });
    expect(p.statement_period_end).toMatchObject({ type: 'string', format: 'date' });
    expect(p.opening_balance).toMatchObject({ type: 'number' });
    expect(p.closing_balance).toMatchObject({ type: 'number' });
    expect(p.transactions).toMatchObject({ type: 'array', items: { $ref: '#/$defs/Transaction' } });
    expect(propsOf((schema.$defs as Record<string, Record<string, unknown>>).Transaction!)).toMatchObject({
      date: { type: 'string', format: 'date' },
      description: { type: 'string' },
      amount: { type: 'number' },
      balance: { type: 'number' },
    });
    const { accuracy } = await roundTrip([doc], 'bank statement');
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('a CSV', async () => {
    const doc = await read(ordersCsv().bytes, 'csv');
    const { schema, schemaType } = inferSchema([doc], { instructions: null });
    expect(schemaType).toBe('document');
    expectStrictLevels(schema);
    expect(() => strictAjv().compile(schema)).not.toThrow();
    expect(propsOf(schema).orders).toMatchObject({ type: 'array', items: { $ref: '#/$defs/Order' } });
    expect(propsOf((schema.$defs as Record<string, Record<string, unknown>>).Order!)).toMatchObject({
      order_id: { type: 'string' },
      customer: { type: 'string' },
      order_date: { type: 'string', format: 'date' },
      qty: { type: 'integer' },
      unit_price: { type: 'number' },
      total: { type: 'number' },
      status: { type: 'string' },
    });
    const { accuracy } = await roundTrip([doc], 'csv');
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('an XLSX (a key-value sheet and a staff table)', async () => {
    const doc = await read((await workbookXlsx()).bytes, 'xlsx');
    const { schema } = inferSchema([doc], { instructions: null });
    expectStrictLevels(schema);
    expect(() => strictAjv().compile(schema)).not.toThrow();
    const p = propsOf(schema);
    expect(p.company).toMatchObject({ type: 'string' });
    expect(p.report_date).toMatchObject({ type: 'string', format: 'date' });
    expect(p.total_revenue).toMatchObject({ type: 'number' });
    expect(p.employees).toMatchObject({ type: 'integer' });
    expect(p.staff).toMatchObject({ type: 'array', items: { $ref: '#/$defs/Staff' } });
    expect(propsOf((schema.$defs as Record<string, Record<string, unknown>>).Staff!)).toMatchObject({
      name: { type: 'string' },
      department: { type: 'string' },
      salary: { type: 'integer' },
      start_date: { type: 'string', format: 'date' },
      full_time: { type: 'boolean' },
    });
    const { accuracy } = await roundTrip([doc], 'xlsx');
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
  });
});
