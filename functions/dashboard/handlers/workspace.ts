/** Handlers of the tables page (with a table's validation by rules) and the workflows page. */
import { Invalid } from '../../platform/errors.ts';
import { dashboard, environmentOf, page, scopeOf } from '../http.ts';
import { tablesOf, validateByForm, workflowsOf } from '../workspace.ts';
import { tablesView, workflowsView } from '../views/workspace.ts';

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

export const workflowsPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  return page(workflowsView(req, { env, ...(await workflowsOf(req.platform, scopeOf(req, env))) }));
});
