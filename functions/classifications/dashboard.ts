/** A classification on the dashboard: started from the new-run form, its categories one per line. */
import { bodyFromForm, namedLines, type RunPages } from '../dashboard/run-pages.ts';
import { CreateClassificationBody } from './schema.ts';
import { prepareClassification } from './service.ts';

export const classificationPages: RunPages = {
  start: (p, scope, form) =>
    prepareClassification(p, scope, bodyFromForm(CreateClassificationBody, { document: form.document, background: true, categories: namedLines(form.names ?? '') })),
};
