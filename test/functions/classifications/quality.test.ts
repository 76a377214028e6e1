/**
 * The quality bars of the classification/split/partition issue, end to end: generated documents with
 * known labels rendered to PDFs, read by the PDF reader and decided by the quire-local engine,
 * through the API.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { classificationCorpus, invoiceRun, mixedBundle, pageText, type FixturePage } from '../../support/bundle-fixtures.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { textPdf } from '../../support/text-pdf.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const pdfOf = async (pages: readonly FixturePage[], filename: string) => ({
  filename,
  url: dataUrl('application/pdf', Buffer.from(await textPdf(pages.map(pageText), 9))),
});

const CATEGORIES = [
  { name: 'invoice', description: 'A bill from a supplier requesting payment for goods or services' },
  { name: 'receipt', description: 'Proof of a payment already made at a shop or restaurant' },
  { name: 'contract', description: 'An agreement between parties setting out terms and obligations' },
  { name: 'bank_statement', description: 'A statement of the transactions and balance of a bank account' },
  { name: 'payslip', description: 'A statement of an employee’s pay and deductions for a period' },
];

it('classifies 30+ generated documents of 5 categories with ≥ 90% accuracy', async () => {
  const documents = classificationCorpus().filter((d) => d.kind !== 'packing_list').slice(0, 40);
  expect(documents.length).toBeGreaterThanOrEqual(30);
  let correct = 0;
  for (const [i, doc] of documents.entries()) {
    const r = await cloud.api('POST', '/v1/classifications', { body: { document: await pdfOf(doc.pages, `doc-${i}.pdf`), categories: CATEGORIES } });
    expect(r.body.status).toBe('completed');
    if (r.body.output.category === doc.kind) correct++;
  }
  console.log(`classification accuracy through the API: ${correct}/${documents.length} (${((100 * correct) / documents.length).toFixed(1)}%)`);
  expect(correct / documents.length).toBeGreaterThanOrEqual(0.9);
}, 120_000);

it('splits a 20-page bundle with ≥ 95% page accuracy and the right number of invoice instances', async () => {
  const bundle = mixedBundle();
  expect(bundle.pages.length).toBe(20);
  const r = await cloud.api('POST', '/v1/splits', {
    body: {
      document: await pdfOf(bundle.pages, 'bundle.pdf'),
      subdocuments: [
        { name: 'invoice', description: 'A bill from a supplier requesting payment', allow_multiple_instances: true },
        { name: 'contract', description: 'An agreement between parties with terms and obligations' },
        { name: 'bank_statement', description: 'A statement of the transactions and balance of a bank account' },
      ],
    },
  });
  expect(r.body.status).toBe('completed');
  const truth = new Map<number, string>();
  for (const d of bundle.documents) for (const page of d.pages) truth.set(page, ['invoice', 'contract', 'bank_statement'].includes(d.kind) ? d.kind : 'other');
  let right = 0;
  for (const entry of r.body.output as Array<{ name: string; pages: number[] }>) for (const page of entry.pages) if (truth.get(page) === entry.name) right++;
  console.log(`split page accuracy through the API: ${right}/20`);
  expect(right / 20).toBeGreaterThanOrEqual(0.95);
  expect((r.body.output as Array<{ name: string }>).filter((e) => e.name === 'invoice')).toHaveLength(3);
}, 60_000);

it('partitions a 12-page file of 5 invoices into exact chunks keyed as printed', async () => {
  const run = invoiceRun();
  expect(run.pages.length).toBe(12);
  const r = await cloud.api('POST', '/v1/partitions', {
    body: { document: await pdfOf(run.pages, 'invoices.pdf'), key: 'invoice number', instructions: 'One chunk per invoice' },
  });
  expect(r.body.status).toBe('completed');
  const expected = run.documents.map((d) => ({ key: d.number!, pages: d.pages }));
  expect(r.body.output).toEqual(expected);
}, 60_000);
