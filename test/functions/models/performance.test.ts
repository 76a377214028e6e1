/**
 * Cost of consensus and of long documents for quire-local: votes share the reading of the document
 * (tokens, counts, page cues) and differ only in feature weights, so 5 votes cost little more than 1.
 * Times are medians of interleaved runs, printed; the assertions leave room for a noisy machine.
 */
import { describe, expect, it } from 'vitest';
import type { Category, Subdocument } from '../../../functions/models/engine.ts';
import { localEngine } from '../../../functions/models/local/index.ts';
import { fixtureDoc, longBundle } from '../../support/bundle-fixtures.ts';

const CATEGORIES: Category[] = [
  { name: 'invoice', description: 'A bill from a supplier requesting payment for goods or services' },
  { name: 'receipt', description: 'Proof of a completed purchase or payment, issued by a shop or merchant' },
  { name: 'contract', description: 'A legal agreement between parties that sets out terms and obligations' },
  { name: 'bank statement', description: 'A periodic summary of transactions and balances on a bank account' },
  { name: 'payslip', description: 'A document given to an employee showing salary, deductions and net pay for a period' },
];
const SUBDOCUMENTS: Subdocument[] = CATEGORIES.map((c) => ({ ...c, allow_multiple_instances: c.name !== 'contract' }));

async function medianMs(run: () => Promise<unknown>, times: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

describe('consensus cost', () => {
  it('n_consensus 5 costs at most 2.5x of 1 on a 200-page document (classification and split)', async () => {
    const doc = fixtureDoc(longBundle(200).pages);
    expect(doc.pages).toHaveLength(200);
    const classify = (n: number) => () => localEngine.classify({ doc, categories: CATEGORIES, instructions: null, firstNPages: undefined, nConsensus: n, seed: 'bench' });
    const split = (n: number) => () => localEngine.split({ doc, subdocuments: SUBDOCUMENTS, instructions: null, nConsensus: n, seed: 'bench' });
    // Warm up (JIT, stem cache), then interleave the measurements so a slow moment hits both.
    for (const run of [classify(1), classify(5), split(1), split(5)]) await run();
    const times = { classify1: [] as number[], classify5: [] as number[], split1: [] as number[], split5: [] as number[] };
    for (let round = 0; round < 5; round++) {
      times.classify1.push(await medianMs(classify(1), 1));
      times.classify5.push(await medianMs(classify(5), 1));
      times.split1.push(await medianMs(split(1), 1));
      times.split5.push(await medianMs(split(5), 1));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const c1 = median(times.classify1);
    const c5 = median(times.classify5);
    const s1 = median(times.split1);
    const s5 = median(times.split5);
    console.log(
      `200 pages — classify: n=1 ${c1.toFixed(1)} ms, n=5 ${c5.toFixed(1)} ms (${(c5 / c1).toFixed(2)}x); ` +
        `split: n=1 ${s1.toFixed(1)} ms, n=5 ${s5.toFixed(1)} ms (${(s5 / s1).toFixed(2)}x)`,
    );
    expect(c5 / c1).toBeLessThanOrEqual(2.5);
    expect(s5 / s1).toBeLessThanOrEqual(2.5);
  });
});

describe('long documents', () => {
  // Timed against the same work on 200 pages in the same run, so a busy machine (the suite's other
  // worker, a slow CI host) slows both sides: an absolute bound failed CI once at 16.9 s for work that
  // takes 2.5 s alone. What the test guards is the growth: ten times the pages must cost about ten
  // times as much, not a hundred (a quadratic step).
  it('classifies, splits and partitions 2,000 pages in time that grows with the pages, not faster', async () => {
    const run = async (pages: number) => {
      const doc = fixtureDoc(longBundle(pages).pages);
      expect(doc.pages).toHaveLength(pages);
      const times = { classify: 0, split: 0, partition: 0 };
      let start = performance.now();
      const classification = await localEngine.classify({ doc, categories: CATEGORIES, instructions: null, firstNPages: undefined, nConsensus: 1, seed: 'long' });
      times.classify = performance.now() - start;
      start = performance.now();
      const split = await localEngine.split({ doc, subdocuments: SUBDOCUMENTS, instructions: null, nConsensus: 5, seed: 'long' });
      times.split = performance.now() - start;
      start = performance.now();
      const partition = await localEngine.partition({ doc, key: 'invoice number', instructions: '', allowOverlap: true, nConsensus: 5, seed: 'long' });
      times.partition = performance.now() - start;
      expect(CATEGORIES.map((c) => c.name)).toContain(classification.output.category);
      expect(split.output.flatMap((e) => e.pages)).toHaveLength(pages);
      expect(partition.output.length).toBeGreaterThan(pages / 20);
      return times;
    };
    const total = (t: { classify: number; split: number; partition: number }) => t.classify + t.split + t.partition;
    await run(200); // warm up (JIT, stem cache)
    const short = [await run(200), await run(200)];
    const long = await run(2000);
    short.push(await run(200), await run(200));
    const shortMs = short.map(total).sort((a, b) => a - b)[2]!;
    const longMs = total(long);
    console.log(
      `2,000 pages — classify ${long.classify.toFixed(0)} ms, split (5 votes) ${long.split.toFixed(0)} ms, partition (5 votes) ${long.partition.toFixed(0)} ms; ` +
        `${longMs.toFixed(0)} ms against ${shortMs.toFixed(0)} ms for 200 pages (${(longMs / shortMs).toFixed(1)}x)`,
    );
    expect(longMs / shortMs).toBeLessThan(20);
    // Seconds, not minutes, even on a busy machine.
    expect(longMs).toBeLessThan(60_000);
  });
});
