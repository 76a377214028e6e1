/** Handlers of the runs: the list, one run's page (and its status poll), cancel and delete, the file it draws, new runs. */
import { Forbidden, Invalid } from '../../platform/errors.ts';
import { startRun } from '../create.ts';
import { dashboard, environmentOf, jsonReply, page, redirect, scopeOf, type MemberRequest } from '../http.ts';
import { changeRun, listAllRuns, previewBytes, runView } from '../runs.ts';
import { withEnv } from '../views/layout.ts';
import { newRunView } from '../views/new-run.ts';
import { runPageView, runsView } from '../views/runs.ts';

export const runsPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const filter = {
    kind: req.query.get('kind') || undefined,
    status: req.query.get('status') || undefined,
    search: req.query.get('q')?.trim() || undefined,
    before: req.query.get('before') || undefined,
    limit: 50,
  };
  const { rows, next } = await listAllRuns(req.platform, scopeOf(req, env), filter);
  return page(runsView(req, { env, filter, rows, next }));
});

export const runPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const view = await runView(req.platform, scopeOf(req, env), req.query.get('kind'), req.query.get('id') ?? '');
  // The page's own status poll (app.js) asks for JSON.
  if (/application\/json/.test(req.event.headers?.accept ?? '')) return jsonReply({ id: view.run.id, status: view.run.status, progress: view.run.progress ?? null });
  return page(runPageView(req, env, view));
});

export const changeRunPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  const kind = req.form.get('kind');
  const id = req.form.get('id') ?? '';
  const action = req.form.get('action') ?? '';
  await changeRun(req.platform, req.member.membership, scopeOf(req, env), { kind, id, action });
  return redirect(action === 'delete' ? withEnv('/dashboard/runs', env) : withEnv('/dashboard/run', env, { kind: kind ?? '', id }));
});

export const file = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const { file: found, bytes } = await previewBytes(req.platform, scopeOf(req, env), req.query.get('id') ?? '');
  return {
    status: 200,
    body: Buffer.from(bytes),
    contentType: found.mime_type,
    // User content on the dashboard's origin: never rendered as a page of its own, never sniffed.
    headers: { 'content-disposition': 'attachment', 'content-security-policy': "default-src 'none'; sandbox", 'cache-control': 'private, max-age=300' },
  };
});

const canRun = (req: MemberRequest) => req.member.membership.role !== 'viewer';

export const newRunPage = dashboard({ auth: 'member' }, async (req) => {
  if (!canRun(req)) throw new Forbidden('A viewer cannot start runs');
  return page(newRunView(req, { env: environmentOf(req), kind: req.query.get('kind') ?? undefined }));
});

export const newRunPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  if (!canRun(req)) throw new Forbidden('A viewer cannot start runs');
  const upload = req.files.file;
  const form = { kind: req.form.get('kind') ?? '', names: req.form.get('names') ?? undefined, jsonSchema: req.form.get('json_schema') ?? undefined };
  try {
    const started = await startRun(req.platform, scopeOf(req, env), { ...form, filename: upload?.filename ?? '', mimeType: upload?.contentType ?? '', bytes: upload?.bytes ?? Buffer.alloc(0) });
    return redirect(withEnv('/dashboard/run', env, { kind: started.kind, id: started.id }));
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    const message = error.issues.map((i) => `${i.loc.slice(1).join('.') || 'form'}: ${i.msg}`).join('; ');
    return page(newRunView(req, { env, ...form, error: `Not started: ${message}` }), 422);
  }
});
