/** Handlers of the tables page (with a table's validation by rules), the workflows page and a workflow run's page. */
import { Invalid } from '../../platform/errors.ts';
import { dashboard, environmentOf, jsonReply, page, scopeOf } from '../http.ts';
import { tableCsv, tablesOf, validateByForm, workflowRunOf, workflowsOf } from '../workspace.ts';
import { tablesView, workflowRunView, workflowsView } from '../views/workspace.ts';

export const tablesPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  return page(tablesView(req, { env, tables: await tablesOf(req.platform, scopeOf(req, env)) }));
});

/** Validation reads the table and changes nothing: every member may validate. */
export const validateTablePost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  const scope = scopeOf(req, env);
  const tableId = req.form.get('table_id') ?? '';
  const rules = req.form.get('rules') ?? '';
  try {
    const report = await validateByForm(req.platform, scope, tableId, rules);
    return page(tablesView(req, { env, tables: await tablesOf(req.platform, scope), validation: { tableId, rules, report } }));
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    const message = error.issues.map((i) => `${i.loc.slice(1).join('.') || 'rules'}: ${i.msg}`).join('; ');
    return page(tablesView(req, { env, tables: await tablesOf(req.platform, scope), validation: { tableId, rules, error: `Not validated: ${message}` } }), 422);
  }
});

/** Every row of a table: its CSV snapshot (a large one redirects to the stored object, as the API does). */
export const tableDownload = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  return tableCsv(req.platform, scopeOf(req, env), req.query.get('table_id') ?? '');
});

export const workflowsPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  return page(workflowsView(req, { env, ...(await workflowsOf(req.platform, scopeOf(req, env))) }));
});

export const workflowRunPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const found = await workflowRunOf(req.platform, scopeOf(req, env), req.query.get('id') ?? '');
  // The page's own status poll (app.js) asks for JSON.
  if (/application\/json/.test(req.event.headers?.accept ?? '')) return jsonReply({ id: found.run.id, status: found.run.lifecycle.status });
  return page(workflowRunView(req, env, found));
});
