/**
 * Edits (API §8.1) and edit templates (API §8.2).
 *
 * An edit is a run: its document (or its template's PDF and fields) is resolved here and the work
 * happens in its task (./task.ts), where pdf-lib and the readers live. A template created without
 * `form_fields` has them detected by a short internal run of the same task Lambda, so the API
 * Lambda never carries a PDF engine.
 */
import { createHash } from 'node:crypto';
import { kindOfMime, type DocumentKind } from '../documents/sniff.ts';
import { fileRefOf, pagesToCount, resolveDocument } from '../files/service.ts';
import { AppError, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { listEnvelopeOf, toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { DocumentInput, FileRef } from '../platform/schemas.ts';
import type { DocumentRunInput } from '../runs/prepare.ts';
import { createRun, deleteRun, readCompletedRun, type CreateRunInput } from '../runs/service.ts';
import { fieldDetectionKind } from './kind.ts';
import type { CreateEditBody, CreateTemplateBody, EditTemplate, FormField, PatchTemplateBody } from './schema.ts';
import { libreOffice } from './soffice.ts';

export const TEMPLATE_TYPE = 'edit_template';

/** What the edit task finds in `record._input`. */
export interface EditInput extends DocumentRunInput {
  filename: string;
  /** The template's fields (no re-detection), or null to find them in the document. */
  fields: FormField[] | null;
}

export interface FieldDetectionInput {
  blobKey: string;
  kind: DocumentKind;
  filename: string;
}

/** A stored template: the wire fields plus where its PDF is. */
interface TemplateData extends EditTemplate {
  form_fields: FormField[];
  _blob_key: string;
  _kind: DocumentKind;
}

const FORM_KINDS: DocumentKind[] = ['pdf', 'docx', 'xlsx', 'png', 'jpeg'];

/** A document an edit can fill: a PDF (or a scan of one), or DOCX/XLSX where LibreOffice converts them. */
async function resolveForm(p: Platform, scope: Scope, document: DocumentInput) {
  const resolved = await resolveDocument(p, scope, document, ['body', 'document']);
  const kind = kindOfMime(resolved.file.mime_type)!;
  if (!FORM_KINDS.includes(kind)) {
    throw Invalid.at(['body', 'document'], `A ${kind.toUpperCase()} file is not a form: send a PDF (or a PNG/JPEG scan; DOCX and XLSX are converted where LibreOffice is installed)`, 'document_unsupported');
  }
  if ((kind === 'docx' || kind === 'xlsx') && !libreOffice()) {
    throw Invalid.at(
      ['body', 'document'],
      `${kind.toUpperCase()} forms are converted to PDF with LibreOffice, which is not installed on this server; send the form as a PDF`,
      'document_unsupported',
    );
  }
  return { ...resolved, kind };
}

export async function prepareEdit(p: Platform, scope: Scope, body: CreateEditBody): Promise<CreateRunInput> {
  let file: FileRef;
  let input: Omit<EditInput, 'seed'>;
  if (body.template_id !== undefined) {
    const template = await readTemplate(p, scope, body.template_id).catch((error: unknown) => {
      if (error instanceof NotFound) throw Invalid.at(['body', 'template_id'], `Template ${body.template_id} not found`, 'not_found', body.template_id);
      throw error;
    });
    file = template.file;
    input = { blobKey: template._blob_key, kind: template._kind, filename: template.file.filename, fields: template.form_fields };
  } else {
    const resolved = await resolveForm(p, scope, body.document!);
    file = fileRefOf(resolved.file);
    // A PDF's pages are counted when the task opens it (a DOCX or XLSX form is converted: its pages are not what an upload counts).
    const countPages = resolved.kind === 'pdf' && pagesToCount(resolved.file);
    input = { blobKey: resolved.blobKey, kind: resolved.kind, filename: resolved.file.filename, fields: null, ...(countPages ? { countPagesOf: resolved.file.id } : {}) };
  }
  const options = { config: body.config, instructions: body.instructions, template_id: body.template_id ?? null };
  // The template's fields are part of what decides the answer: a patched template is a new request.
  const identity = createHash('sha256')
    .update(JSON.stringify(['edit', input.blobKey, input.kind, input.fields, options, body.model]))
    .digest('hex');
  const attrs: Record<string, string> = body.template_id !== undefined ? { template_id: body.template_id } : {};
  return {
    fields: { file, model: body.model, ...options, filled_document_ref: null },
    input: { ...input, seed: identity } satisfies EditInput,
    filename: file.filename,
    attrs,
    background: body.background,
    usage: { credits: 0, page_count: 0 },
    cacheKey: body.bust_cache ? undefined : identity,
  };
}

// ---- templates ----

class DetectionPending extends AppError {
  readonly status = 409;
  body() {
    return { detail: 'Detecting the form fields took longer than this request may wait; give form_fields, or retry' };
  }
}

function renderTemplate(data: TemplateData, withFields = true): EditTemplate {
  const { id, name, file, form_fields, field_count, created_at, updated_at } = data;
  return withFields ? { id, name, file, form_fields, field_count, created_at, updated_at } : { id, name, file, field_count, created_at, updated_at };
}

async function readTemplate(p: Platform, scope: Scope, id: string): Promise<TemplateData> {
  const record = await p.store.getRecord<TemplateData>(scope, TEMPLATE_TYPE, id);
  if (!record) throw NotFound.of('Template', id);
  return record.data;
}

/** Detects the fields of a stored form in the task Lambda (a short internal run) and waits for them. */
async function detectFields(p: Platform, scope: Scope, input: FieldDetectionInput): Promise<FormField[]> {
  const run = await createRun(p, scope, fieldDetectionKind, { fields: {}, input, background: false });
  const id = run.id as string;
  try {
    if (run.status !== 'completed') {
      const error = run.error as { message?: string } | null;
      if (run.status === 'failed') throw Invalid.at(['body', 'document'], error?.message ?? 'The form cannot be read', 'document_invalid');
      throw new DetectionPending('pending');
    }
    const { stored } = await readCompletedRun(p, scope, fieldDetectionKind, id, () => 'not completed');
    return stored.output as FormField[];
  } finally {
    await deleteRun(p, scope, fieldDetectionKind, id).catch(() => undefined);
  }
}

export async function createTemplate(p: Platform, scope: Scope, body: CreateTemplateBody): Promise<EditTemplate> {
  const form = await resolveForm(p, scope, body.document);
  const formFields = body.form_fields ?? (await detectFields(p, scope, { blobKey: form.blobKey, kind: form.kind, filename: form.file.filename }));
  const now = timestamp(p.clock.now());
  const data: TemplateData = {
    id: p.ids.next('etpl'),
    name: body.name,
    file: fileRefOf(form.file),
    form_fields: formFields.map((f) => ({ ...f, value: null })),
    field_count: formFields.length,
    created_at: now,
    updated_at: now,
    _blob_key: form.blobKey,
    _kind: form.kind,
  };
  // The name is kept where lists filter on it (case-insensitive).
  await p.store.putRecord(scope, { type: TEMPLATE_TYPE, id: data.id, createdAt: now, filename: body.name, data });
  return renderTemplate(data);
}

export async function getTemplate(p: Platform, scope: Scope, id: string): Promise<EditTemplate> {
  return renderTemplate(await readTemplate(p, scope, id));
}

export async function updateTemplate(p: Platform, scope: Scope, id: string, body: PatchTemplateBody): Promise<EditTemplate> {
  await readTemplate(p, scope, id);
  const patch: Partial<TemplateData> = { updated_at: timestamp(p.clock.now()) };
  if (body.name !== undefined) patch.name = body.name;
  if (body.form_fields !== undefined) {
    patch.form_fields = body.form_fields.map((f) => ({ ...f, value: null }));
    patch.field_count = body.form_fields.length;
  }
  const updated = await p.store.updateRecord<TemplateData>(scope, TEMPLATE_TYPE, id, patch, body.name !== undefined ? { filename: body.name } : undefined);
  if (!updated) throw NotFound.of('Template', id);
  return renderTemplate(updated.data);
}

export async function deleteTemplate(p: Platform, scope: Scope, id: string): Promise<void> {
  await readTemplate(p, scope, id);
  await p.store.deleteRecord(scope, TEMPLATE_TYPE, id);
}

export async function listTemplates(
  p: Platform,
  scope: Scope,
  query: { limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined; from_date?: string | undefined; to_date?: string | undefined; name?: string | undefined },
) {
  const listQuery = toListQuery(query);
  if (query.name !== undefined && query.name !== '') listQuery.filenameContains = query.name;
  const page = await p.store.listRecords<TemplateData>(scope, TEMPLATE_TYPE, listQuery);
  return listEnvelopeOf(page, (data) => renderTemplate(data, false));
}
