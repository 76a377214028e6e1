/**
 * Form filling floors on real forms (issue: form filling that understands people and real forms):
 * the corpus forms filling was tuned on, with hand-read truth (test/corpus-truth/form/), filled from each style of its
 * instructions (lines, sentences, prose) as the AcroForm it is and flattened. `npm run bench -- forms`
 * prints the same figures per form.
 *
 * The floors sit a little under what the engine measured when they were set (the README has the
 * figures); raise them when filling gets better, never lower them to make a change pass. Writes to
 * fields the person did not ask for, and to read-only fields, must stay at none.
 */
import { describe, expect, it } from 'vitest';
import { corpusAvailable } from '../../support/corpus.ts';
import { evaluateFlatForm, evaluateForm, formTruths, INSTRUCTION_STYLES } from '../../support/form-eval.ts';

const DEV_FORMS = ['matriceFattura.pdf', 'titre_dons_organisme_interet_general.pdf'];
const FLOORED_FORMS = ['160F-2019.pdf', 'annotation-button-widget.pdf', 'annotation-text-widget.pdf', 'bug1669099.pdf', 'bug1883609.pdf', 'issue17492.pdf', 'issue6127.pdf'];

// CI runs with ../shared beside the project: there the corpus must be found (a missing corpus fails).
const runs = corpusAvailable() || process.env.CI === 'true';

describe.skipIf(!runs)('form filling on real forms (../shared/corpus)', () => {
  it('fills the corpus forms from lines, sentences and prose: floors on recall, precision and flat placement; no unintended or read-only writes', { timeout: 300_000 }, async () => {
    // The floors were set on these seven forms, the ones filling was tuned on. The forms whose truth
    // came later (other sources, held out of tuning: test/corpus-truth/folds.json) are measured by
    // the bench (`npm run bench -- forms`), not floored here.
    const truths = formTruths().filter((t) => FLOORED_FORMS.includes(t.path.replace('documents/form/', '')));
    expect(truths.length).toBe(FLOORED_FORMS.length);
    let intended = 0;
    let right = 0;
    let writes = 0;
    let rightWrites = 0;
    let placed = 0;
    const unintended: string[] = [];
    const readOnly: string[] = [];
    for (const truth of truths) {
      for (const style of INSTRUCTION_STYLES) {
        const r = await evaluateForm(truth, style);
        intended += r.intended;
        right += r.right;
        writes += r.writes;
        rightWrites += r.rightWrites;
        unintended.push(...r.unintended.map((f) => `${truth.path} [${style}] ${f}`));
        readOnly.push(...r.readOnlyWrites.map((f) => `${truth.path} [${style}] ${f}`));
        placed += (await evaluateFlatForm(truth, style)).placed;
      }
    }
    console.log(`[corpus] forms: ${right}/${intended} right, precision ${rightWrites}/${writes}, flat placed ${placed}/${intended}`);
    expect(unintended).toEqual([]);
    expect(readOnly).toEqual([]);
    expect(right / intended).toBeGreaterThanOrEqual(0.92);
    expect(rightWrites / writes).toBeGreaterThanOrEqual(0.985);
    expect(placed / intended).toBeGreaterThanOrEqual(0.88);
  });

  it('fills the dev-fold forms (an Italian invoice template, a French donation receipt) from sentences that name fields with the form\'s own words: floors on recall and precision', { timeout: 120_000 }, async () => {
    // Rules may be written from the dev fold, never from the holdout one; 2026-11-29 measured 78/135
    // right (57.8%), precision 78/85 (91.8%); before reading sentences with the form's own words 52/135, 78.8%.
    const truths = formTruths().filter((t) => DEV_FORMS.includes(t.path.replace('documents/form/', '')));
    expect(truths.length).toBe(DEV_FORMS.length);
    const results = await Promise.all(truths.flatMap((truth) => INSTRUCTION_STYLES.map((style) => evaluateForm(truth, style))));
    const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((a, r) => a + f(r), 0);
    console.log(`[corpus] dev forms: ${sum((r) => r.right)}/${sum((r) => r.intended)} right, precision ${sum((r) => r.rightWrites)}/${sum((r) => r.writes)}`);
    expect(sum((r) => r.right) / sum((r) => r.intended)).toBeGreaterThanOrEqual(0.55);
    expect(sum((r) => r.rightWrites) / sum((r) => r.writes)).toBeGreaterThanOrEqual(0.88);
  });
});
