/** Handlers of the webhooks page: the endpoint, its signing secret, test events, deliveries. */
import { Invalid } from '../../platform/errors.ts';
import { dashboard, environmentOf, page, scopeOf, type MemberRequest, type Reply } from '../http.ts';
import { canManageWebhooks, saveEndpoint, webhookAction, webhookState } from '../webhooks.ts';
import { webhooksView } from '../views/webhooks.ts';

async function webhooksPageOf(req: MemberRequest, extra: { secret?: string; notice?: string; error?: string } = {}, status = 200): Promise<Reply> {
  const env = environmentOf(req);
  const state = await webhookState(req.platform, scopeOf(req, env));
  return page(webhooksView(req, { env, ...state, canManage: canManageWebhooks(req.member.membership, env), ...extra }), status);
}

export const webhooksPage = dashboard({ auth: 'member' }, async (req) => webhooksPageOf(req));

export const saveEndpointPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  const events = (req.form.get('events') ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  try {
    const saved = await saveEndpoint(req.platform, req.member.membership, env, scopeOf(req, env), { url: (req.form.get('url') ?? '').trim(), events, enabled: req.form.get('enabled') === '1' });
    return webhooksPageOf(req, saved.signing_secret ? { secret: saved.signing_secret, notice: 'Endpoint created. Its signing secret (reveal it again here when needed):' } : { notice: 'Endpoint saved.' });
  } catch (error) {
    if (error instanceof Invalid) return webhooksPageOf(req, { error: `Not saved: ${error.issues.map((i) => i.msg).join('; ')}` }, 422);
    throw error;
  }
});

export const webhookActionPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  const done = await webhookAction(req.platform, req.member.membership, env, scopeOf(req, env), req.form.get('action') ?? '', req.form.get('delivery_id') ?? '');
  return webhooksPageOf(req, done);
});
