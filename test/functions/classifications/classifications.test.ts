/**
 * Classifications, splits and partitions through the API (API §4–§5): records, validation, consensus
 * shapes, and the cancel transition table of the seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platform, setPlatform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { textPdf } from '../../support/text-pdf.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const INVOICE = [
  'INVOICE',
  'Invoice number: INV-5101',
  'Bill to: Harbor Supplies Ltd',
  'Description            Qty     Unit price     Amount',
  'Marine rope 20 m        4        12.50          50.00',
  'Subtotal 50.00   VAT 10.00   Total due 60.00',
  'Payment due within 30 days. Please pay the amount due to our bank account.',
];
const LETTER = ['Dear Ms Rivera,', 'Thank you for your kind letter about the garden party last Sunday.', 'We were delighted to see you and your family.', 'Warm regards, Tom'];
const CATEGORIES = [
  { name: 'invoice', description: 'A bill from a supplier requesting payment for goods or services' },
  { name: 'letter', description: 'A personal letter or correspondence' },
];
const invoiceDoc = async () => ({ filename: 'invoice.pdf', url: dataUrl('application/pdf', Buffer.from(await textPdf([INVOICE]))) });

describe('classifications', () => {
  it('classifies synchronously with reasoning, scores summing to 1, and a consensus of n_consensus votes', async () => {
    const r = await cloud.api('POST', '/v1/classifications', { body: { document: await invoiceDoc(), categories: CATEGORIES, n_consensus: 3 } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      status: 'completed',
      error: null,
      model: 'quire-local',
      n_consensus: 3,
      first_n_pages: null,
      instructions: null,
      categories: [
        { name: 'invoice', description: CATEGORIES[0]!.description, handle_key: null },
        { name: 'letter', description: CATEGORIES[1]!.description, handle_key: null },
      ],
      output: { category: 'invoice' },
    });
    expect(r.body.id).toMatch(/^clsf_/);
    expect(r.body.output.reasoning.length).toBeGreaterThan(10);
    const scores = Object.values(r.body.scores as Record<string, number>);
    expect(scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    expect(r.body.scores.invoice).toBeGreaterThan(r.body.scores.letter);
    expect(r.body.consensus.choices).toHaveLength(3);
    expect(r.body.consensus.likelihoods).toBeGreaterThan(0);
    expect(r.body.consensus.likelihoods).toBeLessThanOrEqual(1);
    expect(r.body.usage.credits).toBeGreaterThan(0);
    const cheap = await cloud.api('GET', `/v1/classifications/${r.body.id}?include_output=false`);
    expect(cheap.body).toMatchObject({ output: { category: '', reasoning: '' }, consensus: { choices: [], likelihoods: 0 }, scores: {} });
  });

  it('validates categories, n_consensus and first_n_pages with 422s naming the field', async () => {
    const document = await invoiceDoc();
    const cases: Array<[Record<string, unknown>, (string | number)[]]> = [
      [{ document, categories: [{ name: 'only' }] }, ['body', 'categories']],
      [{ document, categories: [{ name: 'a' }, { name: 'a' }] }, ['body', 'categories', 1, 'name']],
      [{ document, categories: CATEGORIES, n_consensus: 0 }, ['body', 'n_consensus']],
      [{ document, categories: CATEGORIES, n_consensus: 17 }, ['body', 'n_consensus']],
      [{ document, categories: CATEGORIES, first_n_pages: 0 }, ['body', 'first_n_pages']],
      [{ categories: CATEGORIES }, ['body', 'document']],
    ];
    for (const [body, loc] of cases) {
      const r = await cloud.api('POST', '/v1/classifications', { body });
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    }
  });

  it('cancel follows the transition table: queued → cancelled, terminal unchanged, unknown → 404', async () => {
    const document = await invoiceDoc();
    // Queued: hold the execution start so the run stays queued while it is cancelled.
    const real = platform();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    setPlatform({ ...real, runner: { ...real.runner, start: async (machine, execution) => { await held; return real.runner.start(machine, execution); } } });
    const creating = cloud.api('POST', '/v1/classifications', { body: { document, categories: CATEGORIES, background: true, bust_cache: true } });
    let queued: { id: string };
    try {
      queued = await until(async () => (await cloud.api('GET', '/v1/classifications?status=queued&limit=1')).body.data[0]);
    } finally {
      setPlatform(real);
    }
    const cancelled = await cloud.api('POST', `/v1/classifications/${queued.id}/cancel`);
    release();
    await creating;
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: queued.id, status: 'cancelled' });
    // Cancelled stays cancelled, and cancelling again changes nothing.
    expect((await cloud.api('POST', `/v1/classifications/${queued.id}/cancel`)).body.status).toBe('cancelled');

    const completed = await cloud.api('POST', '/v1/classifications', { body: { document, categories: CATEGORIES } });
    const again = await cloud.api('POST', `/v1/classifications/${completed.body.id}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(completed.body);

    const broken = { filename: 'broken.pdf', url: dataUrl('application/pdf', '%PDF-1.7\nnot really') };
    const failed = await cloud.api('POST', '/v1/classifications', { body: { document: broken, categories: CATEGORIES, background: true } });
    const failedRun = await until(async () => {
      const g = await cloud.api('GET', `/v1/classifications/${failed.body.id}`);
      return g.body.status === 'failed' ? g.body : undefined;
    });
    expect((await cloud.api('POST', `/v1/classifications/${failed.body.id}/cancel`)).body).toEqual(failedRun);

    const unknown = await cloud.api('POST', '/v1/classifications/clsf_01m7z0qenejn1pv4p44vpcbwww/cancel');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Classification clsf_01m7z0qenejn1pv4p44vpcbwww not found' });
  });

  it('a cancel racing completion ends in exactly one of the two states, the same in GET and the list', async () => {
    const document = await invoiceDoc();
    for (let i = 0; i < 6; i++) {
      const r = await cloud.api('POST', '/v1/classifications', { body: { document, categories: CATEGORIES, background: true, bust_cache: true } });
      await new Promise((resolve) => setTimeout(resolve, i * 15));
      const c = await cloud.api('POST', `/v1/classifications/${r.body.id}/cancel`);
      expect(['cancelled', 'completed']).toContain(c.body.status);
      const final = await until(async () => {
        const g = await cloud.api('GET', `/v1/classifications/${r.body.id}`);
        return ['cancelled', 'completed'].includes(g.body.status) ? g.body : undefined;
      });
      // Give a late finish every chance to overwrite the cancel; it must not.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const get = await cloud.api('GET', `/v1/classifications/${r.body.id}`);
      const listed = (await cloud.api('GET', '/v1/classifications?limit=100')).body.data.find((d: { id: string }) => d.id === r.body.id);
      expect(get.body.status).toBe(final.status);
      expect(listed.status).toBe(final.status);
      if (final.status === 'cancelled') expect(get.body.output).toEqual({ category: '', reasoning: '' });
      else expect(get.body.output.category).toBe('invoice');
    }
  });
});

describe('splits', () => {
  it('assigns every page to exactly one entry, ordered by first page, with parallel likelihoods', async () => {
    const bytes = await textPdf([INVOICE, LETTER, INVOICE.map((l) => l.replace('5101', '5102'))]);
    const r = await cloud.api('POST', '/v1/splits', {
      body: {
        document: { filename: 'bundle.pdf', url: dataUrl('application/pdf', Buffer.from(bytes)) },
        subdocuments: [{ name: 'invoice', description: 'A bill requesting payment', allow_multiple_instances: true }, { name: 'letter', description: 'Personal correspondence' }],
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('completed');
    expect(r.body.id).toMatch(/^splt_/);
    expect(r.body.subdocuments[1]).toEqual({ name: 'letter', description: 'Personal correspondence', allow_multiple_instances: false });
    const pages = (r.body.output as Array<{ name: string; pages: number[] }>).flatMap((e) => e.pages).sort((a, b) => a - b);
    expect(pages).toEqual([1, 2, 3]);
    expect(r.body.output).toEqual([
      { name: 'invoice', pages: [1] },
      { name: 'letter', pages: [2] },
      { name: 'invoice', pages: [3] },
    ]);
    expect(r.body.consensus.likelihoods).toHaveLength(r.body.output.length);
    expect(r.body.consensus.choices).toHaveLength(1);
    expect(r.body.usage).toEqual({ credits: expect.any(Number) });
  });

  it('rejects no subdocuments and duplicate names', async () => {
    const document = await invoiceDoc();
    expect((await cloud.api('POST', '/v1/splits', { body: { document, subdocuments: [] } })).status).toBe(422);
    const dup = await cloud.api('POST', '/v1/splits', { body: { document, subdocuments: [{ name: 'x' }, { name: 'x' }] } });
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0].loc).toEqual(['body', 'subdocuments', 1, 'name']);
  });
});

describe('partitions', () => {
  it('cuts one chunk per key value as printed, carrying it onto continuation pages', async () => {
    const page2of2 = ['Page 2 of 2', 'Description            Qty     Unit price     Amount', 'Harbor lamp 2          1        80.00          80.00', 'Total due 140.00'];
    const bytes = await textPdf([INVOICE, page2of2, INVOICE.map((l) => l.replace('5101', '5102'))]);
    const r = await cloud.api('POST', '/v1/partitions', {
      body: { document: { filename: 'invoices.pdf', url: dataUrl('application/pdf', Buffer.from(bytes)) }, key: 'invoice number', instructions: 'One chunk per invoice' },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', key: 'invoice number', instructions: 'One chunk per invoice', allow_overlap: true, n_consensus: 1 });
    expect(r.body.id).toMatch(/^prt_/);
    expect(r.body.output).toEqual([
      { key: 'INV-5101', pages: [1, 2] },
      { key: 'INV-5102', pages: [3] },
    ]);
    expect(r.body.consensus.likelihoods).toHaveLength(2);
  });

  it('requires key and instructions', async () => {
    const document = await invoiceDoc();
    const noKey = await cloud.api('POST', '/v1/partitions', { body: { document, instructions: 'x' } });
    expect(noKey.body.detail[0].loc).toEqual(['body', 'key']);
    const noInstructions = await cloud.api('POST', '/v1/partitions', { body: { document, key: 'invoice number' } });
    expect(noInstructions.body.detail[0].loc).toEqual(['body', 'instructions']);
  });
});
