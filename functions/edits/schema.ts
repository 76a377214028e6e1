/** Wire types of edits and edit templates (API §8). */
import * as z from 'zod';
import { ModelName } from '../models/schema.ts';
import { DocumentInput, FileRef, ListQueryParams, PrimitiveError, RunStatus, Usage } from '../platform/schemas.ts';
import { ListRunsQuery } from '../runs/schema.ts';

/** Instructions are stored in the run record, which must stay far below DynamoDB's 400 KB item limit. */
export const MAX_INSTRUCTIONS_CHARS = 100_000;

export const FieldBox = z.object({
  left: z.number().min(0).max(1),
  top: z.number().min(0).max(1),
  width: z.number().min(0).max(1),
  height: z.number().min(0).max(1),
  page: z.number().int().min(1),
});
export type FieldBox = z.infer<typeof FieldBox>;

export const FormField = z
  .object({
    key: z.string().min(1).max(500),
    type: z.enum(['text', 'checkbox']),
    description: z.string().max(5_000),
    bbox: FieldBox,
    value: z.string().nullable(),
  })
  .meta({ id: 'FormField' });
export type FormField = z.infer<typeof FormField>;

/** Template fields as given by a client: `value` may be omitted (it is never used as input). */
export const TemplateFieldInput = FormField.extend({ value: z.string().nullable().default(null), description: z.string().max(5_000).default('') });

function uniqueKeys(fields: Array<{ key: string }>, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  fields.forEach((field, i) => {
    if (seen.has(field.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `form field keys must be unique: "${field.key}" appears more than once` });
    seen.add(field.key);
  });
}
const TemplateFields = z.array(TemplateFieldInput).max(2_000, 'at most 2000 form fields').superRefine(uniqueKeys);

export const EditConfig = z.object({
  color: z
    .string()
    .regex(/^#[0-9A-Fa-f]{6}$/, 'color must be a hex colour #RRGGBB, e.g. #000080')
    .default('#000080'),
});

export const CreateEditBody = z
  .object({
    instructions: z.string().max(MAX_INSTRUCTIONS_CHARS, `instructions must be at most ${MAX_INSTRUCTIONS_CHARS} characters`),
    document: DocumentInput.optional(),
    template_id: z.string().optional(),
    model: ModelName,
    config: EditConfig.default({ color: '#000080' }),
    bust_cache: z.boolean().default(false),
    background: z.boolean().default(false),
  })
  .superRefine((body, ctx) => {
    const given = (body.document !== undefined ? 1 : 0) + (body.template_id !== undefined ? 1 : 0);
    if (given !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: given === 0 ? ['document'] : ['template_id'],
        message: given === 0 ? 'Give exactly one of document and template_id (neither was given)' : 'Give exactly one of document and template_id, not both',
      });
    }
  });
export type CreateEditBody = z.infer<typeof CreateEditBody>;

export const ListEditsQuery = ListRunsQuery.extend({ template_id: z.string().optional() });

export const EditOutput = z.object({
  form_data: z.array(FormField),
  filled_document: z.object({ filename: z.string(), url: z.string() }),
});
export type EditOutput = z.infer<typeof EditOutput>;

export const Edit = z
  .object({
    id: z.string(),
    file: FileRef,
    model: z.string(),
    config: z.object({ color: z.string() }),
    instructions: z.string().nullable(),
    template_id: z.string().nullable(),
    output: EditOutput,
    status: RunStatus,
    error: PrimitiveError.nullable(),
    filled_document_ref: FileRef.nullable(),
    usage: Usage,
    created_at: z.string(),
  })
  .meta({ id: 'Edit' });

export const CreateTemplateBody = z.object({
  name: z.string().min(1, 'name must not be empty').max(200),
  document: DocumentInput,
  form_fields: TemplateFields.optional(),
});
export type CreateTemplateBody = z.infer<typeof CreateTemplateBody>;

export const PatchTemplateBody = z.object({
  name: z.string().min(1, 'name must not be empty').max(200).optional(),
  form_fields: TemplateFields.optional(),
});
export type PatchTemplateBody = z.infer<typeof PatchTemplateBody>;

export const ListTemplatesQuery = ListQueryParams.omit({ filename: true }).extend({
  name: z.string().optional().describe('Case-insensitive substring of the template name'),
});

export const EditTemplate = z
  .object({
    id: z.string(),
    name: z.string(),
    file: FileRef,
    form_fields: z.array(FormField).optional(),
    field_count: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'EditTemplate' });
export type EditTemplate = z.infer<typeof EditTemplate>;
