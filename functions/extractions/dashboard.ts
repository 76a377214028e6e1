/**
 * An extraction on the dashboard: started from the new-run form with the JSON Schema typed in it;
 * its run page draws every located value's box.
 *
 * Prepared by ./prepare.ts, the API's own preparation less the ajv compile of the JSON Schema: ajv
 * would take the dashboard Lambda over the 1 MB its code may weigh (test/lib/cloud/stack.test.ts).
 * The form's JSON and the schema's shape are checked here (a 422 on the page); a schema ajv refuses
 * fails the run at its start, and the run page says why.
 */
import { bodyFromForm, schemaOfForm, sourcedValues, type RunPages } from '../dashboard/run-pages.ts';
import { prepareExtractionRun } from './prepare.ts';
import { CreateExtractionBody } from './schema.ts';
import { extractionSources } from './sources.ts';

export const extractionPages: RunPages = {
  start: (p, scope, form) =>
    prepareExtractionRun(p, scope, bodyFromForm(CreateExtractionBody, { document: form.document, background: true, json_schema: schemaOfForm(form.jsonSchema) })),
  drawn: async (p, scope, run) => ({ values: sourcedValues((await extractionSources(p, scope, String(run.id))).sources) }),
};
