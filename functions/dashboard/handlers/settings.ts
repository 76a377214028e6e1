/** Handlers of the secrets page (set, rotate, delete; never shown back) and the usage page. */
import { Invalid } from '../../platform/errors.ts';
import { dashboard, environmentOf, page, redirect, scopeOf, type MemberRequest, type Reply } from '../http.ts';
import { canManageSecrets, removeSecret, secretsOf, setSecret, usageByDay } from '../settings.ts';
import { withEnv } from '../views/layout.ts';
import { secretsView, usageView } from '../views/settings.ts';

async function secretsPageOf(req: MemberRequest, extra: { notice?: string; error?: string } = {}, status = 200): Promise<Reply> {
  const env = environmentOf(req);
  const secrets = await secretsOf(req.platform, scopeOf(req, env));
  return page(secretsView(req, { env, secrets, canManage: canManageSecrets(req.member.membership, env), ...extra }), status);
}

export const secretsPage = dashboard({ auth: 'member' }, async (req) => secretsPageOf(req));

export const setSecretPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  try {
    const secret = await setSecret(req.platform, req.member.membership, env, scopeOf(req, env), { name: req.form.get('name') ?? '', value: req.form.get('value') ?? '' });
    return secretsPageOf(req, { notice: `Secret ${secret.name} set.` });
  } catch (error) {
    if (error instanceof Invalid) return secretsPageOf(req, { error: `Not set: ${error.issues.map((i) => `${i.loc.slice(1).join('.')}: ${i.msg}`).join('; ')}` }, 422);
    throw error;
  }
});

export const deleteSecretPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  await removeSecret(req.platform, req.member.membership, env, scopeOf(req, env), req.form.get('name') ?? '');
  return redirect(withEnv('/dashboard/secrets', env));
});

export const usagePage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const [test, production] = await Promise.all([usageByDay(req.platform, scopeOf(req, 'test'), 30), usageByDay(req.platform, scopeOf(req, 'production'), 30)]);
  return page(usageView(req, { env, days: { test: test!, production: production! } }));
});
