/** A parse on the dashboard: started from the new-run form; its run page draws the words and tables it read. */
import { bodyFromForm, type RunPages } from '../dashboard/run-pages.ts';
import { parseLayout } from './layout.ts';
import { CreateParseBody } from './schema.ts';
import { prepareParse } from './service.ts';

export const parsePages: RunPages = {
  start: (p, scope, form) => prepareParse(p, scope, bodyFromForm(CreateParseBody, { document: form.document, background: true })),
  drawn: async (p, scope, run) => ({ layout: await parseLayout(p, scope, String(run.id)) }),
};
