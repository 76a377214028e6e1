/**
 * Form filling on the real forms of ../shared/corpus, scored against the truth read by hand
 * (test/corpus-truth/form/): what `npm run bench -- forms` prints and what the floors in `npm test`
 * check. Each form is filled by the edit task's own code (findFields, fillPdf) with the built-in
 * engine; the filled PDF is read back with pdf-lib, so a value counts only when the form holds it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFCheckBox, PDFDocument, PDFDropdown, PDFOptionList, PDFRadioGroup, PDFTextField, type PDFField } from 'pdf-lib';
import { readAcroFields } from '../../functions/edits/acroform.ts';
import type { FormField } from '../../functions/edits/schema.ts';
import { fillPdf, findFields } from '../../functions/edits/task.ts';
import { localFormFiller } from '../../functions/models/local/form-values.ts';
import { CORPUS_DIR } from './corpus.ts';

const TRUTH_DIR = new URL('../corpus-truth/form/', import.meta.url).pathname;

export const INSTRUCTION_STYLES = ['lines', 'sentences', 'prose'] as const;
export type InstructionStyle = (typeof INSTRUCTION_STYLES)[number];

export interface FormTruth {
  path: string;
  language: string;
  notes: string;
  /** AcroForm field name → text (or acceptable spellings), `true` for a ticked box, the option of a radio group or list. */
  values: Record<string, string | string[] | boolean>;
  labels: Record<string, string>;
  instructions: Record<InstructionStyle, string>;
}

export function formTruths(): FormTruth[] {
  if (!existsSync(TRUTH_DIR)) return [];
  return readdirSync(TRUTH_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(TRUTH_DIR, f), 'utf8')) as FormTruth);
}

/** Case, spaces and trailing punctuation do not count. */
const norm = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').replace(/[\s.,;:]+$/, '').trim();

function matches(got: string | boolean | undefined, want: string | string[] | boolean): boolean {
  if (got === undefined) return false;
  if (typeof want === 'boolean') return got === want;
  if (typeof got === 'boolean') return false;
  return (Array.isArray(want) ? want : [want]).some((w) => norm(w) === norm(got));
}

/** What a field holds: its text, whether it is ticked, the chosen option(s); undefined when empty. */
function stateOf(field: PDFField): string | boolean | undefined {
  try {
    if (field instanceof PDFTextField) return field.getText() || undefined;
    if (field instanceof PDFCheckBox) return field.isChecked();
    if (field instanceof PDFRadioGroup) return field.getSelected() ?? undefined;
    if (field instanceof PDFDropdown || field instanceof PDFOptionList) return field.getSelected().join(', ') || undefined;
  } catch {
    return undefined;
  }
  return undefined;
}

function states(pdf: PDFDocument): Map<string, { value: string | boolean | undefined; readOnly: boolean }> {
  const out = new Map<string, { value: string | boolean | undefined; readOnly: boolean }>();
  let fields: PDFField[] = [];
  try {
    fields = pdf.getForm().getFields();
  } catch {
    return out;
  }
  for (const f of fields) out.set(f.getName(), { value: stateOf(f), readOnly: f.isReadOnly() });
  return out;
}

export interface FormResult {
  path: string;
  style: InstructionStyle;
  intended: number;
  right: number;
  /** Fields whose value the fill changed (a box ticked or cleared, a text written). */
  writes: number;
  rightWrites: number;
  /** Writes to fields the truth does not list. */
  unintended: string[];
  readOnlyWrites: string[];
  missed: Array<{ field: string; want: unknown; got: unknown }>;
  wrong: Array<{ field: string; got: unknown }>;
}

const load = (bytes: Uint8Array) => PDFDocument.load(bytes, { updateMetadata: false });
const deadline = () => Date.now() + 300_000;

/** Fills a corpus form from one style of its instructions and compares the filled PDF with the truth. */
export async function evaluateForm(truth: FormTruth, style: InstructionStyle): Promise<FormResult> {
  const bytes = new Uint8Array(readFileSync(join(CORPUS_DIR, truth.path)));
  const before = states(await load(bytes));
  const pdf = await load(bytes);
  const fields = await findFields(pdf, bytes, deadline());
  const { filled } = await fillPdf(pdf, bytes, fields, { filler: localFormFiller, instructions: truth.instructions[style], color: '#0000ff' });
  const after = states(await load(filled));
  const result: FormResult = { path: truth.path, style, intended: 0, right: 0, writes: 0, rightWrites: 0, unintended: [], readOnlyWrites: [], missed: [], wrong: [] };
  for (const [name, want] of Object.entries(truth.values)) {
    result.intended++;
    const got = after.get(name)?.value;
    if (matches(got, want)) result.right++;
    else result.missed.push({ field: name, want, got });
  }
  for (const [name, state] of after) {
    const old = before.get(name)?.value;
    if ((state.value ?? false) === (old ?? false)) continue;
    result.writes++;
    if (state.readOnly) result.readOnlyWrites.push(name);
    const want = truth.values[name];
    if (want === undefined) {
      result.unintended.push(name);
      result.wrong.push({ field: name, got: state.value });
    } else if (matches(state.value, want)) result.rightWrites++;
    else result.wrong.push({ field: name, got: state.value });
  }
  return result;
}

export interface FlatResult {
  path: string;
  style: InstructionStyle;
  intended: number;
  placed: number;
  writes: number;
  missed: Array<{ field: string; want: unknown }>;
}

const inside = (b: FormField['bbox'], r: FormField['bbox'], slack: number) => {
  const x = b.left + b.width / 2;
  const y = b.top + b.height / 2;
  return b.page === r.page && x >= r.left - slack && x <= r.left + r.width + slack && y >= r.top - slack && y <= r.top + r.height + slack;
};

/**
 * The same form flattened (pdf-lib `flatten()`: no AcroForm left, the widgets' appearances printed on
 * the page) and filled: a value is placed when a detected field holding it sits in its widget.
 */
export async function evaluateFlatForm(truth: FormTruth, style: InstructionStyle): Promise<FlatResult> {
  const original = await load(new Uint8Array(readFileSync(join(CORPUS_DIR, truth.path))));
  const widgets = readAcroFields(original);
  const form = original.getForm();
  form.flatten();
  const bytes = await original.save();
  const pdf = await load(bytes);
  const fields = await findFields(pdf, bytes, deadline());
  const { formData } = await fillPdf(pdf, bytes, fields, { filler: localFormFiller, instructions: truth.instructions[style], color: '#0000ff' });
  const written = formData.filter((f) => f.value !== null && f.value !== 'false');
  const result: FlatResult = { path: truth.path, style, intended: 0, placed: 0, writes: written.length, missed: [] };
  for (const [name, want] of Object.entries(truth.values)) {
    result.intended++;
    // The widget the value belongs in: the field's, or for a radio group the chosen option's.
    const widget = widgets.find((w) => w.field.key === name) ?? widgets.find((w) => w.group?.name === name && w.field.key === `${name}.${String(want)}`);
    const placed =
      widget !== undefined &&
      written.some((f) => inside(f.bbox, widget.field.bbox, 0.005) && (typeof want === 'boolean' || widget.group ? f.value === 'true' : matches(f.value ?? undefined, want)));
    if (placed) result.placed++;
    else result.missed.push({ field: name, want });
  }
  return result;
}
