/**
 * The workflow's `edit` block: fills the PDF reaching it (or the template its config names) with the
 * config's instructions, else with whatever flows into the block (e.g. an extraction's output). The
 * filled PDF flows on as a File; the block's output keeps the fields, not the PDF's bytes.
 */
import type { DocumentBlock } from '../feature.ts';
import type { FileRef } from '../platform/schemas.ts';
import { CreateEditBody } from './schema.ts';
import { prepareEdit } from './service.ts';

/** Text for a block that takes instructions from what flows into it (an edit after an extract). */
const asInstructions = (input: unknown) => (typeof input === 'string' ? input : JSON.stringify(input ?? {}));

export const editBlock: DocumentBlock = {
  schema: CreateEditBody,
  prepare: prepareEdit,
  usesTemplate: (config) => typeof config.template_id === 'string',
  body: (config, input) => ({
    ...config,
    instructions: typeof config.instructions === 'string' ? config.instructions : asInstructions(input),
    config: config.color ? { color: config.color } : undefined,
    color: undefined,
  }),
  result: (result, document) => {
    const filled = result.fields?.filled_document_ref as FileRef | undefined;
    const { form_data } = result.output as { form_data: unknown };
    return { output: { form_data, filled_document_ref: filled ?? null }, document: filled ?? document };
  },
};
