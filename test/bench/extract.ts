/**
 * Extraction benchmarks (issue: extractions with provenance): a 20-field invoice schema on a 1-page
 * and a 50-page document through the API, and the latency of GET .../sources next to a plain GET of
 * the same extraction (goal ≤ 2x).
 */
import { textPdf } from '../support/text-pdf.ts';
import { withLocalStack } from './stack.ts';

const INVOICE_PAGE = [
  'ACME Marine Supplies Ltd',
  '12 Harbour Road, Portsmouth PO1 3AX',
  'VAT number: GB 123 4567 89',
  'INVOICE',
  'Invoice number: INV-2044',
  'Invoice date: 2024-03-05',
  'Due date: 2024-04-04',
  'Customer: Northwind Shipping',
  'Customer number: C-5512',
  'Purchase order: PO-88120',
  'Currency: EUR',
  'Description              Quantity    Unit price    Amount',
  'Marine rope 20 m         4           12.50         50.00',
  'Harbor lamp              2           80.00         160.00',
  'Fender, large            6           35.00         210.00',
  'Subtotal: 420.00',
  'Tax rate: 20%',
  'Tax: 84.00',
  'Total: 504.00',
  'Payment terms: 30 days net',
  'IBAN: GB29 NWBK 6016 1331 9268 19',
];
const FILLER = ['Terms and conditions', 'Goods remain our property until paid in full. Claims must be made within 14 days of delivery.'];

const text = (description: string) => ({ type: ['string', 'null'], description });
const number = (description: string) => ({ type: ['number', 'null'], description });
const SCHEMA = {
  type: 'object',
  properties: {
    vendor_name: text('Name of the supplier'),
    vendor_address: text('Address of the supplier'),
    vendor_vat_number: text('VAT number of the supplier'),
    invoice_number: text('Invoice number'),
    invoice_date: { type: ['string', 'null'], format: 'date', description: 'Invoice date' },
    due_date: { type: ['string', 'null'], format: 'date', description: 'Due date' },
    customer_name: text('Customer'),
    customer_number: text('Customer number'),
    purchase_order: text('Purchase order number'),
    currency: text('Currency code'),
    subtotal: number('Subtotal before tax'),
    tax_rate: number('Tax rate in percent'),
    tax: number('Tax amount'),
    total: number('Total amount due'),
    payment_terms: text('Payment terms'),
    iban: text('IBAN of the supplier'),
    line_items: {
      type: 'array',
      items: { $ref: '#/$defs/LineItem' },
    },
  },
  $defs: {
    LineItem: {
      type: 'object',
      properties: { description: text('Item description'), quantity: number('Quantity'), unit_price: number('Unit price'), amount: number('Line amount') },
    },
  },
};

export async function benchExtract(): Promise<void> {
  const one = await textPdf([INVOICE_PAGE], 10);
  const fifty = await textPdf([INVOICE_PAGE, ...Array.from({ length: 49 }, () => FILLER)], 10);
  const doc = (bytes: Uint8Array, filename: string) => ({ filename, url: `data:application/pdf;base64,${Buffer.from(bytes).toString('base64')}` });
  const rows = await withLocalStack(async (stack) => {
    await stack.timedRun('/v1/extractions', { document: doc(one, 'warm.pdf'), json_schema: SCHEMA, bust_cache: true });
    const out: Array<[string, number]> = [];
    out.push(['extraction, 1 page', await stack.timedRun('/v1/extractions', { document: doc(one, 'one.pdf'), json_schema: SCHEMA, bust_cache: true })]);
    out.push(['extraction, 50 pages', await stack.timedRun('/v1/extractions', { document: doc(fifty, 'fifty.pdf'), json_schema: SCHEMA, bust_cache: true })]);
    // The sources call against a plain GET of the same completed extraction.
    const created = (await (await fetch(`${stack.base}/v1/extractions`, { method: 'POST', headers: stack.headers, body: JSON.stringify({ document: doc(one, 'src.pdf'), json_schema: SCHEMA }) })).json()) as { id: string };
    const time = async (path: string) => {
      const samples: number[] = [];
      for (let i = 0; i < 40; i++) {
        const started = performance.now();
        await (await fetch(`${stack.base}${path}`, { headers: stack.headers })).text();
        samples.push(performance.now() - started);
      }
      samples.sort((a, b) => a - b);
      return samples[samples.length >> 1]! / 1000;
    };
    out.push(['GET /v1/extractions/{id} (median)', await time(`/v1/extractions/${created.id}`)]);
    out.push(['GET /v1/extractions/{id}/sources (median)', await time(`/v1/extractions/${created.id}/sources`)]);
    return out;
  });
  const get = rows.find(([n]) => n.startsWith('GET /v1/extractions/{id} '))![1];
  console.log('\nExtraction with a 20-field invoice schema (16 fields + line items) through the API');
  console.log('| run | ms | note |\n|---|---:|---|');
  for (const [name, s] of rows) console.log(`| ${name} | ${(s * 1000).toFixed(1)} | ${name.includes('sources') ? `${(s / get).toFixed(2)}× the plain GET` : ''} |`);
}
