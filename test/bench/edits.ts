/**
 * Edit benchmarks (issue: edits and edit templates): a sync edit of the 15-field AcroForm and of the
 * 2-page flat form through the API (`npm start`'s stack), next to pdf-lib alone filling the same
 * AcroForm in this process (load, set the 15 values, save) — the floor of any AcroForm fill.
 */
import { PDFDocument } from 'pdf-lib';
import { acroFormPdf, flatFormPdf } from '../support/form-fixtures.ts';
import { withLocalStack } from './stack.ts';

const RUNS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** pdf-lib alone: the AcroForm's 15 values set by name, appearances regenerated, saved. */
async function pdfLibFill(bytes: Uint8Array, fields: Awaited<ReturnType<typeof acroFormPdf>>['fields']): Promise<number> {
  const started = performance.now();
  const pdf = await PDFDocument.load(bytes);
  const form = pdf.getForm();
  for (const f of fields) {
    if (f.kind === 'text') form.getTextField(f.name).setText(f.expected as string);
    if (f.kind === 'checkbox') (f.expected ? form.getCheckBox(f.name).check() : form.getCheckBox(f.name).uncheck());
    if (f.kind === 'radio') form.getRadioGroup(f.name).select(f.expected as string);
    if (f.kind === 'dropdown') form.getDropdown(f.name).select(f.expected as string);
  }
  await pdf.save();
  return (performance.now() - started) / 1000;
}

export async function benchEdits(): Promise<void> {
  const acro = await acroFormPdf();
  const flat = await flatFormPdf();
  const doc = (bytes: Uint8Array, filename: string) => ({ filename, url: `data:application/pdf;base64,${Buffer.from(bytes).toString('base64')}` });
  const acroBody = { document: doc(acro.bytes, 'acro.pdf'), instructions: JSON.stringify(acro.instructions), bust_cache: true };
  const flatBody = { document: doc(flat.bytes, 'flat.pdf'), instructions: flat.instructions, bust_cache: true };

  await pdfLibFill(acro.bytes, acro.fields);
  const direct: number[] = [];
  for (let i = 0; i < RUNS; i++) direct.push(await pdfLibFill(acro.bytes, acro.fields));

  const [acroTimes, flatTimes] = await withLocalStack(async (stack) => {
    await stack.timedRun('/v1/edits', acroBody);
    await stack.timedRun('/v1/edits', flatBody);
    const a: number[] = [];
    const f: number[] = [];
    for (let i = 0; i < RUNS; i++) a.push(await stack.timedRun('/v1/edits', acroBody));
    for (let i = 0; i < RUNS; i++) f.push(await stack.timedRun('/v1/edits', flatBody));
    return [a, f];
  });
  const floor = median(direct);
  console.log(`\nEdits: sync POST /v1/edits through the local stack (median of ${RUNS}, after one warm-up), next to pdf-lib alone filling the same AcroForm`);
  console.log('| run | ms | × pdf-lib alone |\n|---|---:|---:|');
  console.log(`| pdf-lib alone: load, set 15 AcroForm values, save | ${(floor * 1000).toFixed(1)} | 1.00 |`);
  console.log(`| edit, 15-field AcroForm (JSON instructions) | ${(median(acroTimes) * 1000).toFixed(1)} | ${(median(acroTimes) / floor).toFixed(1)} |`);
  console.log(`| edit, 2-page flat form, 20 fields (detected) | ${(median(flatTimes) * 1000).toFixed(1)} | ${(median(flatTimes) / floor).toFixed(1)} |`);
}
