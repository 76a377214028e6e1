/** Handlers of the tables and workflows pages. */
import { dashboard, environmentOf, page, scopeOf } from '../http.ts';
import { tablesOf, workflowsOf } from '../workspace.ts';
import { tablesView, workflowsView } from '../views/workspace.ts';

export const tablesPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  return page(tablesView(req, { env, tables: await tablesOf(req.platform, scopeOf(req, env)) }));
});

export const workflowsPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  return page(workflowsView(req, { env, ...(await workflowsOf(req.platform, scopeOf(req, env))) }));
});
