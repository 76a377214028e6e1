/** A split on the dashboard: started from the new-run form, its subdocuments one per line. */
import { bodyFromForm, namedLines, type RunPages } from '../dashboard/run-pages.ts';
import { CreateSplitBody } from './schema.ts';
import { prepareSplit } from './service.ts';

export const splitPages: RunPages = {
  start: (p, scope, form) => prepareSplit(p, scope, bodyFromForm(CreateSplitBody, { document: form.document, background: true, subdocuments: namedLines(form.names ?? '') })),
};
