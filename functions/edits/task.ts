/**
 * The edit task (API §8.1): find the form's fields (or take the template's), let the model decide
 * what goes in each, then write the values — as AcroForm values where the form has them, and drawn
 * in the edit's colour in every case — and store the filled PDF as a File.
 *
 * Also the field-detection task behind templates created without `form_fields` (API §8.2).
 */
import { EncryptedPDFError, PDFDocument, StandardFonts } from 'pdf-lib';
import { ReadFailure, type Doc } from '../documents/doc.ts';
import { readDocument } from '../documents/read.ts';
import { fileRefOf, recordPageCount, storeBytes } from '../files/service.ts';
import { formFillerFor } from '../models/engines.ts';
import type { FormFiller } from '../models/engine.ts';
import { creditsFor } from '../models/registry.ts';
import { RunFailure } from '../platform/errors.ts';
import { DEFAULT_DPI } from '../runs/document.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import { readAcroFields, setAcroValues } from './acroform.ts';
import { asPdf } from './convert.ts';
import { drawValues } from './draw.ts';
import { acroFormFields, detectedFields, type FormFieldWithOptions } from './fields.ts';
import { editKind, fieldDetectionKind } from './kind.ts';
import type { EditInput, FieldDetectionInput } from './service.ts';
import type { EditOutput, FormField } from './schema.ts';

async function loadInput(ctx: RunContext, input: { blobKey: string; kind: FieldDetectionInput['kind'] }): Promise<{ bytes: Uint8Array; pdf: PDFDocument }> {
  const stored = await ctx.platform.blobs.get(input.blobKey);
  if (!stored) throw new RunFailure('document_invalid', 'The stored document is missing');
  const bytes = await asPdf(stored, input.kind, ctx.deadline);
  try {
    return { bytes, pdf: await PDFDocument.load(bytes, { updateMetadata: false }) };
  } catch (error) {
    if (error instanceof EncryptedPDFError) throw new RunFailure('document_unsupported', 'The PDF is encrypted: forms can only be filled in unencrypted PDFs');
    throw new RunFailure('document_invalid', 'The PDF cannot be opened: it is damaged or not a PDF');
  }
}

async function readPages(bytes: Uint8Array, deadline: number): Promise<Doc> {
  try {
    return await readDocument(bytes, { kind: 'pdf', dpi: DEFAULT_DPI, deadline, forms: true });
  } catch (error) {
    if (error instanceof ReadFailure) throw new RunFailure(error.code, error.message);
    throw error;
  }
}

/** The form's fields: the AcroForm's, or (without one) those found on its pages. */
export async function findFields(pdf: PDFDocument, bytes: Uint8Array, deadline: number): Promise<FormFieldWithOptions[]> {
  if (readAcroFields(pdf).length > 0) return acroFormFields(pdf, await readPages(bytes, deadline));
  return detectedFields(await readPages(bytes, deadline));
}

/** Template fields, with the dropdown choices the PDF's AcroForm lists for them and whether it locks them. */
function withOptions(pdf: PDFDocument, fields: FormField[]): FormFieldWithOptions[] {
  const acro = new Map(readAcroFields(pdf).map((f) => [f.field.key, f] as const));
  return fields.map((f) => {
    const known = acro.get(f.key);
    const { options, readOnly, maxLength, comb } = known ?? {};
    return { ...f, ...(options ? { options } : {}), ...(readOnly ? { readOnly } : {}), ...(maxLength !== undefined ? { maxLength } : {}), ...(comb ? { comb } : {}) };
  });
}

function filledName(filename: string): string {
  const base = filename.replace(/\.[^./\\]+$/, '') || 'document';
  return `${base}_filled.pdf`;
}

/**
 * What an edit does once the form's fields are known: the filler decides each field's value, the
 * values are set in the AcroForm and drawn on the pages. Returns the fields with their values and the
 * filled PDF (the form itself when nothing was written). Also what the form benchmark runs.
 */
export async function fillPdf(
  pdf: PDFDocument,
  bytes: Uint8Array,
  fields: FormFieldWithOptions[],
  how: { filler: FormFiller; instructions: string; color: string },
): Promise<{ formData: FormField[]; filled: Uint8Array }> {
  // Read-only fields are never offered a value.
  const writable = fields.flatMap((f, i) => (f.readOnly ? [] : [i]));
  const { values } = await how.filler.fill({
    fields: writable.map((i) => {
      const { key, type, description, options, maxLength, comb, bbox, block } = fields[i]!;
      return { key, type, description, ...(options ? { options } : {}), ...(maxLength !== undefined ? { maxLength } : {}), ...(comb ? { comb } : {}), ...(block ? { block } : {}), box: bbox };
    }),
    instructions: how.instructions,
  });
  const valueOf = new Map(writable.map((fieldIndex, k) => [fieldIndex, values[k] ?? null]));
  const formData: FormField[] = fields.map(({ key, type, description, bbox, maxLength, comb }, i) => {
    let value = valueOf.get(i) ?? null;
    if (value !== null && comb) value = value.replace(/\s+/g, '');
    // A value longer than the field holds is never cut: the field stays empty and says why.
    if (value !== null && maxLength !== undefined && value.length > maxLength) {
      return { key, type, description: `${description} (not filled: "${value}" is longer than the ${maxLength} characters the field holds)`, bbox, value: null };
    }
    return { key, type, description, bbox, value };
  });
  if (!formData.some((f) => f.value !== null)) return { formData, filled: bytes };
  setAcroValues(pdf, formData, await pdf.embedFont(StandardFonts.Helvetica));
  await drawValues(pdf, formData, how.color);
  return { formData, filled: await pdf.save() };
}

export const editTask: RunTask = {
  kind: editKind,
  async execute(ctx: RunContext) {
    const { record } = ctx;
    const input = record._input as EditInput;
    const { bytes, pdf } = await loadInput(ctx, input);
    const fields = input.fields ? withOptions(pdf, input.fields) : await findFields(pdf, bytes, ctx.deadline);
    const { formData, filled } = await fillPdf(pdf, bytes, fields, {
      filler: await formFillerFor(record.model as string),
      instructions: (record.instructions as string | null) ?? '',
      color: (record.config as { color: string }).color,
    });
    const filename = filledName(input.filename);
    const pages = pdf.getPageCount();
    // The form's File, sent inline, gets the pages read (./service.ts prepareEdit); the filled PDF has the same.
    if (input.countPagesOf) await recordPageCount(ctx.platform, ctx.scope, input.countPagesOf, pages);
    const file = await storeBytes(ctx.platform, ctx.scope, filled, filename, 'application/pdf', ['output'], { pageCount: pages });
    const output: EditOutput = {
      form_data: formData,
      filled_document: { filename, url: `data:application/pdf;base64,${Buffer.from(filled).toString('base64')}` },
    };
    return {
      output,
      usage: { credits: creditsFor(record.model as string, pages), page_count: pages },
      fields: { filled_document_ref: fileRefOf(file) },
    };
  },
};

export const fieldDetectionTask: RunTask = {
  kind: fieldDetectionKind,
  async execute(ctx: RunContext) {
    const input = ctx.record._input as FieldDetectionInput;
    const { bytes, pdf } = await loadInput(ctx, input);
    const fields: FormField[] = (await findFields(pdf, bytes, ctx.deadline)).map(({ key, type, description, bbox }) => ({ key, type, description, bbox, value: null }));
    return { output: fields, usage: { credits: 0, page_count: pdf.getPageCount() } };
  },
};
