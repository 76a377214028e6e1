/**
 * `npm run bench -- forms` (issue: form filling that understands people and real forms): every corpus
 * form with hand-read truth (test/corpus-truth/form/), filled from each style of its instructions —
 * as the AcroForm it is, and flattened to a paper-like PDF. Recall, precision, unintended and
 * read-only writes, and flat-form placement. `FORMS_DETAIL=1` lists every miss and wrong write.
 */
import { corpusAvailable, FOLDS, foldOf, manifest } from '../support/corpus.ts';
import { evaluateFlatForm, evaluateForm, formTruths, INSTRUCTION_STYLES, type FlatResult, type FormResult } from '../support/form-eval.ts';

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);
const sum = <T>(list: T[], f: (x: T) => number) => list.reduce((a, x) => a + f(x), 0);

function row(name: string, r: FormResult[], flat: FlatResult[]): string {
  const intended = sum(r, (x) => x.intended);
  const right = sum(r, (x) => x.right);
  const writes = sum(r, (x) => x.writes);
  const rightWrites = sum(r, (x) => x.rightWrites);
  const placed = sum(flat, (x) => x.placed);
  const flatIntended = sum(flat, (x) => x.intended);
  return `| ${name} | ${intended} | ${right} (${pct(right, intended)}) | ${writes} | ${pct(rightWrites, writes)} | ${sum(r, (x) => x.unintended.length)} | ${sum(r, (x) => x.readOnlyWrites.length)} | ${placed}/${flatIntended} (${pct(placed, flatIntended)}) | ${sum(flat, (x) => x.writes)} |`;
}

export async function benchForms(): Promise<void> {
  if (!corpusAvailable()) {
    console.log('forms: ../shared/corpus is not here; nothing measured');
    return;
  }
  const detail = process.env.FORMS_DETAIL === '1';
  const truths = formTruths();
  const started = performance.now();
  const results: FormResult[] = [];
  const flats: FlatResult[] = [];
  for (const truth of truths) {
    for (const style of INSTRUCTION_STYLES) {
      results.push(await evaluateForm(truth, style));
      flats.push(await evaluateFlatForm(truth, style));
    }
  }
  console.log(`\n## Form filling (${truths.length} corpus forms × ${INSTRUCTION_STYLES.length} instruction styles, ${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  console.log('| | values | right (recall) | writes | precision | unintended writes | read-only writes | flat: placed | flat: writes |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(row('**all**', results, flats));
  for (const style of INSTRUCTION_STYLES) console.log(row(`style ${style}`, results.filter((r) => r.style === style), flats.filter((r) => r.style === style)));
  // By the fold of each form's source (test/corpus-truth/folds.json): holdout is the headline.
  const sources = new Map(manifest().map((e) => [e.path, e.source.repo]));
  const foldOfPath = (path: string) => foldOf(sources.get(path)!);
  for (const fold of FOLDS) {
    console.log(row(`fold ${fold}`, results.filter((r) => foldOfPath(r.path) === fold), flats.filter((r) => foldOfPath(r.path) === fold)));
    for (const style of INSTRUCTION_STYLES) {
      const mine = (r: { path: string; style: string }) => foldOfPath(r.path) === fold && r.style === style;
      console.log(row(`fold ${fold}, ${style}`, results.filter(mine), flats.filter(mine)));
    }
  }
  for (const truth of truths) console.log(row(truth.path.split('/').pop()!, results.filter((r) => r.path === truth.path), flats.filter((r) => r.path === truth.path)));
  if (!detail) return;
  for (const r of results) {
    if (r.missed.length === 0 && r.wrong.length === 0) continue;
    console.log(`${r.path} [${r.style}]`);
    for (const m of r.missed) console.log(`   missed ${m.field}: got ${JSON.stringify(m.got)} want ${JSON.stringify(m.want)}`);
    for (const w of r.wrong) console.log(`   wrong  ${w.field}: ${JSON.stringify(w.got)}${r.readOnlyWrites.includes(w.field) ? ' (read-only)' : ''}`);
  }
  for (const r of flats) {
    if (r.missed.length === 0) continue;
    console.log(`${r.path} [flat, ${r.style}]: not placed ${r.missed.map((m) => `${m.field}=${JSON.stringify(m.want)}`).join(', ')}`);
  }
}
