import type { RunKind } from '../runs/kinds.ts';
import type { EditOutput } from './schema.ts';

export const EMPTY_EDIT_OUTPUT: EditOutput = { form_data: [], filled_document: { filename: '', url: '' } };

export const editKind: RunKind = { name: 'edit', type: 'edit', idPrefix: 'edt', resource: 'Edit', emptyOutput: EMPTY_EDIT_OUTPUT };

/**
 * Field detection for a template created without `form_fields`: a short internal run, so the PDF
 * engines (pdf-lib, pdf.js, OCR) run in the task Lambda and never in the API Lambda. Its records are
 * deleted as soon as the template has its fields; no route lists them.
 */
export const fieldDetectionKind: RunKind = {
  name: 'edit_field_detection',
  type: 'edit_field_detection',
  idPrefix: 'efd',
  resource: 'Field detection',
  emptyOutput: [],
};
