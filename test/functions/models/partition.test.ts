/**
 * quire-local partitioning (API §4.2): one chunk per invoice number, continuation pages carried,
 * shared pages with and without overlap, consensus and edge cases.
 */
import { describe, expect, it } from 'vitest';
import type { Doc } from '../../../functions/documents/doc.ts';
import type { PartitionRequest, PartitionResult } from '../../../functions/models/engine.ts';
import { localEngine } from '../../../functions/models/local/index.ts';
import { bankStatement, contract, fixtureDoc, invoiceRun, invoicesSharingPages, payslip } from '../../support/bundle-fixtures.ts';

const request = (doc: Doc, over: Partial<PartitionRequest> = {}): PartitionRequest => ({
  doc,
  key: 'invoice number',
  instructions: 'One chunk per invoice',
  allowOverlap: true,
  nConsensus: 1,
  seed: 'seed-1',
  ...over,
});

function expectWellFormed(result: PartitionResult, n: number): void {
  const firsts = result.output.map((e) => e.pages[0]!);
  expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
  for (const entry of result.output) expect(entry.pages).toEqual([...new Set(entry.pages)].sort((a, b) => a - b));
  expect(result.consensus.likelihoods).toHaveLength(result.output.length);
  result.consensus.likelihoods.forEach((l, i) => {
    expect(l.pages).toHaveLength(result.output[i]!.pages.length);
    for (const x of [l.key, ...l.pages]) {
      expect(x).toBeGreaterThan(0);
      expect(x).toBeLessThanOrEqual(1);
    }
  });
  expect(result.consensus.choices).toHaveLength(n);
}

describe('partition by invoice number', () => {
  it('cuts 12 pages of 5 invoices into exact chunks keyed as printed', async () => {
    const run = invoiceRun(11);
    expect(run.pages).toHaveLength(12);
    const result = await localEngine.partition(request(fixtureDoc(run.pages)));
    console.log(`partition of 12 pages:\n  ${result.output.map((e) => `${e.key} [${e.pages.join(',')}]`).join('\n  ')}`);
    expect(result.output).toEqual([
      { key: 'INV-5101', pages: [1, 2, 3] },
      { key: 'INV-5102', pages: [4, 5] },
      { key: 'INV-5103', pages: [6] },
      { key: 'INV/2024/0117', pages: [7, 8, 9] },
      { key: 'F-20931', pages: [10, 11, 12] },
    ]);
    expectWellFormed(result, 1);
  });

  it('is exact over many generated runs (layouts, labels, continuation styles), with and without votes or overlap', async () => {
    let exact = 0;
    let total = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const run = invoiceRun(seed);
      const truth = run.documents.map((d) => ({ key: d.number, pages: d.pages }));
      for (const [allowOverlap, n] of [[true, 1], [false, 1], [true, 5]] as const) {
        const result = await localEngine.partition(request(fixtureDoc(run.pages), { allowOverlap, nConsensus: n, seed: `s${seed}` }));
        expectWellFormed(result, n);
        total++;
        if (JSON.stringify(result.output) === JSON.stringify(truth)) exact++;
      }
    }
    console.log(`partition exact on ${exact}/${total} runs`);
    expect(exact).toBe(total);
  });

  it('a page with the end of one invoice and the start of the next belongs to both with overlap, to the dominant one without', async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const shared = invoicesSharingPages(seed);
      const doc = fixtureDoc(shared.pages);
      expect((await localEngine.partition(request(doc, { allowOverlap: true }))).output).toEqual(shared.overlap);
      expect((await localEngine.partition(request(doc, { allowOverlap: false }))).output).toEqual(shared.dominant);
    }
  });

  it('takes label words from the instructions and other keys', async () => {
    const doc = fixtureDoc([
      { blocks: [{ kind: 'paragraph', lines: ['Remittance', 'Ref: R-100', 'Paid 10.00'] }] },
      { blocks: [{ kind: 'paragraph', lines: ['Remittance', 'Ref: R-200', 'Paid 12.00'] }] },
    ]);
    expect((await localEngine.partition(request(doc))).output).toEqual([]);
    expect((await localEngine.partition(request(doc, { key: 'payment reference', instructions: 'The reference follows "Ref:"' }))).output).toEqual([
      { key: 'R-100', pages: [1] },
      { key: 'R-200', pages: [2] },
    ]);
    const payslips = fixtureDoc([...payslip(1).pages, ...payslip(2).pages]);
    const byEmployee = await localEngine.partition(request(payslips, { key: 'employee number' }));
    expect(byEmployee.output.map((e) => e.pages)).toEqual([[1], [2]]);
    expect(byEmployee.output.every((e) => /^E\d+$/.test(e.key))).toBe(true);
  });
});

describe('partition consensus and determinism', () => {
  it('the same request gives the same result; votes are consolidated into the same clear chunks', async () => {
    const doc = fixtureDoc(invoiceRun(4).pages);
    const single = await localEngine.partition(request(doc));
    expect(await localEngine.partition(request(doc))).toEqual(single);
    for (const seed of ['a', 'b', 'c']) {
      const result = await localEngine.partition(request(doc, { nConsensus: 5, seed }));
      expect(result).toEqual(await localEngine.partition(request(doc, { nConsensus: 5, seed })));
      expect(result.output).toEqual(single.output);
      expectWellFormed(result, 5);
    }
  });
});

describe('partition edge cases', () => {
  it('returns [] when no key is found, or the document has no pages or text', async () => {
    const noKey = fixtureDoc([...contract(2, 2).pages, ...bankStatement(3, 1).pages]);
    for (const doc of [noKey, { kind: 'pdf', pages: [] } as Doc, fixtureDoc([{ blocks: [] }])]) {
      const result = await localEngine.partition(request(doc, { nConsensus: 2 }));
      expect(result).toEqual({ output: [], consensus: { likelihoods: [], choices: [[], []] } });
    }
  });

  it('pages before the first key belong to no chunk', async () => {
    const run = invoiceRun(2);
    const cover = { blocks: [{ kind: 'heading' as const, lines: ['Accounts payable batch 14'] }] };
    const result = await localEngine.partition(request(fixtureDoc([cover, ...run.pages])));
    expect(result.output[0]).toEqual({ key: 'INV-5101', pages: [2, 3, 4] });
    expect(result.output.flatMap((e) => e.pages)).not.toContain(1);
  });
});
