/**
 * Classification and split throughput through the API on a generated 200-page document, and what
 * n_consensus 5 costs relative to 1 (issue goal: ≤ 2x; votes share the parsed Doc).
 */
import { manyPagesPdf } from '../support/pdf-fixtures.ts';
import { withLocalStack } from './stack.ts';

const CATEGORIES = [
  { name: 'invoice', description: 'A bill from a supplier requesting payment for goods or services' },
  { name: 'report', description: 'A report of field work, measurements and findings' },
  { name: 'contract', description: 'An agreement between parties with terms and obligations' },
];
const SUBDOCUMENTS = [
  { name: 'report', description: 'A report of field work, measurements and findings', allow_multiple_instances: true },
  { name: 'invoice', description: 'A bill from a supplier requesting payment' },
];

export async function benchClassify(): Promise<void> {
  const pages = 200;
  const bytes = await manyPagesPdf(pages);
  const document = { filename: 'bench.pdf', url: `data:application/pdf;base64,${Buffer.from(bytes).toString('base64')}` };
  const rows = await withLocalStack(async (stack) => {
    await stack.timedRun('/v1/parses', { document }); // warm the containers and store the file
    const out: Array<[string, number]> = [];
    for (const n of [1, 5]) {
      out.push([`classification, n_consensus ${n}`, await stack.timedRun('/v1/classifications', { document, categories: CATEGORIES, n_consensus: n, bust_cache: true })]);
      out.push([`split, n_consensus ${n}`, await stack.timedRun('/v1/splits', { document, subdocuments: SUBDOCUMENTS, n_consensus: n, bust_cache: true })]);
    }
    out.push(['parse (reference: reading the same Doc)', await stack.timedRun('/v1/parses', { document, bust_cache: true })]);
    return out;
  });
  const seconds = new Map(rows);
  console.log(`\nClassification and split of a generated ${pages}-page PDF through the API`);
  console.log('| run | seconds | pages/s | × n_consensus 1 |\n|---|---:|---:|---:|');
  for (const [name, s] of rows) {
    const one = seconds.get(name.replace('n_consensus 5', 'n_consensus 1'));
    console.log(`| ${name} | ${s.toFixed(2)} | ${(pages / s).toFixed(1)} | ${one && name.includes('n_consensus 5') ? (s / one).toFixed(2) : ''} |`);
  }
}
